// One instruction of the compiled block function (block_function_builder.h): once per warp
// when everything it writes is uniform (the scalar lowering on the warp's scalars), once on
// all lanes as vectors when its scalar lowering is width-generic (lowers_lane_wise), else
// once per active lane, the lanes one after another, so that the instruction completes for
// all lanes before the next begins.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <algorithm>

#include "jit/block_function_builder.h"

namespace cucpu::jit::block_function {

// Instructions that act once for the warp whatever lanes run them: fences and hints.
bool acts_once_per_warp(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Membar:
    case ptx::Opcode::Fence:
    case ptx::Opcode::Prefetch:
    case ptx::Opcode::Prefetchu:
    case ptx::Opcode::Griddepcontrol:
    case ptx::Opcode::Pmevent:
      return true;
    default:
      return false;
  }
}

namespace {

bool is_f32_f64(ptx::Type t) { return t == ptx::Type::F32 || t == ptx::Type::F64; }

bool plain_operands(const ptx::Instruction& inst) {
  for (const ptx::Operand& op : inst.operands)
    if (op.kind == ptx::Operand::Kind::Vector || op.kind == ptx::Operand::Kind::Address) return false;
  return true;
}

// Whether the scalar lowering of `inst` is width-generic, so that it can run once on all 32
// lanes as vectors (FunctionLowering::lanes): pure arithmetic whose lowering uses no
// scalar-only type and calls helpers only through call_pure_helper (one call per lane).
// Audited family by family; everything else runs once per lane. tests/isa exercises these
// instructions' corner cases under this strategy.
bool lowers_lane_wise(const ptx::Instruction& inst) {
  const ptx::Type t = inst.q.type;
  if (!plain_operands(inst)) return false;
  switch (inst.opcode) {
    case ptx::Opcode::Mov:
      return t != ptx::Type::None && !ptx::is_narrow_float(t);
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Mul:
    case ptx::Opcode::Mad:
      if (ptx::is_integer(t)) return !inst.q.carry;
      return is_f32_f64(t);
    case ptx::Opcode::Div:
    case ptx::Opcode::Rem:
      return ptx::is_integer(t) || (inst.opcode == ptx::Opcode::Div && is_f32_f64(t));
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
    case ptx::Opcode::Neg:
    case ptx::Opcode::Abs:
      return ptx::is_integer(t) || is_f32_f64(t);
    case ptx::Opcode::Fma:
    case ptx::Opcode::Sqrt:
    case ptx::Opcode::Rcp:
    case ptx::Opcode::Rsqrt:
    case ptx::Opcode::Ex2:
    case ptx::Opcode::Lg2:
    case ptx::Opcode::Sin:
    case ptx::Opcode::Cos:
    case ptx::Opcode::Tanh:
    case ptx::Opcode::Copysign:
    case ptx::Opcode::Testp:
      return is_f32_f64(t);
    case ptx::Opcode::And:
    case ptx::Opcode::Or:
    case ptx::Opcode::Xor:
    case ptx::Opcode::Not:
    case ptx::Opcode::Cnot:
      return ptx::is_integer(t) || t == ptx::Type::Pred;
    case ptx::Opcode::Shl:
    case ptx::Opcode::Shr:
    case ptx::Opcode::Popc:
    case ptx::Opcode::Clz:
    case ptx::Opcode::Brev:
      return ptx::is_integer(t);
    case ptx::Opcode::Setp:
      return ptx::is_integer(t) || is_f32_f64(t);
    case ptx::Opcode::Selp:
      return ptx::is_integer(t) || is_f32_f64(t);
    case ptx::Opcode::Cvt: {
      const ptx::Type from = inst.q.src_type;
      if (inst.q.satfinite) return false;
      if (ptx::is_integer(t) && ptx::is_integer(from)) return !inst.q.sat;
      if (is_f32_f64(t) && ptx::is_integer(from)) return true;
      if (ptx::is_integer(t) && is_f32_f64(from)) return true;
      if (is_f32_f64(t) && is_f32_f64(from)) return true;
      return false;
    }
    default:
      return false;
  }
}

}  // namespace

