// translate_block_function: one kernel, for one block shape, as one function that runs the
// whole block (kernel_abi.h CompiledBlockFrame), with the warp's lanes in lockstep.
//
// The function is a loop of rounds. A round runs every warp that has lanes ready (a "run":
// lanes and the resume point where they go on) until those lanes have parked at a barrier
// or exited; at its end, a barrier every warp reached with all its lanes releases them all
// at once (checked here), anything else goes to the executor (__cucpu_compiled_settle).
// The common round, every warp from one __syncthreads to the next with all its lanes, is
// a direct one, which keeps no records of runs and parks (emit_direct_rounds).
//
// Within a run, the warp is one SIMT program over the kernel's blocks (kernel_cfg.h):
// `cur_mask` holds the lanes executing the current block. A branch whose lanes part ways
// queues one side (pend[rank] |= lanes) and goes on with the other; whenever the current
// lanes are done or reach a block later than a queued one, the lowest queued block runs
// next (dispatch). That is lockstep execution with reconvergence at post-dominators.
//
// Registers (warp_analysis.h): a uniform register is one scalar per warp, computed by the
// scalar lowering of the instruction (lower_*.cpp) once; a varying register is a vector of
// 32 lanes, and an instruction writing one runs the scalar lowering once per active lane
// (copying that lane's operands in and results out), so every instruction completes for
// all lanes before the next begins. Each warp's registers live in its slice of a register
// file (CompiledBlockFrame::registers), which the function gets as a noalias pointer:
// LLVM keeps them in machine registers where it can (no kernel memory access can touch
// them), a warp's registers outlast its parking at barriers, and no value spans the whole
// function, which keeps big kernels quick to compile.
//
// The builder's other parts: block_function_builder.h.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/block_entry.h"
#include "jit/block_function_builder.h"
#include "support/log.h"

namespace cucpu::jit {
namespace block_function {

llvm::Value* BlockFunctionBuilder::warp_state() {
  llvm::Value* offset = b_.CreateMul(b_.CreateZExt(warp_index(), b_.getInt64Ty()), b_.getInt64(kWarpStride));
  return b_.CreateGEP(b_.getInt8Ty(), warps_, offset);
}

// Blocks times registers beyond which the registers stay in the register file: the
// benchmarks' kernels are under 8,000 (their block functions compile in about 1 s);
// isa_convert's test kernel, at 580,000, took more than 400 s as variables.
constexpr uint64_t kRunLocalBudget = 20000;

// Each register the kernel uses is a variable of the function, shared by every warp, which
// LLVM keeps in machine registers (run_local_). One that is live at a resume point also has
// a slot in each warp's file (one scalar for a uniform register, 32 lanes for a varying one,
// 32 bits for a varying predicate): lanes that park store it there (spill_at_park) and the
// run that resumes them loads it back (emit_stubs). LLVM turns the variables into SSA
// values, with a phi wherever control flow merges, and the warp's SIMT scheduling merges it
// nearly everywhere: the cost grows with blocks times variables, so a kernel over the
// budget keeps every register in the file only, read and written there.
void BlockFunctionBuilder::lay_out_registers() {
  RegisterSet used(a_.register_count);
  for (const StatementAccess& s : access_.statements) {
    for (uint32_t r : s.reads) used.set(r);
    for (uint32_t r : s.writes) used.set(r);
  }
  RegisterSet resumed(a_.register_count);  // live at some resume point
  for (size_t p = 1; p < points_.size(); ++p) resumed.merge(a_.live_in[points_[p].block]);
  run_local_.assign(a_.register_count, 0);
  uint64_t variables = 0, spilled = 0, strided = 0, half_strided = 0;
  used.for_each([&](uint32_t r) {
    run_local_[r] = 1;
    ++variables;
    spilled += resumed.test(r);
    strided += a_.lane_stride[r] != kNoLaneStride;
    half_strided += a_.half_stride[r] != kNoLaneStride;
  });
  const uint64_t blocks = a_.live_in.size();
  const bool over_budget = blocks * variables > kRunLocalBudget;
  if (over_budget) run_local_.assign(a_.register_count, 0);
  // In uniform rounds, a register the same in every thread of the block stays out of the
  // warps' files: the round's warps share one copy (round_entry_, round_exit_).
  kept_for_block_.assign(a_.register_count, 0);
  uint64_t kept = 0;
  if (uniform_rounds_) {
    resumed.for_each([&](uint32_t r) {
      if (!run_local_[r] || !a_.block_uniform[r] || a_.shape[r] != Shape::Uniform) return;
      kept_for_block_[r] = 1;
      ++kept;
    });
  }
  log::debug(log::Category::Jit,
             "kernel {}: {} blocks, {} registers, {} of them live at resume points, {} with a lane stride, {} with a "
             "half-warp stride{}{}",
             kernel_.name, blocks, variables, spilled, strided, half_strided,
             over_budget ? " (over budget: in the register file)" : "",
             uniform_rounds_ ? fmt::format("; uniform rounds, {} registers kept once per block", kept) : "");
  reg_offset_.assign(a_.register_count, kNone);
  uint64_t at = 0;
  for (int pass = 0; pass < 2; ++pass) {  // vectors first, then the scalars packed after them
    used.for_each([&](uint32_t r) {
      if ((run_local_[r] && !resumed.test(r)) || kept_for_block_[r]) return;
      const bool varying = per_lane(a_.shape[r]);
      if (varying != (pass == 0)) return;
      const unsigned width = register_width(r);
      const uint64_t bytes = varying ? (width == 1 ? 4 : kLanes * width / 8) : std::max(1u, width / 8);
      at = align_up(at, varying ? 64 : bytes);
      reg_offset_[r] = static_cast<uint32_t>(at);
      at += bytes;
    });
  }
  register_stride_ = static_cast<uint32_t>(align_up(std::max<uint64_t>(at, 64), 64));
}

// The alignment of a register's slot in the file (lay_out_registers).
llvm::Align BlockFunctionBuilder::file_alignment(uint32_t r) {
  if (!per_lane(a_.shape[r])) return llvm::Align(std::max(1u, register_width(r) / 8));
  return llvm::Align(register_width(r) == 1 ? 4 : 64);
}

// Which registers a run may have written since it began, at the end of each block (a
// forward "may" analysis over the run's paths). A run begins at a resume stub, which loads
// the registers live there from the warp's file (the entry's stub zeroes them all instead;
// a barrier's or collective's stub writes its destinations), and it ends where its lanes
// park at a barrier: a barrier's edge to its resume point is no path of one run. Lanes may
// go on past a collective in the same run (all of them met there). A register live at a
// park point that no path from a stub to the park writes is still, in every lane, what
// the stub loaded from the file (liveness: it was live at that stub too), so the park need
// not store it again: a barrier loop's thread index and addresses stay where they are.
void BlockFunctionBuilder::find_written_since_resume() {
  const KernelCfg& cfg = a_.cfg;
  const auto blocks = static_cast<uint32_t>(cfg.blocks.size());
  const RegisterSet none(a_.register_count);
  RegisterSet everything(a_.register_count);
  for (uint32_t r = 0; r < a_.register_count; ++r) everything.set(r);
  auto writes_of = [&](uint32_t statement) {
    RegisterSet set(a_.register_count);
    for (uint32_t r : access_.at(statement).writes) set.set(r);
    return set;
  };
  std::vector<RegisterSet> at_start(blocks, none);  // what the stubs into each block write
  at_start[points_[0].block] = everything;
  std::vector<RegisterSet> writes(blocks, none);
  for (uint32_t b = 0; b < blocks; ++b) {
    const CfgBlock& block = cfg.blocks[b];
    uint32_t last = kNone;  // the block's last instruction: a park block's park instruction
    for (uint32_t i = block.first; i < block.end; ++i) {
      if (kernel_.body[i].kind != ptx::Statement::Kind::Instruction) continue;
      writes[b].merge(writes_of(i));
      last = i;
    }
    if (park_point_[b] != kNone && last != kNone)
      at_start[block.successors[0]].merge(writes_of(last));  // its stub writes its destinations
  }
  written_by_end_.assign(blocks, none);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b : cfg.order) {
      RegisterSet written = at_start[b];
      for (uint32_t p : cfg.blocks[b].predecessors) {
        const ptx::Instruction* last = cfg.last_instruction(kernel_, p);
        const bool run_ends = cfg.blocks[p].how == BlockEnd::Park && last != nullptr && is_barrier(*last);
        if (!run_ends) written.merge(written_by_end_[p]);
      }
      written.merge(writes[b]);
      changed |= written_by_end_[b].merge(written);
    }
  }
}

