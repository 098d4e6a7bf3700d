// analyze_warps: liveness over the kernel's blocks, then shapes to a fixed point (see
// warp_analysis.h for the rules).
//
// The branch rule, for a varying branch at block A with distinct successors S_i, A's
// immediate post-dominator J, and R_i the blocks reachable from S_i before J: the lanes on
// each side run one side after the other (or interleaved, in block order), and share one
// copy of each uniform register. So a register written in some R_i must be varying when
// lanes of another side would read the copy: it is live where another side starts, live
// where the sides join, or accessed inside another side. Sides that only exit (early
// returns) read nothing, so everything after `if (i >= n) return;` can stay uniform.
#include "jit/warp_analysis.h"

#include <algorithm>
#include <set>

namespace cucpu::jit {
namespace {

bool sides_differ(const CfgBlock& block) {
  return block.how == BlockEnd::CondBranch || block.how == BlockEnd::Switch || block.how == BlockEnd::CondExit;
}

void visit_operands(const ptx::Operand& op, const auto& visit) {
  visit(op);
  for (const ptx::Operand& element : op.elements) visit_operands(element, visit);
}

// A .local variable of the body, or a .param variable of a call sequence: memory of its own
// in every lane, so its address differs between lanes.
bool is_per_lane_symbol(const ptx::Function& kernel, const std::string& name) {
  for (const ptx::Variable& v : kernel.locals)
    if (v.name == name) return v.space == ptx::StateSpace::Local || v.space == ptx::StateSpace::Param;
  return false;
}

// Does the result of `inst` differ between lanes whatever its register inputs?
bool depends_on_lane(const ptx::Instruction& inst, const ptx::Function& kernel, const BlockShape& block) {
  bool lane = false;
  for (const ptx::Operand& op : inst.operands) {
    visit_operands(op, [&](const ptx::Operand& o) {
      if (o.kind == ptx::Operand::Kind::SpecialRegister && special_register_varies(o.sreg, o.component, block))
        lane = true;
      if (o.kind == ptx::Operand::Kind::Symbol && is_per_lane_symbol(kernel, o.name)) lane = true;
    });
  }
  if (lane) return true;
  switch (inst.opcode) {
    case ptx::Opcode::Ld:
    case ptx::Opcode::Ldu:
      return inst.q.space == ptx::StateSpace::Local;
    case ptx::Opcode::Cvta:
    case ptx::Opcode::Isspacep:
      return inst.q.space == ptx::StateSpace::Local;
    case ptx::Opcode::Mov:
    case ptx::Opcode::Add:
    case ptx::Opcode::Addc:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Subc:
    case ptx::Opcode::Mul:
    case ptx::Opcode::Mad:
    case ptx::Opcode::Madc:
    case ptx::Opcode::Mul24:
    case ptx::Opcode::Mad24:
    case ptx::Opcode::Sad:
    case ptx::Opcode::Div:
    case ptx::Opcode::Rem:
    case ptx::Opcode::Abs:
    case ptx::Opcode::Neg:
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
    case ptx::Opcode::And:
    case ptx::Opcode::Or:
    case ptx::Opcode::Xor:
    case ptx::Opcode::Not:
    case ptx::Opcode::Cnot:
    case ptx::Opcode::Shl:
    case ptx::Opcode::Shr:
    case ptx::Opcode::Shf:
    case ptx::Opcode::Popc:
    case ptx::Opcode::Clz:
    case ptx::Opcode::Brev:
    case ptx::Opcode::Bfind:
    case ptx::Opcode::Bfe:
    case ptx::Opcode::Bfi:
    case ptx::Opcode::Bmsk:
    case ptx::Opcode::Szext:
    case ptx::Opcode::Prmt:
    case ptx::Opcode::Lop3:
    case ptx::Opcode::Fns:
    case ptx::Opcode::Dp4a:
    case ptx::Opcode::Dp2a:
    case ptx::Opcode::Setp:
    case ptx::Opcode::Set:
    case ptx::Opcode::Selp:
    case ptx::Opcode::Slct:
    case ptx::Opcode::Testp:
    case ptx::Opcode::Cvt:
    case ptx::Opcode::Fma:
    case ptx::Opcode::Rcp:
    case ptx::Opcode::Sqrt:
    case ptx::Opcode::Rsqrt:
    case ptx::Opcode::Sin:
    case ptx::Opcode::Cos:
    case ptx::Opcode::Lg2:
    case ptx::Opcode::Ex2:
    case ptx::Opcode::Tanh:
    case ptx::Opcode::Copysign:
    case ptx::Opcode::Createpolicy:
    case ptx::Opcode::Mapa:
    case ptx::Opcode::Getctarank:
      return false;
    default:
      // Atomics, calls, collectives, textures, async copies, tensor cores, the video
      // instructions (pure, but rare): each lane's own.
      return true;
  }
}

// Whether a special register reads as the lane's number plus a multiple of 32.
bool lane_aligned_register(const ptx::Operand& op, const BlockShape& block) {
  if (op.kind != ptx::Operand::Kind::SpecialRegister) return false;
  if (op.sreg == ptx::SpecialRegister::Laneid) return true;
  // %tid.x of a one-dimensional block is the thread's linear index, 32 w + lane; of rows of
  // whole warps, 32 (w mod rows) + lane.
  return op.sreg == ptx::SpecialRegister::Tid && op.component == 0 &&
         (block.x % 32 == 0 || (block.y == 1 && block.z == 1));
}

// In a block 16 threads wide (a warp is two rows): whether a special register reads as the
// lane's place in its half-warp plus a multiple of 16, as %tid.x does.
bool half_aligned_register(const ptx::Operand& op, const BlockShape& block) {
  return lane_aligned_register(op, block) || (op.kind == ptx::Operand::Kind::SpecialRegister &&
                                              op.sreg == ptx::SpecialRegister::Tid && op.component == 0);
}

bool immediate_operand(const ptx::Operand& op) { return op.kind == ptx::Operand::Kind::Immediate; }

// Whether an operand is known to be a multiple of 2^bits (`aligned`: per register, see below).
bool multiple_of(const ptx::Operand& op, const std::vector<uint8_t>& aligned, const BlockShape& block,
                 unsigned bits = 5) {
  const uint64_t unit = uint64_t{1} << bits;
  switch (op.kind) {
    case ptx::Operand::Kind::Immediate:
      return !op.imm_is_float && op.imm % unit == 0;
    case ptx::Operand::Kind::Register:
      return op.reg < aligned.size() && aligned[op.reg];
    case ptx::Operand::Kind::SpecialRegister:
      if (op.sreg != ptx::SpecialRegister::Ntid) return false;
      return (op.component == 0 ? block.x : op.component == 1 ? block.y : block.z) % unit == 0;
    default:
      return false;
  }
}

// Whether what `inst` writes is a multiple of 2^bits whenever its operands known to be are
// (integer arithmetic that keeps the low bits zero).
bool writes_multiple_of(const ptx::Instruction& inst, const std::vector<uint8_t>& aligned, const BlockShape& block,
                        unsigned bits = 5) {
  const auto& o = inst.operands;
  auto m = [&](size_t i) { return i < o.size() && multiple_of(o[i], aligned, block, bits); };
  if (!ptx::is_integer(inst.q.type)) return false;
  switch (inst.opcode) {
    case ptx::Opcode::Mov:
      return o.size() == 2 && m(1);
    case ptx::Opcode::Cvt:
      return o.size() == 2 && m(1) && !ptx::is_float(inst.q.src_type);
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
      return o.size() == 3 && !inst.q.carry && !inst.q.sat && m(1) && m(2);
    case ptx::Opcode::Mul:
      return o.size() == 3 && inst.q.mul_mode != ptx::MulMode::Hi && (m(1) || m(2));
    case ptx::Opcode::Mad:
      return o.size() == 4 && inst.q.mul_mode != ptx::MulMode::Hi && !inst.q.carry && (m(1) || m(2)) && m(3);
    case ptx::Opcode::Shl:
      return o.size() == 3 && (m(1) || (o[2].kind == ptx::Operand::Kind::Immediate && o[2].imm >= bits));
    case ptx::Opcode::And:
      return o.size() == 3 && (m(1) || m(2));
    default:
      return false;
  }
}

// The shape of what `inst` writes, from the shapes of what it reads (the LaneAligned rules).
Shape written_shape(const ptx::Instruction& inst, const StatementAccess& s, const std::vector<Shape>& shape,
                    const std::vector<uint8_t>& aligned, const ptx::Function& kernel, const BlockShape& block) {
  const bool unsigned_or_bits = ptx::is_unsigned_int(inst.q.type) || ptx::is_bits(inst.q.type);
  const bool integer = ptx::is_integer(inst.q.type);
  auto source_aligned = [&](const ptx::Operand& op) {
    return (op.kind == ptx::Operand::Kind::Register && op.reg < shape.size() && shape[op.reg] == Shape::LaneAligned) ||
           lane_aligned_register(op, block);
  };
  auto uniform_multiple = [&](const ptx::Operand& op) {
    return !per_lane_operand(op, shape, block) && multiple_of(op, aligned, block);
  };
  if (!inst.guard && inst.operands.size() >= 2 && s.writes.size() == 1 && integer) {
    const auto& o = inst.operands;
    const ptx::Operand& a = o[1];
    switch (inst.opcode) {
      case ptx::Opcode::Mov:  // a copy of the lane-aligned value
        if (o.size() == 2 && source_aligned(a)) return Shape::LaneAligned;
        break;
      case ptx::Opcode::Cvt:  // widened without a change of value
        if (o.size() == 2 && source_aligned(a) && ptx::is_unsigned_int(inst.q.src_type) &&
            ptx::bit_width(inst.q.type) >= ptx::bit_width(inst.q.src_type) && ptx::is_unsigned_int(inst.q.type))
          return Shape::LaneAligned;
        break;
      case ptx::Opcode::Add:  // plus a uniform multiple of 32: still the lane and a multiple of 32
        if (o.size() == 3 && !inst.q.carry && !inst.q.sat &&
            ((source_aligned(o[1]) && uniform_multiple(o[2])) || (uniform_multiple(o[1]) && source_aligned(o[2]))))
          return Shape::LaneAligned;
        break;
      case ptx::Opcode::Mad:  // a * b + c: the product a uniform multiple of 32, c lane-aligned
        if (o.size() == 4 && inst.q.mul_mode == ptx::MulMode::Lo && !inst.q.carry && source_aligned(o[3]) &&
            ((uniform_multiple(o[1]) && !per_lane_operand(o[2], shape, block)) ||
             (uniform_multiple(o[2]) && !per_lane_operand(o[1], shape, block))))
          return Shape::LaneAligned;
        break;
      case ptx::Opcode::Shr:  // the lane's bits shifted out
        if (o.size() == 3 && unsigned_or_bits && source_aligned(a) && immediate_operand(o[2]) && o[2].imm >= 5)
          return Shape::Uniform;
        break;
      case ptx::Opcode::Div:
        if (o.size() == 3 && ptx::is_unsigned_int(inst.q.type) && source_aligned(a) && immediate_operand(o[2]) &&
            o[2].imm != 0 && o[2].imm % 32 == 0)
          return Shape::Uniform;
        break;
      case ptx::Opcode::And:  // the lane's bits masked off
        if (o.size() == 3 && source_aligned(a) && immediate_operand(o[2]) && (o[2].imm & 31) == 0)
          return Shape::Uniform;
        break;
      default:
        break;
    }
  }
  bool varying = depends_on_lane(inst, kernel, block);
  for (uint32_t r : s.reads) varying = varying || per_lane(shape[r]);
  return varying ? Shape::Varying : Shape::Uniform;
}

// Blocks reachable from `from` without passing `stop` (from itself unless it is stop).
RegisterSet reach_before(const KernelCfg& cfg, uint32_t from, uint32_t stop) {
  const uint32_t count = static_cast<uint32_t>(cfg.blocks.size());
  RegisterSet seen(count);
  if (from == stop) return seen;
  std::vector<uint32_t> work{from};
  seen.set(from);
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : cfg.blocks[b].successors) {
      if (s == stop || seen.test(s)) continue;
      seen.set(s);
      work.push_back(s);
    }
  }
  return seen;
}

