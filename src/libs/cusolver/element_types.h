// cuSOLVER's element types (float, double, cuComplex, cuDoubleComplex): their real type, and
// the type C++ computes with (std::complex, of the same layout as CUDA's).
#pragma once

#include <cuComplex.h>

#include <complex>
#include <type_traits>

namespace cucpu::cusolver {

template <typename T>
struct Element;
template <>
struct Element<float> {
  using Real = float;
  using Math = float;
};
template <>
struct Element<double> {
  using Real = double;
  using Math = double;
};
template <>
struct Element<cuComplex> {
  using Real = float;
  using Math = std::complex<float>;
};
template <>
struct Element<cuDoubleComplex> {
  using Real = double;
  using Math = std::complex<double>;
};
template <typename T>
using Real = typename Element<T>::Real;
template <typename T>
using MathOf = typename Element<T>::Math;
template <typename T>
constexpr bool is_complex = !std::is_same_v<T, Real<T>>;

}  // namespace cucpu::cusolver
