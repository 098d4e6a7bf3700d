// Half-precision and packed arithmetic (PTX ISA 9.7.4) and the conversions to f16, bf16,
// their packed x2 forms and tf32 (9.7.9.21):
// - add sub mul fma on .f16/.bf16 and .f16x2/.bf16x2 (one lane per 16-bit half, lane 0 in
//   the low half) with .ftz .sat .relu; neg abs min max (.NaN); ex2/tanh .approx; setp
//   (an x2 compare writes lane 0 to p and lane 1 to q of `p|q`), set; cvt to f16/bf16 in
//   every rounding mode, cvt.f16x2/.bf16x2.f32 d, a, b (a goes to the high half), tf32.
// - Exactness: each lane is widened to f64 (exact). f16 sums and all products are exact
//   in f64; a bf16 sum rounded to f64 first is still correctly rounded once narrowed
//   (53 >= 2*8+2 bits, Figueroa). fma rounds its f64 sum to odd (TwoSum), which a second
//   rounding to 8 or 11 bits cannot spoil. The narrowing itself is the helper
//   __cucpu_jit_narrow (any rounding mode; long double, so 64-bit integers are exact).
// - sm_90 facts (H100, tests/isa/half_precision.cu and bf16.cu): every NaN result of
//   f16/bf16 arithmetic, neg and abs included, and of cvt.f16/bf16.f32, is 0x7fff, but
//   cvt from f64 gives the sign and the default quiet NaN (0x7e00, 0x7fc0);
//   cvt.f32.bf16 is a plain shift that keeps NaN payloads; cvt.rna.tf32.f32 is integer
//   rounding of the bits, (x + 0x1000) & ~0x1fff, NaN and overflow included.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

constexpr uint32_t kCanonicalNaN = 0x7fff;  // f16 and bf16 alike on sm_90

// The narrow formats of __cucpu_jit_narrow.
enum NarrowFormat : uint32_t { kF16 = 0, kBF16 = 1 };
constexpr int kNearestAway = 4;  // mode argument beside rounding_mode_argument's 0..3

struct Element {
  bool bf16 = false;
  unsigned lanes = 1;
};

bool half_element(ptx::Type t, Element& e) {
  switch (t) {
    case ptx::Type::F16:
      e = {false, 1};
      return true;
    case ptx::Type::F16x2:
      e = {false, 2};
      return true;
    case ptx::Type::BF16:
      e = {true, 1};
      return true;
    case ptx::Type::BF16x2:
      e = {true, 2};
      return true;
    default:
      return false;
  }
}

// One instruction's view of its half-precision lanes.
struct HalfLowering {
  FunctionLowering& fl;
  const ptx::Instruction& inst;
  Element e;

  llvm::IRBuilder<>& b() { return fl.b; }
  uint32_t exponent_mask() const { return e.bf16 ? 0x7f80 : 0x7c00; }
  uint32_t one() const { return e.bf16 ? 0x3f80 : 0x3c00; }

