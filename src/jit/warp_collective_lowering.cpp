// Warp collectives in the compiled block function (block_function_builder.h): shfl, vote,
// match, redux, elect, bar.warp.sync with the fiber strategy's semantics and combines; the
// tensor-core warp steps (mma, wmma.mma, ldmatrix, stmatrix, movmatrix) on the lanes that
// run them.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/block_function_builder.h"
#include "jit/matrix_fragments.h"

namespace cucpu::jit::block_function {

// What a collective instruction names: its kind, operation and operands.
struct CollectiveOperands {
  WarpCombineKind kind = WarpCombineKind::Nothing;
  uint32_t operation = 0;
  const ptx::Operand* value = nullptr;   // the offered value
  const ptx::Operand* second = nullptr;  // shfl: b
  const ptx::Operand* third = nullptr;   // shfl: c
  ptx::Type value_type = ptx::Type::B32;
  bool pair = false;                     // d|p
};

namespace {

// Empty when the instruction is malformed.
std::string decode_collective(const ptx::Instruction& inst, CollectiveOperands& c) {
  const size_t n = inst.operands.size();
  c.pair = ptx::has_destination_pair(inst);
  switch (inst.opcode) {
    case ptx::Opcode::Shfl:
      c.kind = WarpCombineKind::Shuffle;
      c.operation = static_cast<uint32_t>(inst.q.shuffle);
      if (n != (c.pair ? 6u : 5u)) return "expected shfl.sync d[|p], a, b, c, membermask";
      c.value = &inst.operands[c.pair ? 2 : 1];
      c.second = &inst.operands[c.pair ? 3 : 2];
      c.third = &inst.operands[c.pair ? 4 : 3];
      return {};
    case ptx::Opcode::Vote:
      c.kind = WarpCombineKind::Vote;
      c.operation = static_cast<uint32_t>(inst.q.vote);
      if (n != 3) return "expected vote.sync d, p, membermask";
      c.value = &inst.operands[1];
      c.value_type = ptx::Type::Pred;
      return {};
    case ptx::Opcode::Match:
      c.kind = WarpCombineKind::Match;
      c.operation = static_cast<uint32_t>(inst.q.vote) | (inst.q.type == ptx::Type::B64 ? 0x100 : 0);
      if (n != (c.pair ? 4u : 3u)) return "expected match.sync d[|p], a, membermask";
      c.value = &inst.operands[c.pair ? 2 : 1];
      c.value_type = inst.q.type;
      return {};
    case ptx::Opcode::Redux:
      c.kind = WarpCombineKind::Redux;
      c.operation = static_cast<uint32_t>(inst.q.atomic_op);
      if (inst.q.type == ptx::Type::S32 && (inst.q.atomic_op == ptx::AtomicOp::Min || inst.q.atomic_op == ptx::AtomicOp::Max))
        c.operation |= 0x100;
      if (n != 3) return "expected redux.sync d, a, membermask";
      c.value = &inst.operands[1];
      c.value_type = inst.q.type;
      return {};
    case ptx::Opcode::Elect:
      c.kind = WarpCombineKind::Elect;
      if (n != (c.pair ? 3u : 2u)) return "expected elect.sync d|p, membermask";
      return {};
    default:  // bar.warp.sync membermask
      if (n != 1) return "expected bar.warp.sync membermask";
      return {};
  }
}

}  // namespace

// The destinations of a collective from its 32 results (u64: d in bits 0..31, p in bit 32).
void BlockFunctionBuilder::write_collective_results(const ptx::Instruction& inst, llvm::Value* out,
                                                    llvm::Value* mask) {
  CollectiveOperands c;
  if (!decode_collective(inst, c).empty()) return;
  llvm::Value* low = b_.CreateTrunc(out, lanes_of(i32()));
  llvm::Value* bit32 = b_.CreateTrunc(b_.CreateLShr(out, b_.CreateVectorSplat(kLanes, b_.getInt64(32))),
                                      lanes_of(b_.getInt1Ty()));
  switch (c.kind) {
    case WarpCombineKind::Vote:
      if (inst.q.vote == ptx::VoteMode::Ballot) {
        vector_write(inst.operands[0], ptx::Type::B32, low, mask);
      } else {
        vector_write(inst.operands[0], ptx::Type::Pred, b_.CreateICmpNE(low, b_.CreateVectorSplat(kLanes, c32(0))),
                     mask);
      }
      break;
    case WarpCombineKind::Shuffle:
    case WarpCombineKind::Match:
    case WarpCombineKind::Elect:
    case WarpCombineKind::Redux:
      vector_write(inst.operands[0], c.kind == WarpCombineKind::Redux ? inst.q.type : ptx::Type::B32, low, mask);
      if (c.pair) vector_write(inst.operands[1], ptx::Type::Pred, bit32, mask);
      break;
    case WarpCombineKind::Nothing:
      break;
  }
}

// The collective done on the lanes' vectors, when its members are exactly the lanes running
// it (`mask`): what the fiber strategy's combines compute (exec/warp_collectives.cpp), lane by
// lane. False for match, which goes to the combine.
bool BlockFunctionBuilder::emit_collective_together(const ptx::Instruction& inst, const CollectiveOperands& c,
                                                    llvm::Value* mask) {
  auto splat = [&](uint32_t v) { return b_.CreateVectorSplat(kLanes, c32(v)); };
  std::vector<llvm::Constant*> numbers;
  for (uint32_t l = 0; l < kLanes; ++l) numbers.push_back(b_.getInt32(l));
  llvm::Value* lane = llvm::ConstantVector::get(numbers);
  switch (c.kind) {
    case WarpCombineKind::Nothing:  // bar.warp.sync: everyone is here
      return true;
    case WarpCombineKind::Elect: {
      llvm::Value* leader = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {mask, b_.getTrue()});
      llvm::Value* leaders = b_.CreateVectorSplat(kLanes, leader);
      vector_write(inst.operands[0], ptx::Type::B32, leaders, mask);
      if (c.pair) vector_write(inst.operands[1], ptx::Type::Pred, b_.CreateICmpEQ(lane, leaders), mask);
      return true;
    }
    case WarpCombineKind::Vote: {
      llvm::Value* ballot = b_.CreateAnd(mask_bits(vector_read(*c.value, ptx::Type::Pred)), mask);
      if (inst.q.vote == ptx::VoteMode::Ballot) {
        vector_write(inst.operands[0], ptx::Type::B32, b_.CreateVectorSplat(kLanes, ballot), mask);
        return true;
      }
      llvm::Value* result = inst.q.vote == ptx::VoteMode::All   ? b_.CreateICmpEQ(ballot, mask)
                            : inst.q.vote == ptx::VoteMode::Any ? b_.CreateICmpNE(ballot, c32(0))
                                                                : b_.CreateOr(b_.CreateICmpEQ(ballot, mask),
                                                                              b_.CreateICmpEQ(ballot, c32(0)));
      vector_write(inst.operands[0], ptx::Type::Pred, b_.CreateVectorSplat(kLanes, result), mask);
      return true;
    }
    case WarpCombineKind::Redux: {
      // The value of the lanes outside the mask is the operation's identity.
      const ptx::AtomicOp op = inst.q.atomic_op;
      const bool is_signed = (c.operation & 0x100) != 0;
      llvm::Value* v = vector_read(*c.value, ptx::Type::B32);
      uint32_t identity = 0;
      llvm::Intrinsic::ID reduce = llvm::Intrinsic::vector_reduce_add;
      switch (op) {
        case ptx::AtomicOp::And:
          identity = ~0u;
          reduce = llvm::Intrinsic::vector_reduce_and;
          break;
        case ptx::AtomicOp::Or:
          reduce = llvm::Intrinsic::vector_reduce_or;
          break;
        case ptx::AtomicOp::Xor:
          reduce = llvm::Intrinsic::vector_reduce_xor;
          break;
        case ptx::AtomicOp::Min:
          identity = is_signed ? 0x7fffffffu : ~0u;
          reduce = is_signed ? llvm::Intrinsic::vector_reduce_smin : llvm::Intrinsic::vector_reduce_umin;
          break;
        case ptx::AtomicOp::Max:
          identity = is_signed ? 0x80000000u : 0;
          reduce = is_signed ? llvm::Intrinsic::vector_reduce_smax : llvm::Intrinsic::vector_reduce_umax;
          break;
        default:  // Add: wraps, as .u32/.s32 add does
          break;
      }
      llvm::Value* kept = b_.CreateSelect(mask_vector(mask), v, splat(identity));
      llvm::Value* total = b_.CreateIntrinsic(reduce, {kept->getType()}, {kept});
      vector_write(inst.operands[0], inst.q.type, b_.CreateVectorSplat(kLanes, total), mask);
      return true;
    }
    case WarpCombineKind::Shuffle: {
      // combine_shuffle's source lane and range, on every lane at once.
      llvm::Value* bv = b_.CreateAnd(vector_read(*c.second, ptx::Type::B32), splat(31));
      llvm::Value* cv = vector_read(*c.third, ptx::Type::B32);
      llvm::Value* clamp = b_.CreateAnd(cv, splat(31));
      llvm::Value* segment = b_.CreateAnd(b_.CreateLShr(cv, splat(8)), splat(31));
      llvm::Value* min_lane = b_.CreateAnd(lane, segment);
      llvm::Value* max_lane = b_.CreateOr(min_lane, b_.CreateAnd(clamp, b_.CreateNot(segment)));
      llvm::Value* source = nullptr;
      llvm::Value* in_range = nullptr;
      switch (inst.q.shuffle) {
        case ptx::ShuffleMode::Up:
          source = b_.CreateSub(lane, bv);
          in_range = b_.CreateICmpSGE(source, max_lane);
          break;
        case ptx::ShuffleMode::Down:
          source = b_.CreateAdd(lane, bv);
          in_range = b_.CreateICmpSLE(source, max_lane);
          break;
        case ptx::ShuffleMode::Bfly:
          source = b_.CreateXor(lane, bv);
          in_range = b_.CreateICmpSLE(source, max_lane);
          break;
        default:  // Idx
          source = b_.CreateOr(min_lane, b_.CreateAnd(bv, b_.CreateNot(segment)));
          in_range = b_.CreateICmpSLE(source, max_lane);
          break;
      }
      source = b_.CreateSelect(in_range, source, lane);
      // A source lane in range but outside the members reads 0, as on an H100 and H200
      // (tests/e2e/probes/shuffle_non_member_source.cu); out of range, the caller's own value.
      // With every lane a member (the common case) no lane's membership needs a test: the
      // shuffle is then its moves alone (constant ones for a constant lane operand).
      llvm::Value* values = vector_read(*c.value, ptx::Type::B32);
      llvm::Value* moved = exchanged(inst, c, values, source);
      llvm::BasicBlock* whole = new_block("shuffle.whole_warp");
      llvm::BasicBlock* part = new_block("shuffle.some_lanes");
      llvm::BasicBlock* done = new_block("shuffle.written");
      b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(kNone)), whole, part);
      for (llvm::BasicBlock* block : {whole, part}) {
        b_.SetInsertPoint(block);
        llvm::Value* read = moved;
        if (block == part) {
          llvm::Value* member = b_.CreateTrunc(b_.CreateLShr(b_.CreateVectorSplat(kLanes, mask), source),
                                               lanes_of(b_.getInt1Ty()));
          read = b_.CreateSelect(member, moved, llvm::Constant::getNullValue(values->getType()));
        }
        vector_write(inst.operands[0], ptx::Type::B32, b_.CreateSelect(in_range, read, values),
                     block == whole ? c32(kNone) : mask);
        if (c.pair) vector_write(inst.operands[1], ptx::Type::Pred, in_range, block == whole ? c32(kNone) : mask);
        b_.CreateBr(done);
      }
      b_.SetInsertPoint(done);
      return true;
    }
    case WarpCombineKind::Match:
      return false;
  }
  return false;
}