// Narrows `set` (per register) to a fixed point: a register stays only if every
// instruction that writes it `keeps(instruction, its access)` the property, given the set.
std::vector<uint8_t> registers_every_write_keeps(const ptx::Function& kernel, const FunctionAccess& access,
                                                 std::vector<uint8_t> set, const auto& keeps) {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < kernel.body.size(); ++i) {
      if (kernel.body[i].kind != ptx::Statement::Kind::Instruction) continue;
      const StatementAccess& s = access.at(i);
      const bool kept = keeps(kernel.body[i].instruction, s, set);
      for (uint32_t r : s.writes) {
        if (set[r] && !kept) {
          set[r] = 0;
          changed = true;
        }
      }
    }
  }
  return set;
}

// Registers every write of which is a multiple of 2^bits, to a fixed point from all of them.
std::vector<uint8_t> registers_multiple_of(const ptx::Function& kernel, const FunctionAccess& access,
                                           const BlockShape& block, unsigned bits, uint32_t regs) {
  return registers_every_write_keeps(
      kernel, access, std::vector<uint8_t>(regs, 1),
      [&](const ptx::Instruction& inst, const StatementAccess&, const std::vector<uint8_t>& aligned) {
        return !inst.guard && writes_multiple_of(inst, aligned, block, bits);
      });
}