  // The lanes (i16 each) of a source operand read as `type`.
  std::vector<llvm::Value*> lanes(const ptx::Operand& op, ptx::Type type) {
    llvm::Value* v = fl.read(op, type);
    if (ptx::bit_width(type) == 16) return {v};
    return {b().CreateTrunc(v, b().getInt16Ty()), b().CreateTrunc(b().CreateLShr(v, 16), b().getInt16Ty())};
  }
  llvm::Value* join(const std::vector<llvm::Value*>& parts) {
    if (parts.size() == 1) return parts[0];
    llvm::Value* lo = b().CreateZExt(parts[0], b().getInt32Ty());
    llvm::Value* hi = b().CreateZExt(parts[1], b().getInt32Ty());
    return b().CreateOr(lo, b().CreateShl(hi, 16));
  }
  llvm::Value* bits16(uint32_t v) { return b().getInt16(static_cast<uint16_t>(v)); }
  llvm::Value* is_nan(llvm::Value* x) {
    return b().CreateICmpUGT(b().CreateAnd(x, bits16(0x7fff)), bits16(exponent_mask()));
  }
  llvm::Value* is_negative(llvm::Value* x) { return b().CreateICmpSLT(x, bits16(0)); }
  // .ftz: a subnormal becomes a zero of its sign.
  llvm::Value* flush(llvm::Value* x) {
    llvm::Value* subnormal = b().CreateICmpEQ(b().CreateAnd(x, bits16(exponent_mask())), bits16(0));
    return b().CreateSelect(subnormal, b().CreateAnd(x, bits16(0x8000)), x);
  }
  llvm::Value* in(llvm::Value* x) { return inst.q.ftz ? flush(x) : x; }
  // Exact widening of one lane to f64.
  llvm::Value* widen(llvm::Value* x) {
    if (!e.bf16) return b().CreateFPExt(b().CreateBitCast(x, b().getHalfTy()), b().getDoubleTy());
    llvm::Value* f32 = b().CreateBitCast(b().CreateShl(b().CreateZExt(x, b().getInt32Ty()), 16), b().getFloatTy());
    return b().CreateFPExt(f32, b().getDoubleTy());
  }
  llvm::Value* narrow(llvm::Value* v, int mode) {
    llvm::FunctionCallee helper = fl.runtime_function("__cucpu_jit_narrow", b().getInt32Ty(),
                                                      {b().getDoubleTy(), b().getInt32Ty(), b().getInt32Ty()});
    llvm::Value* r = b().CreateCall(helper, {v, b().getInt32(e.bf16 ? kBF16 : kF16), b().getInt32(mode)});
    return b().CreateTrunc(r, b().getInt16Ty());
  }
  // .ftz on the result, then .relu (negative -> +0, NaN stays NaN), then .sat ([0, 1], NaN -> +0).
  llvm::Value* out(llvm::Value* r) {
    if (inst.q.ftz) r = flush(r);
    if (inst.q.relu) r = b().CreateSelect(b().CreateAnd(is_negative(r), b().CreateNot(is_nan(r))), bits16(0), r);
    if (inst.q.sat) {
      llvm::Value* above_one = b().CreateICmpUGT(r, bits16(one()));  // also every NaN
      r = b().CreateSelect(b().CreateOr(is_negative(r), is_nan(r)), bits16(0),
                           b().CreateSelect(above_one, bits16(one()), r));
    }
    return r;
  }
};

// x * y + z rounded to odd in f64: the exact sum is s + err (TwoSum); when err != 0 and s
// is even, step s one unit toward err.
llvm::Value* fma_round_to_odd(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, llvm::Value* z) {
  llvm::Value* p = b.CreateFMul(x, y);  // exact: at most 22 significant bits
  llvm::Value* s = b.CreateFAdd(p, z);
  llvm::Value* bb = b.CreateFSub(s, p);
  llvm::Value* err = b.CreateFAdd(b.CreateFSub(p, b.CreateFSub(s, bb)), b.CreateFSub(z, bb));
  llvm::Value* zero = llvm::ConstantFP::get(b.getDoubleTy(), 0.0);
  llvm::Value* bits = b.CreateBitCast(s, b.getInt64Ty());
  llvm::Value* even = b.CreateICmpEQ(b.CreateAnd(bits, 1), b.getInt64(0));
  llvm::Value* inexact = b.CreateFCmpONE(err, zero);  // false for inf/NaN sums
  llvm::Value* away = b.CreateICmpEQ(b.CreateFCmpOLT(s, zero), b.CreateFCmpOLT(err, zero));
  llvm::Value* stepped = b.CreateSelect(away, b.CreateAdd(bits, b.getInt64(1)), b.CreateSub(bits, b.getInt64(1)));
  llvm::Value* odd = b.CreateSelect(b.CreateAnd(inexact, even), stepped, bits);
  return b.CreateBitCast(odd, b.getDoubleTy());
}

