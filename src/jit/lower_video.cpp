// The SIMD video instructions (PTX ISA 9.0 §9.7.17.2): vadd2 vsub2 vavrg2 vabsdiff2 vmin2
// vmax2 vset2 on two half-word lanes and vadd4 ... vset4 on four byte lanes.
//
// Each lane of a and of b is picked by that operand's selector from the pair {b, a} (bytes
// 0-3 are a's, 4-7 b's; half-words 0-1 a's, 2-3 b's; by default a's lanes for a and b's
// for b) and sign- or zero-extended as its type says. A lane's result is computed exactly
// in i32 (none overflows it), clamped to the destination's lane range with .sat, then
// either merged into c (the lanes the destination mask names take the result, the others
// keep c's) or, with .add, added to c as a whole 32-bit value (__vsadu4 is vabsdiff4.add).
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include <array>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

enum class LaneOp : uint8_t { Add, Sub, Average, AbsDiff, Min, Max, Set };

struct SimdForm {
  LaneOp op;
  unsigned lanes;  // 2 (half-words) or 4 (bytes)
};

std::optional<SimdForm> simd_form(ptx::Opcode opcode) {
  using ptx::Opcode;
  switch (opcode) {
    case Opcode::Vadd2:
      return SimdForm{LaneOp::Add, 2};
    case Opcode::Vadd4:
      return SimdForm{LaneOp::Add, 4};
    case Opcode::Vsub2:
      return SimdForm{LaneOp::Sub, 2};
    case Opcode::Vsub4:
      return SimdForm{LaneOp::Sub, 4};
    case Opcode::Vavrg2:
      return SimdForm{LaneOp::Average, 2};
    case Opcode::Vavrg4:
      return SimdForm{LaneOp::Average, 4};
    case Opcode::Vabsdiff2:
      return SimdForm{LaneOp::AbsDiff, 2};
    case Opcode::Vabsdiff4:
      return SimdForm{LaneOp::AbsDiff, 4};
    case Opcode::Vmin2:
      return SimdForm{LaneOp::Min, 2};
    case Opcode::Vmin4:
      return SimdForm{LaneOp::Min, 4};
    case Opcode::Vmax2:
      return SimdForm{LaneOp::Max, 2};
    case Opcode::Vmax4:
      return SimdForm{LaneOp::Max, 4};
    case Opcode::Vset2:
      return SimdForm{LaneOp::Set, 2};
    case Opcode::Vset4:
      return SimdForm{LaneOp::Set, 4};
    default:
      return std::nullopt;
  }
}

bool is_word(ptx::Type type) { return type == ptx::Type::U32 || type == ptx::Type::S32; }

// The types and qualifiers the ISA allows (what ptxas accepts): d.a.b of .u32/.s32 (vset:
// a.b and a comparison of eq ne lt le gt ge), .sat only without .add, no .min/.max.
bool check_qualifiers(FunctionLowering& fl, const ptx::Instruction& inst, const SimdForm& form) {
  const ptx::Qualifiers& q = inst.q;
  const bool set = form.op == LaneOp::Set;
  if (!is_word(q.type) || !is_word(q.src_type) || (set ? q.b_type != ptx::Type::None : !is_word(q.b_type))) {
    fl.fail(set ? "wants two types of .u32/.s32 (a.b)" : "wants three types of .u32/.s32 (d.a.b)");
    return false;
  }
  using ptx::Compare;
  const bool integer_compare = q.compare == Compare::Eq || q.compare == Compare::Ne || q.compare == Compare::Lt ||
                               q.compare == Compare::Le || q.compare == Compare::Gt || q.compare == Compare::Ge;
  if (set != integer_compare) {
    fl.fail(set ? "wants one comparison of .eq .ne .lt .le .gt .ge" : "takes no comparison");
    return false;
  }
  if (q.secondary != ptx::SecondaryOp::None && q.secondary != ptx::SecondaryOp::Add) {
    fl.fail("takes no secondary operation but .add");
    return false;
  }
  if (q.sat && q.secondary == ptx::SecondaryOp::Add) {
    fl.fail("cannot saturate with the .add accumulate");
    return false;
  }
  return true;
}

