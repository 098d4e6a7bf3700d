// Control flow of the compiled block function (block_function_builder.h): the lanes of the
// current block go on where they branch, or queue there when lanes wait at an earlier
// block; parking at barriers and yields; lanes' exits.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/block_function_builder.h"

namespace cucpu::jit::block_function {

// --- control flow ----------------------------------------------------------------------

void BlockFunctionBuilder::add_pending(uint32_t target, llvm::Value* mask) {
  const uint32_t queue = queue_slot_[target];
  if (queue == kNone) {
    fail(fmt::format("internal: lanes queued at block {}, which no varying branch leads to", target));
    return;
  }
  llvm::Value* slot = b_.CreateConstGEP2_32(pend_->getAllocatedType(), pend_, 0, queue);
  b_.CreateStore(b_.CreateOr(b_.CreateLoad(i32(), slot), mask), slot);
  llvm::Value* lowest = b_.CreateLoad(i32(), min_pending_);
  b_.CreateStore(b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, lowest, c32(queue)), min_pending_);
}

// The current block's lanes `mask` go on at `target`: at once, unless lanes wait at an
// earlier block.
void BlockFunctionBuilder::go_to(uint32_t target, llvm::Value* mask) {
  if (!candidate_[target]) {
    b_.CreateStore(mask, cur_mask_);
    b_.CreateBr(block_bb_[target]);
    return;
  }
  llvm::BasicBlock* now = new_block("goto.now");
  llvm::BasicBlock* queue = new_block("goto.queue");
  llvm::Value* lowest = b_.CreateLoad(i32(), min_pending_);
  b_.CreateCondBr(b_.CreateICmpULT(c32(queue_slot_[target]), lowest), now, queue);
  b_.SetInsertPoint(now);
  b_.CreateStore(mask, cur_mask_);
  b_.CreateBr(block_bb_[target]);
  b_.SetInsertPoint(queue);
  add_pending(target, mask);
  b_.CreateBr(dispatch_bb_);
}

// A varying branch: when both sides have lanes, the later one queues and the earlier one
// goes on at once, unless lanes wait before it (go_to): the lowest waiting block runs first.
void BlockFunctionBuilder::split(uint32_t taken, llvm::Value* taken_mask, uint32_t other, llvm::Value* other_mask) {
  llvm::BasicBlock* only_taken = new_block("split.taken");
  llvm::BasicBlock* not_only_taken = new_block("split.not_taken");
  llvm::BasicBlock* only_other = new_block("split.other");
  llvm::BasicBlock* both = new_block("split.both");
  b_.CreateCondBr(b_.CreateICmpEQ(other_mask, c32(0)), only_taken, not_only_taken);
  b_.SetInsertPoint(only_taken);
  go_to(taken, taken_mask);
  b_.SetInsertPoint(not_only_taken);
  b_.CreateCondBr(b_.CreateICmpEQ(taken_mask, c32(0)), only_other, both);
  b_.SetInsertPoint(only_other);
  go_to(other, other_mask);
  b_.SetInsertPoint(both);
  if (queue_slot_[taken] == kNone || queue_slot_[other] == kNone) {  // not a varying branch's sides
    add_pending(taken, taken_mask);
    add_pending(other, other_mask);
    b_.CreateBr(dispatch_bb_);
    return;
  }
  const bool taken_first = queue_slot_[taken] < queue_slot_[other];
  add_pending(taken_first ? other : taken, taken_first ? other_mask : taken_mask);
  go_to(taken_first ? taken : other, taken_first ? taken_mask : other_mask);
}