// Lanes that park at `point` (`mask`) leave the registers live there in their warp's file,
// their own lanes of them only: the warp's other lanes may be parked elsewhere, with theirs.
// Registers the run has not written since it loaded them are there already.
void BlockFunctionBuilder::spill_at_park(uint32_t point, llvm::Value* mask) {
  a_.live_in[points_[point].block].for_each([&](uint32_t r) {
    if (rematerialized_[r]) return;  // made again where the lanes resume
    if (kept_for_block_[r]) {
      b_.CreateStore(b_.CreateLoad(reg_local_[r]->getAllocatedType(), reg_local_[r]), round_exit_[r]);
      return;
    }
    if (reg_local_[r] == nullptr || reg_offset_[r] == kNone) return;
    if (!written_by_end_[emitting_block_].test(r)) return;
    llvm::Value* file = file_slot(r);
    if (!per_lane(a_.shape[r])) {
      b_.CreateAlignedStore(b_.CreateLoad(reg_local_[r]->getAllocatedType(), reg_local_[r]), file, file_alignment(r));
    } else if (register_width(r) == 1) {
      llvm::Value* kept = b_.CreateAnd(b_.CreateAlignedLoad(i32(), file, llvm::Align(4)), b_.CreateNot(mask));
      llvm::Value* mine = b_.CreateAnd(b_.CreateLoad(i32(), reg_local_[r]), mask);
      b_.CreateAlignedStore(b_.CreateOr(kept, mine), file, llvm::Align(4));
    } else {
      llvm::Type* type = lanes_of(register_type(r));
      b_.CreateMaskedStore(b_.CreateLoad(type, reg_local_[r]), file, llvm::Align(64), mask_vector(mask));
    }
  });
}

// Each thread's .local variables and the .param variables of its call sequences, in one
// frame per thread (kernel_abi.h CompiledBlockFrame::local).
// The stride is a multiple of the largest alignment a variable asks for (at least 16), and
// the frames' memory is aligned to the stride's largest power of two (CompiledBlock), so
// that every thread's variables are as aligned as their .align says.
void BlockFunctionBuilder::lay_out_lane_frames() {
  uint64_t at = 0;
  uint64_t widest = 16;
  for (const ptx::Variable& v : kernel_.locals) {
    if (v.space != ptx::StateSpace::Local && v.space != ptx::StateSpace::Param) continue;
    const uint64_t alignment = std::max<uint32_t>(v.alignment(), 1);
    widest = std::max(widest, alignment);
    at = align_up(at, alignment);
    lane_frame_offset_[v.name] = static_cast<uint32_t>(at);
    at += std::max<uint64_t>(v.size_bytes(), 1);
  }
  local_stride_ = static_cast<uint32_t>(align_up(std::max<uint64_t>(at, 16), widest));
}


// Uniform rounds: where every barrier is a plain __syncthreads that every thread of the
// block meets alike (outside branches whose threads may part: WarpAnalysis::
// barriers_block_uniform), lanes never wait inside divergent code and never yield, every
// warp goes from the round's barrier to the same next one with all its live lanes (or
// exits): each round is direct, with no record, and no check of the warp's lanes.
void BlockFunctionBuilder::find_uniform_rounds() {
  uniform_rounds_ = lanes_wait_only_at_blocks_ && yield_branches_.empty() && a_.barriers_block_uniform;
  for (size_t p = 1; p < points_.size() && uniform_rounds_; ++p)
    uniform_rounds_ = points_[p].after != nullptr && is_plain_barrier(*points_[p].after);
}

