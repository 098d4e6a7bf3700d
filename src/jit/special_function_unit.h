// The H100's special function unit (MUFU), bit for bit where a model of it exists, and the
// instruction sequences ptxas builds from it. Plain C++ without LLVM: generated code calls
// these through the helpers in special_function_unit.cpp, and tests call them directly.
#pragma once

namespace cucpu::jit {

// MUFU.RSQ: rsqrt.approx.f32. A subnormal input is normalized first, as the code ptxas emits
// for the non-.ftz form does (scale by 2^24, MUFU.RSQ, scale by 2^12); .ftz flushes before.
// Within -2..+1 ulp of the correctly rounded result; 1/sqrt(±0) = ±inf, negative: NaN.
float mufu_rsqrt(float x);

// MUFU.RSQ64H: rsqrt.approx.ftz.f64. The high word is MUFU.RSQ of the float with the top 20
// mantissa bits of x (and x's exponent); the low word is 0. Subnormal inputs are normalized
// (the .ftz form flushes them before calling this).
double mufu_rsqrt64h(double x);

// rsqrt.approx.f64 as ptxas expands it on sm_90: y0 = MUFU.RSQ64H(x), e = fma(x, -y0*y0, 1),
// y = fma(y0*e, fma(0.375, e, 0.5), y0); special inputs give MUFU.RSQ64H's result.
double rsqrt_approx_f64(double x);

// MUFU.SIN and MUFU.COS of r revolutions (an angle of 2 pi r). The unit keeps the fraction of
// |r| truncated to 25 bits, so whole turns vanish and any |r| < 2^-25 counts as 0; sin is
// odd in r, cos even; an infinite or NaN r gives NaN. Within about 2^-22 of sin(2 pi r).
float mufu_sin(float revolutions);
float mufu_cos(float revolutions);

// sin.approx.f32 and cos.approx.f32 as ptxas expands them on sm_90: the angle in radians
// times 1/(2 pi) rounded toward zero (FMUL.RZ by 0x1.45f306p-3), then MUFU.SIN or MUFU.COS.
float sin_approx_f32(float x);
float cos_approx_f32(float x);

// MUFU.EX2: ex2.approx.ftz.f32. |x| in fixed point with 23 fraction bits (truncated; for x < 0
// the fraction's ones' complement), 2^fraction from a table, times 2^integer. A subnormal x
// counts as 0; results below 2^-126 are +0, from 2^128 on +inf; NaN gives 0x7fffffff.
// Within 2 ulp of 2^x.
float mufu_ex2(float x);

// MUFU.LG2: lg2.approx.ftz.f32. exponent + log2(mantissa) in fixed point with 36 fraction bits
// (the table's log2 of the mantissa, ones' complement for a negative exponent), truncated to a
// float; log2(1) = 0. ±0 and subnormals give -inf, x < 0 and NaN 0x7fffffff, +inf +inf.
// Within about 2^-22 of log2(x).
float mufu_lg2(float x);

// ex2.approx.f32 and lg2.approx.f32 (no .ftz) as ptxas expands them on sm_90: for x < -126,
// MUFU.EX2 of x/2 squared (FMUL, so the result can be subnormal); for |x| < 2^-126, MUFU.LG2 of
// x * 2^24, minus 24.
float ex2_approx_f32(float x);
float lg2_approx_f32(float x);

}  // namespace cucpu::jit