// In a block 16 threads wide (a warp is two rows), registers whose value in each half-warp
// is a multiple of 16 (the same in the half's lanes) plus the lane's place in the half, as
// %tid.x is: widened, such a value's lanes stay consecutive (they never wrap). Rules as
// for LaneAligned, to a fixed point from every per-lane register no read mixes.
std::vector<uint8_t> half_aligned_registers(const ptx::Function& kernel, const FunctionAccess& access,
                                            const BlockShape& block, const WarpAnalysis& a, const RegisterSet& mixed) {
  const std::vector<uint8_t> aligned16 = registers_multiple_of(kernel, access, block, 4, a.register_count);
  std::vector<uint8_t> candidates(a.register_count, 0);
  for (uint32_t r = 0; r < a.register_count; ++r) candidates[r] = per_lane(a.shape[r]) && !mixed.test(r);
  auto uniform_multiple = [&](const ptx::Operand& op) {
    return !per_lane_operand(op, a.shape, block) && multiple_of(op, aligned16, block, 4);
  };
  auto keeps = [&](const ptx::Instruction& inst, const StatementAccess& s, const std::vector<uint8_t>& half) {
    auto is_half = [&](const ptx::Operand& op) {
      if (op.kind == ptx::Operand::Kind::SpecialRegister) return half_aligned_register(op, block);
      return op.kind == ptx::Operand::Kind::Register && op.reg < half.size() && half[op.reg];
    };
    const auto& o = inst.operands;
    const bool integer = ptx::is_integer(inst.q.type);
    if (inst.guard || s.writes.size() != 1 || !integer || inst.q.carry || inst.q.sat) return false;
    switch (inst.opcode) {
      case ptx::Opcode::Mov:
        return o.size() == 2 && is_half(o[1]);
      case ptx::Opcode::Cvt:  // widened (a half's values never cross 2^31 nor 2^32)
        return o.size() == 2 && is_half(o[1]) && !ptx::is_float(inst.q.src_type) &&
               ptx::bit_width(inst.q.type) >= ptx::bit_width(inst.q.src_type);
      case ptx::Opcode::Add:
        return o.size() == 3 && ((is_half(o[1]) && uniform_multiple(o[2])) || (uniform_multiple(o[1]) && is_half(o[2])));
      case ptx::Opcode::Mad:
        return o.size() == 4 && inst.q.mul_mode == ptx::MulMode::Lo && is_half(o[3]) &&
               ((uniform_multiple(o[1]) && !per_lane_operand(o[2], a.shape, block)) ||
                (uniform_multiple(o[2]) && !per_lane_operand(o[1], a.shape, block)));
      default:
        return false;
    }
  };
  return registers_every_write_keeps(kernel, access, std::move(candidates), keeps);
}

