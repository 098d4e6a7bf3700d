// Which mul/add pairs ptxas fuses, as a probe on an H200 (CUDA 13.0, 2026-11-28) showed
// them: each pattern written in inline PTX on its own random inputs, 65,536 results each,
// compared with the fused and unfused forms (every pattern matched one of them exactly).
//   - mul.f32/f64/f16/bf16 with no rounding modifier and no .sat, read by add or sub with
//     no rounding modifier (.sat allowed: fma.sat), the same type and the same .ftz: fused
//     in either operand order, sub included (c - a*b is fma(-a, b, c));
//   - a product read by several such adds is fused into each; one that anything else
//     reads (a store, a mul, a compare), or that lives on past its basic block, is not
//     fused anywhere: ptxas keeps the rounded product then;
//   - an add of two fusable products fuses the one read only there if the other is read
//     elsewhere too, else its first operand; the other stays a rounded product
//     (a*b - c*d is fma(a, b, -(c*d)));
//   - the add must be in the mul's basic block or one it falls or jumps straight into
//     (a product read by adds on both sides of a branch is not fused), and no instruction
//     that ptxas expands with branches of its own (div.rn, rcp.rn, sqrt.rn, call) may lie
//     between them; unless the add is the product's only reader and in another block:
//     then the mul moves to the add wherever it is; chains
//     (s += a*b, repeatedly, in a loop body too) fuse at every step.
// Not measured, so left unfused: a product negated (neg) before the add, and one whose
// operands are written again before the add.
#include "jit/multiply_add_contraction.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "jit/kernel_cfg.h"

