// The compiled block function's values: each warp's register file (a slot per register:
// one scalar for a uniform register, 32 lanes for a varying one), special registers per
// lane, and operands read and written as 32 lanes (block_function_builder.h).
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/block_function_builder.h"

namespace cucpu::jit::block_function {

llvm::Value* BlockFunctionBuilder::slot(uint32_t r) {
  if (reg_local_[r] != nullptr) return reg_local_[r];
  return file_slot(r);
}

llvm::Value* BlockFunctionBuilder::file_slot(uint32_t r) {
  if (reg_offset_[r] == kNone) {
    fail(fmt::format("internal error: register {} has no slot", r));
    return llvm::PoisonValue::get(fl_.ptr_type());
  }
  llvm::Value* base = b_.CreateMul(b_.CreateZExt(warp_index(), b_.getInt64Ty()), b_.getInt64(register_stride_));
  return b_.CreateGEP(b_.getInt8Ty(), regs_, b_.CreateAdd(base, b_.getInt64(reg_offset_[r])));
}

llvm::Value* BlockFunctionBuilder::load_lanes(uint32_t r) {
  if (register_width(r) == 1) return mask_vector(b_.CreateAlignedLoad(i32(), slot(r), llvm::Align(4)));
  return b_.CreateAlignedLoad(lanes_of(register_type(r)), slot(r), llvm::Align(64));
}

void BlockFunctionBuilder::store_lanes(uint32_t r, llvm::Value* lanes) {
  if (register_width(r) == 1) {
    b_.CreateAlignedStore(mask_bits(lanes), slot(r), llvm::Align(4));
  } else {
    b_.CreateAlignedStore(lanes, slot(r), llvm::Align(64));
  }
}

void BlockFunctionBuilder::find_only_writes() {
  const uint32_t count = a_.register_count;
  only_write_.assign(count, kNone);
  std::vector<uint32_t> writes(count, 0);
  for (uint32_t i = 0; i < access_.statements.size(); ++i)
    for (uint32_t r : access_.statements[i].writes) {
      if (r >= count) continue;
      only_write_[r] = ++writes[r] == 1 ? i : kNone;
    }
}

const ptx::Instruction* BlockFunctionBuilder::sole_unguarded_write(uint32_t r) const {
  if (r >= only_write_.size() || only_write_[r] == kNone) return nullptr;
  const ptx::Statement& statement = kernel_.body[only_write_[r]];
  if (statement.kind != ptx::Statement::Kind::Instruction || statement.instruction.guard) return nullptr;
  return &statement.instruction;
}

// Registers that hold one constant wherever they are read: written by a single unguarded
// `mov` of an integer immediate whose block dominates every block that reads them (reads in
// its own block come after it). nvcc materialises shuffle offsets, clamps and member masks
// so (`mov.u32 %r9, 16; shfl.sync.down.b32 %r11|%p2, %r6, %r9, %r8, %r10;`); read as
// constants, they let LLVM fold a shuffle to one rotation and its membership checks away,
// where their values would otherwise come back from the file at every resume point.
void BlockFunctionBuilder::find_constant_registers() {
  const uint32_t count = a_.register_count;
  constant_value_.assign(count, nullptr);
  constant_def_.assign(count, nullptr);
  const KernelCfg& cfg = a_.cfg;
  std::vector<uint32_t> block_of(kernel_.body.size(), kNoBlock);
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) block_of[i] = b;
  std::vector<uint32_t> candidates;
  for (uint32_t r = 0; r < count; ++r) {
    if (only_write_[r] == kNone || r == carry_ || a_.shape[r] != Shape::Uniform) continue;
    const ptx::Statement& statement = kernel_.body[only_write_[r]];
    if (statement.kind != ptx::Statement::Kind::Instruction) continue;
    const ptx::Instruction& inst = statement.instruction;
    if (inst.opcode != ptx::Opcode::Mov || inst.guard || inst.operands.size() != 2) continue;
    const ptx::Operand& to = inst.operands[0];
    const ptx::Operand& from = inst.operands[1];
    if (to.kind != ptx::Operand::Kind::Register || to.reg != r || from.kind != ptx::Operand::Kind::Immediate ||
        from.imm_is_float || from.imm_is_double || ptx::is_float(inst.q.type) ||
        ptx::bit_width(inst.q.type) != register_width(r) || block_of[only_write_[r]] == kNoBlock ||
        !cfg.blocks[block_of[only_write_[r]]].reachable)
      continue;
    candidates.push_back(r);
  }
  if (candidates.empty()) return;
  std::vector<uint8_t> dominated(count, 1);
  for (uint32_t i = 0; i < access_.statements.size(); ++i) {
    if (i >= block_of.size() || block_of[i] == kNoBlock || !cfg.blocks[block_of[i]].reachable) continue;
    for (uint32_t r : access_.statements[i].reads) {
      if (only_write_[r] == kNone || !dominated[r]) continue;
      const uint32_t at = block_of[only_write_[r]];
      dominated[r] = block_of[i] == at ? i > only_write_[r] : cfg.dominates(at, block_of[i]);
    }
  }
  for (uint32_t r : candidates) {
    if (!dominated[r]) continue;
    const ptx::Instruction& inst = kernel_.body[only_write_[r]].instruction;
    llvm::Type* type = register_type(r);
    constant_value_[r] = new llvm::GlobalVariable(
        *fl_.llvm_fn->getParent(), type, true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantInt::get(type, inst.operands[1].imm), fmt::format("{}.r{}", kernel_.name, r));
    constant_def_[r] = &inst;
  }
}