// For each result lane (index 0 = least significant), which lane of the pair {b, a} a
// source selector picks; `fallback` is the ISA's default selector (a: .h10/.b3210, b:
// .h32/.b7654).
std::optional<std::array<unsigned, 4>> source_lanes(FunctionLowering& fl, const ptx::Operand& op, unsigned lanes,
                                                    unsigned first_default) {
  std::array<unsigned, 4> picked{};
  const ptx::LaneSelector& s = op.selector;
  if (s.lane_bits == 0) {
    for (unsigned i = 0; i < lanes; ++i) picked[i] = first_default + i;
    return picked;
  }
  if (s.lane_bits != 32 / lanes || s.count != lanes) {
    fl.fail(
        fmt::format("a source selector here names {} {}", lanes, lanes == 2 ? "half-words (.hxy)" : "bytes (.bxyzw)"));
    return std::nullopt;
  }
  for (unsigned i = 0; i < lanes; ++i) picked[i] = s.digits[lanes - 1 - i];
  return picked;
}

// The destination's mask: which lanes take the result. Written lanes from the highest down
// (.h10, .b310, ...), as ptxas requires; none written means every lane.
std::optional<unsigned> destination_mask(FunctionLowering& fl, const ptx::Operand& op, unsigned lanes) {
  const ptx::LaneSelector& s = op.selector;
  if (s.lane_bits == 0) return (1u << lanes) - 1;
  bool valid = s.lane_bits == 32 / lanes;
  unsigned mask = 0;
  for (unsigned i = 0; i < s.count; ++i) {
    valid = valid && s.digits[i] < lanes && (i == 0 || s.digits[i] < s.digits[i - 1]);
    mask |= 1u << s.digits[i];
  }
  if (!valid) {
    fl.fail("the destination mask names lanes of the result, highest first (.h10, .b310)");
    return std::nullopt;
  }
  return mask;
}

// Lane `index` of the 64-bit pair {b, a}, extended to i32.
llvm::Value* extract_lane(FunctionLowering& fl, llvm::Value* pair, unsigned index, unsigned bits, bool is_signed) {
  auto& b = fl.b;
  llvm::Value* lane = b.CreateTrunc(b.CreateLShr(pair, fl.i64(index * bits)), fl.int_type(bits));
  return is_signed ? b.CreateSExt(lane, b.getInt32Ty()) : b.CreateZExt(lane, b.getInt32Ty());
}

llvm::Value* lane_result(FunctionLowering& fl, const ptx::Instruction& inst, LaneOp op, llvm::Value* x,
                         llvm::Value* y) {
  auto& b = fl.b;
  switch (op) {
    case LaneOp::Add:
      return b.CreateAdd(x, y);
    case LaneOp::Sub:
      return b.CreateSub(x, y);
    case LaneOp::Average: {  // (x + y + 1) >> 1 for sums >= 0, (x + y) >> 1 below (the ISA's)
      llvm::Value* sum = b.CreateAdd(x, y);
      llvm::Value* up = b.CreateAShr(b.CreateAdd(sum, fl.i32(1)), fl.i32(1));
      return b.CreateSelect(b.CreateICmpSGE(sum, fl.i32(0)), up, b.CreateAShr(sum, fl.i32(1)));
    }
    case LaneOp::AbsDiff:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, b.CreateSub(x, y), b.getFalse());
    case LaneOp::Min:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y);
    case LaneOp::Max:
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y);
    case LaneOp::Set: {
      // Both lanes are exact in i32, whatever their types: a signed compare is the value's.
      llvm::CmpInst::Predicate predicate = llvm::CmpInst::ICMP_EQ;
      switch (inst.q.compare) {
        case ptx::Compare::Ne:
          predicate = llvm::CmpInst::ICMP_NE;
          break;
        case ptx::Compare::Lt:
          predicate = llvm::CmpInst::ICMP_SLT;
          break;
        case ptx::Compare::Le:
          predicate = llvm::CmpInst::ICMP_SLE;
          break;
        case ptx::Compare::Gt:
          predicate = llvm::CmpInst::ICMP_SGT;
          break;
        case ptx::Compare::Ge:
          predicate = llvm::CmpInst::ICMP_SGE;
          break;
        default:
          break;
      }
      return b.CreateZExt(b.CreateICmp(predicate, x, y), b.getInt32Ty());
    }
  }
  return nullptr;
}