// At a spin loop's back-edge to `target`: once the run's budget is spent, the lanes taking
// it (`taken_mask`) park to go on next round and `others_after_yield` handles the rest;
// otherwise `otherwise` branches as usual.
void BlockFunctionBuilder::emit_yield_check(uint32_t target, llvm::Value* taken_mask,
                                            const std::function<void()>& otherwise,
                                            const std::function<void()>& others_after_yield) {
  llvm::Value* left = b_.CreateSub(b_.CreateLoad(i32(), yield_budget_), c32(1));
  b_.CreateStore(left, yield_budget_);
  llvm::BasicBlock* yield = new_block("yield");
  llvm::BasicBlock* no_yield = new_block("no.yield");
  b_.CreateCondBr(b_.CreateICmpEQ(left, c32(0)), yield, no_yield,
                  llvm::MDBuilder(fl_.ctx).createBranchWeights(1, kSpinsBetweenYields));
  b_.SetInsertPoint(yield);
  b_.CreateStore(c32(kSpinsBetweenYields), yield_budget_);
  llvm::BasicBlock* park = new_block("yield.park");
  llvm::BasicBlock* rest = new_block("yield.rest");
  b_.CreateCondBr(b_.CreateICmpNE(taken_mask, c32(0)), park, rest);
  b_.SetInsertPoint(park);
  add_park(yield_point_[target], taken_mask, ParkKind::Yield);
  b_.CreateBr(rest);
  b_.SetInsertPoint(rest);
  others_after_yield();
  b_.SetInsertPoint(no_yield);
  otherwise();
}

void BlockFunctionBuilder::exit_lanes(llvm::Value* mask) {
  llvm::Value* state = warp_state();
  llvm::Value* live = load32(state, offsetof(CompiledWarp, live));
  store32(b_.CreateAnd(live, b_.CreateNot(mask)), state, offsetof(CompiledWarp, live));
}

void BlockFunctionBuilder::unsupported(const std::string& what) {
  llvm::Type* params[] = {fl_.ptr_type(), i32(), fl_.ptr_type()};
  llvm::Value* text = b_.CreateGlobalStringPtr(what, "unsupported");
  b_.CreateCall(runtime(kCompiledUnsupported, b_.getVoidTy(), params), {frame_, warp_index(), text});
  b_.CreateUnreachable();
}

void BlockFunctionBuilder::emit_block(uint32_t b) {
  b_.SetInsertPoint(block_bb_[b]);
  emitting_block_ = b;
  const CfgBlock& block = a_.cfg.blocks[b];
  const ptx::Instruction* last = a_.cfg.last_instruction(kernel_, b);
  // The instruction that ends the block is emit_block_end's, but a trap (or a body's last
  // instruction, falling off the end) that ends it runs as any other.
  bool skip_last = block.how != BlockEnd::FallThrough && block.how != BlockEnd::Exit;
  if (block.how == BlockEnd::Exit && last != nullptr)
    skip_last = last->opcode == ptx::Opcode::Ret || last->opcode == ptx::Opcode::Exit;
  // Outside every region between a varying branch and its join, where lanes never part
  // for good (nor at a collective: collectives_name_whole_warps), the block runs with every
  // live lane of the warp: instructions that write varying registers need not keep other
  // lanes' values.
  converged_ = !inside_[b] && lanes_wait_only_at_blocks_;
  emitting_ = true;
  for (uint32_t i = block.first; i < block.end; ++i) {
    if (kernel_.body[i].kind != ptx::Statement::Kind::Instruction) continue;
    if (skip_last && &kernel_.body[i].instruction == last) break;
    emit_instruction(i);
    if (fl_.failed()) break;
  }
  // The block's end too: a collective that ends it writes its results to the same lanes.
  if (!fl_.failed()) emit_block_end(b);
  converged_ = false;
  emitting_ = false;
}