void lower_arithmetic(HalfLowering& h) {
  auto& b = h.b();
  const ptx::Instruction& inst = h.inst;
  bool fused = inst.opcode == ptx::Opcode::Fma;
  if (!h.fl.expect_operands(inst, fused ? 4 : 3)) return;
  if (rounding_mode_argument(inst.q.rounding) != 0) {
    h.fl.fail("half-precision arithmetic rounds to nearest (.rn) only");
    return;
  }
  std::vector<std::vector<llvm::Value*>> src;
  for (size_t i = 1; i < inst.operands.size(); ++i) src.push_back(h.lanes(inst.operands[i], inst.q.type));
  std::vector<llvm::Value*> result;
  for (unsigned lane = 0; lane < h.e.lanes; ++lane) {
    llvm::Value* x = h.widen(h.in(src[0][lane]));
    llvm::Value* y = h.widen(h.in(src[1][lane]));
    llvm::Value* r;
    switch (inst.opcode) {
      case ptx::Opcode::Add:
        r = b.CreateFAdd(x, y);
        break;
      case ptx::Opcode::Sub:
        r = b.CreateFSub(x, y);
        break;
      case ptx::Opcode::Mul:
        r = b.CreateFMul(x, y);
        break;
      default:
        r = fma_round_to_odd(b, x, y, h.widen(h.in(src[2][lane])));
        break;
    }
    result.push_back(h.out(h.narrow(r, 0)));
  }
  h.fl.write(inst.operands[0], inst.q.type, h.join(result));
}

// neg, abs: the sign bit, except that a NaN becomes the canonical NaN.
void lower_sign(HalfLowering& h) {
  auto& b = h.b();
  if (!h.fl.expect_operands(h.inst, 2)) return;
  std::vector<llvm::Value*> result;
  for (llvm::Value* x : h.lanes(h.inst.operands[1], h.inst.q.type)) {
    x = h.in(x);
    llvm::Value* r =
        h.inst.opcode == ptx::Opcode::Neg ? b.CreateXor(x, h.bits16(0x8000)) : b.CreateAnd(x, h.bits16(0x7fff));
    result.push_back(b.CreateSelect(h.is_nan(x), h.bits16(kCanonicalNaN), r));
  }
  h.fl.write(h.inst.operands[0], h.inst.q.type, h.join(result));
}

// min/max as for f32: a NaN loses to a number (two NaNs: canonical NaN), -0 < +0; with
// .NaN any NaN operand gives the canonical NaN. .xorsign.abs compares |a| and |b| and
// gives the result the sign sign(a) ^ sign(b) (a NaN result stays the canonical NaN).
void lower_min_max(HalfLowering& h) {
  auto& b = h.b();
  if (!h.fl.expect_operands(h.inst, 3)) return;
  bool is_min = h.inst.opcode == ptx::Opcode::Min;
  auto xs = h.lanes(h.inst.operands[1], h.inst.q.type);
  auto ys = h.lanes(h.inst.operands[2], h.inst.q.type);
  std::vector<llvm::Value*> result;
  for (unsigned lane = 0; lane < h.e.lanes; ++lane) {
    llvm::Value* xb = h.in(xs[lane]);
    llvm::Value* yb = h.in(ys[lane]);
    llvm::Value* sign = b.CreateAnd(b.CreateXor(xb, yb), h.bits16(0x8000));
    if (h.inst.q.xorsign_abs) {  // compare magnitudes; the result takes sign(a) ^ sign(b)
      xb = b.CreateAnd(xb, h.bits16(0x7fff));
      yb = b.CreateAnd(yb, h.bits16(0x7fff));
    }
    llvm::Value* x = h.widen(xb);
    llvm::Value* y = h.widen(yb);
    llvm::Value* merged = is_min ? b.CreateOr(xb, yb) : b.CreateAnd(xb, yb);
    llvm::Value* x_wins = is_min ? b.CreateFCmpOLT(x, y) : b.CreateFCmpOGT(x, y);
    llvm::Value* y_wins = is_min ? b.CreateFCmpOLT(y, x) : b.CreateFCmpOGT(y, x);
    llvm::Value* r = b.CreateSelect(x_wins, xb, b.CreateSelect(y_wins, yb, merged));
    llvm::Value* x_nan = h.is_nan(xb);
    llvm::Value* y_nan = h.is_nan(yb);
    llvm::Value* nan = h.bits16(kCanonicalNaN);
    if (h.inst.q.nan) {
      r = b.CreateSelect(b.CreateOr(x_nan, y_nan), nan, r);
    } else {
      r = b.CreateSelect(b.CreateAnd(x_nan, y_nan), nan, b.CreateSelect(x_nan, yb, b.CreateSelect(y_nan, xb, r)));
    }
    if (h.inst.q.xorsign_abs) r = b.CreateSelect(h.is_nan(r), r, b.CreateOr(r, sign));
    result.push_back(r);
  }
  h.fl.write(h.inst.operands[0], h.inst.q.type, h.join(result));
}