// Lane strides (WarpAnalysis::lane_stride), to a fixed point from "no write seen" for
// every register: each write's stride from its operands' (a uniform operand's is 0, a
// lane-aligned one's 1), and a register keeps one only if all its writes agree and no read
// mixes lanes of different writes (`mixed`: the branch rule). The rules are exact in
// modular arithmetic (add, sub, shl and mul by a constant); a widening product or convert is
// exact only from a lane-aligned value, whose lanes never wrap (32 k + lane).
//
// `halves` (a block 16 threads wide): the same within each half-warp, lanes 0-15 and 16-31,
// each with a base of its own (WarpAnalysis::half_stride); `half_aligned` is what
// half_aligned_registers found.
std::vector<int64_t> find_lane_strides(const ptx::Function& kernel, const FunctionAccess& access,
                                       const BlockShape& block, const WarpAnalysis& a, const RegisterSet& mixed,
                                       bool halves = false, const std::vector<uint8_t>& half_aligned = {}) {
  constexpr int64_t kUnseen = INT64_MAX;
  std::vector<int64_t> stride(a.register_count, kUnseen);
  auto lane_aligned = [&](const ptx::Operand& op) {
    if (op.kind == ptx::Operand::Kind::Register && op.reg < a.shape.size() && a.shape[op.reg] == Shape::LaneAligned)
      return true;
    if (halves && op.kind == ptx::Operand::Kind::Register && op.reg < half_aligned.size() && half_aligned[op.reg])
      return true;
    return halves ? half_aligned_register(op, block) : lane_aligned_register(op, block);
  };
  // An operand's stride: kUnseen while a register's is not known yet.
  auto of = [&](const ptx::Operand& op) -> int64_t {
    if (op.kind == ptx::Operand::Kind::Immediate) return op.imm_is_float ? kNoLaneStride : 0;
    if (lane_aligned(op)) return 1;
    // %tid.y and %tid.z of a block 16 wide: one row per half-warp.
    if (halves && op.kind == ptx::Operand::Kind::SpecialRegister && op.sreg == ptx::SpecialRegister::Tid) return 0;
    if (op.kind == ptx::Operand::Kind::SpecialRegister)
      return special_register_varies(op.sreg, op.component, block) ? kNoLaneStride : 0;
    if (op.kind != ptx::Operand::Kind::Register || op.reg >= a.shape.size()) return kNoLaneStride;
    return a.shape[op.reg] == Shape::Uniform ? 0 : stride[op.reg];
  };
  auto known = [](int64_t s) { return s != kUnseen && s != kNoLaneStride; };
  // Combines two strides with `f` (overflow: none), unseen or none passed on.
  auto combine = [&](int64_t x, int64_t y, auto f) -> int64_t {
    if (x == kNoLaneStride || y == kNoLaneStride) return kNoLaneStride;
    if (x == kUnseen || y == kUnseen) return kUnseen;
    int64_t result = 0;
    return f(x, y, &result) ? kNoLaneStride : result;
  };
  auto add = [](int64_t x, int64_t y, int64_t* r) { return __builtin_add_overflow(x, y, r); };
  auto subtract = [](int64_t x, int64_t y, int64_t* r) { return __builtin_sub_overflow(x, y, r); };
  auto multiply = [](int64_t x, int64_t y, int64_t* r) { return __builtin_mul_overflow(x, y, r); };
  auto constant = [](const ptx::Operand& op) { return op.kind == ptx::Operand::Kind::Immediate && !op.imm_is_float; };
  // The stride of `x * y` (mul.lo, mad.lo; `wide`: mul.wide, mad.wide of `source` operands).
  // A wide product's constant is its 32-bit value widened as the source type says (an
  // immediate written -1431655765 is 2863311531 to mul.wide.u32); a product in the operands'
  // own width is exact modulo it either way.
  auto product = [&](const ptx::Operand& x, const ptx::Operand& y, bool wide, ptx::Type source) -> int64_t {
    if (!constant(x) && !constant(y)) return of(x) == 0 && of(y) == 0 ? 0 : kNoLaneStride;
    const ptx::Operand& factor = constant(x) ? x : y;
    const ptx::Operand& other = constant(x) ? y : x;
    if (wide && !lane_aligned(other) && of(other) != 0) return kNoLaneStride;
    int64_t value = static_cast<int64_t>(factor.imm);
    if (wide) {  // the source width: .u32/.s32 (or half of a 64-bit type named), or .u16/.s16
      const unsigned bits = ptx::bit_width(source) == 16 ? 16 : 32;
      const uint64_t low = factor.imm & ((uint64_t{1} << bits) - 1);
      const bool negative = ptx::is_signed_int(source) && ((low >> (bits - 1)) & 1) != 0;
      value = static_cast<int64_t>(negative ? low | ~((uint64_t{1} << bits) - 1) : low);
    }
    return combine(of(other), value, multiply);
  };
  auto written = [&](const ptx::Instruction& inst) -> int64_t {
    const auto& o = inst.operands;
    const bool integer = ptx::is_integer(inst.q.type);
    if (inst.guard || !integer || inst.q.carry || inst.q.sat) return kNoLaneStride;
    const bool wide = inst.q.mul_mode == ptx::MulMode::Wide;
    const bool low = inst.q.mul_mode == ptx::MulMode::Lo || wide;
    const ptx::Type source = inst.q.src_type != ptx::Type::None ? inst.q.src_type : inst.q.type;  // a product's operands
    switch (inst.opcode) {
      case ptx::Opcode::Mov:
        return o.size() == 2 ? of(o[1]) : kNoLaneStride;
      case ptx::Opcode::Cvt:  // widening a lane-aligned value changes no lane's value
        // (a lane-aligned value's lanes cross neither 2^31 nor 2^32, whatever the signedness)
        return o.size() == 2 && lane_aligned(o[1]) && !ptx::is_float(inst.q.src_type) &&
                       ptx::bit_width(inst.q.type) >= ptx::bit_width(inst.q.src_type)
                   ? 1
                   : kNoLaneStride;
      case ptx::Opcode::Add:
        return o.size() == 3 ? combine(of(o[1]), of(o[2]), add) : kNoLaneStride;
      case ptx::Opcode::Sub:
        return o.size() == 3 ? combine(of(o[1]), of(o[2]), subtract) : kNoLaneStride;
      case ptx::Opcode::Shl:
        if (o.size() != 3 || !constant(o[2]) || o[2].imm >= 32) return kNoLaneStride;
        return combine(of(o[1]), int64_t{1} << o[2].imm, multiply);
      case ptx::Opcode::Mul:
        return o.size() == 3 && low ? product(o[1], o[2], wide, source) : kNoLaneStride;
      case ptx::Opcode::Mad:
        return o.size() == 4 && low ? combine(product(o[1], o[2], wide, source), of(o[3]), add) : kNoLaneStride;
      default:
        return kNoLaneStride;
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < a.cfg.blocks.size(); ++b) {
      if (!a.cfg.blocks[b].reachable) continue;
      for (uint32_t i = a.cfg.blocks[b].first; i < a.cfg.blocks[b].end; ++i) {
        if (kernel.body[i].kind != ptx::Statement::Kind::Instruction) continue;
        const StatementAccess& s = access.at(i);
        for (uint32_t r : s.writes) {
          if (stride[r] == kNoLaneStride) continue;
          int64_t w = kNoLaneStride;
          if (s.writes.size() == 1 && per_lane(a.shape[r]) && !mixed.test(r)) w = written(kernel.body[i].instruction);
          if (w == kUnseen || w == stride[r]) continue;
          stride[r] = stride[r] == kUnseen && known(w) ? w : kNoLaneStride;
          changed = true;
        }
      }
    }
  }
  for (int64_t& s : stride)
    if (s == kUnseen) s = kNoLaneStride;
  return stride;
}

}  // namespace

