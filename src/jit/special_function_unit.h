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

}  // namespace cucpu::jit