// values[source[l]] for every lane l whose source is in range (others: anything). With the
// same lane operand b in every lane, up, down and bfly move every lane by the same distance
// (or xor): five constant vector shuffles, each taken or not by a bit of b; an idx shuffle of
// whole warps reads one lane. Otherwise a gather.
llvm::Value* BlockFunctionBuilder::exchanged(const ptx::Instruction& inst, const CollectiveOperands& c,
                                             llvm::Value* values, llvm::Value* source) {
  auto uniform = [&](const ptx::Operand& op) { return !per_lane_operand(op, a_.shape, shape_); };
  auto gather = [&] {
    llvm::AllocaInst* table = fl_.entry_alloca(llvm::ArrayType::get(i32(), kLanes), 64, "shuffle.table");
    b_.CreateAlignedStore(values, table, llvm::Align(64));
    return b_.CreateMaskedGather(lanes_of(i32()), b_.CreateGEP(i32(), table, source), llvm::Align(4));
  };
  if (!uniform(*c.second)) return gather();
  llvm::Value* distance = b_.CreateAnd(uniform_read(*c.second, ptx::Type::B32), c32(31));
  const ptx::ShuffleMode mode = inst.q.shuffle;
  if (mode == ptx::ShuffleMode::Idx) {
    if (!uniform(*c.third)) return gather();
    // No segments (c's bits 8..12 zero): every lane reads lane b.
    llvm::Value* whole_warp = b_.CreateICmpEQ(
        b_.CreateAnd(uniform_read(*c.third, ptx::Type::B32), c32(0x1f00)), c32(0));
    llvm::BasicBlock* before = b_.GetInsertBlock();
    llvm::BasicBlock* segmented = new_block("shuffle.segmented");
    llvm::BasicBlock* done = new_block("shuffle.done");
    llvm::Value* broadcast = b_.CreateVectorSplat(kLanes, b_.CreateExtractElement(values, distance));
    b_.CreateCondBr(whole_warp, done, segmented);
    b_.SetInsertPoint(segmented);
    llvm::Value* gathered = gather();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode* phi = b_.CreatePHI(values->getType(), 2);
    phi->addIncoming(broadcast, before);
    phi->addIncoming(gathered, segmented);
    return phi;
  }
  llvm::Value* moved = values;
  for (uint32_t step = 1; step < kLanes; step <<= 1) {
    std::vector<int> pattern;
    for (uint32_t l = 0; l < kLanes; ++l) {
      const uint32_t from = mode == ptx::ShuffleMode::Down ? l + step : mode == ptx::ShuffleMode::Up ? l - step : l ^ step;
      pattern.push_back(static_cast<int>(from % kLanes));  // a rotation; lanes it wraps are out of range
    }
    llvm::Value* taken = b_.CreateICmpNE(b_.CreateAnd(distance, c32(step)), c32(0));
    moved = b_.CreateSelect(taken, b_.CreateShuffleVector(moved, pattern), moved);
  }
  return moved;
}

