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

}  // namespace cucpu::jit
