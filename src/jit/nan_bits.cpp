// An sm_90 f32 add, sub, mul or fma whose result is NaN gives the canonical NaN 0x7fffffff;
// the host gives the NaN of an operand, or its own default NaN (sign bit set). cucpu turns
// every such NaN result into 0x7fffffff (two vector instructions per operation), but only
// an instruction that looks at the bits can tell the difference. The readers that cannot:
//
// - f32 add, sub, mul, fma and mad in round-to-nearest: a NaN operand gives a NaN result,
//   whatever its bits (with .ftz and .sat too: both test values, not bits), and the result
//   is canonical wherever its own bits are seen;
// - f32 comparisons (setp): NaN is unordered, whatever its bits;
// - moves (mov between registers, selp, shfl): they copy the bits to a register whose own
//   readers decide.
//
// Any other reader (a store, mov to or from a vector, cvt, neg/abs/min/max, a directed
// rounding mode, a call, an atomic, ...) may see the bits. A kernel's registers are read
// only by its own instructions (its parameters are .param memory), so a register that no
// reader of the second kind sees may keep the host's NaN.
#include "jit/nan_bits.h"

#include <algorithm>
#include <utility>

namespace cucpu::jit {
namespace {

bool is_plain(const ptx::Operand& op) {
  return (op.kind == ptx::Operand::Kind::Register && !op.negated && op.selector.lane_bits == 0) ||
         op.kind == ptx::Operand::Kind::Immediate;
}

// An arithmetic or comparison reader that sees only NaN-ness: its sources from `first` on.
bool reads_only_nan_ness(const ptx::Instruction& inst, size_t& first) {
  first = 1;
  if (is_nearest_f32_arithmetic(inst)) return true;
  if (inst.opcode != ptx::Opcode::Setp || inst.q.type != ptx::Type::F32) return false;
  first = ptx::has_destination_pair(inst) ? 2 : 1;
  return true;
}

// A move of one register's bits to operand 0: the operands it copies from.
bool moves_bits(const ptx::Instruction& inst, std::vector<size_t>& sources) {
  using ptx::Opcode;
  const bool word = inst.q.type == ptx::Type::F32 || inst.q.type == ptx::Type::B32;
  if (!word) return false;
  switch (inst.opcode) {
    case Opcode::Mov:
      if (inst.operands.size() != 2) return false;
      sources = {1};
      break;
    case Opcode::Selp:
      if (inst.operands.size() != 4) return false;
      sources = {1, 2};
      break;
    case Opcode::Shfl:
      if (inst.operands.size() < 2) return false;
      sources = {ptx::has_destination_pair(inst) ? size_t{2} : size_t{1}};
      break;
    default:
      return false;
  }
  return inst.operands[0].kind == ptx::Operand::Kind::Register && is_plain(inst.operands[0]);
}

void mark_all(const ptx::Operand& op, std::vector<uint8_t>& seen) {
  if (op.kind == ptx::Operand::Kind::Register && op.reg < seen.size()) seen[op.reg] = 1;
  for (const ptx::Operand& element : op.elements) mark_all(element, seen);
}

}  // namespace

bool is_nearest_f32_arithmetic(const ptx::Instruction& inst) {
  using ptx::Opcode;
  const bool arithmetic = inst.opcode == Opcode::Add || inst.opcode == Opcode::Sub || inst.opcode == Opcode::Mul ||
                          inst.opcode == Opcode::Fma || inst.opcode == Opcode::Mad;
  const bool nearest = inst.q.rounding == ptx::Rounding::None || inst.q.rounding == ptx::Rounding::NearestEven;
  return arithmetic && nearest && inst.q.type == ptx::Type::F32 && !inst.q.relu;
}

std::vector<uint8_t> registers_whose_nan_bits_are_seen(const ptx::Function& kernel) {
  std::vector<uint8_t> seen(kernel.registers.size(), 0);
  std::vector<std::pair<uint32_t, uint32_t>> moves;  // (destination, source): seen flows back
  std::vector<size_t> sources;
  for (const ptx::Statement& statement : kernel.body) {
    if (statement.kind != ptx::Statement::Kind::Instruction) continue;
    const ptx::Instruction& inst = statement.instruction;
    size_t first = 0;
    if (reads_only_nan_ness(inst, first)) {
      for (size_t i = 0; i < inst.operands.size(); ++i)
        if (i >= first && !is_plain(inst.operands[i])) mark_all(inst.operands[i], seen);
      continue;
    }
    if (moves_bits(inst, sources)) {
      for (size_t s : sources) {
        const ptx::Operand& op = inst.operands[s];
        if (op.kind == ptx::Operand::Kind::Register && is_plain(op)) {
          moves.emplace_back(inst.operands[0].reg, op.reg);
        } else {
          mark_all(op, seen);
        }
      }
      // The others (shfl's lane, clamp and member mask; selp's predicate) are read as they are.
      for (size_t i = 1; i < inst.operands.size(); ++i)
        if (std::find(sources.begin(), sources.end(), i) == sources.end()) mark_all(inst.operands[i], seen);
      continue;
    }
    for (const ptx::Operand& op : inst.operands) mark_all(op, seen);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [to, from] : moves) {
      if (seen[to] && !seen[from]) {
        seen[from] = 1;
        changed = true;
      }
    }
  }
  return seen;
}

}  // namespace cucpu::jit