// ex2.approx, tanh.approx: computed exactly in f64 and rounded once (within the bounds).
void lower_approx(HalfLowering& h) {
  auto& b = h.b();
  if (!h.fl.expect_operands(h.inst, 2)) return;
  std::vector<llvm::Value*> result;
  for (llvm::Value* x : h.lanes(h.inst.operands[1], h.inst.q.type)) {
    llvm::Value* v = h.widen(h.in(x));
    llvm::Value* r = h.inst.opcode == ptx::Opcode::Ex2
                         ? b.CreateUnaryIntrinsic(llvm::Intrinsic::exp2, v)
                         : b.CreateCall(h.fl.runtime_function("tanh", b.getDoubleTy(), {b.getDoubleTy()}), {v});
    result.push_back(h.out(h.narrow(r, 0)));
  }
  h.fl.write(h.inst.operands[0], h.inst.q.type, h.join(result));
}

llvm::CmpInst::Predicate float_predicate(ptx::Compare op, bool& ok) {
  using C = ptx::Compare;
  using P = llvm::CmpInst::Predicate;
  ok = true;
  switch (op) {
    case C::Eq:
      return P::FCMP_OEQ;
    case C::Ne:
      return P::FCMP_ONE;
    case C::Lt:
      return P::FCMP_OLT;
    case C::Le:
      return P::FCMP_OLE;
    case C::Gt:
      return P::FCMP_OGT;
    case C::Ge:
      return P::FCMP_OGE;
    case C::Equ:
      return P::FCMP_UEQ;
    case C::Neu:
      return P::FCMP_UNE;
    case C::Ltu:
      return P::FCMP_ULT;
    case C::Leu:
      return P::FCMP_ULE;
    case C::Gtu:
      return P::FCMP_UGT;
    case C::Geu:
      return P::FCMP_UGE;
    case C::Num:
      return P::FCMP_ORD;
    case C::Nan:
      return P::FCMP_UNO;
    default:
      ok = false;
      return P::FCMP_FALSE;
  }
}

llvm::Value* combine(llvm::IRBuilder<>& b, ptx::BoolOp op, llvm::Value* x, llvm::Value* c) {
  switch (op) {
    case ptx::BoolOp::And:
      return b.CreateAnd(x, c);
    case ptx::BoolOp::Or:
      return b.CreateOr(x, c);
    case ptx::BoolOp::Xor:
      return b.CreateXor(x, c);
    default:
      return x;
  }
}