void BlockFunctionBuilder::emit_instruction(uint32_t statement) {
  const ptx::Instruction& inst = kernel_.body[statement].instruction;
  fl_.current = &inst;
  fl_.current_statement = statement;
  const StatementAccess& acc = access_.at(statement);
  if (inst.opcode == ptx::Opcode::Activemask) return emit_activemask(inst);
  if (is_warp_step(inst)) return emit_warp_step(inst);
  // Uniform results from uniform (or lane-aligned: warp_analysis.h) operands: once per warp.
  bool uniform = acts_once_per_warp(inst);
  if (!acc.writes.empty()) {
    uniform = true;
    for (uint32_t r : acc.writes) uniform = uniform && a_.shape[r] == Shape::Uniform;
    for (uint32_t r : acc.reads) uniform = uniform && a_.shape[r] != Shape::Varying;
  }
  if (uniform) return emit_uniform(inst);
  // A lane's own variables (.local, a call's .param: `mov.u64 %rd, __local_depot0`) are bound
  // lane by lane (bind_lane_frame), not as 32 lanes.
  const bool names_lane_variable = std::any_of(inst.operands.begin(), inst.operands.end(), [&](const ptx::Operand& op) {
    return op.kind == ptx::Operand::Kind::Symbol && lane_frame_offset_.count(op.name) != 0;
  });
  if (inst.opcode == ptx::Opcode::Setp && emit_consecutive_compare(inst)) return;
  if (lowers_lane_wise(inst) && !names_lane_variable) return emit_lane_wise(inst);
  if (emit_memory(inst)) return;
  emit_per_lane(inst, statement);
}

// `setp.lt i, n` (le, gt, ge; signed or not) of a register whose lanes hold consecutive
// integers (lane stride 1: `i = blockIdx.x * blockDim.x + threadIdx.x`) against a value the
// same in every lane: the guard `if (i < n)` of nearly every kernel. When lane 0 runs (or the
// register has a base: lane_bases.cpp) and its i + 31 does not pass the type's largest
// value, the lanes where i < n are the lowest
// min(n - i, 32) (none when n <= i), a count made from lane 0's value alone; 64-bit indices
// then need no compare of four vectors, and often no vector at all. Otherwise, and for any
// other operands, the lane-wise lowering as usual (false: not this form).
bool BlockFunctionBuilder::emit_consecutive_compare(const ptx::Instruction& inst) {
  using C = ptx::Compare;
  if (inst.guard || inst.q.bool_op != ptx::BoolOp::None || inst.operands.size() != 3) return false;
  const ptx::Type type = inst.q.type;
  if (!ptx::is_integer(type) || (ptx::bit_width(type) != 32 && ptx::bit_width(type) != 64)) return false;
  const ptx::Operand& p = inst.operands[0];
  if (p.kind != ptx::Operand::Kind::Register || !per_lane(a_.shape[p.reg])) return false;
  auto consecutive = [&](const ptx::Operand& op) {
    return op.kind == ptx::Operand::Kind::Register && !op.negated && op.reg < a_.lane_stride.size() &&
           a_.lane_stride[op.reg] == 1 && register_width(op.reg) == ptx::bit_width(type);
  };
  auto same_in_lanes = [&](const ptx::Operand& op) {
    return op.kind == ptx::Operand::Kind::Immediate ||
           (op.kind == ptx::Operand::Kind::Register && a_.shape[op.reg] == Shape::Uniform);
  };
  // As `index OP bound` with the index on the left: lt, le, gt or ge.
  C c = inst.q.compare;
  if (c == C::Lo) c = C::Lt;
  if (c == C::Ls) c = C::Le;
  if (c == C::Hi) c = C::Gt;
  if (c == C::Hs) c = C::Ge;
  if (c != C::Lt && c != C::Le && c != C::Gt && c != C::Ge) return false;
  const ptx::Operand* index = &inst.operands[1];
  const ptx::Operand* bound = &inst.operands[2];
  if (!consecutive(*index) || !same_in_lanes(*bound)) {
    std::swap(index, bound);
    if (!consecutive(*index) || !same_in_lanes(*bound)) return false;
    c = c == C::Lt ? C::Gt : c == C::Le ? C::Ge : c == C::Gt ? C::Lt : C::Le;
  }
  const bool is_signed = ptx::is_signed_int(type);
  const unsigned bits = ptx::bit_width(type);
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  llvm::BasicBlock* from_lane0 = new_block("setp.consecutive");
  llvm::BasicBlock* lanes = new_block("setp.lanes");
  llvm::BasicBlock* done = new_block("setp.done");
  // A register given a base (lane_bases.cpp) has lane 0's value whether lane 0 runs or not.
  const bool based = lane_base_[index->reg] != nullptr;
  llvm::Value* first = based ? b_.CreateLoad(register_type(index->reg), lane_base_[index->reg])
                             : b_.CreateExtractElement(vector_read(*index, type), uint64_t{0});
  llvm::Value* n = uniform_read(*bound, type);
  const llvm::APInt largest = is_signed ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits);
  llvm::Value* last_fits = is_signed ? b_.CreateICmpSLE(first, b_.getInt(largest - 31))
                                     : b_.CreateICmpULE(first, b_.getInt(largest - 31));
  llvm::Value* lane0_runs = based ? b_.getTrue() : b_.CreateICmpNE(b_.CreateAnd(mask, c32(1)), c32(0));
  b_.CreateCondBr(b_.CreateAnd(lane0_runs, last_fits), from_lane0, lanes);
  b_.SetInsertPoint(from_lane0);
  // The lanes below n (lt, and ge as their complement) or at most n (le, gt).
  const bool at_most = c == C::Le || c == C::Gt;
  llvm::Value* some = at_most ? (is_signed ? b_.CreateICmpSGE(n, first) : b_.CreateICmpUGE(n, first))
                              : (is_signed ? b_.CreateICmpSGT(n, first) : b_.CreateICmpUGT(n, first));
  llvm::Value* gap = b_.CreateSub(n, first);  // exact when `some`: n - first >= 0 fits unsigned
  llvm::Value* all = at_most ? b_.CreateICmpUGE(gap, b_.getIntN(bits, 31)) : b_.CreateICmpUGE(gap, b_.getIntN(bits, 32));
  llvm::Value* count = b_.CreateTrunc(at_most ? b_.CreateAdd(gap, b_.getIntN(bits, 1)) : gap, i32());
  llvm::Value* prefix = b_.CreateSelect(
      some, b_.CreateSelect(all, c32(kNone), b_.CreateSub(b_.CreateShl(c32(1), count), c32(1))), c32(0));
  llvm::Value* result = c == C::Lt || c == C::Le ? prefix : b_.CreateNot(prefix);
  vector_write(p, ptx::Type::Pred, mask_vector(result), mask);
  b_.CreateBr(done);
  b_.SetInsertPoint(lanes);
  emit_lane_wise(inst);
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  return true;
}