// Whether every warp collective of the kernel names all 32 lanes (0xffffffff, written so or
// in a constant register): then the lanes of a warp that run a block together never part
// at one (a collective of partial or per-lane masks may complete for some of them while the
// others wait there), and a block outside divergent code runs with every live lane.
bool BlockFunctionBuilder::collectives_name_whole_warps() const {
  for (const ptx::Statement& statement : kernel_.body) {
    if (statement.kind != ptx::Statement::Kind::Instruction || !is_warp_collective(statement.instruction)) continue;
    const ptx::Operand& m = statement.instruction.operands.back();
    uint64_t members = 0;
    if (m.kind == ptx::Operand::Kind::Immediate) {
      members = m.imm;
    } else if (m.kind == ptx::Operand::Kind::Register && m.reg < constant_def_.size() && constant_def_[m.reg] != nullptr) {
      members = constant_def_[m.reg]->operands[1].imm;
    } else {
      return false;
    }
    if (static_cast<uint32_t>(members) != kNone) return false;
  }
  return true;
}

void BlockFunctionBuilder::bind(uint32_t r) {
  if (a_.shape[r] != Shape::Uniform) return;
  if (constant_value_[r] != nullptr && fl_.current != constant_def_[r]) {
    fl_.registers[r] = constant_value_[r];  // find_constant_registers
    return;
  }
  if (r == carry_) {
    fl_.carry_flag = slot(r);
  } else {
    fl_.registers[r] = slot(r);
  }
}

void BlockFunctionBuilder::bind_operand(const ptx::Operand& op) {
  if (op.kind == ptx::Operand::Kind::Register && op.reg < a_.shape.size()) bind(op.reg);
  for (const ptx::Operand& element : op.elements) bind_operand(element);
}


// --- special registers -------------------------------------------------------------

// A thread's linear index in the block: warp * 32 + lane.
llvm::Value* BlockFunctionBuilder::lane_special(ptx::SpecialRegister sreg, unsigned component, llvm::Value* lane) {
  using S = ptx::SpecialRegister;
  llvm::Value* linear = b_.CreateAdd(b_.CreateMul(warp_index(), c32(kLanes)), lane);
  switch (sreg) {
    case S::Tid:
      if (component == 0) return b_.CreateURem(linear, c32(shape_.x));
      if (component == 1) return b_.CreateURem(b_.CreateUDiv(linear, c32(shape_.x)), c32(shape_.y));
      return b_.CreateUDiv(linear, c32(shape_.x * shape_.y));
    case S::Laneid:
      return lane;
    case S::LanemaskEq:
      return b_.CreateShl(c32(1), lane);
    case S::LanemaskLt:
      return b_.CreateSub(b_.CreateShl(c32(1), lane), c32(1));
    case S::LanemaskLe:
      return b_.CreateSub(b_.CreateShl(c32(2), lane), c32(1));
    case S::LanemaskGe:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(c32(1), lane), c32(1)));
    case S::LanemaskGt:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(c32(2), lane), c32(1)));
    default:
      return nullptr;
  }
}

llvm::Value* BlockFunctionBuilder::special_register(ptx::SpecialRegister sreg, unsigned component) {
  using S = ptx::SpecialRegister;
  switch (sreg) {
    case S::Ntid:
      return c32(component == 0 ? shape_.x : component == 1 ? shape_.y : shape_.z);
    case S::Warpid:
      return warp_index();
    default:
      break;
  }
  if (mode_ == Mode::Lane) {
    if (llvm::Value* v = lane_special(sreg, component, lane_)) return v;
    // The block's registers come from the block's context, not the lane's.
    llvm::Value* saved = fl_.thread_context;
    fl_.thread_context = block_context_;
    mode_ = Mode::Uniform;
    llvm::Value* v = fl_.special_register(sreg, component);
    mode_ = Mode::Lane;
    fl_.thread_context = saved;
    return v;
  }
  // A uniform read of a thread index is the same in every lane: lane 0's.
  if (sreg == S::Tid) return lane_special(sreg, component, c32(0));
  return nullptr;
}