// setp/set with half-precision sources: one comparison per lane.
void lower_compare(HalfLowering& h) {
  auto& b = h.b();
  const ptx::Instruction& inst = h.inst;
  bool setp = inst.opcode == ptx::Opcode::Setp;
  ptx::Type src_type = setp ? inst.q.type : inst.q.src_type;
  size_t sources = inst.q.bool_op == ptx::BoolOp::None ? 2 : 3;
  std::vector<const ptx::Operand*> dsts, srcs;
  const auto& ops = inst.operands;
  size_t first_source = ops.size() >= sources ? ops.size() - sources : 0;
  if (!ops.empty() && ops[0].kind == ptx::Operand::Kind::Vector) {
    for (const ptx::Operand& d : ops[0].elements) dsts.push_back(&d);
    first_source = 1;
  } else {
    for (size_t i = 0; i < first_source; ++i) dsts.push_back(&ops[i]);
  }
  for (size_t i = first_source; i < ops.size(); ++i) srcs.push_back(&ops[i]);
  if (dsts.empty() || dsts.size() > 2 || srcs.size() != sources || (!setp && dsts.size() != 1)) {
    h.fl.fail("unexpected operands");
    return;
  }
  bool ok = false;
  llvm::CmpInst::Predicate predicate = float_predicate(inst.q.compare, ok);
  if (!ok) {
    h.fl.fail("comparison not defined for floats");
    return;
  }
  auto xs = h.lanes(*srcs[0], src_type);
  auto ys = h.lanes(*srcs[1], src_type);
  llvm::Value* c = sources == 3 ? h.fl.read(*srcs[2], ptx::Type::Pred) : nullptr;
  std::vector<llvm::Value*> holds;
  for (unsigned lane = 0; lane < h.e.lanes; ++lane)
    holds.push_back(b.CreateFCmp(predicate, h.widen(h.in(xs[lane])), h.widen(h.in(ys[lane]))));
  if (setp) {
    // Scalar: p|q are the result and its complement; x2: lane 0 and lane 1.
    llvm::Value* second = h.e.lanes == 2 ? holds[1] : b.CreateNot(holds[0]);
    h.fl.write(*dsts[0], ptx::Type::Pred, combine(b, inst.q.bool_op, holds[0], c));
    if (dsts.size() == 2) h.fl.write(*dsts[1], ptx::Type::Pred, combine(b, inst.q.bool_op, second, c));
    return;
  }
  ptx::Type t = inst.q.type;
  unsigned width = ptx::bit_width(t);
  auto value_of = [&](llvm::Value* holds_lane, unsigned bits) -> llvm::Value* {
    llvm::Value* v = combine(b, inst.q.bool_op, holds_lane, c);
    switch (t) {
      case ptx::Type::F16:
      case ptx::Type::F16x2:
        return b.CreateSelect(v, h.bits16(0x3c00), h.bits16(0));
      case ptx::Type::BF16:
      case ptx::Type::BF16x2:
        return b.CreateSelect(v, h.bits16(0x3f80), h.bits16(0));
      case ptx::Type::F32:
        return b.CreateSelect(v, b.getInt32(0x3f800000), b.getInt32(0));
      default:
        return b.CreateSExt(v, h.fl.int_type(bits));  // all ones for true
    }
  };
  if (t == ptx::Type::F32 || (ptx::is_float(t) && h.e.lanes == 1 && width == 16)) {
    h.fl.write(*dsts[0], t, h.fl.to_type(value_of(holds[0], width), t));
    return;
  }
  if (ptx::is_float(t) && t != ptx::Type::F16x2 && t != ptx::Type::BF16x2) {
    h.fl.fail("set result type not supported");
    return;
  }
  if (h.e.lanes == 2) {
    // Packed sources: a 16-bit mask (or 1.0) per lane.
    h.fl.write(*dsts[0], t, h.join({value_of(holds[0], 16), value_of(holds[1], 16)}));
    return;
  }
  h.fl.write(*dsts[0], t, value_of(holds[0], width));
}

// --- conversions ---------------------------------------------------------------------

bool is_integral_rounding(ptx::Rounding r) {
  return r == ptx::Rounding::IntNearestEven || r == ptx::Rounding::IntZero || r == ptx::Rounding::IntDown ||
         r == ptx::Rounding::IntUp;
}

