// f32 arithmetic in a directed rounding mode as IR (directed_rounding.h).
//
// The exact result v of a float operation is a sum of two doubles: a product of two floats is
// exact in double (48 significant bits, exponents far inside double's range), and a sum of
// two doubles is s + e exactly, s the rounded sum and e its error (Knuth's TwoSum). v is then
// rounded to float in the mode: f, s rounded to the nearest float, is within half a float step
// of v's neighbourhood, and d = s - f is exact (s and f are within a factor of two, or both
// multiples of s's last place below the normal range), so the sign of v - f is the sign of
// d + e (rounding keeps signs). Where the mode says v lies on the other side, f steps one float
// toward it: its bit pattern by one, from ±0 to the smallest subnormal of that side, from an
// infinity (s past the float range) back to the largest float.
#include "jit/directed_rounding.h"

#include <llvm/IR/IRBuilder.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

constexpr int kTowardZero = 1;
constexpr int kDown = 2;
constexpr int kUp = 3;

// `scalar` in the shape of `like` (a scalar or a vector's lanes).
llvm::Type* shaped_like(llvm::Value* like, llvm::Type* scalar) {
  if (auto* vector = llvm::dyn_cast<llvm::VectorType>(like->getType()))
    return llvm::VectorType::get(scalar, vector->getElementCount());
  return scalar;
}

// s + e (doubles, the exact result) rounded to float in `mode`.
llvm::Value* round_to_float(FunctionLowering& fl, llvm::Value* s, llvm::Value* e, int mode) {
  auto& b = fl.b;
  llvm::Type* float_type = shaped_like(s, b.getFloatTy());
  llvm::Value* f = b.CreateFPTrunc(s, float_type);
  llvm::Value* t = b.CreateFAdd(b.CreateFSub(s, b.CreateFPExt(f, s->getType())), e);  // the sign of v - f
  llvm::Value* zero = llvm::ConstantFP::get(s->getType(), 0.0);
  llvm::Value* v_below = b.CreateFCmpOLT(t, zero);
  llvm::Value* v_above = b.CreateFCmpOGT(t, zero);

  llvm::Value* bits = fl.to_bits(f);
  auto constant = [&](uint32_t value) { return llvm::ConstantInt::get(bits->getType(), value); };
  llvm::Value* negative = b.CreateICmpSLT(bits, constant(0));
  llvm::Value* is_zero = b.CreateFCmpOEQ(f, llvm::ConstantFP::get(float_type, 0.0));
  llvm::Value* smaller = b.CreateSub(bits, constant(1));  // one step toward zero (f not ±0)
  llvm::Value* larger = b.CreateAdd(bits, constant(1));   // one step away from zero (f not ±0)
  llvm::Value* stepped = nullptr;
  switch (mode) {
    case kTowardZero:  // toward zero when v is nearer zero than f
      stepped = b.CreateSelect(b.CreateAnd(b.CreateNot(is_zero), b.CreateSelect(negative, v_above, v_below)),
                               smaller, bits);
      break;
    case kDown:
      stepped = b.CreateSelect(
          v_below, b.CreateSelect(is_zero, constant(0x80000001u), b.CreateSelect(negative, larger, smaller)), bits);
      break;
    case kUp:
      stepped = b.CreateSelect(
          v_above, b.CreateSelect(is_zero, constant(0x00000001u), b.CreateSelect(negative, smaller, larger)), bits);
      break;
    default:
      return f;
  }
  return b.CreateBitCast(stepped, float_type);
}

// x + y rounded to float in `mode` (doubles; their exact sum need not be a double).
llvm::Value* round_sum_to_float(FunctionLowering& fl, llvm::Value* x, llvm::Value* y, int mode) {
  auto& b = fl.b;
  llvm::Value* s = b.CreateFAdd(x, y);
  llvm::Value* y_part = b.CreateFSub(s, x);  // TwoSum: e = (x - (s - y_part)) + (y - y_part)
  llvm::Value* e = b.CreateFAdd(b.CreateFSub(x, b.CreateFSub(s, y_part)), b.CreateFSub(y, y_part));
  llvm::Value* result = round_to_float(fl, s, e, mode);
  if (mode != kDown) return result;
  // An exact zero sum is -0 when rounding down unless both addends are +0 (IEEE 754 §6.3): the
  // sign is the or of theirs. Other modes give s's zero, which rounding to nearest got right.
  llvm::Value* sign_bits = b.CreateOr(fl.to_bits(x), fl.to_bits(y));
  llvm::Value* signed_zero = b.CreateFPTrunc(
      b.CreateBitCast(b.CreateAnd(sign_bits, llvm::ConstantInt::get(sign_bits->getType(), uint64_t{1} << 63)),
                      x->getType()),
      result->getType());
  return b.CreateSelect(b.CreateFCmpOEQ(s, llvm::ConstantFP::get(s->getType(), 0.0)), signed_zero, result);
}

llvm::Value* widened(FunctionLowering& fl, llvm::Value* v) {
  return fl.b.CreateFPExt(v, shaped_like(v, fl.b.getDoubleTy()));
}

}  // namespace

llvm::Value* directed_f32_fma(FunctionLowering& fl, llvm::Value* a, llvm::Value* b, llvm::Value* c, int mode) {
  return round_sum_to_float(fl, fl.b.CreateFMul(widened(fl, a), widened(fl, b)), widened(fl, c), mode);
}

llvm::Value* directed_f32_add(FunctionLowering& fl, llvm::Value* a, llvm::Value* b, int mode) {
  return round_sum_to_float(fl, widened(fl, a), widened(fl, b), mode);
}

llvm::Value* directed_f32_mul(FunctionLowering& fl, llvm::Value* a, llvm::Value* b, int mode) {
  llvm::Value* product = fl.b.CreateFMul(widened(fl, a), widened(fl, b));  // exact
  return round_to_float(fl, product, llvm::ConstantFP::get(product->getType(), 0.0), mode);
}

llvm::Value* directed_f32_from_f64(FunctionLowering& fl, llvm::Value* x, int mode) {
  return round_to_float(fl, x, llvm::ConstantFP::get(x->getType(), 0.0), mode);
}

}  // namespace cucpu::jit
