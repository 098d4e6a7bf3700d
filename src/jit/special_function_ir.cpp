// The MUFU models as IR (special_function_ir.h): special_function_unit.cpp's arithmetic step
// by step, in integer IR where the C++ uses ldexp and branches, and selects for its special
// cases.
#include "jit/special_function_ir.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <string>
#include <vector>

#include "jit/function_lowering.h"
#include "jit/mufu_ex2_table.h"
#include "jit/mufu_rsqrt_table.h"
#include "jit/mufu_squarer.h"

namespace cucpu::jit {
namespace {

// A table of segments {c0, c1, c2} (c0: the member `c0`) as a constant of the module, made
// once per module.
template <typename Segment, size_t N>
llvm::GlobalVariable* segment_table(FunctionLowering& fl, const char* name, const Segment (&rows)[N],
                                    int32_t Segment::*c0) {
  if (llvm::GlobalVariable* existing = fl.m.module->getNamedGlobal(name)) return existing;
  llvm::Type* i32 = fl.b.getInt32Ty();
  auto* row_type = llvm::ArrayType::get(i32, 3);
  std::vector<llvm::Constant*> constants;
  for (const Segment& row : rows) {
    constants.push_back(llvm::ConstantArray::get(
        row_type, {llvm::ConstantInt::getSigned(i32, row.*c0), llvm::ConstantInt::getSigned(i32, row.c1),
                   llvm::ConstantInt::getSigned(i32, row.c2)}));
  }
  auto* table_type = llvm::ArrayType::get(row_type, N);
  return new llvm::GlobalVariable(*fl.m.module, table_type, true, llvm::GlobalValue::InternalLinkage,
                                  llvm::ConstantArray::get(table_type, constants), name);
}

// Integer arithmetic on values of any shape: one lane, or a vector of lanes.
struct Lanes {
  FunctionLowering& fl;
  llvm::IRBuilder<>& b = fl.b;

  // `scalar` in the shape of `v`.
  llvm::Type* like(llvm::Value* v, llvm::Type* scalar) {
    if (auto* vector = llvm::dyn_cast<llvm::VectorType>(v->getType()))
      return llvm::VectorType::get(scalar, vector->getElementCount());
    return scalar;
  }
  llvm::Constant* c32(llvm::Value* shape, int64_t value) {
    return llvm::ConstantInt::getSigned(like(shape, b.getInt32Ty()), value);
  }
  llvm::Constant* c64(llvm::Value* shape, int64_t value) {
    return llvm::ConstantInt::getSigned(like(shape, b.getInt64Ty()), value);
  }
  llvm::Constant* f32(llvm::Value* shape, double value) {
    return llvm::ConstantFP::get(like(shape, b.getFloatTy()), value);
  }
  llvm::Value* wide(llvm::Value* v, bool sign) {
    return sign ? b.CreateSExt(v, like(v, b.getInt64Ty())) : b.CreateZExt(v, like(v, b.getInt64Ty()));
  }

  // Column `column` of row `index` (i32 lanes) of `table`: a load, or a gather.
  llvm::Value* row_field(llvm::GlobalVariable* table, llvm::Value* index, int column) {
    llvm::Value* pointer =
        b.CreateInBoundsGEP(table->getValueType(), table, {b.getInt32(0), index, b.getInt32(column)});
    if (!index->getType()->isVectorTy()) return b.CreateAlignedLoad(b.getInt32Ty(), pointer, llvm::Align(4));
    return b.CreateMaskedGather(like(index, b.getInt32Ty()), pointer, llvm::Align(4));
  }

  // kept_square(j) of mufu_squarer.h (j: i32 lanes below 2^17), as i64 lanes.
  llvm::Value* kept_square(llvm::Value* j) {
    llvm::Value* dropped = c32(j, 0);
    for (int a = 0; a <= 9; ++a) {
      llvm::Value* taken = b.CreateNeg(b.CreateAnd(b.CreateLShr(j, c32(j, a)), c32(j, 1)));
      llvm::Value* partners = b.CreateShl(b.CreateAnd(j, c32(j, kDropped.partners[a])), c32(j, a + 1));
      dropped = b.CreateAdd(dropped, b.CreateAnd(taken, b.CreateAdd(c32(j, kDropped.square[a]), partners)));
    }
    llvm::Value* square = b.CreateMul(wide(j, false), wide(j, false));
    return b.CreateLShr(b.CreateSub(square, wide(dropped, false)), c64(j, 19));
  }