// A warp collective. When its members are exactly the lanes running it together (one
// membermask), their offers go straight to the fiber strategy's combine
// (__cucpu_warp_combine). Otherwise the lanes meet the rest of the warp at the executor's
// rendezvous, as fibers do: lanes whose members (diverged lanes elsewhere, other tiles'
// lanes) have not all arrived park at the next block until the collective completes.
void BlockFunctionBuilder::emit_collective(uint32_t b, const ptx::Instruction& inst) {
  const uint32_t next = a_.cfg.blocks[b].successors[0];
  CollectiveOperands c;
  if (std::string problem = decode_collective(inst, c); !problem.empty()) return fail(problem);
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* lanes64 = lanes_of(i64);
  llvm::Value* values = nullptr;
  llvm::Value* arguments = nullptr;
  if (c.value != nullptr) {
    llvm::Value* v = vector_read(*c.value, c.value_type);
    if (!v->getType()->getScalarType()->isIntegerTy())
      v = b_.CreateBitCast(v, lanes_of(fl_.int_type(v->getType()->getScalarSizeInBits())));
    values = b_.CreateZExt(v, lanes64);
  }
  if (c.second != nullptr) {
    llvm::Value* lane_operand = b_.CreateZExt(vector_read(*c.second, ptx::Type::B32), lanes64);
    llvm::Value* clamp = b_.CreateZExt(vector_read(*c.third, ptx::Type::B32), lanes64);
    arguments = b_.CreateOr(lane_operand, b_.CreateShl(clamp, b_.CreateVectorSplat(kLanes, b_.getInt64(32))));
  }
  const ptx::Operand& member_operand = inst.operands.back();
  const bool one_membermask = !per_lane_operand(member_operand, a_.shape, shape_);
  llvm::BasicBlock* meet = new_block("collective.meet");
  if (one_membermask) {
    llvm::Value* live = load32(warp_state(), offsetof(CompiledWarp, live));
    llvm::Value* members = b_.CreateAnd(uniform_read(member_operand, ptx::Type::B32), live);
    llvm::BasicBlock* together = new_block("collective.together");
    b_.CreateCondBr(b_.CreateICmpEQ(members, mask), together, meet);
    b_.SetInsertPoint(together);
    if (!emit_collective_together(inst, c, mask)) {
      llvm::Type* array = llvm::ArrayType::get(i64, kLanes);
      llvm::AllocaInst* value_buffer = fl_.entry_alloca(array, 64, "offers.values");
      llvm::AllocaInst* argument_buffer = fl_.entry_alloca(array, 64, "offers.arguments");
      llvm::AllocaInst* result_buffer = fl_.entry_alloca(array, 64, "results");
      if (values != nullptr) b_.CreateAlignedStore(values, value_buffer, llvm::Align(64));
      if (arguments != nullptr) b_.CreateAlignedStore(arguments, argument_buffer, llvm::Align(64));
      llvm::Type* params[] = {i32(), i32(), i32(), fl_.ptr_type(), fl_.ptr_type(), fl_.ptr_type()};
      b_.CreateCall(runtime(kWarpCombine, b_.getVoidTy(), params),
                    {c32(static_cast<uint32_t>(c.kind)), c32(c.operation), members, value_buffer, argument_buffer,
                     result_buffer});
      write_collective_results(inst, b_.CreateAlignedLoad(lanes64, result_buffer, llvm::Align(64)), mask);
    }
    go_to(next, mask);
  } else {
    b_.CreateBr(meet);
  }
  b_.SetInsertPoint(meet);
  if (park_point_[b] == kNone) {
    // build() gave the block no resume point: every live lane runs it and the collective
    // names them all, so the lanes meet here at once.
    unsupported("internal error: a collective of converged code that not all of the warp's live lanes reached");
    return;
  }
  emit_collective_meeting(b, inst, c, values, arguments, mask);
}