bool per_lane_operand(const ptx::Operand& op, const std::vector<Shape>& shape, const BlockShape& block) {
  if (op.kind == ptx::Operand::Kind::Register) return op.reg >= shape.size() || per_lane(shape[op.reg]);
  if (op.kind == ptx::Operand::Kind::SpecialRegister) return special_register_varies(op.sreg, op.component, block);
  return false;
}

bool RegisterSet::merge(const RegisterSet& other) {
  bool changed = false;
  for (size_t i = 0; i < words_.size() && i < other.words_.size(); ++i) {
    const uint64_t merged = words_[i] | other.words_[i];
    changed |= merged != words_[i];
    words_[i] = merged;
  }
  return changed;
}

bool RegisterSet::intersects(const RegisterSet& other) const {
  for (size_t i = 0; i < words_.size() && i < other.words_.size(); ++i)
    if (words_[i] & other.words_[i]) return true;
  return false;
}

bool special_register_varies(ptx::SpecialRegister sreg, unsigned component, const BlockShape& block) {
  using S = ptx::SpecialRegister;
  switch (sreg) {
    case S::Tid:
      // A warp is 32 consecutive linear thread indices: x varies unless the block is one
      // column wide; y is one value per warp when rows are whole multiples of 32 threads.
      if (component == 0) return block.x != 1;
      if (component == 1) return block.y != 1 && block.x % 32 != 0;
      return block.z != 1 && (block.x * block.y) % 32 != 0;
    case S::Laneid:
    case S::LanemaskEq:
    case S::LanemaskLe:
    case S::LanemaskLt:
    case S::LanemaskGe:
    case S::LanemaskGt:
    case S::Clock:
    case S::ClockHi:
    case S::Clock64:
    case S::Globaltimer:
    case S::GlobaltimerLo:
    case S::GlobaltimerHi:
      return true;
    default:
      return false;
  }
}