// One cvt source converted to a narrow lane of `h.e`'s format.
llvm::Value* convert_lane(HalfLowering& h, const ptx::Operand& op, ptx::Type src) {
  auto& b = h.b();
  const ptx::Instruction& inst = h.inst;
  ptx::Rounding rounding = inst.q.rounding;
  int mode = rounding == ptx::Rounding::NearestAway ? kNearestAway : rounding_mode_argument(rounding);
  if (is_integral_rounding(rounding)) mode = 0;
  if (mode < 0) {
    h.fl.fail("rounding modifier not supported for this conversion");
    return h.bits16(0);
  }
  llvm::Value* raw = h.fl.read(op, src);
  llvm::Value* narrowed;
  if (!ptx::is_float(src)) {
    // Integers go to the helper whole: 64-bit values are exact in its long double.
    llvm::FunctionCallee helper = h.fl.runtime_function(
        "__cucpu_jit_narrow_integer", b.getInt32Ty(), {b.getInt64Ty(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()});
    bool is_signed = ptx::is_signed_int(src);
    llvm::Value* wide = h.fl.resize_int(raw, 64, is_signed);
    narrowed = b.CreateTrunc(b.CreateCall(helper, {wide, b.getInt32(is_signed ? 1 : 0),
                                                   b.getInt32(h.e.bf16 ? kBF16 : kF16), b.getInt32(mode)}),
                             b.getInt16Ty());
  } else {
    llvm::Value* v;
    switch (src) {
      case ptx::Type::F16:
      case ptx::Type::BF16: {
        HalfLowering from{h.fl, inst, {src == ptx::Type::BF16, 1}};
        v = from.widen(raw);
        break;
      }
      case ptx::Type::F32:
        v = b.CreateFPExt(inst.q.ftz ? h.fl.flush_subnormal(raw) : raw, b.getDoubleTy());
        break;
      case ptx::Type::F64:
        v = raw;
        break;
      default:
        h.fl.fail("conversion between these types is not supported yet");
        return h.bits16(0);
    }
    switch (rounding) {
      case ptx::Rounding::IntNearestEven:
        v = b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, v);
        break;
      case ptx::Rounding::IntZero:
        v = b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, v);
        break;
      case ptx::Rounding::IntDown:
        v = b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, v);
        break;
      case ptx::Rounding::IntUp:
        v = b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, v);
        break;
      default:
        break;
    }
    narrowed = h.narrow(v, mode);
    if (src == ptx::Type::F64) {
      // From f64 a NaN keeps its sign and becomes the default quiet NaN (0x7e00, 0x7fc0).
      llvm::Value* sign = b.CreateTrunc(b.CreateLShr(b.CreateBitCast(raw, b.getInt64Ty()), 48), b.getInt16Ty());
      llvm::Value* quiet = b.CreateOr(b.CreateAnd(sign, h.bits16(0x8000)), h.bits16(h.e.bf16 ? 0x7fc0 : 0x7e00));
      narrowed = b.CreateSelect(b.CreateFCmpUNO(raw, raw), quiet, narrowed);
    }
  }
  // .ftz is about the f32 side of the conversion; .relu, .sat and .satfinite (an infinite
  // result becomes the largest finite one of its sign, NaN stays NaN) apply to the result.
  llvm::Value* r = narrowed;
  if (inst.q.satfinite) {
    llvm::Value* infinite = b.CreateICmpEQ(b.CreateAnd(r, h.bits16(0x7fff)), h.bits16(h.exponent_mask()));
    llvm::Value* largest = b.CreateOr(b.CreateAnd(r, h.bits16(0x8000)), h.bits16(h.exponent_mask() - 1));
    r = b.CreateSelect(infinite, largest, r);
  }
  if (inst.q.relu) r = b.CreateSelect(b.CreateAnd(h.is_negative(r), b.CreateNot(h.is_nan(r))), h.bits16(0), r);
  if (inst.q.sat) {
    llvm::Value* above_one = b.CreateICmpUGT(r, h.bits16(h.one()));
    r = b.CreateSelect(b.CreateOr(h.is_negative(r), h.is_nan(r)), h.bits16(0),
                       b.CreateSelect(above_one, h.bits16(h.one()), r));
  }
  return r;
}