// The general case: the lanes meet the rest of the warp at the executor's rendezvous.
void BlockFunctionBuilder::emit_collective_meeting(uint32_t b, const ptx::Instruction& inst,
                                                   const CollectiveOperands& c, llvm::Value* values,
                                                   llvm::Value* arguments, llvm::Value* mask) {
  const uint32_t next = a_.cfg.blocks[b].successors[0];
  const ptx::Operand& member_operand = inst.operands.back();
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* lanes64 = lanes_of(i64);
  llvm::StructType* call_type = llvm::StructType::get(
      fl_.ctx, {i32(), i32(), i32(), i32(), llvm::ArrayType::get(i32(), kLanes), llvm::ArrayType::get(i64, kLanes),
                llvm::ArrayType::get(i64, kLanes), llvm::ArrayType::get(i64, kLanes)});
  llvm::AllocaInst* call = fl_.entry_alloca(call_type, 64, "collective");
  store32(c32(static_cast<uint32_t>(c.kind)), call, offsetof(CompiledCollective, kind));
  store32(c32(c.operation), call, offsetof(CompiledCollective, operation));
  store32(mask, call, offsetof(CompiledCollective, active));
  const llvm::Align sixteen(16);  // the arrays' offsets in CompiledCollective
  b_.CreateAlignedStore(vector_read(member_operand, ptx::Type::B32),
                        field(call, offsetof(CompiledCollective, membermasks)), sixteen);
  if (values != nullptr) b_.CreateAlignedStore(values, field(call, offsetof(CompiledCollective, values)), sixteen);
  if (arguments != nullptr)
    b_.CreateAlignedStore(arguments, field(call, offsetof(CompiledCollective, arguments)), sixteen);
  llvm::Type* params[] = {fl_.ptr_type(), i32(), fl_.ptr_type()};
  llvm::Value* done = b_.CreateCall(runtime(kCompiledCollective, i32(), params), {frame_, warp_index(), call});
  write_collective_results(
      inst, b_.CreateAlignedLoad(lanes64, field(call, offsetof(CompiledCollective, results)), sixteen), done);
  llvm::Value* parked = b_.CreateAnd(mask, b_.CreateNot(done));
  llvm::BasicBlock* park = new_block("collective.park");
  llvm::BasicBlock* after_park = new_block("collective.parked");
  b_.CreateCondBr(b_.CreateICmpNE(parked, c32(0)), park, after_park);
  b_.SetInsertPoint(park);
  add_park(park_point_[b], parked, ParkKind::Collective);
  b_.CreateBr(after_park);
  b_.SetInsertPoint(after_park);
  llvm::BasicBlock* go_on = new_block("collective.go_on");
  b_.CreateCondBr(b_.CreateICmpEQ(done, c32(0)), dispatch_bb_, go_on);
  b_.SetInsertPoint(go_on);
  go_to(next, done);
}