void BlockFunctionBuilder::emit_block_end(uint32_t b) {
  const CfgBlock& block = a_.cfg.blocks[b];
  const ptx::Instruction* last = a_.cfg.last_instruction(kernel_, b);
  if (b_.GetInsertBlock()->getTerminator() != nullptr) return;  // ended inside (trap)
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  const bool yields = last != nullptr && yield_branches_.count(last) != 0;
  switch (block.how) {
    case BlockEnd::FallThrough:
    case BlockEnd::Branch:
      if (yields) {
        emit_yield_check(
            block.successors[0], mask, [&] { go_to(block.successors[0], mask); },
            [&] { b_.CreateBr(dispatch_bb_); });
        return;
      }
      // The end of an if-then's block: the lanes that skipped it join these.
      if (join_carry_[b] != nullptr) mask = b_.CreateOr(mask, b_.CreateLoad(i32(), join_carry_[b]));
      go_to(block.successors[0], mask);
      return;
    case BlockEnd::Exit:
      exit_lanes(mask);
      b_.CreateBr(dispatch_bb_);
      return;
    case BlockEnd::CondBranch:
    case BlockEnd::CondExit: {
      fl_.current = last;
      ptx::Operand guard;
      guard.reg = last->guard->reg;
      guard.negated = last->guard->negated;
      const bool exits = block.how == BlockEnd::CondExit;
      const uint32_t taken = exits ? kNone : block.successors[0];
      const uint32_t other = exits ? block.successors[0] : block.successors.size() > 1 ? block.successors[1]
                                                                                         : block.successors[0];
      if (a_.shape[guard.reg] == Shape::Uniform) {
        llvm::BasicBlock* yes = new_block("branch.taken");
        llvm::BasicBlock* no = new_block("branch.not_taken");
        b_.CreateCondBr(uniform_read(guard, ptx::Type::Pred), yes, no);
        b_.SetInsertPoint(yes);
        if (exits) {
          exit_lanes(mask);
          b_.CreateBr(rest_idle_[b] ? skip_rest_of_round() : dispatch_bb_);
        } else if (yields) {
          emit_yield_check(
              taken, mask, [&] { go_to(taken, mask); }, [&] { b_.CreateBr(dispatch_bb_); });
        } else {
          go_to(taken, mask);
        }
        b_.SetInsertPoint(no);
        go_to(other, mask);
        return;
      }
      llvm::Value* bits = mask_bits(vector_read(guard, ptx::Type::Pred));
      llvm::Value* taken_mask = b_.CreateAnd(mask, bits);
      llvm::Value* other_mask = b_.CreateAnd(mask, b_.CreateNot(bits));
      if (yields && !exits && taken != other) {
        emit_yield_check(
            taken, taken_mask, [&] { split(taken, taken_mask, other, other_mask); },
            [&] {
              llvm::BasicBlock* go_on = new_block("yield.others");
              b_.CreateCondBr(b_.CreateICmpEQ(other_mask, c32(0)), dispatch_bb_, go_on);
              b_.SetInsertPoint(go_on);
              go_to(other, other_mask);
            });
        return;
      }
      if (exits) {
        exit_lanes(taken_mask);
        llvm::BasicBlock* go_on = new_block("exit.others");
        b_.CreateCondBr(b_.CreateICmpEQ(other_mask, c32(0)), rest_idle_[b] ? skip_rest_of_round() : dispatch_bb_,
                        go_on);
        b_.SetInsertPoint(go_on);
        go_to(other, other_mask);
        return;
      }
      if (taken == other) {
        go_to(taken, mask);
        return;
      }
      if (if_then_[b] != kNone) {
        enter_if_then(b, taken, taken_mask, other_mask, mask);
        return;
      }
      split(taken, taken_mask, other, other_mask);
      return;
    }
    case BlockEnd::Switch: {
      fl_.current = last;
      const ptx::Operand& index = last->operands[0];
      if (!per_lane_operand(index, a_.shape, shape_)) {
        // One index for all lanes: a jump table, as in the scalar translation.
        llvm::BasicBlock* bad = new_block("brx.out_of_range");
        llvm::SwitchInst* jump = b_.CreateSwitch(uniform_read(index, ptx::Type::U32), bad);
        for (uint32_t t = 0; t < block.successors.size(); ++t) {
          llvm::BasicBlock* to = new_block("brx.case");
          jump->addCase(b_.getInt32(t), to);
          b_.SetInsertPoint(to);
          go_to(block.successors[t], mask);
        }
        b_.SetInsertPoint(bad);
        b_.CreateCall(runtime(kTrap, b_.getVoidTy(), {fl_.ptr_type()}), {block_context_});
        b_.CreateUnreachable();
        return;
      }
      llvm::Value* lanes = vector_read(index, ptx::Type::U32);
      llvm::Value* unclaimed = mask;
      std::vector<std::pair<uint32_t, llvm::Value*>> targets;
      for (uint32_t t = 0; t < block.successors.size(); ++t) {
        llvm::Value* hits = mask_bits(b_.CreateICmpEQ(lanes, b_.CreateVectorSplat(kLanes, c32(t))));
        llvm::Value* part = b_.CreateAnd(mask, hits);
        unclaimed = b_.CreateAnd(unclaimed, b_.CreateNot(hits));
        targets.emplace_back(block.successors[t], part);
      }
      llvm::BasicBlock* bad = new_block("brx.out_of_range");
      llvm::BasicBlock* good = new_block("brx.in_range");
      b_.CreateCondBr(b_.CreateICmpNE(unclaimed, c32(0)), bad, good);
      b_.SetInsertPoint(bad);
      // An index past the table ends the thread like trap (as the scalar lowering does).
      b_.CreateCall(runtime(kTrap, b_.getVoidTy(), {fl_.ptr_type()}), {block_context_});
      b_.CreateUnreachable();
      b_.SetInsertPoint(good);
      for (auto& [target, part] : targets) {
        llvm::BasicBlock* next = new_block("brx.next");
        llvm::BasicBlock* queue = new_block("brx.queue");
        b_.CreateCondBr(b_.CreateICmpNE(part, c32(0)), queue, next);
        b_.SetInsertPoint(queue);
        add_pending(target, part);
        b_.CreateBr(next);
        b_.SetInsertPoint(next);
      }
      b_.CreateBr(dispatch_bb_);
      return;
    }
    case BlockEnd::Park:
      fl_.current = last;
      if (is_barrier(*last)) {
        emit_park(b, *last);
      } else {
        emit_collective(b, *last);
      }
      return;
  }
}

