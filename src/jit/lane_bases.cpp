// Lane bases of the compiled block function (block_function_builder.h): for a per-lane
// register whose lanes always hold base + lane * stride (WarpAnalysis::lane_stride), such as
// `i = blockIdx.x * blockDim.x + threadIdx.x` and the addresses made from it, the base as
// one scalar, computed by the scalar lowering alongside the lanes' vector. Reads then make the
// vector from the base (vector_read), and the lane-0 paths of loads, stores and compares take
// the base itself: the vector arithmetic that produced the register is left with no reader,
// and LLVM drops it. A warp's 64-bit index and address vectors (four registers each, for every
// step) cost more than the accesses they served.
#include <fmt/format.h>

#include <algorithm>

#include "jit/block_function_builder.h"
#include "support/log.h"

namespace cucpu::jit::block_function {

// Whether statement `statement`, `inst`, is arithmetic whose scalar lowering on lane 0's
// values gives lane 0's result: an unguarded mov/add/sub/shl/mul/mad/cvt with one result and
// no carry (its operands are the callers' to check).
bool BlockFunctionBuilder::base_arithmetic(const ptx::Instruction& inst, uint32_t statement) const {
  using O = ptx::Opcode;
  const O o = inst.opcode;
  if (o != O::Mov && o != O::Add && o != O::Sub && o != O::Shl && o != O::Mul && o != O::Mad && o != O::Cvt)
    return false;
  return !inst.guard && !inst.q.carry && access_.at(statement).writes.size() == 1;
}

// The registers given a base: per-lane, 32 or 64 bits wide, with a lane stride, written only
// by unguarded mov/add/sub/shl/mul/mad/cvt whose operands are constants, registers the same
// in every lane, %tid or registers given a base themselves (so the scalar lowering of the same
// instruction on the bases gives the result's base), inside a divergent region only if no
// lane waiting elsewhere reads it, run-local, not read by lanes waiting in a queue, and not
// live where a run begins unless made again there (find_rematerialized): a base is a
// variable of the function, shared by the warps, and does not go through the register file:
// every read finds it written earlier in the same run. (Lanes waiting in an if-then's carry
// read a base no write inside the then-block could change: such writes are divergent.)
void BlockFunctionBuilder::find_lane_bases() {
  const auto count = a_.register_count;
  std::vector<uint8_t> based(count, 0);
  RegisterSet resumed(count), queued(count), eligible(count);
  for (size_t p = 1; p < points_.size(); ++p) resumed.merge(a_.live_in[points_[p].block]);
  for (uint32_t b = 0; b < a_.cfg.blocks.size(); ++b)
    if (candidate_[b]) queued.merge(a_.live_in[b]);
  for (uint32_t r = 0; r < count; ++r)
    if (r != carry_ && r < a_.lane_stride.size() && a_.lane_stride[r] != kNoLaneStride && per_lane(a_.shape[r]) &&
        run_local_[r] && (register_width(r) == 32 || register_width(r) == 64) && !queued.test(r))
      eligible.set(r);
  const RegisterSet remade = find_rematerialized(resumed, eligible);
  for (uint32_t r = 0; r < count; ++r) based[r] = eligible.test(r) && (!resumed.test(r) || remade.test(r));
  auto computable = [&](const ptx::Instruction& inst, uint32_t statement) {
    if (!base_arithmetic(inst, statement)) return false;
    for (size_t i = 1; i < inst.operands.size(); ++i) {
      const ptx::Operand& op = inst.operands[i];
      if (op.kind == ptx::Operand::Kind::Immediate) continue;
      if (op.kind == ptx::Operand::Kind::SpecialRegister && op.sreg == ptx::SpecialRegister::Tid) continue;
      if (op.kind != ptx::Operand::Kind::Register || op.reg >= count) return false;
      if (a_.shape[op.reg] != Shape::Uniform && !based[op.reg]) return false;
    }
    return true;
  };
  // A write inside a divergent region changes some lanes while lanes waiting elsewhere (in a
  // queue, an if-then's carry, parked) may still read the value from before: one base cannot
  // serve both. A register no waiting lane reads (`s[tid + stride]`'s address, made and used
  // inside `if (tid < stride)`) has the running lanes' base alone.
  const KernelCfg& cfg = a_.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end && inside_[b]; ++i)
      for (uint32_t r : access_.at(i).writes)
        if (r < count && waiting_lanes_read_.test(r)) based[r] = 0;
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
  rematerialized_.assign(count, 0);
  uint32_t remade_count = 0;
  remade.for_each([&](uint32_t r) {
    rematerialized_[r] = 1;
    ++remade_count;
    // find_rematerialized asks of a varying register what `computable` asks, and more.
    if (per_lane(a_.shape[r]) && lane_base_[r] == nullptr)
      fail(fmt::format("internal error: register {} is made again where runs begin but has no base", r));
  });
  if (remade_count != 0)
    log::debug(log::Category::Jit, "kernel {}: {} registers made again where runs begin, not kept in the file",
               kernel_.name, remade_count);
}