namespace cucpu::jit {
namespace {

using ptx::Instruction;
using ptx::Opcode;
using ptx::Operand;

bool is_reg(const Operand& op, uint32_t reg) { return op.kind == Operand::Kind::Register && op.reg == reg; }

bool mentions(const Operand& op, uint32_t reg) {
  if (is_reg(op, reg)) return true;
  return std::ranges::any_of(op.elements, [&](const Operand& e) { return mentions(e, reg); });
}

// Instructions whose first operand is read, not written.
bool reads_first_operand(Opcode opcode) {
  switch (opcode) {
    case Opcode::Bar:
    case Opcode::Barrier:
    case Opcode::Bra:
    case Opcode::Brx:
    case Opcode::Nanosleep:
    case Opcode::Stackrestore:
    case Opcode::St:
    case Opcode::Red:
    case Opcode::Sust:
    case Opcode::Sured:
    case Opcode::Stmatrix:
    case Opcode::Prefetch:
    case Opcode::Prefetchu:
    case Opcode::Discard:
    case Opcode::Applypriority:
    case Opcode::Pmevent:
      return true;
    default:
      return false;
  }
}

bool is_destination(const Instruction& inst, size_t index) {
  if (index == 0) return !reads_first_operand(inst.opcode);
  return index == 1 && ptx::has_destination_pair(inst);
}

bool writes(const Instruction& inst, uint32_t reg) {
  for (size_t i = 0; i < inst.operands.size(); ++i)
    if (is_destination(inst, i) && mentions(inst.operands[i], reg)) return true;
  return false;
}

bool reads(const Instruction& inst, uint32_t reg) {
  if (inst.guard && inst.guard->reg == reg) return true;
  for (size_t i = 0; i < inst.operands.size(); ++i)
    if (!is_destination(inst, i) && mentions(inst.operands[i], reg)) return true;
  return false;
}

bool fusable_type(ptx::Type type) {
  return type == ptx::Type::F32 || type == ptx::Type::F64 || type == ptx::Type::F16 || type == ptx::Type::BF16;
}

bool plain_source(const Operand& op) { return op.kind == Operand::Kind::Register || op.kind == Operand::Kind::Immediate; }

// A mul ptxas may fuse into the adds that read it.
bool fusable_mul(const Instruction& inst) {
  return inst.opcode == Opcode::Mul && fusable_type(inst.q.type) && inst.q.rounding == ptx::Rounding::None &&
         !inst.q.sat && !inst.guard && inst.operands.size() == 3 &&
         inst.operands[0].kind == Operand::Kind::Register && plain_source(inst.operands[1]) &&
         plain_source(inst.operands[2]) && !is_reg(inst.operands[1], inst.operands[0].reg) &&
         !is_reg(inst.operands[2], inst.operands[0].reg);
}

// Which source of `add` (1 or 2) is the product `mul` writes, if the add can take it.
std::optional<size_t> fusable_use(const Instruction& add, const Instruction& mul) {
  if ((add.opcode != Opcode::Add && add.opcode != Opcode::Sub) || add.q.type != mul.q.type ||
      add.q.rounding != ptx::Rounding::None || add.q.ftz != mul.q.ftz || add.q.carry || add.operands.size() != 3 ||
      add.operands[0].kind != Operand::Kind::Register || !plain_source(add.operands[1]) ||
      !plain_source(add.operands[2]))
    return std::nullopt;
  const uint32_t product = mul.operands[0].reg;
  const bool first = is_reg(add.operands[1], product), second = is_reg(add.operands[2], product);
  if (first == second) return std::nullopt;  // a*b + a*b, or not read here
  return first ? 1 : 2;
}

// Instructions ptxas expands into code with branches of its own (the IEEE-rounded division,
// reciprocal and square root take a slow path; calls): its fusion does not reach across
// them. Measured: rcp.rn.f32 and sqrt.rn.f32 between two muls and their sub keep it unfused
// (e2e multiply_add_contraction), and so does the div.rn.f32 in NVIDIA's BlackScholes (its
// SASS: FADD after two FMULs; the same PTX with the subs moved before the division fuses).
// But a div.rn.f32 of the muls' own operands in a small probe did not stop the fusion: the
// rule for divisions is not settled (issue 14's closing note).
bool splits_block(const Instruction& inst) {
  const bool rounded = inst.q.rounding != ptx::Rounding::None && !inst.q.approx;
  switch (inst.opcode) {
    case Opcode::Div:
      return ptx::is_float(inst.q.type) && !inst.q.approx && !inst.q.full;
    case Opcode::Rcp:
    case Opcode::Sqrt:
      return rounded;
    case Opcode::Call:
      return true;
    default:
      return false;
  }
}

struct Candidate {
  uint32_t mul = 0;            // statement
  std::vector<uint32_t> adds;  // statements reading the product, all fusable
  bool valid = true;
};

class Contraction {
 public:
  explicit Contraction(ptx::Function& function) : f_(function), cfg_(build_kernel_cfg(function)) {}

  void run() {
    count_accesses();
    for (uint32_t b = 0; b < cfg_.blocks.size(); ++b) find_candidates(b);
    find_sunk_candidates();
    choose_between_products();
    rewrite();
  }

 private:
  const Instruction& inst(uint32_t s) const { return f_.body[s].instruction; }
  bool is_instruction(uint32_t s) const { return f_.body[s].kind == ptx::Statement::Kind::Instruction; }

  // The statements of block b and of the blocks that follow it straight on (ptxas joins
  // a block to the one before it when that is its only way in: an add after `bra L; L:`
  // is fused); `last` is the chain's last block.
  std::vector<uint32_t> straight_line_from(uint32_t b, uint32_t& last) const {
    std::vector<uint32_t> statements;
    for (last = b;;) {
      const CfgBlock& block = cfg_.blocks[last];
      for (uint32_t s = block.first; s < block.end; ++s)
        if (is_instruction(s)) statements.push_back(s);
      const bool straight = (block.how == BlockEnd::FallThrough || block.how == BlockEnd::Branch) &&
                            block.successors.size() == 1 && block.successors[0] != b &&
                            cfg_.blocks[block.successors[0]].predecessors.size() == 1;
      if (!straight) return statements;
      last = block.successors[0];
    }
  }