// bar.sync / bar.red / barrier.sync a{, b}: the lanes wait for the round's end (their
// registers stay in the warp's file).
void BlockFunctionBuilder::emit_park(uint32_t b, const ptx::Instruction& inst) {
  const bool reduction = inst.q.barrier == ptx::BarrierMode::Red;
  const size_t first = reduction ? 1 : 0;
  const size_t operand_end = reduction ? inst.operands.size() - 1 : inst.operands.size();
  if (inst.operands.size() <= first) {
    fail("a barrier without its barrier number");
    return;
  }
  for (size_t i = first; i < operand_end; ++i) {
    const ptx::Operand& op = inst.operands[i];
    if (op.kind == ptx::Operand::Kind::Register && a_.shape[op.reg] != Shape::Uniform) {
      unsupported(fmt::format("a barrier whose number or thread count differs between lanes (line {})", inst.pos.line));
      return;
    }
  }
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  llvm::Value* id = uniform_read(inst.operands[first], ptx::Type::U32);
  llvm::Value* count = operand_end - first == 2 ? uniform_read(inst.operands[first + 1], ptx::Type::U32) : c32(0);
  llvm::Value* predicates = reduction ? b_.CreateAnd(mask, mask_bits(vector_read(inst.operands.back(), ptx::Type::Pred)))
                                      : c32(0);
  const uint32_t point = park_point_[b];
  if (uniform_rounds_) {
    park_in_uniform_round(point, mask, false);
    return;
  }
  // A plain __syncthreads (bar.sync 0, no count) in a direct round (emit_direct_rounds):
  // when every live lane of the warp is here, and it is the barrier the warps before it in
  // the round parked at, on to the next warp with no record.
  if (is_plain_barrier(inst)) {
    llvm::Value* live = load32(warp_state(), offsetof(CompiledWarp, live));
    llvm::Value* target = b_.CreateLoad(i32(), direct_target_);
    llvm::Value* direct = b_.CreateAnd(
        b_.CreateAnd(b_.CreateICmpNE(b_.CreateLoad(i32(), direct_), c32(0)), b_.CreateICmpEQ(mask, live)),
        b_.CreateOr(b_.CreateICmpEQ(target, c32(kNone)), b_.CreateICmpEQ(target, c32(point))));
    llvm::BasicBlock* on = new_block("park.direct");
    llvm::BasicBlock* recorded = new_block("park.recorded");
    b_.CreateCondBr(direct, on, recorded);
    b_.SetInsertPoint(on);
    spill_at_park(point, mask);
    b_.CreateStore(c32(point), direct_target_);
    on_to_next_warp(direct_warp_bb_);
    b_.SetInsertPoint(recorded);
  }
  add_park(point, mask, reduction ? ParkKind::Reduce : ParkKind::Sync, id, count, predicates);
  b_.CreateBr(dispatch_bb_);
}