// The lowest queued block runs next with its lanes; none: the warp's run is over.

// A tensor-core warp step (describe_warp_step) for the lanes that run it together, as the
// fiber strategy's __cucpu_warp_step runs it for the lanes that meet. The executor's
// __cucpu_jit_compiled_warp_step copies the operands into a buffer that holds slot s of
// every lane together (s * 32 + lane), runs the helper once with stride 32 and copies the
// results back for the lanes that ran it. Registers in the warp's register file go by a
// constant table of their offsets (cudaTensorCoreGemm's kernel has 3600 of these steps,
// unrolled: IR per operand made it 827,000 IR instructions and 75 s of LLVM); any other
// operand is stored into the buffer here, and any other result read back from it. An
// .aligned instruction is run by the whole warp, converged, in every program that defines
// its result.
void BlockFunctionBuilder::emit_warp_step(const ptx::Instruction& inst) {
  WarpStepOperands step;
  if (!describe_warp_step(fl_, inst, step)) return;
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* slot_type = lanes_of(i64);
  if (warp_step_buffer_ == nullptr)
    warp_step_buffer_ = fl_.entry_alloca(llvm::ArrayType::get(slot_type, kMatrixSlots), 64, "warp.step");
  auto slot = [&](uint32_t s) { return b_.CreateConstGEP1_32(slot_type, warp_step_buffer_, s); };
  // A register the table can name: 32 lanes of 32 or 64 bits in the file.
  auto in_file = [&](const ptx::Operand& op) {
    if (op.kind != ptx::Operand::Kind::Register) return false;
    const uint32_t r = op.reg, width = register_width(r);
    return reg_local_[r] == nullptr && reg_offset_[r] != kNone && per_lane(a_.shape[r]) && (width == 32 || width == 64);
  };
  std::vector<uint32_t> table;  // per entry: slot | bytes per lane << 8 | result << 16, then the offset
  auto name = [&](uint32_t s, const ptx::Operand& op, bool result) {
    table.push_back(s | (register_width(op.reg) / 8) << 8 | (result ? 1u : 0u) << 16);
    table.push_back(reg_offset_[op.reg]);
  };
  for (const auto& [s, value] : step.constants)
    b_.CreateAlignedStore(b_.CreateVectorSplat(kLanes, b_.getInt64(value)), slot(s), llvm::Align(64));
  for (const auto& [s, op] : step.offered) {
    if (in_file(*op)) {
      name(s, *op, false);
      continue;
    }
    llvm::Value* bits;
    if (op->kind == ptx::Operand::Kind::Register) {
      bits = b_.CreateZExt(vector_read(*op, bits_type(register_width(op->reg))), slot_type);
    } else {
      bits = b_.CreateVectorSplat(kLanes, b_.getInt64(op->kind == ptx::Operand::Kind::Immediate ? op->imm : 0));
    }
    b_.CreateAlignedStore(bits, slot(s), llvm::Align(64));
  }
  if (step.address != nullptr) {
    llvm::Value* addresses = lane_addresses(*step.address, step.space, false);
    if (addresses == nullptr) {
      fail(fmt::format("{}: an address form the compiled block strategy does not take", ptx::spelling(inst.opcode)));
      return;
    }
    b_.CreateAlignedStore(b_.CreatePtrToInt(addresses, slot_type), slot(0), llvm::Align(64));
  }
  for (const auto& [s, op] : step.results)
    if (in_file(*op)) name(s, *op, true);
  auto* table_type = llvm::ArrayType::get(i32(), table.size());
  auto* constant = new llvm::GlobalVariable(*m_.module, table_type, true, llvm::GlobalValue::PrivateLinkage,
                                            llvm::ConstantDataArray::get(*m_.context, table), "warp.step.table");
  llvm::Value* file = b_.CreateGEP(
      b_.getInt8Ty(), regs_, b_.CreateMul(b_.CreateZExt(warp_index(), i64), b_.getInt64(register_stride_)));
  llvm::Type* helper_params[] = {fl_.ptr_type(), i32(), i32()};
  llvm::Value* helper = runtime(step.helper, b_.getVoidTy(), helper_params).getCallee();
  llvm::Type* params[] = {fl_.ptr_type(), fl_.ptr_type(), i32(), fl_.ptr_type(), fl_.ptr_type(), i32()};
  b_.CreateCall(runtime(kCompiledWarpStep, b_.getVoidTy(), params),
                {helper, constant, c32(table.size() / 2), file, warp_step_buffer_, mask});
  for (const auto& [s, op] : step.results) {
    if (op->kind != ptx::Operand::Kind::Register || in_file(*op)) continue;
    llvm::Value* bits = b_.CreateAlignedLoad(slot_type, slot(s), llvm::Align(64));
    const unsigned width = register_width(op->reg);
    vector_write(*op, bits_type(width), b_.CreateTrunc(bits, lanes_of(fl_.int_type(width))), mask);
  }
  if (skip_to != nullptr) {
    b_.CreateBr(skip_to);
    b_.SetInsertPoint(skip_to);
  }
}

}  // namespace cucpu::jit::block_function