  void find_candidates(uint32_t b) {
    uint32_t last = b;
    const std::vector<uint32_t> line = straight_line_from(b, last);
    const CfgBlock& block = cfg_.blocks[b];
    for (size_t at = 0; at < line.size() && line[at] < block.end; ++at) {
      const uint32_t s = line[at];
      if (!fusable_mul(inst(s))) continue;
      Candidate c{.mul = s, .adds = {}, .valid = true};
      const Instruction& mul = inst(s);
      const uint32_t product = mul.operands[0].reg;
      bool redefined = false;
      bool split = false;
      for (size_t k = at + 1; k < line.size() && c.valid && !redefined; ++k) {
        const Instruction& next = inst(line[k]);
        if (splits_block(next)) {
          // Nothing after it fuses: a read there (or later) keeps the product rounded.
          if (reads(next, product) || reads_later(line, k, product)) c.valid = false;
          split = true;
          break;
        }
        if (reads(next, product)) {
          if (fusable_use(next, mul)) {
            c.adds.push_back(line[k]);
          } else {
            c.valid = false;
          }
        }
        // The fma made at an add reads the mul's operands there: they must not change
        // before the last add.
        for (size_t i = 1; i <= 2; ++i)
          if (mul.operands[i].kind == Operand::Kind::Register && writes(next, mul.operands[i].reg) &&
              reads_later(line, k, product))
            c.valid = false;
        if (writes(next, product)) {
          if (next.guard) c.valid = false;  // the product may still be read after it
          redefined = true;
        }
      }
      if ((split || !redefined) && c.valid && live_out(last, product)) c.valid = false;
      if (c.valid && !c.adds.empty()) {
        for (uint32_t add : c.adds) at_add_[add].push_back(static_cast<uint32_t>(candidates_.size()));
        candidates_.push_back(std::move(c));
      }
    }
  }

  void count_accesses() {
    block_of_.assign(f_.body.size(), kNoBlock);
    for (uint32_t b = 0; b < cfg_.blocks.size(); ++b)
      for (uint32_t s = cfg_.blocks[b].first; s < cfg_.blocks[b].end && s < block_of_.size(); ++s) block_of_[s] = b;
    defs_.assign(f_.registers.size(), 0);
    reads_.assign(f_.registers.size(), 0);
    reader_.assign(f_.registers.size(), 0);
    writer_.assign(f_.registers.size(), 0);
    for (uint32_t s = 0; s < f_.body.size(); ++s) {
      if (!is_instruction(s)) continue;
      std::vector<uint32_t> seen;
      for (size_t i = 0; i < inst(s).operands.size(); ++i) collect(inst(s).operands[i], seen);
      if (inst(s).guard) seen.push_back(inst(s).guard->reg);
      std::ranges::sort(seen);
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      for (uint32_t reg : seen) {
        if (reg >= defs_.size()) continue;
        if (writes(inst(s), reg)) {
          ++defs_[reg];
          writer_[reg] = s;
        }
        if (reads(inst(s), reg)) {
          ++reads_[reg];
          reader_[reg] = s;
        }
      }
    }
  }

  static void collect(const Operand& op, std::vector<uint32_t>& out) {
    if (op.kind == Operand::Kind::Register) out.push_back(op.reg);
    for (const Operand& e : op.elements) collect(e, out);
  }