// A park in uniform rounds: every live lane of the warp is here (a barrier outside divergent
// code), and every warp meets this barrier after the one the round started at
// (find_uniform_rounds). On to the next warp, or with `rest_idle` (rest_of_round_idle) past
// the last one.
void BlockFunctionBuilder::park_in_uniform_round(uint32_t point, llvm::Value* mask, bool rest_idle) {
  llvm::Value* target = b_.CreateLoad(i32(), direct_target_);
  llvm::BasicBlock* on = new_block("park.direct");
  llvm::BasicBlock* uneven = new_block("park.uneven");
  b_.CreateCondBr(b_.CreateOr(b_.CreateICmpEQ(target, c32(kNone)), b_.CreateICmpEQ(target, c32(point))), on, uneven);
  b_.SetInsertPoint(on);
  spill_at_park(point, mask);
  b_.CreateStore(c32(point), direct_target_);
  if (rest_idle) {
    b_.CreateBr(skip_rest_of_round());
  } else {
    on_to_next_warp(direct_warp_bb_);
  }
  b_.SetInsertPoint(uneven);
  unsupported("warps of one block at different barriers in a kernel whose barriers all threads meet alike "
              "(internal error)");
}

// A block that ends the round's warp loop: the warps after this one are idle
// (rest_of_round_idle).
llvm::BasicBlock* BlockFunctionBuilder::skip_rest_of_round() {
  llvm::IRBuilderBase::InsertPointGuard keep(b_);
  llvm::BasicBlock* skip = new_block("round.rest_idle");
  b_.SetInsertPoint(skip);
  b_.CreateStore(c32(warp_count_), warp_index_);
  b_.CreateBr(direct_warp_bb_);
  return skip;
}

bool is_plain_barrier(const ptx::Instruction& inst) {
  return is_barrier(inst) && inst.q.barrier != ptx::BarrierMode::Red && inst.operands.size() == 1 &&
         inst.operands[0].kind == ptx::Operand::Kind::Immediate && inst.operands[0].imm == 0;
}

void BlockFunctionBuilder::add_park(uint32_t point, llvm::Value* mask, ParkKind kind, llvm::Value* barrier,
                                    llvm::Value* count, llvm::Value* predicates) {
  spill_at_park(point, mask);
  llvm::Value* state = warp_state();
  llvm::Value* parks = load32(state, offsetof(CompiledWarp, park_count));
  store32(b_.CreateAdd(parks, c32(1)), state, offsetof(CompiledWarp, park_count));
  llvm::Value* entry = b_.CreateGEP(
      b_.getInt8Ty(), state,
      b_.CreateAdd(b_.getInt64(offsetof(CompiledWarp, parks)),
                   b_.CreateMul(b_.CreateZExt(parks, b_.getInt64Ty()), b_.getInt64(sizeof(CompiledPark)))));
  store32(c32(point), entry, offsetof(CompiledPark, point));
  store32(mask, entry, offsetof(CompiledPark, mask));
  store32(barrier != nullptr ? barrier : c32(0), entry, offsetof(CompiledPark, barrier));
  store32(count != nullptr ? count : c32(0), entry, offsetof(CompiledPark, thread_count));
  store32(c32(static_cast<uint32_t>(kind)), entry, offsetof(CompiledPark, kind));
  store32(predicates != nullptr ? predicates : c32(0), entry, offsetof(CompiledPark, predicates));
}

// What a collective instruction names: its kind, operation and operands.

}  // namespace cucpu::jit::block_function