void BlockFunctionBuilder::emit_dispatch() {
  b_.SetInsertPoint(dispatch_bb_);
  llvm::BasicBlock* run = new_block("dispatch.run");
  llvm::Value* lowest = b_.CreateLoad(i32(), min_pending_);
  llvm::BasicBlock* done = new_block("warp.done");
  b_.CreateCondBr(b_.CreateICmpEQ(lowest, c32(kNone)), done, run);
  b_.SetInsertPoint(run);
  const uint32_t ranks = queue_count_;
  llvm::Value* slot = b_.CreateGEP(pend_->getAllocatedType(), pend_, {c32(0), lowest});
  llvm::Value* mask = b_.CreateLoad(i32(), slot);
  b_.CreateStore(c32(0), slot);
  b_.CreateStore(mask, cur_mask_);
  // The next queued block after it, if any.
  llvm::BasicBlock* scan = new_block("dispatch.scan");
  llvm::BasicBlock* found = new_block("dispatch.found");
  llvm::BasicBlock* before = b_.GetInsertBlock();
  llvm::Value* after_lowest = b_.CreateAdd(lowest, c32(1));
  b_.CreateBr(scan);
  b_.SetInsertPoint(scan);
  llvm::PHINode* k = b_.CreatePHI(i32(), 2);
  k->addIncoming(after_lowest, before);
  llvm::BasicBlock* check = new_block("dispatch.check");
  b_.CreateCondBr(b_.CreateICmpUGE(k, c32(ranks)), found, check);
  b_.SetInsertPoint(check);
  llvm::Value* queued = b_.CreateLoad(i32(), b_.CreateGEP(pend_->getAllocatedType(), pend_, {c32(0), k}));
  llvm::Value* next_k = b_.CreateAdd(k, c32(1));
  k->addIncoming(next_k, check);
  b_.CreateCondBr(b_.CreateICmpNE(queued, c32(0)), found, scan);
  b_.SetInsertPoint(found);
  llvm::PHINode* next = b_.CreatePHI(i32(), 2);
  next->addIncoming(c32(kNone), scan);
  next->addIncoming(k, check);
  b_.CreateStore(next, min_pending_);
  llvm::SwitchInst* jump = b_.CreateSwitch(lowest, done);
  for (uint32_t block = 0; block < a_.cfg.blocks.size(); ++block)
    if (queue_slot_[block] != kNone && block_bb_[block] != nullptr)
      jump->addCase(b_.getInt32(queue_slot_[block]), block_bb_[block]);
  // The warp is done with its run. In a direct round, either all its lanes have exited (on
  // to the next warp) or it did not simply park at the round's barrier: the round goes on
  // the general way, with the records it would have had.
  b_.SetInsertPoint(done);
  llvm::BasicBlock* direct_done = new_block("direct.done");
  llvm::BasicBlock* exited = new_block("direct.exited");
  llvm::BasicBlock* leave = new_block("direct.leave");
  if (uniform_rounds_) {
    b_.CreateBr(direct_done);  // every round is direct
  } else {
    b_.CreateCondBr(b_.CreateICmpNE(b_.CreateLoad(i32(), direct_), c32(0)), direct_done, take_run_bb_);
  }
  b_.SetInsertPoint(direct_done);
  b_.CreateCondBr(b_.CreateICmpEQ(load32(warp_state(), offsetof(CompiledWarp, live)), c32(0)), exited, leave);
  b_.SetInsertPoint(exited);
  on_to_next_warp(direct_warp_bb_);
  b_.SetInsertPoint(leave);
  if (uniform_rounds_) {
    // Lanes that are neither parked at the round's barrier nor exited: none in uniform rounds.
    unsupported("a warp left a uniform round before its barrier (internal error)");
    return;
  }
  llvm::Type* params[] = {fl_.ptr_type(), i32(), i32(), i32()};
  b_.CreateCall(runtime(kCompiledLeaveDirect, b_.getVoidTy(), params),
                {frame_, warp_index(), b_.CreateLoad(i32(), direct_start_), b_.CreateLoad(i32(), direct_target_)});
  b_.CreateStore(c32(0), direct_);
  b_.CreateBr(take_run_bb_);
}

// Where runs begin: the kernel's entry (live registers start at 0, as in the scalar
// translation) and each barrier's resume point (a bar.red's destination gets the
// completion's vote).
void BlockFunctionBuilder::emit_stubs() {
  stub_bb_.clear();
  for (uint32_t p = 0; p < points_.size(); ++p) stub_bb_.push_back(emit_stub(p));
}

