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
//
// MUFU.SIN works the same way on the quarter wave: the fraction of the angle in revolutions,
// truncated to 25 bits, gives the quadrant (top 2 bits) and j (23 bits, complemented in the odd
// quadrants); the top 6 bits of j pick one of 64 segments, l = the low 17 bits, and in units of
// 2^-37
//   V = C0*2^12 + c1*l - c2*S(l),   |result| = V * 2^-37 truncated to a float,
// with the same S. MUFU.COS is MUFU.SIN a quarter turn on. scripts/fit_mufu_sin.cpp fitted
// mufu_sin_table.h to all 2^23 * 14 results of sin/cos.approx.f32 the H100 gave for x in
// [2^-3, 8) and [-2, -1) and reproduces every one; tests/data/mufu_sin_h100.tsv keeps a sample.
//
// MUFU.EX2 and MUFU.LG2 use the same interpolator on a 23-bit argument, in units of 2^-38:
//   V = c0 * 2^shift + offset + c1*l + c2*S(l),
// for EX2 on the fraction of x in fixed point (2^f's significand = V >> 15), for LG2 on the
// mantissa (log2(1.m) = V >> 2 in units of 2^-36, added to the exponent in fixed point and
// truncated to a float). scripts/fit_mufu_ex2.cpp and fit_mufu_lg2.cpp fitted
// mufu_ex2_table.h and mufu_lg2_table.h to every result of 30 (ex2) and 15 (lg2) binades and
// 2^20 floats over all bit patterns, and reproduce every one; tests/data/mufu_ex2_h100.tsv and
// mufu_lg2_h100.tsv keep samples.
#include "jit/special_function_unit.h"

#include "jit/lane_helper.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "jit/function_lowering.h"
#include "jit/mufu_ex2_table.h"
#include "jit/mufu_lg2_table.h"
#include "jit/mufu_rsqrt_table.h"
#include "jit/mufu_squarer.h"
#include "jit/mufu_sin_table.h"