// The scalar lowering run once for all lanes, on vectors: its operands as 32 lanes, its
// results written to the lanes that run it.
void BlockFunctionBuilder::emit_lane_wise(const ptx::Instruction& inst) {
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  fl_.thread_context = block_context_;
  fl_.lanes_read = [&](const ptx::Operand& op, ptx::Type type) {
    fl_.lanes = 0;
    llvm::Value* v = vector_read(op, type);
    fl_.lanes = kLanes;
    return v;
  };
  fl_.lanes_write = [&](const ptx::Operand& op, ptx::Type type, llvm::Value* value) {
    fl_.lanes = 0;
    vector_write(op, type, value, mask);
    fl_.lanes = kLanes;
  };
  fl_.lanes = kLanes;
  lower_instruction(fl_, inst);
  fl_.lanes = 0;
  compute_lane_base(inst);
  if (skip_to != nullptr) {
    b_.CreateBr(skip_to);
    b_.SetInsertPoint(skip_to);
  }
}

void BlockFunctionBuilder::emit_uniform(const ptx::Instruction& inst) {
  mode_ = Mode::Uniform;
  fl_.thread_context = block_context_;
  const StatementAccess& acc = access_.at(fl_.current_statement);
  for (uint32_t r : acc.reads) {
    if (a_.shape[r] == Shape::Uniform) {
      bind(r);
      continue;
    }
    // A lane-aligned operand of a uniform result: any running lane's value gives it.
    llvm::AllocaInst* copy = fl_.entry_alloca(register_type(r), 1, "lane.value");
    llvm::Value* first = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {b_.CreateLoad(i32(), cur_mask_), b_.getTrue()});
    b_.CreateStore(b_.CreateExtractElement(load_lanes(r), first), copy);
    fl_.registers[r] = copy;
  }
  for (uint32_t r : acc.writes) bind(r);
  llvm::BasicBlock* after = nullptr;
  if (inst.guard && !acts_once_per_warp(inst)) {
    ptx::Operand guard;
    guard.reg = inst.guard->reg;
    guard.negated = inst.guard->negated;
    llvm::BasicBlock* then = new_block("uniform.guarded");
    after = new_block("uniform.after");
    b_.CreateCondBr(fl_.read(guard, ptx::Type::Pred), then, after);
    b_.SetInsertPoint(then);
  }
  lower_instruction(fl_, inst);
  if (after != nullptr) {
    if (b_.GetInsertBlock()->getTerminator() == nullptr) b_.CreateBr(after);
    b_.SetInsertPoint(after);
  }
}

