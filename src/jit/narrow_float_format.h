// The narrow floating-point formats of PTX (ISA 9.0 §5.2.5.1 "Alternate Floating-Point
// Data Formats"): how each encodes a value, decoding to double, and encoding a double
// with round-to-nearest-even and the saturation cvt's .satfinite asks for. Shared by the
// conversions (lower_narrow_float.cpp) and the tensor-core products that read fp8.
#pragma once

#include <cmath>
#include <cstdint>

namespace cucpu::jit {

struct NarrowFloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool has_infinity;  // IEEE-style: the top exponent is inf/NaN (e5m2)
  bool has_nan;       // e4m3: only S.1111.111 is NaN; fp6/fp4 have none
  bool has_sign;      // ue8m0 has no sign bit
};

// e4m3: max 448; e5m2: IEEE-like, max 57344; e2m3: max 7.5; e3m2: max 28; e2m1: max 6;
// ue8m0: 2^(e-127), 0xff is NaN.
inline constexpr NarrowFloatFormat kE4m3{4, 3, 7, false, true, true};
inline constexpr NarrowFloatFormat kE5m2{5, 2, 15, true, true, true};
inline constexpr NarrowFloatFormat kE2m3{2, 3, 1, false, false, true};
inline constexpr NarrowFloatFormat kE3m2{3, 2, 3, false, false, true};
inline constexpr NarrowFloatFormat kE2m1{2, 1, 1, false, false, true};

inline int total_bits(const NarrowFloatFormat& f) { return (f.has_sign ? 1 : 0) + f.exponent_bits + f.mantissa_bits; }

inline double decode_narrow(const NarrowFloatFormat& f, uint32_t bits) {
  const uint32_t mantissa_mask = (1u << f.mantissa_bits) - 1, exponent_mask = (1u << f.exponent_bits) - 1;
  const bool negative = f.has_sign && ((bits >> (f.exponent_bits + f.mantissa_bits)) & 1);
  const uint32_t exponent = (bits >> f.mantissa_bits) & exponent_mask, mantissa = bits & mantissa_mask;
  double value;
  if (f.has_infinity && exponent == exponent_mask) {
    value = mantissa == 0 ? INFINITY : NAN;
  } else if (f.has_nan && !f.has_infinity && exponent == exponent_mask && mantissa == mantissa_mask) {
    value = NAN;
  } else if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa), 1 - f.bias - f.mantissa_bits);
  } else {
    value = std::ldexp(static_cast<double>(mantissa | (1u << f.mantissa_bits)), static_cast<int>(exponent) - f.bias -
                                                                                   f.mantissa_bits);
  }
  return negative ? -value : value;
}

// The largest finite value of the format.
inline double max_narrow(const NarrowFloatFormat& f) {
  const int top_exponent = (1 << f.exponent_bits) - 1 - (f.has_infinity ? 1 : 0);
  const uint32_t top_mantissa = (1u << f.mantissa_bits) - 1 - (f.has_nan && !f.has_infinity ? 1 : 0);
  return std::ldexp(static_cast<double>(top_mantissa | (1u << f.mantissa_bits)),
                    top_exponent - f.bias - f.mantissa_bits);
}

// Round to nearest even. `satfinite`: NaN -> NaN where the format has one (else the
// maximum), +-inf and overflow -> +-max. Without it, overflow gives inf (e5m2) or NaN
// (e4m3); PTX only defines the .satfinite forms for fp8/fp6/fp4.
inline uint32_t encode_narrow(const NarrowFloatFormat& f, double v, bool satfinite) {
  const int width = total_bits(f);
  const uint32_t sign = (f.has_sign && std::signbit(v)) ? 1u << (width - 1) : 0;
  const uint32_t exponent_mask = (1u << f.exponent_bits) - 1, mantissa_mask = (1u << f.mantissa_bits) - 1;
  const uint32_t nan = (exponent_mask << f.mantissa_bits) | mantissa_mask;  // e4m3 S.1111.111, e5m2 S.11111.11
  const uint32_t max_bits = f.has_infinity ? ((exponent_mask - 1) << f.mantissa_bits) | mantissa_mask
                                           : (f.has_nan ? nan - 1 : nan);
  if (std::isnan(v)) return f.has_nan ? nan : max_bits;  // positive, as the GPU gives
  double a = std::fabs(v);
  const double max = max_narrow(f);
  auto overflow = [&]() -> uint32_t {
    if (satfinite || !(f.has_nan || f.has_infinity)) return sign | max_bits;
    return sign | (f.has_infinity ? exponent_mask << f.mantissa_bits : nan);
  };
  if (std::isinf(a)) return overflow();
  // Quantum of the last mantissa bit at a's binade (subnormals share the lowest).
  const int min_exponent = 1 - f.bias;
  int e = a == 0 ? min_exponent : std::max(std::ilogb(a), min_exponent);
  double quantum = std::ldexp(1.0, e - f.mantissa_bits);
  double scaled = a / quantum, whole = std::floor(scaled), rest = scaled - whole;
  if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0)) whole += 1;
  double rounded = whole * quantum;
  if (rounded > max) return overflow();
  if (rounded == 0) return sign;
  e = std::max(std::ilogb(rounded), min_exponent);
  const uint32_t m = static_cast<uint32_t>(rounded / std::ldexp(1.0, e - f.mantissa_bits));
  const bool normal = m >= (1u << f.mantissa_bits);
  const uint32_t biased = normal ? static_cast<uint32_t>(e + f.bias) : 0;
  return sign | (biased << f.mantissa_bits) | (m & mantissa_mask);
}

}  // namespace cucpu::jit