namespace cucpu::jit {
namespace {

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
  // 2^(-24 - half) is a normal double for every float and double exponent: build it.
  const double scale = std::bit_cast<double>(static_cast<uint64_t>(1023 - 24 - half) << 52);
  return static_cast<double>(rsqrt_significand(odd, mantissa)) * scale;
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

// v * 2^exponent truncated to a float's 24 significant bits (v * 2^exponent a normal float).
float truncated_to_float(uint64_t v, int exponent) {
  int dropped = std::max(0, static_cast<int>(std::bit_width(v)) - 24);
  return std::ldexp(static_cast<float>(v >> dropped << dropped), exponent);
}

// |MUFU.SIN| at j (23 bits) of the quarter wave: about sin(pi/2 * j / 2^23).
float quarter_wave(uint32_t j) {
  const MufuSinSegment& s = kMufuSinTable[j >> 17];
  uint32_t l = j & 0x1ffffu;
  auto v = static_cast<uint64_t>(int64_t{s.c0} * 4096 + int64_t{s.c1} * l - int64_t{s.c2} * int64_t(kept_square(l)));
  return truncated_to_float(v, -37);
}

// MUFU.SIN of the 25-bit phase f (the fraction of |r| in units of 2^-25), for r >= 0.
float sin_of_phase(uint32_t f) {
  uint32_t quadrant = f >> 23, j = f & 0x7fffffu;
  float magnitude = quarter_wave((quadrant & 1) != 0 ? ~j & 0x7fffffu : j);
  return (quadrant & 2) != 0 ? -magnitude : magnitude;
}

// The fraction of |r| truncated to 25 bits (exact: double holds |r|'s fraction whole).
uint32_t phase(float r) {
  double a = std::fabs(static_cast<double>(r));
  return static_cast<uint32_t>(std::floor((a - std::floor(a)) * 0x1p25));
}

// x / (2 pi) as FMUL.RZ x, 0x1.45f306p-3 computes it: the product is exact in double.
float revolutions_rz(float x) {
  double p = static_cast<double>(x) * static_cast<double>(0x1.45f306p-3f);
  auto r = static_cast<float>(p);
  return std::fabs(static_cast<double>(r)) > std::fabs(p) ? std::nextafter(r, 0.0f) : r;
}

// The interpolator's V for a table row and the 17-bit l, in units of 2^-38.
template <typename Segment>
int64_t interpolate(const Segment& s, int shift, int64_t offset, uint32_t l) {
  return (int64_t{s.c0} << shift) + offset + int64_t{s.c1} * l + int64_t{s.c2} * int64_t(kept_square(l));
}

// 2^(f / 2^23) for the 23-bit fraction f, as a 24-bit significand (units of 2^-23).
uint32_t ex2_significand(uint32_t f) {
  int64_t v = interpolate(kMufuEx2Table[f >> 17], kMufuEx2Shift, kMufuEx2Offset, f & 0x1ffffu);
  return static_cast<uint32_t>(v >> 15);
}

// log2(1.m) for the 23-bit mantissa m, in units of 2^-36.
int64_t lg2_of_mantissa(uint32_t m) {
  return interpolate(kMufuLg2Table[m >> 17], kMufuLg2Shift, kMufuLg2Offset, m & 0x1ffffu) >> 2;
}

const float kCanonicalNan = std::bit_cast<float>(0x7fffffffu);  // what the GPU writes for a NaN

}  // namespace

float mufu_sin(float revolutions) {
  if (!std::isfinite(revolutions)) return std::numeric_limits<float>::quiet_NaN();
  float y = sin_of_phase(phase(revolutions));
  return std::signbit(revolutions) ? -y : y;
}

float mufu_cos(float revolutions) {
  if (!std::isfinite(revolutions)) return std::numeric_limits<float>::quiet_NaN();
  return sin_of_phase((phase(revolutions) + (1u << 23)) & 0x1ffffffu);
}

float sin_approx_f32(float x) { return mufu_sin(revolutions_rz(x)); }
float cos_approx_f32(float x) { return mufu_cos(revolutions_rz(x)); }

float mufu_ex2(float x) {
  if (std::isnan(x)) return kCanonicalNan;
  if (std::fabs(x) >= 256) return x > 0 ? std::numeric_limits<float>::infinity() : 0.0f;
  // |x| in fixed point with 23 fraction bits (exact in float, then truncated); a subnormal is 0.
  auto fixed = static_cast<uint32_t>(std::fabs(x) * 0x1p23f);
  int whole = static_cast<int>(fixed >> 23);
  uint32_t fraction = fixed & 0x7fffffu;
  if (std::signbit(x)) {  // 2^-(w + g) = 2^-(w + 1) * 2^(1 - g), 1 - g taken as ~g
    whole = fraction != 0 ? -whole - 1 : -whole;
    if (fraction != 0) fraction = ~fraction & 0x7fffffu;
  }
  double y = std::ldexp(static_cast<double>(ex2_significand(fraction)), whole - 23);
  return y < 0x1p-126 ? 0.0f : static_cast<float>(y);  // exact, or +inf from 2^128 on
}

float mufu_lg2(float x) {
  if (x == 0 || std::fpclassify(x) == FP_SUBNORMAL) return -std::numeric_limits<float>::infinity();  // flushed
  if (std::isnan(x) || x < 0) return kCanonicalNan;
  if (std::isinf(x)) return x;
  if (x == 1) return 0;
  auto bits = std::bit_cast<uint32_t>(x);
  int64_t exponent = static_cast<int64_t>(bits >> 23) - 127;
  int64_t fraction = lg2_of_mantissa(bits & 0x7fffffu);
  if (exponent >= 0) return truncated_to_float(static_cast<uint64_t>((exponent << 36) + fraction), -36);
  return -truncated_to_float(static_cast<uint64_t>((-exponent << 36) - fraction - 1), -36);  // ones' complement
}

// FSETP.GEU x, -126 guards the rescaling: a NaN goes to MUFU.EX2 as it is.
float ex2_approx_f32(float x) {
  if (!(x < -126.0f)) return mufu_ex2(x);
  float y = mufu_ex2(x * 0.5f);
  return y * y;
}

// FSETP.GEU |x|, 2^-126 guards the rescaling: ±0 and subnormals (exact times 2^24).
float lg2_approx_f32(float x) {
  if (!(std::fabs(x) < 0x1p-126f)) return mufu_lg2(x);
  return mufu_lg2(x * 0x1p24f) + -24.0f;
}

float mufu_rsqrt(float x) {
  float special;
  if (rsqrt_special(x, special)) return special;
  const uint32_t bits = std::bit_cast<uint32_t>(x);
  int exponent;
  uint32_t mantissa;
  if (bits >= 0x00800000u) {  // normal: the fields as they are
    exponent = static_cast<int>(bits >> 23) - 127;
    mantissa = bits & 0x7fffffu;
  } else {  // subnormal: the exact normalized exponent
    exponent = std::ilogb(x);
    mantissa = static_cast<uint32_t>(std::ldexp(x, -exponent) * 0x1p23f) & 0x7fffffu;
  }
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
double __cucpu_jit_rsqrt_approx_ftz_f64(double x) {  // .ftz: a subnormal input counts as ±0
  return mufu_rsqrt64h(std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x);
}
double __cucpu_jit_rsqrt_approx_f64(double x) { return rsqrt_approx_f64(x); }
float __cucpu_jit_sin_approx_f32(float x) { return sin_approx_f32(x); }
float __cucpu_jit_cos_approx_f32(float x) { return cos_approx_f32(x); }
float __cucpu_jit_lg2_approx_f32(float x) { return lg2_approx_f32(x); }
float __cucpu_jit_lg2_approx_ftz_f32(float x) { return mufu_lg2(x); }
}
}  // namespace

RuntimeSymbols special_function_helper_symbols() {
  RuntimeSymbols symbols;
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_rsqrt_approx_ftz_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_rsqrt_approx_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_sin_approx_f32);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_cos_approx_f32);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_lg2_approx_f32);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_lg2_approx_ftz_f32);
  return symbols;
}

}  // namespace cucpu::jit