// The lanes that execute `inst`: the current ones, less those whose guard is false. A
// uniform guard branches to `skip_to` (made here) instead.
llvm::Value* BlockFunctionBuilder::active_mask_for(const ptx::Instruction& inst, llvm::BasicBlock*& skip_to) {
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  skip_to = nullptr;
  if (!inst.guard) return mask;
  ptx::Operand guard;
  guard.reg = inst.guard->reg;
  guard.negated = inst.guard->negated;
  if (a_.shape[guard.reg] == Shape::Uniform) {
    llvm::BasicBlock* then = new_block("guarded");
    skip_to = new_block("after.guard");
    b_.CreateCondBr(uniform_read(guard, ptx::Type::Pred), then, skip_to);
    b_.SetInsertPoint(then);
    return mask;
  }
  return b_.CreateAnd(mask, mask_bits(vector_read(guard, ptx::Type::Pred)));
}

template <typename Body>
void BlockFunctionBuilder::for_each_lane(llvm::Value* mask, Body body) {
  llvm::BasicBlock* before = b_.GetInsertBlock();
  llvm::BasicBlock* header = new_block("lane");
  llvm::BasicBlock* after = new_block("lanes.done");
  b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(0)), after, header);
  b_.SetInsertPoint(header);
  llvm::PHINode* left = b_.CreatePHI(i32(), 2, "lanes.left");
  left->addIncoming(mask, before);
  llvm::Value* lane = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {left, b_.getTrue()});
  body(lane);
  llvm::Value* rest = b_.CreateAnd(left, b_.CreateSub(left, c32(1)));
  left->addIncoming(rest, b_.GetInsertBlock());
  b_.CreateCondBr(b_.CreateICmpNE(rest, c32(0)), header, after);
  b_.SetInsertPoint(after);
}

// Points the per-lane variables (and 32-bit .local addresses) at this lane's frame.
void BlockFunctionBuilder::bind_lane_frame(llvm::Value* lane) {
  llvm::Value* thread = b_.CreateAdd(b_.CreateMul(warp_index(), c32(kLanes)), lane);
  llvm::Value* offset = b_.CreateMul(b_.CreateZExt(thread, b_.getInt64Ty()), b_.getInt64(local_stride_));
  llvm::Value* frame = b_.CreateGEP(b_.getInt8Ty(), local_, offset, "lane.frame");
  fl_.local_anchor = frame;
  for (const ptx::Variable& v : kernel_.locals) {
    auto at = lane_frame_offset_.find(v.name);
    if (at == lane_frame_offset_.end()) continue;
    SymbolBinding s;
    s.space = v.space;
    s.variable = &v;
    s.address = field(frame, at->second);
    fl_.symbols[v.name] = s;
  }
}