  // A product written once and read once, by a fusable add in another block that the mul's
  // block dominates (ptxas sinks the mul there: dxtc's 9 * sum, made before a loop and
  // subtracted inside it, is one FFMA in the loop). The fma reads the mul's operands at the
  // add, so they must hold the values the mul saw: each is never written, or written once
  // where that write cannot run between the mul and the add (before the mul in its block,
  // or where no path from the mul leads).
  void find_sunk_candidates() {
    std::vector<bool> taken(f_.body.size(), false);
    for (const Candidate& c : candidates_) taken[c.mul] = true;
    for (uint32_t s = 0; s < f_.body.size(); ++s) {
      if (!is_instruction(s) || taken[s] || !fusable_mul(inst(s))) continue;
      const Instruction& mul = inst(s);
      const uint32_t product = mul.operands[0].reg;
      if (defs_[product] != 1 || reads_[product] != 1) continue;
      const uint32_t add = reader_[product];
      const uint32_t mul_block = block_of(s), add_block = block_of(add);
      if (mul_block == kNoBlock || add_block == kNoBlock || mul_block == add_block ||
          !cfg_.blocks[mul_block].reachable || !cfg_.dominates(mul_block, add_block) || !fusable_use(inst(add), mul))
        continue;
      bool steady = true;
      for (size_t i = 1; i <= 2; ++i) {
        if (mul.operands[i].kind != Operand::Kind::Register) continue;
        const uint32_t reg = mul.operands[i].reg;
        if (defs_[reg] == 0) continue;
        const uint32_t def = writer_[reg], def_block = block_of(def);
        const bool before_in_block = def_block == mul_block && def < s;
        if (defs_[reg] > 1 || (!before_in_block && reaches(mul_block, def_block))) steady = false;
      }
      if (!steady) continue;
      at_add_[add].push_back(static_cast<uint32_t>(candidates_.size()));
      candidates_.push_back(Candidate{.mul = s, .adds = {add}, .valid = true});
    }
  }

  uint32_t block_of(uint32_t statement) const {
    return statement < block_of_.size() ? block_of_[statement] : kNoBlock;
  }

  // Whether the product is read after line[k], before it is written again.
  bool reads_later(const std::vector<uint32_t>& line, size_t k, uint32_t product) const {
    for (size_t i = k + 1; i < line.size(); ++i) {
      if (reads(inst(line[i]), product)) return true;
      if (writes(inst(line[i]), product)) return false;
    }
    return false;
  }

  // What a search along the blocks after block b does at each block it reaches: stop there
  // with the answer yes, go on past it, or not go past it.
  enum class Step { Found, Pass, Stop };

  // Whether a path from block b's end reaches a block where `visit` says Found.
  bool any_path_from(uint32_t b, const auto& visit) const {
    std::vector<bool> seen(cfg_.blocks.size(), false);
    std::vector<uint32_t> pending(cfg_.blocks[b].successors.begin(), cfg_.blocks[b].successors.end());
    while (!pending.empty()) {
      const uint32_t next = pending.back();
      pending.pop_back();
      if (next >= cfg_.blocks.size() || seen[next]) continue;
      seen[next] = true;
      const Step step = visit(next);
      if (step == Step::Found) return true;
      if (step == Step::Pass)
        pending.insert(pending.end(), cfg_.blocks[next].successors.begin(), cfg_.blocks[next].successors.end());
    }
    return false;
  }

  // Whether a path leads from block `from`'s end to block `to`.
  bool reaches(uint32_t from, uint32_t to) const {
    if (to == kNoBlock) return true;  // not in a block: assume the worst
    return any_path_from(from, [&](uint32_t block) { return block == to ? Step::Found : Step::Pass; });
  }

  // Whether a path from block b's end reads `reg` before writing it.
  bool live_out(uint32_t b, uint32_t reg) const {
    return any_path_from(b, [&](uint32_t next) {
      const CfgBlock& block = cfg_.blocks[next];
      for (uint32_t s = block.first; s < block.end; ++s) {
        if (!is_instruction(s)) continue;
        if (reads(inst(s), reg)) return Step::Found;
        if (writes(inst(s), reg) && !inst(s).guard) return Step::Stop;
      }
      return Step::Pass;
    });
  }