// Whether what `inst` writes may differ between the warps of a block whatever its register
// inputs (block_uniform's rule): what differs between lanes, the thread's own index and
// warp, and memory (read at different times by different warps) except parameters and
// constants.
bool differs_between_warps(const ptx::Instruction& inst, const ptx::Function& kernel, const BlockShape& block) {
  if (depends_on_lane(inst, kernel, block)) return true;
  if ((inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::Ldu) && inst.q.space != ptx::StateSpace::Param &&
      inst.q.space != ptx::StateSpace::Const)
    return true;
  bool thread = false;
  for (const ptx::Operand& op : inst.operands) {
    visit_operands(op, [&](const ptx::Operand& o) {
      if (o.kind != ptx::Operand::Kind::SpecialRegister) return;
      if (o.sreg == ptx::SpecialRegister::Warpid) thread = true;
      if (o.sreg == ptx::SpecialRegister::Tid)
        thread = thread || (o.component == 0 ? block.x : o.component == 1 ? block.y : block.z) != 1;
    });
  }
  return thread;
}

// WarpAnalysis::block_uniform and barriers_block_uniform, to a fixed point from every
// register uniform: a write differs between warps when its instruction does by itself or
// reads what does, and every register written between a branch on such a value and its
// join may (the warps that took one side would see other values than the others). A
// conditional exit has no side that goes on differently.
void find_block_uniform(const ptx::Function& kernel, const FunctionAccess& access, const BlockShape& block,
                        WarpAnalysis& a) {
  const KernelCfg& cfg = a.cfg;
  const auto blocks = static_cast<uint32_t>(cfg.blocks.size());
  a.block_uniform.assign(a.register_count, 1);
  std::vector<uint8_t> varying_branch(blocks, 0);
  auto differs = [&](const ptx::Operand& op) {
    return op.kind != ptx::Operand::Kind::Register || !a.block_uniform[op.reg];
  };
  RegisterSet inside(blocks);  // blocks between a branch whose threads may part and its join
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = 0; b < blocks; ++b) {
      if (!cfg.blocks[b].reachable) continue;
      for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
        if (kernel.body[i].kind != ptx::Statement::Kind::Instruction) continue;
        const StatementAccess& s = access.at(i);
        bool varies = inside.test(b) || differs_between_warps(kernel.body[i].instruction, kernel, block);
        for (uint32_t r : s.reads) varies = varies || !a.block_uniform[r];
        if (!varies) continue;
        for (uint32_t r : s.writes) {
          changed |= a.block_uniform[r] != 0;
          a.block_uniform[r] = 0;
        }
      }
    }
    for (uint32_t b = 0; b < blocks; ++b) {
      const CfgBlock& blk = cfg.blocks[b];
      if (!blk.reachable || varying_branch[b] || blk.how == BlockEnd::CondExit || !sides_differ(blk)) continue;
      const ptx::Instruction* last = cfg.last_instruction(kernel, b);
      if (last == nullptr) continue;
      bool varies = last->guard && !a.block_uniform[last->guard->reg];
      if (blk.how == BlockEnd::Switch && !last->operands.empty()) varies = varies || differs(last->operands[0]);
      if (!varies) continue;
      varying_branch[b] = 1;
      changed = true;
      for (uint32_t s : blk.successors) inside.merge(reach_before(cfg, s, cfg.ipdom[b]));
    }
  }
  a.barriers_block_uniform = true;
  for (uint32_t b = 0; b < blocks; ++b) {
    const ptx::Instruction* last = cfg.last_instruction(kernel, b);
    if (cfg.blocks[b].reachable && cfg.blocks[b].how == BlockEnd::Park && last != nullptr && is_barrier(*last) &&
        inside.test(b))
      a.barriers_block_uniform = false;
  }
}