llvm::Value* BlockFunctionBuilder::vector_special(ptx::SpecialRegister sreg, unsigned component) {
  std::vector<llvm::Constant*> numbers;
  for (uint32_t l = 0; l < kLanes; ++l) numbers.push_back(b_.getInt32(l));
  llvm::Value* iota = llvm::ConstantVector::get(numbers);
  llvm::Value* base = b_.CreateVectorSplat(kLanes, b_.CreateMul(warp_index(), c32(kLanes)));
  using S = ptx::SpecialRegister;
  llvm::Value* linear = b_.CreateAdd(base, iota);
  auto splat = [&](uint32_t x) { return b_.CreateVectorSplat(kLanes, c32(x)); };
  switch (sreg) {
    case S::Tid:
      if (component == 0) return b_.CreateURem(linear, splat(shape_.x));
      if (component == 1) return b_.CreateURem(b_.CreateUDiv(linear, splat(shape_.x)), splat(shape_.y));
      return b_.CreateUDiv(linear, splat(shape_.x * shape_.y));
    case S::Laneid:
      return iota;
    case S::LanemaskEq:
      return b_.CreateShl(splat(1), iota);
    case S::LanemaskLt:
      return b_.CreateSub(b_.CreateShl(splat(1), iota), splat(1));
    case S::LanemaskLe:
      return b_.CreateSub(b_.CreateShl(splat(2), iota), splat(1));
    case S::LanemaskGe:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(splat(1), iota), splat(1)));
    case S::LanemaskGt:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(splat(2), iota), splat(1)));
    default: {
      Mode saved = mode_;
      mode_ = Mode::Uniform;
      llvm::Value* one = fl_.special_register(sreg, component);
      mode_ = saved;
      return b_.CreateVectorSplat(kLanes, one);
    }
  }
}

// --- operands as 32 lanes ------------------------------------------------------------

llvm::Value* BlockFunctionBuilder::uniform_read(const ptx::Operand& op, ptx::Type type) {
  bind_operand(op);
  const Mode saved = mode_;
  mode_ = Mode::Uniform;
  llvm::Value* v = fl_.read(op, type);
  mode_ = saved;
  return v;
}

llvm::Value* BlockFunctionBuilder::vector_read(const ptx::Operand& op, ptx::Type type) {
  llvm::Type* want = fl_.value_type(type);
  if (op.kind == ptx::Operand::Kind::Register && op.reg < a_.shape.size() && per_lane(a_.shape[op.reg])) {
    llvm::Value* bits = lane_base_[op.reg] != nullptr ? lanes_from_base(op.reg) : load_lanes(op.reg);
    if (type == ptx::Type::Pred) return op.negated ? b_.CreateNot(bits) : bits;
    const unsigned width = ptx::bit_width(type);
    const unsigned have = register_width(op.reg);
    llvm::Type* lanes = lanes_of(fl_.int_type(width));
    if (have > width) bits = b_.CreateTrunc(bits, lanes);
    if (have < width) bits = ptx::is_signed_int(type) ? b_.CreateSExt(bits, lanes) : b_.CreateZExt(bits, lanes);
    return want->isIntegerTy() ? bits : b_.CreateBitCast(bits, lanes_of(want));
  }
  if (op.kind == ptx::Operand::Kind::SpecialRegister && special_register_varies(op.sreg, op.component, shape_)) {
    llvm::Value* v = vector_special(op.sreg, op.component);
    const unsigned width = ptx::bit_width(type);
    llvm::Type* lanes = lanes_of(fl_.int_type(width));
    if (width < 32) v = b_.CreateTrunc(v, lanes);
    if (width > 32) v = b_.CreateZExt(v, lanes);
    return want->isIntegerTy() ? v : b_.CreateBitCast(v, lanes_of(want));
  }
  return b_.CreateVectorSplat(kLanes, uniform_read(op, type));
}

void BlockFunctionBuilder::vector_write(const ptx::Operand& op, ptx::Type type, llvm::Value* value, llvm::Value* mask) {
  if (fl_.is_sink(op)) return;
  if (op.kind != ptx::Operand::Kind::Register || !per_lane(a_.shape[op.reg])) {
    fail("internal error: a per-lane result written to a register that is not varying");
    return;
  }
  const uint32_t r = op.reg;
  const unsigned have = register_width(r);
  llvm::Type* element = value->getType()->getScalarType();
  if (!element->isIntegerTy()) value = b_.CreateBitCast(value, lanes_of(fl_.int_type(element->getPrimitiveSizeInBits())));
  const unsigned width = value->getType()->getScalarSizeInBits();
  llvm::Type* lanes = lanes_of(fl_.int_type(have));
  if (width > have) value = b_.CreateTrunc(value, lanes);
  if (width < have) value = ptx::is_signed_int(type) ? b_.CreateSExt(value, lanes) : b_.CreateZExt(value, lanes);
  // Lanes outside the mask keep their value, unless the mask is every lane of the warp that
  // has not exited: an unguarded instruction of a block they all run (emit_block:
  // converged_), where an exited lane's registers are dead; or unless no lane outside it
  // reads the register before writing it again: none waits where it is live
  // (waiting_lanes_read_), as for an address computed and used inside `if (i < n)`.
  const bool unguarded = emitting_ && fl_.current != nullptr && !fl_.current->guard;
  const bool whole =
      unguarded && (converged_ || (lanes_wait_only_at_blocks_ && !waiting_lanes_read_.test(r)));
  store_lanes(r, whole ? value : b_.CreateSelect(mask_vector(mask), value, load_lanes(r)));
}

}  // namespace cucpu::jit::block_function