// cvt.{rna,rn,rz}{.satfinite}.tf32.f32: rounding of the f32 bits as an integer, as the GPU
// does. .satfinite (PTX ISA 9.0 §9.7.9.21): a rounded result whose exponent is all ones
// loses one tf32 ulp of its bits, so infinities and results rounded past the largest tf32
// give +-0x7f7fe000 and a NaN stays a NaN with a smaller payload (H100: 7fc00000 ->
// 7fbfe000, ffc00001 -> ffbfe000, 7f800001 -> 7f7fe000).
void lower_tf32(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  if (inst.q.src_type != ptx::Type::F32) {
    fl.fail("tf32 conversions take an .f32 source");
    return;
  }
  llvm::Value* x = fl.to_bits(fl.read(inst.operands[1], ptx::Type::F32));
  llvm::Value* r;
  switch (inst.q.rounding) {
    case ptx::Rounding::NearestAway:
      r = b.CreateAdd(x, b.getInt32(0x1000));
      break;
    case ptx::Rounding::NearestEven:
      r = b.CreateAdd(x, b.CreateAdd(b.getInt32(0xfff), b.CreateAnd(b.CreateLShr(x, 13), 1)));
      break;
    case ptx::Rounding::Zero:
      r = x;
      break;
    default:
      fl.fail("tf32 conversions round with .rna, .rn or .rz");
      return;
  }
  r = b.CreateAnd(r, b.getInt32(0xffffe000));
  if (inst.q.satfinite) {
    llvm::Value* top_exponent = b.CreateICmpEQ(b.CreateAnd(r, b.getInt32(0x7f800000)), b.getInt32(0x7f800000));
    r = b.CreateSelect(top_exponent, b.CreateSub(r, b.getInt32(0x2000)), r);
  }
  if (inst.q.relu) r = b.CreateSelect(b.CreateICmpSLT(r, b.getInt32(0)), b.getInt32(0), r);
  fl.write(inst.operands[0], ptx::Type::B32, r);
}

void lower_cvt(FunctionLowering& fl, const ptx::Instruction& inst) {
  ptx::Type dst = inst.q.type;
  ptx::Type src = inst.q.src_type;
  if (dst == ptx::Type::TF32) {
    lower_tf32(fl, inst);
    return;
  }
  if (dst == ptx::Type::F32 && src == ptx::Type::BF16) {
    // bf16 is the high half of an f32: the GPU shifts, NaN payloads included.
    if (!fl.expect_operands(inst, 2)) return;
    llvm::Value* x = fl.read(inst.operands[1], ptx::Type::BF16);
    llvm::Value* r = fl.b.CreateBitCast(fl.b.CreateShl(fl.b.CreateZExt(x, fl.b.getInt32Ty()), 16), fl.b.getFloatTy());
    if (inst.q.ftz) r = fl.flush_subnormal(r);
    fl.write(inst.operands[0], ptx::Type::F32, r);
    return;
  }
  HalfLowering h{fl, inst, {}};
  half_element(dst, h.e);
  if (h.e.lanes == 2) {
    // cvt.f16x2.f32 d, a, b: a to the high half, b to the low half.
    if (!fl.expect_operands(inst, 3)) return;
    llvm::Value* hi = convert_lane(h, inst.operands[1], src);
    llvm::Value* lo = convert_lane(h, inst.operands[2], src);
    fl.write(inst.operands[0], dst, h.join({lo, hi}));
    return;
  }
  if (!fl.expect_operands(inst, 2)) return;
  fl.write(inst.operands[0], dst, convert_lane(h, inst.operands[1], src));
}

bool is_half_cvt(const ptx::Instruction& inst) {
  Element e;
  ptx::Type dst = inst.q.type;
  return half_element(dst, e) || dst == ptx::Type::TF32 ||
         (dst == ptx::Type::F32 && inst.q.src_type == ptx::Type::BF16);
}

// --- the narrowing helper ------------------------------------------------------------

struct Format {
  int fraction_bits, emin, emax;
};
constexpr Format kFormats[] = {{10, -14, 15}, {7, -126, 127}};

