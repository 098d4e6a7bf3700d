// Arithmetic on cuBLAS's element types, real or complex, for the few loops cucpu writes
// itself (an LU without pivoting, geam, dgmm) instead of calling the CPU BLAS.
#pragma once

#include <cuComplex.h>

#include <cstdint>
#include <type_traits>

namespace cucpu::cublas {

inline float add(float a, float b) { return a + b; }
inline double add(double a, double b) { return a + b; }
inline cuComplex add(cuComplex a, cuComplex b) { return cuCaddf(a, b); }
inline cuDoubleComplex add(cuDoubleComplex a, cuDoubleComplex b) { return cuCadd(a, b); }
inline float mul(float a, float b) { return a * b; }
inline double mul(double a, double b) { return a * b; }
inline cuComplex mul(cuComplex a, cuComplex b) { return cuCmulf(a, b); }
inline cuDoubleComplex mul(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
inline float sub(float a, float b) { return a - b; }
inline double sub(double a, double b) { return a - b; }
inline cuComplex sub(cuComplex a, cuComplex b) { return cuCsubf(a, b); }
inline cuDoubleComplex sub(cuDoubleComplex a, cuDoubleComplex b) { return cuCsub(a, b); }
inline float div(float a, float b) { return a / b; }
inline double div(double a, double b) { return a / b; }
inline cuComplex div(cuComplex a, cuComplex b) { return cuCdivf(a, b); }
inline cuDoubleComplex div(cuDoubleComplex a, cuDoubleComplex b) { return cuCdiv(a, b); }
inline float conjugate(float a) { return a; }
inline double conjugate(double a) { return a; }
inline cuComplex conjugate(cuComplex a) { return cuConjf(a); }
inline cuDoubleComplex conjugate(cuDoubleComplex a) { return cuConj(a); }
inline bool is_zero(int32_t a) { return a == 0; }
inline bool is_zero(float a) { return a == 0; }
inline bool is_zero(double a) { return a == 0; }
inline bool is_zero(cuComplex a) { return a.x == 0 && a.y == 0; }
inline bool is_zero(cuDoubleComplex a) { return a.x == 0 && a.y == 0; }

// A value of T from a real or T one (a complex number with no imaginary part).
template <typename T, typename S>
T promote(S value) {
  if constexpr (std::is_same_v<T, S>)
    return value;
  else
    return T{value, 0};
}

}  // namespace cucpu::cublas
