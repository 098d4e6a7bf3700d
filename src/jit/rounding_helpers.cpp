// Helpers that generated code calls for what LLVM IR cannot say directly: arithmetic in a
// directed rounding mode (.rz/.rm/.rp) that directed_rounding.h does not do in IR, done by
// switching the host's rounding mode around one IEEE operation, fns (a search loop), and
// %globaltimer. This file is compiled with
// -frounding-math so that the compiler neither folds nor moves the operations across
// the mode switches; the operands pass through volatiles for the same reason.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <ctime>

#include "jit/function_lowering.h"
#include "jit/lane_helper.h"

namespace {

int host_mode(int32_t mode) {
  switch (mode) {
    case 1:
      return FE_TOWARDZERO;
    case 2:
      return FE_DOWNWARD;
    case 3:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;
  }
}

template <typename Operation>
auto with_rounding(int32_t mode, Operation operation) {
  int saved = std::fegetround();
  std::fesetround(host_mode(mode));
  auto result = operation();
  std::fesetround(saved);
  return result;
}

template <typename T>
T add(T a, T b, int32_t mode) {
  volatile T x = a, y = b;
  return with_rounding(mode, [&] {
    volatile T r = x + y;
    return static_cast<T>(r);
  });
}
template <typename T>
T mul(T a, T b, int32_t mode) {
  volatile T x = a, y = b;
  return with_rounding(mode, [&] {
    volatile T r = x * y;
    return static_cast<T>(r);
  });
}
template <typename T>
T div(T a, T b, int32_t mode) {
  volatile T x = a, y = b;
  return with_rounding(mode, [&] {
    volatile T r = x / y;
    return static_cast<T>(r);
  });
}
template <typename T>
T fma(T a, T b, T c, int32_t mode) {
  volatile T x = a, y = b, z = c;
  return with_rounding(mode, [&] {
    volatile T r = std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z));
    return static_cast<T>(r);
  });
}
template <typename T>
T sqrt(T a, int32_t mode) {
  volatile T x = a;
  return with_rounding(mode, [&] {
    volatile T r = std::sqrt(static_cast<T>(x));
    return static_cast<T>(r);
  });
}
template <typename To, typename From>
To convert(From a, int32_t mode) {
  volatile From x = a;
  return with_rounding(mode, [&] {
    volatile To r = static_cast<To>(x);
    return static_cast<To>(r);
  });
}

extern "C" {
double __cucpu_jit_add_f64(double a, double b, int32_t mode) { return add(a, b, mode); }
double __cucpu_jit_mul_f64(double a, double b, int32_t mode) { return mul(a, b, mode); }
float __cucpu_jit_div_f32(float a, float b, int32_t mode) { return div(a, b, mode); }
double __cucpu_jit_div_f64(double a, double b, int32_t mode) { return div(a, b, mode); }
double __cucpu_jit_fma_f64(double a, double b, double c, int32_t mode) { return fma(a, b, c, mode); }
float __cucpu_jit_sqrt_f32(float a, int32_t mode) { return sqrt(a, mode); }
double __cucpu_jit_sqrt_f64(double a, int32_t mode) { return sqrt(a, mode); }
float __cucpu_jit_cvt_f32_s64(int64_t a, int32_t mode) { return convert<float>(a, mode); }
float __cucpu_jit_cvt_f32_u64(uint64_t a, int32_t mode) { return convert<float>(a, mode); }
double __cucpu_jit_cvt_f64_s64(int64_t a, int32_t mode) { return convert<double>(a, mode); }
double __cucpu_jit_cvt_f64_u64(uint64_t a, int32_t mode) { return convert<double>(a, mode); }

// fns.b32 d, mask, base, offset: the position of the |offset|-th set bit of mask counting
// from bit base upwards (offset > 0) or downwards (offset < 0), 0xffffffff if there is
// none; offset 0 gives base when that bit is set (PTX ISA 9.0 §9.7.1.23, its pseudocode).
uint32_t __cucpu_jit_fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == 0) return base < 32 && (mask >> base & 1) != 0 ? base : 0xffffffffu;
  int64_t count = offset > 0 ? int64_t{offset} - 1 : -int64_t{offset} - 1;
  int step = offset > 0 ? 1 : -1;
  for (int64_t pos = static_cast<int32_t>(base); pos >= 0 && pos < 32; pos += step) {
    if ((mask >> pos & 1) == 0) continue;
    if (count == 0) return static_cast<uint32_t>(pos);
    --count;
  }
  return 0xffffffffu;
}

// %globaltimer: nanoseconds of a monotonic clock.
uint64_t __cucpu_jit_globaltimer() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}
}

}  // namespace

namespace cucpu::jit {

// tanh.approx: the host's libm (within the PTX ISA's bound; see lower_float_arithmetic.cpp).
extern "C" float __cucpu_jit_tanh_f32(float x) { return std::tanh(x); }
extern "C" double __cucpu_jit_tanh_f64(double x) { return std::tanh(x); }

RuntimeSymbols jit_helper_symbols() {
  RuntimeSymbols symbols;
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_add_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_mul_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_div_f32);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_div_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_fma_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_sqrt_f32);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_sqrt_f64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_cvt_f32_s64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_cvt_f32_u64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_cvt_f64_s64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_cvt_f64_u64);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_tanh_f32);
  CUCPU_PURE_HELPER(symbols, __cucpu_jit_tanh_f64);
  symbols["__cucpu_jit_fns"] = reinterpret_cast<void*>(&__cucpu_jit_fns);
  symbols["__cucpu_jit_globaltimer"] = reinterpret_cast<void*>(&__cucpu_jit_globaltimer);
  return symbols;
}

}  // namespace cucpu::jit