// Rounds v to the format in `mode` (0 rn, 1 rz, 2 rm, 3 rp, 4 rna); NaN -> 0x7fff.
uint32_t narrow(long double v, uint32_t format, int32_t mode) {
  const Format& f = kFormats[format == kBF16 ? 1 : 0];
  if (std::isnan(v)) return kCanonicalNaN;
  bool negative = std::signbit(v);
  uint32_t sign = negative ? 0x8000 : 0;
  uint32_t infinity = static_cast<uint32_t>(f.emax - f.emin + 2) << f.fraction_bits;
  long double a = std::fabs(v);
  if (std::isinf(a)) return sign | infinity;
  if (a == 0) return sign;
  int q = std::max(std::ilogb(a), f.emin) - f.fraction_bits;  // weight of the last kept bit
  long double scaled = std::ldexp(a, -q);                     // exact in long double
  long double whole = std::floor(scaled);
  long double rest = scaled - whole;
  uint64_t m = static_cast<uint64_t>(whole);
  bool up;
  switch (mode) {
    case 0:
      up = rest > 0.5L || (rest == 0.5L && (m & 1) != 0);
      break;
    case kNearestAway:
      up = rest >= 0.5L;
      break;
    case 2:
      up = negative && rest > 0;
      break;
    case 3:
      up = !negative && rest > 0;
      break;
    default:
      up = false;
      break;
  }
  m += up ? 1 : 0;
  if ((m >> (f.fraction_bits + 1)) != 0) {  // rounded up into the next binade
    m >>= 1;
    ++q;
  }
  uint32_t biased = (m >> f.fraction_bits) != 0 ? static_cast<uint32_t>(q + f.fraction_bits - f.emin + 1) : 0;
  if (biased >= static_cast<uint32_t>(f.emax - f.emin + 2)) {
    bool to_infinity = mode == 0 || mode == kNearestAway || (mode == 2 && negative) || (mode == 3 && !negative);
    return sign | (to_infinity ? infinity : infinity - 1);
  }
  return sign | (biased << f.fraction_bits) | static_cast<uint32_t>(m & ((1u << f.fraction_bits) - 1));
}

extern "C" uint32_t __cucpu_jit_narrow(double v, uint32_t format, int32_t mode) { return narrow(v, format, mode); }
extern "C" uint32_t __cucpu_jit_narrow_integer(int64_t v, int32_t is_signed, uint32_t format, int32_t mode) {
  long double exact = is_signed != 0 ? static_cast<long double>(v) : static_cast<long double>(static_cast<uint64_t>(v));
  return narrow(exact, format, mode);
}

}  // namespace

bool lower_half_precision(FunctionLowering& fl, const ptx::Instruction& inst) {
  HalfLowering h{fl, inst, {}};
  switch (inst.opcode) {
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Mul:
    case ptx::Opcode::Fma:
      if (!half_element(inst.q.type, h.e)) return false;
      lower_arithmetic(h);
      return true;
    case ptx::Opcode::Neg:
    case ptx::Opcode::Abs:
      if (!half_element(inst.q.type, h.e)) return false;
      lower_sign(h);
      return true;
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
      if (!half_element(inst.q.type, h.e)) return false;
      lower_min_max(h);
      return true;
    case ptx::Opcode::Ex2:
    case ptx::Opcode::Tanh:
      if (!half_element(inst.q.type, h.e)) return false;
      lower_approx(h);
      return true;
    case ptx::Opcode::Setp:
      if (!half_element(inst.q.type, h.e)) return false;
      lower_compare(h);
      return true;
    case ptx::Opcode::Set:
      if (!half_element(inst.q.src_type, h.e)) return false;
      lower_compare(h);
      return true;
    case ptx::Opcode::Cvt:
      if (!is_half_cvt(inst)) return false;
      lower_cvt(fl, inst);
      return true;
    default:
      return false;
  }
}

RuntimeSymbols half_precision_helper_symbols() {
  RuntimeSymbols symbols;
  symbols["__cucpu_jit_narrow"] = reinterpret_cast<void*>(&__cucpu_jit_narrow);
  symbols["__cucpu_jit_narrow_integer"] = reinterpret_cast<void*>(&__cucpu_jit_narrow_integer);
  return symbols;
}

}  // namespace cucpu::jit
