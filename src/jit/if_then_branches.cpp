// If-then branches of the compiled block function (block_function_builder.h): `if (c) { T }`
// with the lanes that skip T waiting in a variable rather than the join's queue, and, in
// uniform rounds, warps that have nothing to do in the rest of a round not visited at all.
#include <fmt/format.h>

#include "jit/block_function_builder.h"

namespace cucpu::jit::block_function {
namespace {

// Instructions whose only effect is to write registers: no memory, no trap, no lane's
// exit, nothing another thread sees.
bool writes_registers_only(const ptx::Instruction& inst) {
  for (const ptx::Operand& op : inst.operands)
    if (op.kind == ptx::Operand::Kind::Address) return false;
  switch (inst.opcode) {
    case ptx::Opcode::Mov:
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Mul:
    case ptx::Opcode::Mad:
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
    case ptx::Opcode::Neg:
    case ptx::Opcode::Abs:
    case ptx::Opcode::And:
    case ptx::Opcode::Or:
    case ptx::Opcode::Xor:
    case ptx::Opcode::Not:
    case ptx::Opcode::Cnot:
    case ptx::Opcode::Shl:
    case ptx::Opcode::Shr:
    case ptx::Opcode::Setp:
    case ptx::Opcode::Selp:
    case ptx::Opcode::Cvt:
    case ptx::Opcode::Cvta:
      return true;
    default:
      return false;
  }
}

}  // namespace

// A varying branch around one block, `if (c) { T }` (nvcc's `@p bra J; T; J:`), whose three
// blocks follow each other in the order the warp runs waiting blocks: while T runs, no other
// block can have lanes waiting before J, so the lanes that skip T can wait in a variable (the
// join's carry) instead of J's queue, and T goes straight on to J with them. The same blocks
// run with the same lanes as through the queue, without its memory and dispatch jump.
void BlockFunctionBuilder::find_if_then_branches() {
  const KernelCfg& cfg = a_.cfg;
  if_then_.assign(cfg.blocks.size(), kNone);
  auto yields = [&](uint32_t b) {
    const ptx::Instruction* last = cfg.last_instruction(kernel_, b);
    return last != nullptr && yield_branches_.count(last) != 0;
  };
  for (uint32_t a = 0; a < cfg.blocks.size(); ++a) {
    const CfgBlock& branch = cfg.blocks[a];
    if (!branch.reachable || !a_.varying_branch[a] || branch.how != BlockEnd::CondBranch || yields(a)) continue;
    if (branch.successors.size() != 2 || branch.successors[0] == branch.successors[1]) continue;
    for (const uint32_t then : branch.successors) {
      const uint32_t join = then == branch.successors[0] ? branch.successors[1] : branch.successors[0];
      const CfgBlock& body = cfg.blocks[then];
      const bool simple = (body.how == BlockEnd::FallThrough || body.how == BlockEnd::Branch) && !yields(then) &&
                          body.successors.size() == 1 && body.successors[0] == join && body.predecessors.size() == 1;
      if (simple && cfg.ipdom[a] == join && cfg.rank[then] == cfg.rank[a] + 1 && cfg.rank[join] == cfg.rank[then] + 1)
        if_then_[a] = then;
    }
  }
}

// An if-then's branch (find_if_then_branches): the lanes that skip its block wait in the
// join's carry while the others run it; with none to run it, all go on to the join, or, where
// the warps after this one would do the same (rest_idle_), this one parks there and the round
// ends.
void BlockFunctionBuilder::enter_if_then(uint32_t branch, uint32_t taken, llvm::Value* taken_mask,
                                         llvm::Value* other_mask, llvm::Value* mask) {
  const uint32_t then = if_then_[branch];
  const uint32_t join = a_.cfg.blocks[then].successors[0];
  llvm::Value* then_mask = then == taken ? taken_mask : other_mask;
  llvm::BasicBlock* enter = new_block("if_then.enter");
  llvm::BasicBlock* skip = new_block("if_then.skip");
  b_.CreateCondBr(b_.CreateICmpNE(then_mask, c32(0)), enter, skip);
  b_.SetInsertPoint(enter);
  b_.CreateStore(b_.CreateAnd(mask, b_.CreateNot(then_mask)), join_carry_[then]);
  go_to(then, then_mask);
  b_.SetInsertPoint(skip);
  if (rest_idle_[branch]) {
    park_in_uniform_round(park_point_[join], mask, true);
  } else {
    go_to(join, mask);
  }
}

// Whether the lanes of `branch` whose guard register is `value` are those whose %tid.x is
// below a bound the same for the whole block (`tid < s`, `s > tid`, `!(s <= tid)`, with `<=`
// too), in a block one row of warps high: then a warp with no such lane has only later warps
// after it with none either (its lanes that fail the test have lower %tid.x than theirs).
bool BlockFunctionBuilder::guard_below_bound(uint32_t branch, bool value) {
  if (shape_.y != 1 || shape_.z != 1) return false;
  const KernelCfg& cfg = a_.cfg;
  const CfgBlock& block = cfg.blocks[branch];
  const ptx::Instruction* bra = cfg.last_instruction(kernel_, branch);
  if (bra == nullptr || !bra->guard) return false;
  // The setp that last wrote the guard, in this block.
  const ptx::Instruction* setp = nullptr;
  for (uint32_t i = block.first; i < block.end; ++i) {
    if (kernel_.body[i].kind != ptx::Statement::Kind::Instruction || &kernel_.body[i].instruction == bra) continue;
    const std::vector<uint32_t>& writes = access_.at(i).writes;
    if (std::find(writes.begin(), writes.end(), bra->guard->reg) != writes.end()) setp = &kernel_.body[i].instruction;
  }
  if (setp == nullptr || setp->opcode != ptx::Opcode::Setp || setp->guard || setp->q.bool_op != ptx::BoolOp::None ||
      setp->operands.size() != 3 || setp->operands[0].kind != ptx::Operand::Kind::Register ||
      setp->operands[0].reg != bra->guard->reg)
    return false;
  if (setp->q.type != ptx::Type::U32 && setp->q.type != ptx::Type::S32) return false;
  // A register whose value never decreases as %tid.x grows: %tid.x itself (every write of it
  // `mov r, %tid.x`) or it shifted right by a constant (`threadIdx.x / 32`, the warp's number).
  auto is_tid_x = [&](const ptx::Operand& op) {
    const ptx::Instruction* def = op.kind == ptx::Operand::Kind::Register ? sole_unguarded_write(op.reg) : nullptr;
    return def != nullptr && def->opcode == ptx::Opcode::Mov && def->operands.size() == 2 &&
           def->operands[1].kind == ptx::Operand::Kind::SpecialRegister &&
           def->operands[1].sreg == ptx::SpecialRegister::Tid && def->operands[1].component == 0;
  };
  auto grows_with_tid = [&](const ptx::Operand& op) {
    if (is_tid_x(op)) return true;
    const ptx::Instruction* def = op.kind == ptx::Operand::Kind::Register ? sole_unguarded_write(op.reg) : nullptr;
    return def != nullptr && def->opcode == ptx::Opcode::Shr && def->q.type != ptx::Type::S32 &&
           def->operands.size() == 3 && is_tid_x(def->operands[1]) &&
           def->operands[2].kind == ptx::Operand::Kind::Immediate;
  };
  auto same_for_block = [&](const ptx::Operand& op) {
    return op.kind == ptx::Operand::Kind::Immediate ||
           (op.kind == ptx::Operand::Kind::Register && op.reg < a_.block_uniform.size() && a_.block_uniform[op.reg]);
  };
  using C = ptx::Compare;
  const C c = setp->q.compare;
  const bool less = c == C::Lt || c == C::Lo || c == C::Le || c == C::Ls;
  const bool greater = c == C::Gt || c == C::Hi || c == C::Ge || c == C::Hs;
  // `== 0` of a value never negative is `< 1`; `!= 0` is its negation.
  const bool zero_test = (c == C::Eq || c == C::Ne);
  auto is_zero = [](const ptx::Operand& op) { return op.kind == ptx::Operand::Kind::Immediate && op.imm == 0; };
  // p is `tid below bound` when tid is the left operand of < or <=, or the right one of > or >=.
  bool p_below;
  if (grows_with_tid(setp->operands[1]) && same_for_block(setp->operands[2]) && (less || greater)) {
    p_below = less;
  } else if (grows_with_tid(setp->operands[2]) && same_for_block(setp->operands[1]) && (less || greater)) {
    p_below = greater;
  } else if (zero_test && ((grows_with_tid(setp->operands[1]) && is_zero(setp->operands[2])) ||
                           (grows_with_tid(setp->operands[2]) && is_zero(setp->operands[1])))) {
    p_below = c == C::Eq;
  } else {
    return false;
  }
  return p_below == value;
}

// Whether lanes going on at block `from` may meet a block barrier.
bool BlockFunctionBuilder::barrier_reachable(uint32_t from) {
  const KernelCfg& cfg = a_.cfg;
  RegisterSet seen(static_cast<uint32_t>(cfg.blocks.size()));
  std::vector<uint32_t> work{from};
  seen.set(from);
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    const ptx::Instruction* last = cfg.last_instruction(kernel_, b);
    if (cfg.blocks[b].how == BlockEnd::Park && last != nullptr && is_barrier(*last)) return true;
    for (uint32_t s : cfg.blocks[b].successors) {
      if (seen.test(s)) continue;
      seen.set(s);
      work.push_back(s);
    }
  }
  return false;
}