llvm::BasicBlock* BlockFunctionBuilder::emit_stub(uint32_t p) {
  const uint32_t block = points_[p].block;
  const ptx::Instruction* after = points_[p].after;
  llvm::BasicBlock* stub = new_block(fmt::format("resume.{}", p));
  b_.SetInsertPoint(stub);
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  // The registers live here come back from the warp's file (spill_at_park put them there).
  if (p != 0) {
    a_.live_in[block].for_each([&](uint32_t r) {
      if (rematerialized_[r]) return;
      if (kept_for_block_[r]) {
        b_.CreateStore(b_.CreateLoad(round_entry_[r]->getAllocatedType(), round_entry_[r]), reg_local_[r]);
        return;
      }
      if (reg_local_[r] == nullptr || reg_offset_[r] == kNone) return;
      llvm::Type* type = reg_local_[r]->getAllocatedType();
      b_.CreateStore(b_.CreateAlignedLoad(type, file_slot(r), file_alignment(r)), reg_local_[r]);
    });
    rematerialize(a_.live_in[block]);
  }
  if (p == 0) {
    for (uint32_t r = 0; r < a_.register_count; ++r) {
      if (!a_.live_in[block].test(r) || (reg_offset_[r] == kNone && reg_local_[r] == nullptr)) continue;
      if (a_.shape[r] == Shape::Uniform) {
        b_.CreateStore(llvm::Constant::getNullValue(register_type(r)), slot(r));
      } else {
        store_lanes(r, llvm::Constant::getNullValue(lanes_of(register_type(r))));
      }
    }
  } else if (after != nullptr && is_barrier(*after) && after->q.barrier == ptx::BarrierMode::Red) {
    // bar.red's destination: the vote of the completion that released these lanes.
    fl_.current = after;
    llvm::Value* true_count = b_.CreateLoad(i32(), run_vote_true_);
    llvm::Value* threads = b_.CreateLoad(i32(), run_vote_threads_);
    const ptx::AtomicOp op = after->q.atomic_op;
    if (op == ptx::AtomicOp::Popc) {
      vector_write(after->operands[0], ptx::Type::U32, b_.CreateVectorSplat(kLanes, true_count), mask);
    } else {
      llvm::Value* result = op == ptx::AtomicOp::And ? b_.CreateICmpEQ(true_count, threads)
                                                     : b_.CreateICmpNE(true_count, c32(0));
      vector_write(after->operands[0], ptx::Type::Pred, b_.CreateVectorSplat(kLanes, result), mask);
    }
  } else if (after != nullptr && is_warp_collective(*after)) {
    // A collective's destinations: the results its completion left for these lanes.
    fl_.current = after;
    llvm::AllocaInst* results =
        fl_.entry_alloca(llvm::ArrayType::get(b_.getInt64Ty(), kLanes), 64, "parked.results");
    llvm::Type* params[] = {fl_.ptr_type(), i32(), i32(), fl_.ptr_type()};
    b_.CreateCall(runtime(kCompiledCollectiveResults, b_.getVoidTy(), params), {frame_, warp_index(), mask, results});
    write_collective_results(*after, b_.CreateAlignedLoad(lanes_of(b_.getInt64Ty()), results, llvm::Align(64)), mask);
  }
  b_.CreateBr(block_bb_[block]);
  return stub;
}

// The rounds, the warps within a round, and the end of a round.
void BlockFunctionBuilder::emit_round_structure() {
  // round: start with warp 0.
  b_.SetInsertPoint(round_bb_);
  b_.CreateStore(c32(0), direct_);
  b_.CreateStore(c32(0), warp_index_);
  b_.CreateBr(warp_loop_bb_);

  b_.SetInsertPoint(warp_loop_bb_);
  llvm::BasicBlock* this_warp = new_block("warp");
  b_.CreateCondBr(b_.CreateICmpULT(warp_index(), c32(warp_count_)), this_warp, round_end_bb_);
  b_.SetInsertPoint(this_warp);
  b_.CreateBr(take_run_bb_);

  // take_run: the warp's next run, or the next warp.
  b_.SetInsertPoint(take_run_bb_);
  llvm::Value* state = warp_state();
  llvm::Value* runs = load32(state, offsetof(CompiledWarp, run_count));
  llvm::BasicBlock* next_warp = new_block("warp.next");
  llvm::BasicBlock* start = new_block("run.start");
  b_.CreateCondBr(b_.CreateICmpEQ(runs, c32(0)), next_warp, start);
  b_.SetInsertPoint(start);
  llvm::Value* last = b_.CreateSub(runs, c32(1));
  store32(last, state, offsetof(CompiledWarp, run_count));
  llvm::Value* entry = b_.CreateGEP(
      b_.getInt8Ty(), state,
      b_.CreateAdd(b_.getInt64(offsetof(CompiledWarp, runs)),
                   b_.CreateMul(b_.CreateZExt(last, b_.getInt64Ty()), b_.getInt64(sizeof(CompiledRun)))));
  llvm::Value* point = load32(entry, offsetof(CompiledRun, point));
  b_.CreateStore(load32(entry, offsetof(CompiledRun, mask)), cur_mask_);
  b_.CreateStore(load32(entry, offsetof(CompiledRun, vote_true)), run_vote_true_);
  b_.CreateStore(load32(entry, offsetof(CompiledRun, vote_threads)), run_vote_threads_);
  begin_run(point);

  b_.SetInsertPoint(next_warp);
  on_to_next_warp(warp_loop_bb_);

  // round_end: if every warp with live lanes parked them all at one bar.sync 0 (no count,
  // no reduction) at the same point, they all go on there; if none has live lanes, the
  // block has ended; else ask the executor.
  b_.SetInsertPoint(round_end_bb_);
  llvm::BasicBlock* check = new_block("round.check");
  llvm::BasicBlock* checked = new_block("round.checked");
  llvm::BasicBlock* settle = new_block("round.settle");
  llvm::BasicBlock* release = new_block("round.release");
  b_.CreateBr(check);
  b_.SetInsertPoint(check);
  llvm::PHINode* w = b_.CreatePHI(i32(), 2, "w");
  llvm::PHINode* common = b_.CreatePHI(i32(), 2, "common.point");
  w->addIncoming(c32(0), round_end_bb_);
  common->addIncoming(c32(kNone), round_end_bb_);
  llvm::BasicBlock* body = new_block("round.check.warp");
  b_.CreateCondBr(b_.CreateICmpULT(w, c32(warp_count_)), body, checked);
  b_.SetInsertPoint(body);
  b_.CreateStore(w, warp_index_);
  llvm::Value* ws = warp_state();
  llvm::Value* live = load32(ws, offsetof(CompiledWarp, live));
  llvm::Value* parks = load32(ws, offsetof(CompiledWarp, park_count));
  llvm::Value* park = field(ws, offsetof(CompiledWarp, parks));
  llvm::Value* park_point = load32(park, offsetof(CompiledPark, point));
  llvm::Value* simple = b_.CreateAnd(
      b_.CreateAnd(b_.CreateICmpEQ(parks, c32(1)), b_.CreateICmpEQ(load32(park, offsetof(CompiledPark, mask)), live)),
      b_.CreateAnd(b_.CreateICmpEQ(b_.CreateOr(load32(park, offsetof(CompiledPark, barrier)),
                                               load32(park, offsetof(CompiledPark, thread_count))),
                                   c32(0)),
                   b_.CreateICmpEQ(load32(park, offsetof(CompiledPark, kind)),
                                   c32(static_cast<uint32_t>(ParkKind::Sync)))));
  simple = b_.CreateAnd(simple, b_.CreateOr(b_.CreateICmpEQ(common, c32(kNone)), b_.CreateICmpEQ(common, park_point)));
  llvm::Value* ok = b_.CreateOr(b_.CreateICmpEQ(live, c32(0)), simple);
  llvm::Value* new_common = b_.CreateSelect(b_.CreateICmpEQ(live, c32(0)), common, park_point);
  llvm::BasicBlock* next = new_block("round.check.next");
  b_.CreateCondBr(ok, next, settle);
  b_.SetInsertPoint(next);
  w->addIncoming(b_.CreateAdd(w, c32(1)), next);
  common->addIncoming(new_common, next);
  b_.CreateBr(check);

  // No common point: no warp has a live lane left, the block has ended.
  llvm::BasicBlock* ended = new_block("block.ended");
  b_.SetInsertPoint(checked);
  b_.CreateCondBr(b_.CreateICmpEQ(common, c32(kNone)), ended, release);
  b_.SetInsertPoint(ended);
  b_.CreateRetVoid();

  // Every live warp's lanes go on at the common point, in a direct round.
  b_.SetInsertPoint(release);
  llvm::BasicBlock* release_loop = new_block("release.loop");
  llvm::BasicBlock* release_warp = new_block("release.warp");
  llvm::BasicBlock* released = new_block("release.done");
  b_.CreateBr(release_loop);
  b_.SetInsertPoint(release_loop);
  llvm::PHINode* v = b_.CreatePHI(i32(), 2, "v");
  v->addIncoming(c32(0), release);
  b_.CreateCondBr(b_.CreateICmpULT(v, c32(warp_count_)), release_warp, released);
  b_.SetInsertPoint(release_warp);
  b_.CreateStore(v, warp_index_);
  store32(c32(0), warp_state(), offsetof(CompiledWarp, park_count));
  v->addIncoming(b_.CreateAdd(v, c32(1)), release_warp);
  b_.CreateBr(release_loop);
  b_.SetInsertPoint(released);
  b_.CreateStore(common, direct_start_);
  b_.CreateBr(direct_round_bb_);

  b_.SetInsertPoint(settle);
  llvm::Value* outcome = b_.CreateCall(runtime(kCompiledSettle, i32(), {fl_.ptr_type()}), {frame_});
  llvm::BasicBlock* finished = new_block("block.finished");
  b_.CreateCondBr(b_.CreateICmpEQ(outcome, c32(0)), round_bb_, finished);
  b_.SetInsertPoint(finished);
  b_.CreateRetVoid();
}