void lower_simd_video(FunctionLowering& fl, const ptx::Instruction& inst, const SimdForm& form) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4) || !check_qualifiers(fl, inst, form)) return;
  for (size_t i = 0; i < 4; ++i) {
    if (inst.operands[i].kind != ptx::Operand::Kind::Register) {
      fl.fail("takes registers only");
      return;
    }
  }
  if (inst.operands[3].selector.lane_bits != 0) {
    fl.fail("c takes no selector");
    return;
  }
  const unsigned bits = 32 / form.lanes;
  const bool set = form.op == LaneOp::Set;
  const bool a_signed = (set ? inst.q.type : inst.q.src_type) == ptx::Type::S32;
  const bool b_signed = (set ? inst.q.src_type : inst.q.b_type) == ptx::Type::S32;
  auto a_lanes = source_lanes(fl, inst.operands[1], form.lanes, 0);
  auto b_lanes = source_lanes(fl, inst.operands[2], form.lanes, form.lanes);
  auto mask = destination_mask(fl, inst.operands[0], form.lanes);
  if (!a_lanes || !b_lanes || !mask) return;

  llvm::Value* a = b.CreateZExt(fl.read(inst.operands[1], ptx::Type::U32), b.getInt64Ty());
  llvm::Value* bv = b.CreateZExt(fl.read(inst.operands[2], ptx::Type::U32), b.getInt64Ty());
  llvm::Value* pair = b.CreateOr(b.CreateShl(bv, fl.i64(32)), a);
  llvm::Value* c = fl.read(inst.operands[3], ptx::Type::U32);
  const bool accumulate = inst.q.secondary == ptx::SecondaryOp::Add;
  const int64_t lane_max = inst.q.type == ptx::Type::S32 ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  const int64_t lane_min = inst.q.type == ptx::Type::S32 ? -(int64_t{1} << (bits - 1)) : 0;
  const uint32_t lane_mask = (uint32_t{1} << bits) - 1;
  llvm::Value* result = c;
  for (unsigned i = 0; i < form.lanes; ++i) {
    if (!(*mask & (1u << i))) continue;
    llvm::Value* x = extract_lane(fl, pair, (*a_lanes)[i], bits, a_signed);
    llvm::Value* y = extract_lane(fl, pair, (*b_lanes)[i], bits, b_signed);
    llvm::Value* t = lane_result(fl, inst, form.op, x, y);
    if (inst.q.sat) {
      t = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, t, fl.i32(static_cast<uint64_t>(lane_min)));
      t = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, t, fl.i32(static_cast<uint64_t>(lane_max)));
    }
    if (accumulate) {
      result = b.CreateAdd(result, t);
    } else {
      llvm::Value* kept = b.CreateAnd(result, fl.i32(~(lane_mask << (i * bits))));
      result = b.CreateOr(kept, b.CreateShl(b.CreateAnd(t, fl.i32(lane_mask)), fl.i32(i * bits)));
    }
  }
  fl.write(inst.operands[0], ptx::Type::U32, result);
}

}  // namespace

bool lower_video(FunctionLowering& fl, const ptx::Instruction& inst) {
  const auto form = simd_form(inst.opcode);
  if (!form) return false;
  lower_simd_video(fl, inst, *form);
  return true;
}

}  // namespace cucpu::jit