// Registers live where runs begin that are made again there instead of loaded from the
// warp's file: written once, outside every divergent region, by a mov/add/sub/shl/mul/mad/cvt
// of constants, variables' addresses, %tid, %ntid, %ctaid, %nctaid and such registers written
// earlier in the kernel. Each is then a function of the thread's place alone: the same value
// wherever it is read, which the run recomputes from the warp's index (a varying one as its
// base: `tid = threadIdx.x` and `&sdata[tid]` of a barrier loop cost two vector loads per
// warp and round from the file, and hid from LLVM that lane 0's address is aligned). Not
// where lanes of a warp may split for good, and not live at the kernel's entry (read before
// written). `eligible`: the varying registers that may have a base.
RegisterSet BlockFunctionBuilder::find_rematerialized(const RegisterSet& resumed, const RegisterSet& eligible) {
  const auto count = a_.register_count;
  RegisterSet remade(count);
  if (a_.lanes_may_split) return remade;
  std::vector<uint8_t> in_divergent_code(kernel_.body.size(), 0);
  const KernelCfg& cfg = a_.cfg;
  for (uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) in_divergent_code[i] = inside_[b];
  const RegisterSet& at_entry = a_.live_in[points_[0].block];
  for (uint32_t r = 0; r < count; ++r) {
    const uint32_t w = only_write_[r];
    if (w == kNone || at_entry.test(r) || r == carry_ || in_divergent_code[w]) continue;
    if (a_.shape[r] == Shape::Uniform ? !run_local_[r] || kept_for_block_[r] || constant_value_[r] != nullptr
                                       : !eligible.test(r))
      continue;
    remade.set(r);
  }
  auto pure = [&](uint32_t r) {
    using S = ptx::SpecialRegister;
    const ptx::Instruction& inst = kernel_.body[only_write_[r]].instruction;
    const bool varying = a_.shape[r] != Shape::Uniform;
    if (!base_arithmetic(inst, only_write_[r])) return false;
    for (size_t i = 1; i < inst.operands.size(); ++i) {
      const ptx::Operand& op = inst.operands[i];
      switch (op.kind) {
        case ptx::Operand::Kind::Immediate:
          continue;
        case ptx::Operand::Kind::Symbol:
          // An address, the same in every lane (not a lane's own variable). A varying
          // register's operands are those of a base's instruction (computable): %tid alone.
          if (lane_frame_offset_.count(op.name) != 0 || varying) return false;
          continue;
        case ptx::Operand::Kind::SpecialRegister:
          if (varying ? op.sreg != S::Tid
                      : op.sreg != S::Tid && op.sreg != S::Ntid && op.sreg != S::Ctaid && op.sreg != S::Nctaid)
            return false;
          continue;
        case ptx::Operand::Kind::Register:
          // Written earlier in the kernel and remade itself, or one constant everywhere.
          if (op.reg >= count) return false;
          if (constant_value_[op.reg] != nullptr) continue;
          if (!remade.test(op.reg) || only_write_[op.reg] >= only_write_[r]) return false;
          continue;
        default:
          return false;
      }
    }
    return true;
  };
  for (bool changed = true; changed;) {
    changed = false;
    remade.for_each([&](uint32_t r) {
      if (pure(r)) return;
      remade.reset(r);
      changed = true;
    });
  }
  // Only those a run needs, and what they are made from.
  RegisterSet needed(count);
  std::vector<uint32_t> work;
  remade.for_each([&](uint32_t r) {
    if (resumed.test(r)) work.push_back(r);
  });
  while (!work.empty()) {
    const uint32_t r = work.back();
    work.pop_back();
    if (needed.test(r)) continue;
    needed.set(r);
    for (uint32_t o : access_.at(only_write_[r]).reads)
      if (o < count && remade.test(o)) work.push_back(o);
  }
  return needed;
}

// Where a run begins: the rematerialized registers live there, and what they are made of,
// in the order the kernel writes them (find_rematerialized).
void BlockFunctionBuilder::rematerialize(const RegisterSet& live) {
  RegisterSet wanted(a_.register_count);
  std::vector<uint32_t> work;
  live.for_each([&](uint32_t r) {
    if (rematerialized_[r]) work.push_back(r);
  });
  std::vector<uint32_t> statements;
  while (!work.empty()) {
    const uint32_t r = work.back();
    work.pop_back();
    if (wanted.test(r)) continue;
    wanted.set(r);
    statements.push_back(only_write_[r]);
    for (uint32_t o : access_.at(only_write_[r]).reads)
      if (o < rematerialized_.size() && rematerialized_[o]) work.push_back(o);
  }
  std::sort(statements.begin(), statements.end());
  const ptx::Instruction* saved_current = fl_.current;
  const uint32_t saved_statement = fl_.current_statement;
  const Mode saved_mode = mode_;
  for (uint32_t i : statements) {
    const ptx::Instruction& inst = kernel_.body[i].instruction;
    const uint32_t r = access_.at(i).writes[0];
    fl_.current = &inst;
    fl_.current_statement = i;
    if (a_.shape[r] == Shape::Uniform) {
      emit_uniform(inst);
    } else {
      compute_lane_base(inst);
      store_lanes(r, lanes_from_base(r));
    }
  }
  fl_.current = saved_current;
  fl_.current_statement = saved_statement;
  mode_ = saved_mode;
  fl_.thread_context = block_context_;
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