// In uniform rounds, at a branch past which the warps after the first one with no lane below
// a bound (guard_below_bound) would only park at the round's barrier or only exit:
//   - an if-then whose lanes entering are below the bound and whose join only parks at a
//     plain barrier;
//   - a conditional exit whose lanes staying are below the bound and never meet a barrier
//     again (the warps after the last one that stays are not waited for by anyone).
// Each of those warps would run what comes before the branch in this round first. That is
// nothing to do when it only writes registers (no memory, no exit, branches every thread of
// the block takes alike) that nothing reads after: for parking warps none is read after the
// barrier except registers kept once per block (which this warp leaves as they would);
// exiting warps' registers are dead. `round_blocks`: the blocks this round may run.
bool BlockFunctionBuilder::rest_of_round_idle(uint32_t branch, const RegisterSet& round_blocks) {
  const KernelCfg& cfg = a_.cfg;
  if (!uniform_rounds_) return false;
  const CfgBlock& branch_block = cfg.blocks[branch];
  const ptx::Instruction* bra = cfg.last_instruction(kernel_, branch);
  const RegisterSet* read_after = nullptr;  // registers the idle warps' files must have right
  if (branch_block.how == BlockEnd::CondExit) {
    if (bra == nullptr || !bra->guard || !guard_below_bound(branch, bra->guard->negated)) return false;
    if (barrier_reachable(branch_block.successors[0])) return false;
  } else if (if_then_[branch] != kNone) {
    const uint32_t then = if_then_[branch];
    const uint32_t join = cfg.blocks[then].successors[0];
    const CfgBlock& barrier_block = cfg.blocks[join];
    const ptx::Instruction* barrier = cfg.last_instruction(kernel_, join);
    if (park_point_[join] == kNone || barrier == nullptr || !is_plain_barrier(*barrier)) return false;
    for (uint32_t i = barrier_block.first; i < barrier_block.end; ++i)
      if (kernel_.body[i].kind == ptx::Statement::Kind::Instruction && &kernel_.body[i].instruction != barrier)
        return false;
    if (!guard_below_bound(branch, (then == branch_block.successors[0]) != bra->guard->negated)) return false;
    read_after = &a_.live_in[points_[park_point_[join]].block];
  } else {
    return false;
  }
  // The blocks the round may run before the branch: back from it, not across parks.
  RegisterSet seen(static_cast<uint32_t>(cfg.blocks.size()));
  std::vector<uint32_t> work{branch};
  seen.set(branch);
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    const CfgBlock& block = cfg.blocks[b];
    if (inside_[b]) return false;
    if (b != branch) {
      const ptx::Instruction* last = cfg.last_instruction(kernel_, b);
      if (block.how == BlockEnd::CondBranch) {
        if (last == nullptr || !last->guard || !a_.block_uniform[last->guard->reg]) return false;
      } else if (block.how != BlockEnd::FallThrough && block.how != BlockEnd::Branch) {
        return false;
      }
    }
    for (uint32_t i = block.first; i < block.end; ++i) {
      if (kernel_.body[i].kind != ptx::Statement::Kind::Instruction) continue;
      const ptx::Instruction& inst = kernel_.body[i].instruction;
      if (&inst == bra || inst.opcode == ptx::Opcode::Bra) continue;
      if (!writes_registers_only(inst)) return false;
      for (uint32_t r : access_.at(i).writes)
        if (read_after != nullptr && read_after->test(r) && !kept_for_block_[r]) return false;
    }
    for (uint32_t pred : block.predecessors) {
      if (seen.test(pred) || !round_blocks.test(pred) || park_point_[pred] != kNone) continue;
      seen.set(pred);
      work.push_back(pred);
    }
  }
  return true;
}

}  // namespace cucpu::jit::block_function
