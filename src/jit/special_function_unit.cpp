// The MUFU models of special_function_unit.h and the helpers generated code calls for them.
//
// MUFU.RSQ evaluates 1/sqrt(X), X in [1, 4) (the mantissa, in [2, 4) for an odd exponent), by
// piecewise quadratic interpolation (Oberman & Siu, "A high-performance area-efficient
// multifunction interpolator", ARITH 2005): the exponent's parity and the top 6 mantissa bits
// pick one of 128 segments, j = the low 17 bits, and in fixed point with 16 bits below the
// result's last place
//   V = C0*2^14 + ~(c1*j) + 4*c2*S(j),   result significand = V >> 16,
// where ~(c1*j) = -c1*j - 1 (ones' complement) and S(j) is j^2 from a folded squarer that
// leaves out its columns below 2^19. The coefficients (mufu_rsqrt_table.h) were fitted to
// every result of the H100 for two binades by scripts/fit_mufu_rsqrt.cpp, and reproduce all
// 2^24 of them; tests/data/mufu_rsqrt_h100.tsv keeps a sample (special_function_unit_test).
#include "jit/special_function_unit.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "jit/function_lowering.h"
#include "jit/mufu_rsqrt_table.h"

namespace cucpu::jit {
namespace {

// j^2 (j < 2^17) without the folded squarer's columns below 2^19, in units of 2^19. The
// squarer's bits are j_a (column 2a) and j_a j_b for a < b (column a + b + 1).
uint64_t kept_square(uint32_t j) {
  uint64_t dropped = 0;
  for (int a = 0; a <= 9; ++a) {
    if ((j >> a & 1) == 0) continue;
    dropped += uint64_t{1} << (2 * a);
    int last = 17 - a;  // the pairs (a, b) with a < b <= 17 - a fall below column 19
    if (last > a) {
      uint64_t partners = j & (((uint64_t{1} << (last + 1)) - 1) & ~((uint64_t{2} << a) - 1));
      dropped += partners << (a + 1);
    }
  }
  return (uint64_t{j} * j - dropped) >> 19;
}

// MUFU.RSQ's significand for mantissa bits `mantissa` (23 bits) of a number whose exponent
// has parity `odd`: 1/sqrt(X) in units of 2^-24, X = 1.mantissa (even) or 2 * 1.mantissa (odd).
uint32_t rsqrt_significand(bool odd, uint32_t mantissa) {
  const MufuRsqrtSegment& s = kMufuRsqrtTable[(odd ? 64 : 0) + (mantissa >> 17)];
  uint32_t j = mantissa & 0x1ffffu;
  int64_t v = (int64_t{s.c0_quarters} << 14) - int64_t{s.c1} * j - 1 + 4 * int64_t{s.c2} * int64_t(kept_square(j));
  return static_cast<uint32_t>(v >> 16);
}

// 1/sqrt(2^exponent * 1.mantissa) with the 23-bit `mantissa` (exponent unbiased).
double rsqrt_of_normal(int exponent, uint32_t mantissa) {
  bool odd = (exponent & 1) != 0;
  if (!odd && mantissa == 0) return std::ldexp(1.0, -exponent / 2);  // exact, as on the GPU
  int half = odd ? (exponent - 1) / 2 : exponent / 2;  // x = 2^(2 half) * X, X = 1.m or 2 * 1.m
  return std::ldexp(static_cast<double>(rsqrt_significand(odd, mantissa)), -24 - half);
}

// The special cases MUFU.RSQ and MUFU.RSQ64H share; false when x is positive and finite.
template <typename T>
bool rsqrt_special(T x, T& result) {
  if (std::isnan(x) || x < 0) {
    result = std::numeric_limits<T>::quiet_NaN();
  } else if (x == 0) {
    result = std::copysign(std::numeric_limits<T>::infinity(), x);
  } else if (std::isinf(x)) {
    result = 0;
  } else {
    return false;
  }
  return true;
}

}  // namespace

float mufu_rsqrt(float x) {
  float special;
  if (rsqrt_special(x, special)) return special;
  int exponent = std::ilogb(x);  // subnormals too: the exact normalized exponent
  uint32_t mantissa = static_cast<uint32_t>(std::ldexp(x, -exponent) * 0x1p23f) & 0x7fffffu;
  return static_cast<float>(rsqrt_of_normal(exponent, mantissa));
}

double mufu_rsqrt64h(double x) {
  double special;
  if (rsqrt_special(x, special)) return special;
  int exponent = std::ilogb(x);
  uint64_t bits = std::bit_cast<uint64_t>(std::ldexp(x, -exponent));
  uint32_t mantissa = static_cast<uint32_t>(bits >> 32 & 0xfffffu) << 3;  // the top 20 bits
  uint64_t result = std::bit_cast<uint64_t>(rsqrt_of_normal(exponent, mantissa));
  return std::bit_cast<double>(result & 0xffffffff00000000ull);
}

double rsqrt_approx_f64(double x) {
  double special;
  if (rsqrt_special(x, special)) return special;
  // A subnormal goes through the sequence scaled by 2^54 (the result by 2^27): exact, and
  // the same as the sequence on a normal number.
  bool subnormal = std::fpclassify(x) == FP_SUBNORMAL;
  double scaled = subnormal ? std::ldexp(x, 54) : x;
  double y0 = mufu_rsqrt64h(scaled);
  double e = std::fma(scaled, -(y0 * y0), 1.0);
  double y = std::fma(y0 * e, std::fma(0.375, e, 0.5), y0);
  return subnormal ? std::ldexp(y, 27) : y;
}

namespace {
extern "C" {
float __cucpu_jit_rsqrt_approx_f32(float x) { return mufu_rsqrt(x); }
double __cucpu_jit_rsqrt_approx_ftz_f64(double x) {  // .ftz: a subnormal input counts as ±0
  return mufu_rsqrt64h(std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x);
}
double __cucpu_jit_rsqrt_approx_f64(double x) { return rsqrt_approx_f64(x); }
}
}  // namespace

RuntimeSymbols special_function_helper_symbols() {
  RuntimeSymbols symbols;
  symbols["__cucpu_jit_rsqrt_approx_f32"] = reinterpret_cast<void*>(&__cucpu_jit_rsqrt_approx_f32);
  symbols["__cucpu_jit_rsqrt_approx_ftz_f64"] = reinterpret_cast<void*>(&__cucpu_jit_rsqrt_approx_ftz_f64);
  symbols["__cucpu_jit_rsqrt_approx_f64"] = reinterpret_cast<void*>(&__cucpu_jit_rsqrt_approx_f64);
  return symbols;
}

}  // namespace cucpu::jit