  // The interpolator's V = c0 * 2^shift + offset + c1*l + c2*S(l) (i64 lanes) for row `index`.
  llvm::Value* interpolate(llvm::GlobalVariable* table, llvm::Value* index, int shift, int64_t offset,
                           llvm::Value* l) {
    llvm::Value* c0 = b.CreateShl(wide(row_field(table, index, 0), true), c64(l, shift));
    llvm::Value* c1 = b.CreateMul(wide(row_field(table, index, 1), true), wide(l, false));
    llvm::Value* c2 = b.CreateMul(wide(row_field(table, index, 2), true), kept_square(l));
    return b.CreateAdd(b.CreateAdd(b.CreateAdd(c0, c64(l, offset)), c1), c2);
  }

  // The float 2^exponent (i32 lanes, a normal float's exponent).
  llvm::Value* power_of_two(llvm::Value* exponent) {
    return b.CreateBitCast(b.CreateShl(b.CreateAdd(exponent, c32(exponent, 127)), c32(exponent, 23)),
                           like(exponent, b.getFloatTy()));
  }
};

// mufu_ex2: MUFU.EX2 of x (f32 lanes).
llvm::Value* mufu_ex2_ir(FunctionLowering& fl, llvm::Value* x) {
  Lanes l{fl};
  auto& b = fl.b;
  llvm::Value* magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  // |x| in fixed point with 23 fraction bits, truncated (|x| < 256 here: below 2^31).
  llvm::Value* in_range = b.CreateFCmpOLT(magnitude, l.f32(x, 256.0));
  llvm::Value* fixed = b.CreateFPToUI(b.CreateFMul(b.CreateSelect(in_range, magnitude, l.f32(x, 0.0)), l.f32(x, 0x1p23)),
                                      l.like(x, b.getInt32Ty()));
  llvm::Value* whole = b.CreateLShr(fixed, l.c32(x, 23));
  llvm::Value* fraction = b.CreateAnd(fixed, l.c32(x, 0x7fffff));
  // x < 0: 2^-(w + g) = 2^-(w + 1) * 2^(1 - g), 1 - g taken as ~g.
  llvm::Value* negative = b.CreateICmpSLT(fl.to_bits(x), l.c32(x, 0));
  llvm::Value* has_fraction = b.CreateICmpNE(fraction, l.c32(x, 0));
  llvm::Value* borrow = b.CreateAnd(negative, has_fraction);
  whole = b.CreateSelect(negative, b.CreateSub(b.CreateNeg(whole), b.CreateZExt(borrow, whole->getType())), whole);
  fraction = b.CreateSelect(borrow, b.CreateAnd(b.CreateNot(fraction), l.c32(x, 0x7fffff)), fraction);
  // The significand in units of 2^-23 (2^23 .. 2^24), times 2^whole in double, to float.
  llvm::GlobalVariable* table = segment_table(fl, "__cucpu_mufu_ex2", kMufuEx2Table, &MufuEx2Segment::c0);
  llvm::Value* v = l.interpolate(table, b.CreateLShr(fraction, l.c32(x, 17)), kMufuEx2Shift, kMufuEx2Offset,
                                 b.CreateAnd(fraction, l.c32(x, 0x1ffff)));
  llvm::Value* significand = b.CreateLShr(v, l.c64(x, 15));
  llvm::Type* f64 = l.like(x, b.getDoubleTy());
  llvm::Value* scale = b.CreateBitCast(
      b.CreateShl(l.wide(b.CreateAdd(whole, l.c32(x, 1023 - 23)), true), l.c64(x, 52)), f64);
  llvm::Value* y = b.CreateFMul(b.CreateUIToFP(significand, f64), scale);
  llvm::Value* result = b.CreateSelect(b.CreateFCmpOLT(y, llvm::ConstantFP::get(f64, 0x1p-126)), l.f32(x, 0.0),
                                       b.CreateFPTrunc(y, l.like(x, b.getFloatTy())));
  // |x| >= 256: +inf or 0; NaN: 0x7fffffff.
  llvm::Value* saturated = b.CreateSelect(negative, l.f32(x, 0.0), l.f32(x, INFINITY));
  result = b.CreateSelect(in_range, result, saturated);
  llvm::Value* canonical = b.CreateBitCast(l.c32(x, 0x7fffffff), x->getType());
  return b.CreateSelect(b.CreateFCmpUNO(x, x), canonical, result);
}

}  // namespace

llvm::Value* rsqrt_approx_f32_ir(FunctionLowering& fl, llvm::Value* x) {
  Lanes l{fl};
  auto& b = fl.b;
  llvm::Value* bits = fl.to_bits(x);
  // The exact exponent and the 23 mantissa bits below the leading one (a subnormal normalized).
  llvm::Value* biased = b.CreateLShr(bits, l.c32(x, 23));
  llvm::Value* shift = b.CreateSub(
      b.CreateBinaryIntrinsic(llvm::Intrinsic::umax,
                              b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, bits, b.getFalse()), l.c32(x, 8)),
      l.c32(x, 8));
  llvm::Value* exponent = b.CreateSub(
      b.CreateSub(b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, biased, l.c32(x, 1)), l.c32(x, 127)), shift);
  llvm::Value* mantissa = b.CreateAnd(b.CreateShl(bits, shift), l.c32(x, 0x7fffff));
  // x = 2^(2 half) * X, X = 1.m (even exponent) or 2 * 1.m (odd).
  llvm::Value* odd = b.CreateAnd(exponent, l.c32(x, 1));
  llvm::Value* half = b.CreateAShr(exponent, l.c32(x, 1));
  llvm::GlobalVariable* table =
      segment_table(fl, "__cucpu_mufu_rsqrt", kMufuRsqrtTable, &MufuRsqrtSegment::c0_quarters);
  llvm::Value* index = b.CreateOr(b.CreateShl(odd, l.c32(x, 6)), b.CreateLShr(mantissa, l.c32(x, 17)));
  llvm::Value* j = b.CreateAnd(mantissa, l.c32(x, 0x1ffff));
  // V = C0*2^14 + ~(c1*j) + 4*c2*S(j); the significand V >> 16 in units of 2^-24.
  llvm::Value* c0 = b.CreateShl(l.wide(l.row_field(table, index, 0), true), l.c64(x, 14));
  llvm::Value* c1 = b.CreateMul(l.wide(l.row_field(table, index, 1), true), l.wide(j, false));
  llvm::Value* c2 = b.CreateMul(b.CreateShl(l.wide(l.row_field(table, index, 2), true), l.c64(x, 2)), l.kept_square(j));
  llvm::Value* v = b.CreateAdd(b.CreateSub(b.CreateSub(c0, c1), l.c64(x, 1)), c2);
  llvm::Value* significand = b.CreateTrunc(b.CreateLShr(v, l.c64(x, 16)), l.like(x, b.getInt32Ty()));
  // 1/sqrt of an even power of two is exact, as on the GPU.
  llvm::Value* exact = b.CreateICmpEQ(b.CreateOr(odd, mantissa), l.c32(x, 0));
  significand = b.CreateSelect(exact, l.c32(x, 1 << 24), significand);
  llvm::Value* result = b.CreateFMul(b.CreateUIToFP(significand, x->getType()),
                                     l.power_of_two(b.CreateSub(l.c32(x, -24), half)));
  // NaN and x < 0: NaN; ±0: ±inf; +inf: +0.
  llvm::Value* zero = b.CreateFCmpOEQ(x, l.f32(x, 0.0));
  llvm::Value* inf = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, l.f32(x, INFINITY), x);
  result = b.CreateSelect(zero, inf, result);
  result = b.CreateSelect(b.CreateFCmpOEQ(x, l.f32(x, INFINITY)), l.f32(x, 0.0), result);
  llvm::Value* nan = b.CreateBitCast(l.c32(x, 0x7fc00000), x->getType());
  return b.CreateSelect(b.CreateFCmpULT(x, l.f32(x, 0.0)), nan, result);
}

llvm::Value* ex2_approx_f32_ir(FunctionLowering& fl, llvm::Value* x, bool ftz) {
  if (ftz) return mufu_ex2_ir(fl, x);
  // Below -126, MUFU.EX2 of x/2 squared (FSETP.GEU guards it: a NaN goes through as it is).
  Lanes l{fl};
  auto& b = fl.b;
  llvm::Value* rescaled = b.CreateFCmpOLT(x, l.f32(x, -126.0));
  llvm::Value* y = mufu_ex2_ir(fl, b.CreateSelect(rescaled, b.CreateFMul(x, l.f32(x, 0.5)), x));
  return b.CreateSelect(rescaled, b.CreateFMul(y, y), y);
}

}  // namespace cucpu::jit