void BlockFunctionBuilder::emit_per_lane(const ptx::Instruction& inst, uint32_t statement) {
  const StatementAccess& acc = access_.at(statement);
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  const bool may_exit = inst.opcode == ptx::Opcode::Call && callee_may_exit_;
  if (may_exit) b_.CreateStore(c32(0), lane_exits_);
  std::vector<uint32_t> touched;
  std::set_union(acc.reads.begin(), acc.reads.end(), acc.writes.begin(), acc.writes.end(), std::back_inserter(touched));
  // The lane's copies of the varying registers live in allocas of this instruction alone,
  // so that they become values local to its loop (uniform registers are read in place).
  std::vector<llvm::AllocaInst*> copies(a_.register_count, nullptr);
  // The lanes of a varying register (not a predicate) go through a table, stored before the
  // lanes' loop and read back after it: a lane's value is then one scalar load or store.
  // (An extractelement at a variable lane from a vector in machine registers costs a spill
  // of the whole vector and a load that cannot be forwarded from it, in every pass.)
  std::vector<llvm::AllocaInst*> tables(a_.register_count, nullptr);
  for (uint32_t r : touched) {
    if (!per_lane(a_.shape[r])) {
      bind(r);
      continue;
    }
    copies[r] = fl_.entry_alloca(register_type(r), 1, "lane.copy");
    if (r == carry_) {
      fl_.carry_flag = copies[r];
    } else {
      fl_.registers[r] = copies[r];
    }
    if (register_width(r) == 1) continue;
    tables[r] = fl_.entry_alloca(lanes_of(register_type(r)), 64, "lane.table");
    b_.CreateAlignedStore(load_lanes(r), tables[r], llvm::Align(64));
  }
  auto lane_in_table = [&](uint32_t r, llvm::Value* lane) {
    return b_.CreateGEP(register_type(r), tables[r], b_.CreateZExt(lane, b_.getInt64Ty()));
  };
  for_each_lane(mask, [&](llvm::Value* lane) {
    // The lane's context is made only when the lowering turns out to use it.
    llvm::Instruction* context_point = llvm::cast<llvm::Instruction>(b_.CreateAdd(lane, c32(0), "lane.here"));
    for (uint32_t r : touched) {
      if (copies[r] == nullptr) continue;
      llvm::Value* value = tables[r] != nullptr ? b_.CreateLoad(register_type(r), lane_in_table(r, lane))
                                                : b_.CreateExtractElement(load_lanes(r), lane);
      b_.CreateStore(value, copies[r]);
    }
    bind_lane_frame(lane);
    mode_ = Mode::Lane;
    lane_ = lane;
    fl_.thread_context = lane_context_;
    const unsigned uses_before = lane_context_->getNumUses();
    lower_instruction(fl_, inst);
    if (lane_context_->getNumUses() != uses_before || may_exit) {
      llvm::IRBuilder<> at(context_point);
      llvm::Type* params[] = {fl_.ptr_type(), i32(), i32()};
      at.CreateCall(runtime(kCompiledEnterLane, b_.getVoidTy(), params), {frame_, at.CreateLoad(i32(), warp_index_), lane});
    }
    if (may_exit) {
      llvm::Value* exited = load32(lane_context_, offsetof(ThreadContext, exited));
      llvm::Value* bit = b_.CreateSelect(b_.CreateICmpNE(exited, c32(0)), b_.CreateShl(c32(1), lane), c32(0));
      b_.CreateStore(b_.CreateOr(b_.CreateLoad(i32(), lane_exits_), bit), lane_exits_);
    }
    for (uint32_t r : acc.writes) {
      if (copies[r] == nullptr) continue;
      llvm::Value* lane_value = b_.CreateLoad(copies[r]->getAllocatedType(), copies[r]);
      if (tables[r] != nullptr) {
        b_.CreateStore(lane_value, lane_in_table(r, lane));
      } else {
        store_lanes(r, b_.CreateInsertElement(load_lanes(r), lane_value, lane));
      }
    }
    mode_ = Mode::Uniform;
    lane_ = nullptr;
    fl_.thread_context = block_context_;
  });
  for (uint32_t r : acc.writes)
    if (tables[r] != nullptr) store_lanes(r, b_.CreateAlignedLoad(lanes_of(register_type(r)), tables[r], llvm::Align(64)));

  if (may_exit) {
    // Lanes that executed exit inside the function have ended.
    llvm::Value* exits = b_.CreateLoad(i32(), lane_exits_);
    exit_lanes(exits);
    b_.CreateStore(b_.CreateAnd(b_.CreateLoad(i32(), cur_mask_), b_.CreateNot(exits)), cur_mask_);
  }
  if (skip_to != nullptr) {
    b_.CreateBr(skip_to);
    b_.SetInsertPoint(skip_to);
  }
}

// activemask.b32 d: the lanes executing it together.
void BlockFunctionBuilder::emit_activemask(const ptx::Instruction& inst) {
  if (!fl_.expect_operands(inst, 1)) return;
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  vector_write(inst.operands[0], ptx::Type::B32, b_.CreateVectorSplat(kLanes, mask), mask);
  if (skip_to != nullptr) {
    b_.CreateBr(skip_to);
    b_.SetInsertPoint(skip_to);
  }
}

}  // namespace cucpu::jit::block_function