  // An add of two fusable products fuses one (see the file comment); the other is then read
  // rounded, so it is fused nowhere.
  void choose_between_products() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& [add, list] : at_add_) {
        std::vector<uint32_t> live;
        for (uint32_t c : list)
          if (candidates_[c].valid) live.push_back(c);
        if (live.size() < 2) continue;
        // live[0] is the product of the lower statement; order them by operand instead.
        const uint32_t first_reg = inst(add).operands[1].reg;
        std::ranges::sort(live, [&](uint32_t x, uint32_t y) {
          return is_reg(inst(candidates_[x].mul).operands[0], first_reg) >
                 is_reg(inst(candidates_[y].mul).operands[0], first_reg);
        });
        uint32_t keep = live[0], drop = live[1];
        if (candidates_[keep].adds.size() > 1 && candidates_[drop].adds.size() == 1) std::swap(keep, drop);
        candidates_[drop].valid = false;
        changed = true;
      }
    }
  }

  uint32_t new_register(ptx::Type type) {
    ptx::Register reg;
    reg.name = "%cucpu_fma_neg" + std::to_string(f_.registers.size());
    reg.type = type;
    f_.registers.push_back(reg);
    return static_cast<uint32_t>(f_.registers.size() - 1);
  }

  // `op` negated: a float immediate's sign flipped, else a neg into a new register, whose
  // statement goes into `before`.
  Operand negated(const Operand& op, const Instruction& at, std::vector<ptx::Statement>& before) {
    if (op.kind == Operand::Kind::Immediate) {
      Operand flipped = op;
      const int bits = at.q.type == ptx::Type::F64 ? 64 : at.q.type == ptx::Type::F32 ? 32 : 16;
      flipped.imm ^= uint64_t{1} << (bits - 1);
      return flipped;
    }
    ptx::Statement neg;
    neg.pos = at.pos;
    neg.instruction.opcode = Opcode::Neg;
    neg.instruction.q.type = at.q.type;
    neg.instruction.q.ftz = at.q.ftz;
    neg.instruction.guard = at.guard;
    neg.instruction.pos = at.pos;
    neg.instruction.loc = at.loc;
    Operand result;
    result.kind = Operand::Kind::Register;
    result.reg = new_register(at.q.type);
    neg.instruction.operands = {result, op};
    before.push_back(std::move(neg));
    return result;
  }

  void rewrite() {
    std::unordered_map<uint32_t, uint32_t> fused_into;  // add statement -> candidate
    std::vector<bool> removed(f_.body.size(), false);
    for (uint32_t c = 0; c < candidates_.size(); ++c) {
      if (!candidates_[c].valid) continue;
      removed[candidates_[c].mul] = true;
      for (uint32_t add : candidates_[c].adds) fused_into[add] = c;
    }
    if (fused_into.empty()) return;
    std::vector<ptx::Statement> body;
    body.reserve(f_.body.size());
    for (uint32_t s = 0; s < f_.body.size(); ++s) {
      if (removed[s]) continue;
      auto found = fused_into.find(s);
      if (found == fused_into.end()) {
        body.push_back(std::move(f_.body[s]));
        continue;
      }
      const Instruction& mul = inst(candidates_[found->second].mul);
      ptx::Statement statement = std::move(f_.body[s]);
      Instruction& add = statement.instruction;
      const size_t product_at = *fusable_use(add, mul);
      const bool subtract = add.opcode == Opcode::Sub;
      Operand a = mul.operands[1], b = mul.operands[2];
      Operand other = add.operands[product_at == 1 ? 2 : 1];
      if (subtract && product_at == 1) other = negated(other, add, body);  // a*b - c
      if (subtract && product_at == 2) a = negated(a, add, body);          // c - a*b
      add.opcode = Opcode::Fma;
      add.q.rounding = ptx::Rounding::NearestEven;
      add.operands = {add.operands[0], a, b, other};
      body.push_back(std::move(statement));
    }
    f_.body = std::move(body);
  }

  ptx::Function& f_;
  KernelCfg cfg_;
  std::vector<Candidate> candidates_;
  // Per register: how many statements write and read it, the last writer and reader.
  std::vector<uint32_t> defs_, reads_, writer_, reader_;
  std::vector<uint32_t> block_of_;               // per statement
  std::map<uint32_t, std::vector<uint32_t>> at_add_;  // add statement -> candidates it reads (program order)
};

}  // namespace

void contract_multiply_adds(ptx::Function& function) {
  if (function.is_extern) return;
  Contraction(function).run();
}

ptx::Module contract_multiply_adds(const ptx::Module& module) {
  ptx::Module contracted = module;
  for (ptx::Function& function : contracted.functions) contract_multiply_adds(function);
  return contracted;
}

}  // namespace cucpu::jit
