// Lane bases of the compiled block function (block_function_builder.h): for a per-lane
// register whose lanes always hold base + lane * stride (WarpAnalysis::lane_stride), such as
// `i = blockIdx.x * blockDim.x + threadIdx.x` and the addresses made from it, the base as
// one scalar, computed by the scalar lowering alongside the lanes' vector. Reads then make the
// vector from the base (vector_read), and the lane-0 paths of loads, stores and compares take
// the base itself: the vector arithmetic that produced the register is left with no reader,
// and LLVM drops it. A warp's 64-bit index and address vectors (four registers each, for every
// step) cost more than the accesses they served.
#include <fmt/format.h>

#include "jit/block_function_builder.h"

namespace cucpu::jit::block_function {

// The registers given a base: per-lane, 32 or 64 bits wide, with a lane stride, written only
// by unguarded mov/add/sub/shl/mul/mad/cvt whose operands are constants, registers the same
// in every lane, %tid or registers given a base themselves (so the scalar lowering of the same
// instruction on the bases gives the result's base), never inside a divergent region,
// run-local and not live where a run begins (a base is a variable of the function, shared by
// the warps, and does not go through the register file: every read finds it written earlier
// in the same run), nor where lanes wait in queues.
void BlockFunctionBuilder::find_lane_bases() {
  const auto count = a_.register_count;
  std::vector<uint8_t> based(count, 0);
  RegisterSet resumed(count);
  for (size_t p = 1; p < points_.size(); ++p) resumed.merge(a_.live_in[points_[p].block]);
  for (uint32_t r = 0; r < count; ++r)
    based[r] = r != carry_ && r < a_.lane_stride.size() && a_.lane_stride[r] != kNoLaneStride &&
               per_lane(a_.shape[r]) && run_local_[r] && (register_width(r) == 32 || register_width(r) == 64) &&
               !resumed.test(r) && !waiting_lanes_read_.test(r);
  auto computable = [&](const ptx::Instruction& inst, uint32_t statement) {
    using O = ptx::Opcode;
    const O o = inst.opcode;
    if (o != O::Mov && o != O::Add && o != O::Sub && o != O::Shl && o != O::Mul && o != O::Mad && o != O::Cvt)
      return false;
    if (inst.guard || inst.q.carry || access_.at(statement).writes.size() != 1) return false;
    for (size_t i = 1; i < inst.operands.size(); ++i) {
      const ptx::Operand& op = inst.operands[i];
      if (op.kind == ptx::Operand::Kind::Immediate) continue;
      if (op.kind == ptx::Operand::Kind::SpecialRegister && op.sreg == ptx::SpecialRegister::Tid) continue;
      if (op.kind != ptx::Operand::Kind::Register || op.reg >= count) return false;
      if (a_.shape[op.reg] != Shape::Uniform && !based[op.reg]) return false;
    }
    return true;
  };
  // A write inside a divergent region changes some lanes while lanes waiting elsewhere may
  // still read the value from before: one base cannot serve both.
  const KernelCfg& cfg = a_.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end && inside_[b]; ++i)
      for (uint32_t r : access_.at(i).writes)
        if (r < count) based[r] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < kernel_.body.size(); ++i) {
      if (kernel_.body[i].kind != ptx::Statement::Kind::Instruction) continue;
      for (uint32_t r : access_.at(i).writes) {
        if (r >= count || !based[r] || computable(kernel_.body[i].instruction, i)) continue;
        based[r] = 0;
        changed = true;
      }
    }
  }
  lane_base_.assign(count, nullptr);
  for (uint32_t r = 0; r < count; ++r)
    if (based[r]) lane_base_[r] = fl_.entry_alloca(register_type(r), 8, fmt::format("r{}.base", r));
}

// After `inst` wrote its register's lanes: the same instruction on the bases.
void BlockFunctionBuilder::compute_lane_base(const ptx::Instruction& inst) {
  const StatementAccess& acc = access_.at(fl_.current_statement);
  if (acc.writes.size() != 1 || lane_base_[acc.writes[0]] == nullptr) return;
  const Mode saved_mode = mode_;
  mode_ = Mode::Uniform;
  fl_.thread_context = block_context_;
  std::vector<std::pair<uint32_t, llvm::Value*>> saved;
  auto point_at = [&](uint32_t r, llvm::Value* where) {
    saved.emplace_back(r, fl_.registers[r]);
    fl_.registers[r] = where;
  };
  for (uint32_t r : acc.reads) {
    if (lane_base_[r] != nullptr) {
      point_at(r, lane_base_[r]);
    } else {
      bind(r);  // the same in every lane
    }
  }
  point_at(acc.writes[0], lane_base_[acc.writes[0]]);
  lower_instruction(fl_, inst);
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) fl_.registers[it->first] = it->second;
  mode_ = saved_mode;
}

// The register's lanes made from its base: base + lane * stride, in the register's width.
llvm::Value* BlockFunctionBuilder::lanes_from_base(uint32_t r) {
  llvm::Type* type = register_type(r);
  std::vector<llvm::Constant*> steps;
  for (uint32_t l = 0; l < kLanes; ++l)
    steps.push_back(llvm::ConstantInt::get(type, static_cast<uint64_t>(a_.lane_stride[r]) * l));
  llvm::Value* base = b_.CreateLoad(type, lane_base_[r]);
  return b_.CreateAdd(b_.CreateVectorSplat(kLanes, base), llvm::ConstantVector::get(steps));
}

// Lane `lane`'s value of a register given a base.
llvm::Value* BlockFunctionBuilder::lane_from_base(uint32_t r, llvm::Value* lane) {
  llvm::Type* type = register_type(r);
  llvm::Value* base = b_.CreateLoad(type, lane_base_[r]);
  return b_.CreateAdd(base, b_.CreateMul(b_.CreateZExtOrTrunc(lane, type),
                                         llvm::ConstantInt::get(type, static_cast<uint64_t>(a_.lane_stride[r]))));
}

}  // namespace cucpu::jit::block_function