WarpAnalysis analyze_warps(const ptx::Function& kernel, const FunctionAccess& access, const BlockShape& block,
                           bool yields) {
  WarpAnalysis a;
  a.cfg = build_kernel_cfg(kernel);
  const KernelCfg& cfg = a.cfg;
  const uint32_t block_count = static_cast<uint32_t>(cfg.blocks.size());
  a.register_count = carry_flag_register(kernel) + 1;
  const uint32_t regs = a.register_count;

  // Per block: registers read before any write in it (gen), written unconditionally (kill),
  // written at all, and accessed at all.
  std::vector<RegisterSet> gen(block_count, RegisterSet(regs)), kill(block_count, RegisterSet(regs));
  std::vector<RegisterSet> written(block_count, RegisterSet(regs)), accessed(block_count, RegisterSet(regs));
  for (uint32_t b = 0; b < block_count; ++b) {
    for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
      if (kernel.body[i].kind != ptx::Statement::Kind::Instruction) continue;
      const StatementAccess& s = access.at(i);
      const bool guarded = kernel.body[i].instruction.guard.has_value();
      for (uint32_t r : s.reads) {
        if (!kill[b].test(r)) gen[b].set(r);
        accessed[b].set(r);
      }
      for (uint32_t r : s.writes) {
        // A guarded write keeps the old value in the lanes whose guard is false.
        if (guarded && !kill[b].test(r)) gen[b].set(r);
        if (!guarded) kill[b].set(r);
        written[b].set(r);
        accessed[b].set(r);
      }
    }
  }
  // Liveness: live_in = gen | (live_out - kill), to a fixed point over the reverse order.
  a.live_in.assign(block_count, RegisterSet(regs));
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = static_cast<uint32_t>(cfg.order.size()); i-- > 0;) {
      const uint32_t b = cfg.order[i];
      RegisterSet out(regs);
      for (uint32_t s : cfg.blocks[b].successors) out.merge(a.live_in[s]);
      RegisterSet in = gen[b];
      out.for_each([&](uint32_t r) {
        if (!kill[b].test(r)) in.set(r);
      });
      if (!(in == a.live_in[b])) {
        a.live_in[b] = std::move(in);
        changed = true;
      }
    }
  }

  // Shapes, to a fixed point: start uniform, mark what depends on the lane, propagate.
  a.shape.assign(regs, Shape::Uniform);
  a.varying_branch.assign(block_count, 0);
  auto raise = [&](uint32_t r, Shape shape) {  // Uniform < LaneAligned < Varying
    if (a.shape[r] >= shape) return false;
    a.shape[r] = shape;
    return true;
  };
  auto make_varying = [&](uint32_t r) { return raise(r, Shape::Varying); };
  const std::vector<uint8_t> aligned = registers_multiple_of(kernel, access, block, 5, regs);  // the LaneAligned rules
  // Registers whose running lanes may hold values from different writes (the branch rule).
  RegisterSet mixed(regs);
  for (bool changed = true; changed;) {
    changed = false;
    // Data and guard dependence, and the instructions that depend on the lane by themselves.
    for (uint32_t b = 0; b < block_count; ++b) {
      if (!cfg.blocks[b].reachable) continue;
      for (uint32_t i = cfg.blocks[b].first; i < cfg.blocks[b].end; ++i) {
        if (kernel.body[i].kind != ptx::Statement::Kind::Instruction) continue;
        const ptx::Instruction& inst = kernel.body[i].instruction;
        const StatementAccess& s = access.at(i);
        if (s.writes.empty()) continue;
        const Shape shape = written_shape(inst, s, a.shape, aligned, kernel, block);
        for (uint32_t r : s.writes) changed |= raise(r, shape);
      }
    }
    // Branches that lanes may leave in different directions.
    for (uint32_t b = 0; b < block_count; ++b) {
      const CfgBlock& blk = cfg.blocks[b];
      if (!blk.reachable || a.varying_branch[b] || !sides_differ(blk)) continue;
      const ptx::Instruction* last = cfg.last_instruction(kernel, b);
      if (last == nullptr) continue;
      bool varying = false;
      if (last->guard) varying = per_lane(a.shape[last->guard->reg]);
      if (blk.how == BlockEnd::Switch && !last->operands.empty()) {
        const ptx::Operand& index = last->operands[0];  // brx.idx's index
        varying = index.kind != ptx::Operand::Kind::Register || per_lane(a.shape[index.reg]);
      }
      if (!varying) continue;
      a.varying_branch[b] = 1;
      changed = true;
    }
    // The branch rule (see the top of this file).
    for (uint32_t b = 0; b < block_count; ++b) {
      if (!a.varying_branch[b]) continue;
      const CfgBlock& blk = cfg.blocks[b];
      const uint32_t join = cfg.ipdom[b];
      std::vector<uint32_t> sides;
      for (uint32_t s : blk.successors)
        if (std::find(sides.begin(), sides.end(), s) == sides.end()) sides.push_back(s);
      std::vector<RegisterSet> side_written, side_accessed, side_entry_live;
      for (uint32_t s : sides) {
        RegisterSet reach = reach_before(cfg, s, join);
        RegisterSet w(regs), acc(regs);
        reach.for_each([&](uint32_t n) {
          w.merge(written[n]);
          acc.merge(accessed[n]);
        });
        side_written.push_back(std::move(w));
        side_accessed.push_back(std::move(acc));
        side_entry_live.push_back(s == join ? RegisterSet(regs) : a.live_in[s]);
      }
      RegisterSet at_join = join == kNoBlock ? RegisterSet(regs) : a.live_in[join];
      for (size_t i = 0; i < sides.size(); ++i) {
        RegisterSet seen_by_others = at_join;
        for (size_t j = 0; j < sides.size(); ++j) {
          if (j == i) continue;
          seen_by_others.merge(side_entry_live[j]);
          seen_by_others.merge(side_accessed[j]);
        }
        side_written[i].for_each([&](uint32_t r) {
          if (!seen_by_others.test(r)) return;
          mixed.set(r);
          changed |= make_varying(r);
        });
      }
    }
  }
  // Lanes may split for good where a warp's lanes can park (or yield) while others of it
  // are elsewhere: then every register is one value per lane.
  a.lanes_may_split = yields;
  for (uint32_t b = 0; b < block_count && !a.lanes_may_split; ++b) {
    // Lanes leaving by a conditional exit wait nowhere; the others go on together.
    if (!a.varying_branch[b] || cfg.blocks[b].how == BlockEnd::CondExit) continue;
    const uint32_t join = cfg.ipdom[b];
    for (uint32_t s : cfg.blocks[b].successors) {
      reach_before(cfg, s, join).for_each([&](uint32_t n) {
        if (cfg.blocks[n].how == BlockEnd::Park) a.lanes_may_split = true;
      });
    }
  }
  if (a.lanes_may_split) {
    a.shape.assign(regs, Shape::Varying);
    for (uint32_t b = 0; b < block_count; ++b) a.varying_branch[b] = cfg.blocks[b].reachable && sides_differ(cfg.blocks[b]);
    a.lane_stride.assign(regs, kNoLaneStride);
    a.half_stride.assign(regs, kNoLaneStride);
    return a;
  }
  find_block_uniform(kernel, access, block, a);
  a.lane_stride = find_lane_strides(kernel, access, block, a, mixed);
  a.half_stride.assign(regs, kNoLaneStride);
  if (block.x == 16)
    a.half_stride =
        find_lane_strides(kernel, access, block, a, mixed, true, half_aligned_registers(kernel, access, block, a, mixed));
  return a;
}

}  // namespace cucpu::jit