// What every run of the running warp starts with.
void BlockFunctionBuilder::start_run() {
  b_.CreateStore(c32(kNone), min_pending_);
  b_.CreateStore(c32(kSpinsBetweenYields), yield_budget_);
  store32(b_.CreateMul(warp_index(), c32(kLanes)), frame_, offsetof(CompiledBlockFrame, current_thread));
}

// A run of the running warp from resume point `point`: its lanes (cur_mask_) are set.
void BlockFunctionBuilder::begin_run(llvm::Value* point) {
  start_run();
  llvm::SwitchInst* jump = b_.CreateSwitch(point, stub_bb_[0]);
  for (uint32_t p = 1; p < stub_bb_.size(); ++p) jump->addCase(b_.getInt32(p), stub_bb_[p]);
}

// At `loop`, the round's warp loop: from warp_index_ on, the next warp with live lanes,
// whose lanes it returns with the insert point in a block of its own (`end` once there is
// none left).
llvm::Value* BlockFunctionBuilder::emit_next_live_warp(llvm::BasicBlock* loop, llvm::BasicBlock* end,
                                                       const std::string& name) {
  llvm::BasicBlock* check = new_block(name + ".live");
  llvm::BasicBlock* start = new_block(name + ".start");
  llvm::BasicBlock* next = new_block(name + ".next");
  b_.SetInsertPoint(loop);
  b_.CreateCondBr(b_.CreateICmpULT(warp_index(), c32(warp_count_)), check, end);
  b_.SetInsertPoint(check);
  llvm::Value* live = load32(warp_state(), offsetof(CompiledWarp, live));
  b_.CreateCondBr(b_.CreateICmpEQ(live, c32(0)), next, start);
  b_.SetInsertPoint(next);
  on_to_next_warp(loop);
  b_.SetInsertPoint(start);
  return live;
}

// Direct rounds: the common case of warps that go from one __syncthreads to the next with
// all their lanes, without records. Every warp with live lanes starts at direct_start_ with
// all of them; a warp whose live lanes all reach a plain __syncthreads (bar.sync 0, no
// count) goes straight on to the next warp (emit_park), and once every warp has, at the
// same one (direct_target_), they all go on there in the next direct round. A warp whose
// lanes have all exited is done too. Whatever else a warp does (some lanes park elsewhere,
// at a collective, or yield) ends its run through dispatch, which leaves direct mode
// (__cucpu_compiled_leave_direct writes the runs and parks the round would have recorded).
// A block starts with a direct round from the entry, and a round the general way that ends
// with every warp at one plain __syncthreads releases them into one.
void BlockFunctionBuilder::emit_direct_rounds() {
  b_.SetInsertPoint(direct_round_bb_);
  b_.CreateStore(c32(1), direct_);
  b_.CreateStore(c32(kNone), direct_target_);
  b_.CreateStore(c32(0), warp_index_);
  b_.CreateBr(direct_warp_bb_);

  llvm::BasicBlock* end = new_block("direct.round.end");
  llvm::Value* live = emit_next_live_warp(direct_warp_bb_, end, "direct.warp");
  b_.CreateStore(live, cur_mask_);
  b_.CreateStore(c32(0), run_vote_true_);
  b_.CreateStore(c32(0), run_vote_threads_);
  begin_run(b_.CreateLoad(i32(), direct_start_));

  // Every warp with live lanes parked them at direct_target_: on to the next round there.
  // None did (every lane had exited before the round): the block has ended.
  b_.SetInsertPoint(end);
  b_.CreateStore(end_direct_round(), direct_start_);
  b_.CreateBr(direct_round_bb_);
}

// At the end of a direct round: the block has ended if no warp parked (every lane had
// exited), else the barrier they parked at (returned; the next round starts from what this
// one left in the registers kept for the block).
llvm::Value* BlockFunctionBuilder::end_direct_round() {
  llvm::Value* target = b_.CreateLoad(i32(), direct_target_);
  llvm::BasicBlock* again = new_block("direct.round.next");
  llvm::BasicBlock* ended = new_block("direct.block.ended");
  b_.CreateCondBr(b_.CreateICmpEQ(target, c32(kNone)), ended, again);
  b_.SetInsertPoint(ended);
  b_.CreateRetVoid();
  b_.SetInsertPoint(again);
  for (uint32_t r = 0; r < a_.register_count; ++r)
    if (kept_for_block_[r])
      b_.CreateStore(b_.CreateLoad(round_exit_[r]->getAllocatedType(), round_exit_[r]), round_entry_[r]);
  return target;
}

// The blocks a round that starts at each resume point may run: those reachable from it
// without passing a park. Empty when copying them per start would cost more than
// kRegionCopyBudget times the kernel's blocks.
constexpr uint64_t kRegionCopyBudget = 4;

std::vector<RegisterSet> BlockFunctionBuilder::find_regions() {
  const KernelCfg& cfg = a_.cfg;
  const auto blocks = static_cast<uint32_t>(cfg.blocks.size());
  std::vector<RegisterSet> regions(points_.size(), RegisterSet(blocks));
  uint64_t copied = 0, reachable = 0;
  for (uint32_t b = 0; b < blocks; ++b) reachable += cfg.blocks[b].reachable;
  for (size_t p = 0; p < points_.size(); ++p) {
    std::vector<uint32_t> work{points_[p].block};
    regions[p].set(points_[p].block);
    while (!work.empty()) {
      const uint32_t b = work.back();
      work.pop_back();
      ++copied;
      if (park_point_[b] != kNone) continue;
      for (uint32_t s : cfg.blocks[b].successors) {
        if (regions[p].test(s)) continue;
        regions[p].set(s);
        work.push_back(s);
      }
    }
  }
  const bool within = copied <= kRegionCopyBudget * reachable;
  log::debug(log::Category::Jit, "kernel {}: {} rounds' blocks, {} blocks in all{}", kernel_.name, copied, reachable,
             within ? ": one copy per round's start" : ": over budget, one copy");
  if (!within) return {};
  return regions;
}

// Uniform rounds with the blocks copied per round's start (find_regions): each start has a
// loop over the warps of its own, whose barriers know statically where the next warp
// starts, so that LLVM sees one small loop per round instead of one state machine.
void BlockFunctionBuilder::emit_region_rounds(const std::vector<RegisterSet>& regions) {
  const auto count = static_cast<uint32_t>(points_.size());
  std::vector<llvm::BasicBlock*> round(count);
  round[0] = direct_round_bb_;  // where the entry goes
  for (uint32_t p = 1; p < count; ++p) round[p] = new_block(fmt::format("round.{}", p));
  for (uint32_t p = 0; p < count; ++p) {
    llvm::BasicBlock* loop = new_block(fmt::format("round.{}.warp", p));
    llvm::BasicBlock* end = new_block(fmt::format("round.{}.end", p));
    b_.SetInsertPoint(round[p]);
    b_.CreateStore(c32(kNone), direct_target_);
    b_.CreateStore(c32(0), warp_index_);
    b_.CreateBr(loop);
    llvm::Value* live = emit_next_live_warp(loop, end, fmt::format("round.{}", p));
    llvm::BasicBlock* start = b_.GetInsertBlock();
    // This start's copy of the blocks, its dispatch, and the warp loop its barriers go on in.
    block_bb_.assign(a_.cfg.blocks.size(), nullptr);
    for (uint32_t b : a_.cfg.order)
      if (regions[p].test(b)) block_bb_[b] = new_block(fmt::format("round.{}.b{}", p, b));
    dispatch_bb_ = new_block(fmt::format("round.{}.dispatch", p));
    direct_warp_bb_ = loop;
    uint32_t idle_tails = 0;
    for (uint32_t b = 0; b < a_.cfg.blocks.size(); ++b) {
      rest_idle_[b] = regions[p].test(b) && rest_of_round_idle(b, regions[p]);
      idle_tails += rest_idle_[b];
    }
    if (idle_tails != 0)
      log::debug(log::Category::Jit, "kernel {}: round {}: {} branch(es) past which the warps left are idle",
                 kernel_.name, p, idle_tails);
    llvm::BasicBlock* stub = emit_stub(p);
    b_.SetInsertPoint(start);
    b_.CreateStore(live, cur_mask_);
    start_run();
    b_.CreateBr(stub);
    emit_dispatch();
    for (uint32_t b : a_.cfg.order) {
      if (block_bb_[b] == nullptr) continue;
      emit_block(b);
      if (fl_.failed()) return;
    }
    // Every warp with live lanes parked them at one barrier: the round from there next.
    b_.SetInsertPoint(end);
    llvm::Value* target = end_direct_round();
    llvm::BasicBlock* unknown = new_block(fmt::format("round.{}.unknown", p));
    llvm::SwitchInst* jump = b_.CreateSwitch(target, unknown);
    for (uint32_t q = 1; q < count; ++q) jump->addCase(b_.getInt32(q), round[q]);
    b_.SetInsertPoint(unknown);
    b_.CreateUnreachable();  // every barrier is a resume point
  }
}

Result<void> BlockFunctionBuilder::build(CompiledBlockCode& code) {
  yield_branches_ = spin_loop_branches(kernel_);
  a_ = analyze_warps(kernel_, access_, shape_, !yield_branches_.empty());
  // A lane whose call ends in exit is handled here (emit_per_lane), not by the scalar
  // lowering's return from the kernel.
  callee_may_exit_ = m_.func_exits;
  m_.func_exits = false;
  carry_ = carry_flag_register(kernel_);
  warp_count_ = (shape_.thread_count() + kLanes - 1) / kLanes;
  const KernelCfg& cfg = a_.cfg;
  const uint32_t blocks = static_cast<uint32_t>(cfg.blocks.size());

  // Blocks that may get queued lanes: those between a varying branch and its join, the
  // join included. A join runs once every lane of its region is there (the lowest waiting
  // block runs first, and a region's blocks come before its join): only the blocks inside
  // a region may run with some of the warp's live lanes.
  candidate_.assign(blocks, 0);
  inside_.assign(blocks, 0);
  find_only_writes();
  find_if_then_branches();
  for (uint32_t b = 0; b < blocks; ++b) {
    // Lanes leaving by a conditional exit queue nowhere; a varying brx.idx queues at every
    // target (its successors), and on to the blocks after them. An if-then's lanes wait in
    // its join's carry, not in a queue.
    if (!a_.varying_branch[b] || cfg.blocks[b].how == BlockEnd::CondExit) continue;
    if (if_then_[b] != kNone) continue;
    const uint32_t join = cfg.ipdom[b];
    if (join != kNoBlock) candidate_[join] = 1;
    std::vector<uint32_t> work(cfg.blocks[b].successors.begin(), cfg.blocks[b].successors.end());
    while (!work.empty()) {
      const uint32_t n = work.back();
      work.pop_back();
      if (n == join || inside_[n]) continue;
      candidate_[n] = inside_[n] = 1;
      for (uint32_t s : cfg.blocks[n].successors) work.push_back(s);
    }
  }
  for (uint32_t b = 0; b < blocks; ++b)  // after the walks above, which stop at blocks found inside
    if (if_then_[b] != kNone) inside_[if_then_[b]] = 1;
  find_constant_registers();
  whole_warp_collectives_ = collectives_name_whole_warps();
  lanes_wait_only_at_blocks_ = !a_.lanes_may_split && whole_warp_collectives_;
  // Resume points: the entry, the block after each park instruction, the targets of yields.
  points_ = {ResumePoint{0, nullptr}};
  park_point_.assign(blocks, kNone);
  yield_point_.assign(blocks, kNone);
  for (uint32_t b = 0; b < blocks; ++b) {
    const CfgBlock& block = cfg.blocks[b];
    if (!block.reachable || block.how != BlockEnd::Park) continue;
    // A collective in a block every live lane runs, naming all 32 lanes, completes at once
    // for the lanes that run it (emit_collective): no lane parks there.
    const ptx::Instruction* last = cfg.last_instruction(kernel_, b);
    if (last != nullptr && is_warp_collective(*last) && !inside_[b] && lanes_wait_only_at_blocks_) continue;
    park_point_[b] = static_cast<uint32_t>(points_.size());
    points_.push_back(ResumePoint{block.successors[0], last});
  }
  for (uint32_t b = 0; b < blocks; ++b) {
    const CfgBlock& block = cfg.blocks[b];
    const ptx::Instruction* last = cfg.last_instruction(kernel_, b);
    if (!block.reachable || last == nullptr || !yield_branches_.count(last) || block.successors.empty()) continue;
    const uint32_t target = block.successors[0];
    if (yield_point_[target] != kNone) continue;
    yield_point_[target] = static_cast<uint32_t>(points_.size());
    points_.push_back(ResumePoint{target, nullptr});
  }
  // Their queues (pend_), in the blocks' order: the lowest queued block is the lowest slot.
  queue_slot_.assign(blocks, kNone);
  queue_count_ = 0;
  for (uint32_t b : cfg.order)
    if (candidate_[b]) queue_slot_[b] = queue_count_++;
  find_uniform_rounds();
  lay_out_registers();
  find_written_since_resume();
  lay_out_lane_frames();
  waiting_lanes_read_ = RegisterSet(a_.register_count);
  for (uint32_t b = 0; b < blocks; ++b) {
    if (candidate_[b]) waiting_lanes_read_.merge(a_.live_in[b]);
    if (if_then_[b] != kNone) waiting_lanes_read_.merge(a_.live_in[cfg.blocks[if_then_[b]].successors[0]]);
  }
  for (size_t p = 1; p < points_.size(); ++p) waiting_lanes_read_.merge(a_.live_in[points_[p].block]);

  llvm::Function* fn = fl_.llvm_fn;
  b_.SetInsertPoint(llvm::BasicBlock::Create(fl_.ctx, "entry", fn));
  frame_ = fn->getArg(0);
  frame_->setName("frame");
  regs_ = fn->getArg(1);
  regs_->setName("registers");
  auto load_ptr = [&](size_t offset, const char* name) {
    return b_.CreateAlignedLoad(fl_.ptr_type(), field(frame_, offset), llvm::Align(8), name);
  };
  block_context_ = load_ptr(offsetof(CompiledBlockFrame, block), "block.context");
  lane_context_ = load_ptr(offsetof(CompiledBlockFrame, lane), "lane.context");
  warps_ = load_ptr(offsetof(CompiledBlockFrame, warps), "warps");
  local_ = load_ptr(offsetof(CompiledBlockFrame, local), "local");
  fl_.thread_context = block_context_;
  llvm::LoadInst* shared = b_.CreateAlignedLoad(
      fl_.ptr_type(), field(block_context_, offsetof(ThreadContext, shared_base)), llvm::Align(8), "shared");
  shared->setMetadata(llvm::LLVMContext::MD_align,
                      llvm::MDNode::get(fl_.ctx, llvm::ConstantAsMetadata::get(b_.getInt64(kSharedBaseAlignment))));
  fl_.shared_base = shared;
  fl_.shared_is_thread_private = true;
  fl_.special_register_override = [this](ptx::SpecialRegister sreg, unsigned component) {
    return special_register(sreg, component);
  };
  // Registers live in the register file; bind() points the scalar lowering at them.
  fl_.registers.assign(kernel_.registers.size(), nullptr);
  for (uint32_t r = 0; r < a_.register_count; ++r)
    if (register_width(r) == 0) return make_error(ErrorCode::InvalidPtx, fmt::format("register {} has no width", r));
  reg_local_.assign(a_.register_count, nullptr);
  for (uint32_t r = 0; r < a_.register_count; ++r) {
    if (!run_local_[r]) continue;
    llvm::Type* type = !per_lane(a_.shape[r]) ? register_type(r) : register_width(r) == 1 ? i32() : lanes_of(register_type(r));
    reg_local_[r] = fl_.entry_alloca(type, 64, fmt::format("r{}", r));
  }
  find_lane_bases();
  round_entry_.assign(a_.register_count, nullptr);
  round_exit_.assign(a_.register_count, nullptr);
  for (uint32_t r = 0; r < a_.register_count; ++r) {
    if (!kept_for_block_[r]) continue;
    round_entry_[r] = fl_.entry_alloca(register_type(r), 8, fmt::format("r{}.entry", r));
    round_exit_[r] = fl_.entry_alloca(register_type(r), 8, fmt::format("r{}.exit", r));
  }
  rest_idle_.assign(blocks, 0);  // emit_region_rounds decides per round
  join_carry_.assign(blocks, nullptr);
  for (uint32_t b = 0; b < blocks; ++b)
    if (if_then_[b] != kNone) join_carry_[if_then_[b]] = b_.CreateAlloca(i32(), nullptr, fmt::format("carry.{}", b));
  warp_index_ = b_.CreateAlloca(i32(), nullptr, "warp.index");
  cur_mask_ = b_.CreateAlloca(i32(), nullptr, "cur.mask");
  min_pending_ = b_.CreateAlloca(i32(), nullptr, "min.pending");
  run_vote_true_ = b_.CreateAlloca(i32(), nullptr, "vote.true");
  run_vote_threads_ = b_.CreateAlloca(i32(), nullptr, "vote.threads");
  lane_exits_ = b_.CreateAlloca(i32(), nullptr, "lane.exits");
  yield_budget_ = b_.CreateAlloca(i32(), nullptr, "yield.budget");
  direct_ = b_.CreateAlloca(i32(), nullptr, "direct");
  direct_start_ = b_.CreateAlloca(i32(), nullptr, "direct.start");
  direct_target_ = b_.CreateAlloca(i32(), nullptr, "direct.target");
  pend_ = b_.CreateAlloca(llvm::ArrayType::get(i32(), std::max<uint32_t>(queue_count_, 1)), nullptr, "pend");
  pend_->setAlignment(llvm::Align(16));
  b_.CreateMemSet(pend_, b_.getInt8(0), uint64_t{std::max<uint32_t>(queue_count_, 1)} * 4, llvm::Align(16));
  b_.CreateStore(c32(0), warp_index_);
  // Kernel parameters (uniform: the block's parameter buffer).
  llvm::Value* buffer = b_.CreateAlignedLoad(fl_.ptr_type(), field(block_context_, offsetof(ThreadContext, params)),
                                             llvm::Align(8), "params");
  for (size_t i = 0; i < kernel_.params.size(); ++i) {
    SymbolBinding s;
    s.space = ptx::StateSpace::Param;
    s.parameter = &kernel_.params[i];
    s.address = field(buffer, params_[i].offset);
    fl_.symbols[kernel_.params[i].name] = s;
  }
  // .local and call-sequence .param variables are per lane: bound in lane mode
  // (bind_lane_frame); the module's other symbols resolve through find_symbol.
  round_bb_ = new_block("round");
  warp_loop_bb_ = new_block("warp.loop");
  take_run_bb_ = new_block("run.take");
  dispatch_bb_ = new_block("dispatch");
  round_end_bb_ = new_block("round.end");
  direct_round_bb_ = new_block("direct.round");
  direct_warp_bb_ = new_block("direct.warp");
  b_.CreateStore(c32(0), direct_start_);  // the kernel's entry
  b_.CreateBr(direct_round_bb_);

  const std::vector<RegisterSet> regions = uniform_rounds_ ? find_regions() : std::vector<RegisterSet>{};
  if (!regions.empty()) {
    emit_region_rounds(regions);
    if (fl_.failed()) return fl_.error();
  } else {
    block_bb_.assign(blocks, nullptr);
    for (uint32_t b : cfg.order) block_bb_[b] = new_block(fmt::format("b{}", b));
    emit_stubs();
    emit_round_structure();
    emit_direct_rounds();
    emit_dispatch();
    for (uint32_t b : cfg.order) {
      emit_block(b);
      if (fl_.failed()) return fl_.error();
    }
  }
  // Blocks left open (the dead code after a trap) end here.
  for (llvm::BasicBlock& bb : *fn) {
    if (bb.getTerminator() != nullptr) continue;
    b_.SetInsertPoint(&bb);
    b_.CreateUnreachable();
  }
  code.warp_stride = kWarpStride;
  code.register_stride = register_stride_;
  code.local_stride = local_stride_;
  return {};
}

}  // namespace block_function

Result<void> translate_block_function(ModuleLowering& m, const ptx::Function& kernel, const FunctionAccess& access,
                                      const std::vector<ParamSlot>& params, const BlockShape& shape,
                                      const std::string& name, CompiledBlockCode& code) {
  // The entry (kernel_abi.h BlockEntry) hands the register file to the body as a noalias
  // pointer: nothing else the block does can touch it.
  llvm::LLVMContext& c = *m.context;
  llvm::Type* ptr = llvm::PointerType::getUnqual(c);
  llvm::Function* body = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false),
                                                llvm::GlobalValue::InternalLinkage, name + ".body", m.module);
  body->addFnAttr(llvm::Attribute::NoUnwind);
  body->addFnAttr(llvm::Attribute::AlwaysInline);
  body->addParamAttr(1, llvm::Attribute::NoAlias);
  block_function::BlockFunctionBuilder builder(m, kernel, access, params, shape, body);
  if (auto built = builder.build(code); !built) return built;
  emit_block_entry(*m.module, body, shape, name);
  return {};
}

}  // namespace cucpu::jit
