// cuBLAS level 1: vector operations, S/D/C/Z, 32- and 64-bit sizes. Results (dot, nrm2,
// asum, amax, amin) go through `result` in the handle's pointer mode: a host pointer holds
// the value when the call returns (cuBLAS waits for its stream), a device pointer is
// written in stream order.
#include <cublas_api.h>

#include <cmath>
#include <cstdint>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/element_math.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

// Computes `value()` in stream order into `result` (see above).
template <typename R, typename Compute>
cublasStatus_t reduce(cublasHandle_t handle, const char* function, R* result, std::initializer_list<DeviceRange> ranges,
                      Compute value) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  const bool device = handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  std::vector<DeviceRange> all(ranges);
  if (device) all.push_back({result, sizeof(R)});
  auto queued = libs::enqueue(handle->stream, function, {}, [=] {
    for (const DeviceRange& range : all)
      if (!libs::require_device_memory(function, range)) return;
    *result = value();
  });
  if (!queued) return to_status(queued.error());
  return device ? CUBLAS_STATUS_SUCCESS : finish(handle);
}

template <typename T, typename I>
cublasStatus_t axpy(cublasHandle_t handle, const char* function, I n, const T* alpha, const T* x, I incx, T* y,
                    I incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha);
  return run(handle, function, {s_alpha.range(), vector(x, n, incx), vector(y, n, incy)},
             [=] { cublas::axpy(n, s_alpha(), x, incx, y, incy); });
}

template <typename T, typename I>
cublasStatus_t copy(cublasHandle_t handle, const char* function, I n, const T* x, I incx, T* y, I incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  return run(handle, function, {vector(x, n, incx), vector(y, n, incy)}, [=] { cublas::copy(n, x, incx, y, incy); });
}

template <typename T, typename I>
cublasStatus_t swap(cublasHandle_t handle, const char* function, I n, T* x, I incx, T* y, I incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  return run(handle, function, {vector(x, n, incx), vector(y, n, incy)}, [=] { cublas::swap(n, x, incx, y, incy); });
}

// x *= alpha, alpha of x's type or (Csscal, Zdscal) real.
template <typename T, typename S, typename I>
cublasStatus_t scal(cublasHandle_t handle, const char* function, I n, const S* alpha, T* x, I incx) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, incx)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<S> s_alpha(handle, alpha);
  return run(handle, function, {s_alpha.range(), vector(x, n, incx)}, [=] { cublas::scal(n, s_alpha(), x, incx); });
}

template <typename T, typename I>
cublasStatus_t dot(cublasHandle_t handle, const char* function, I n, const T* x, I incx, const T* y, I incy, T* result,
                   bool conjugate) {
  if (!fits_blas(n, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, {vector(x, n, incx), vector(y, n, incy)},
                [=] { return n > 0 ? cublas::dot(n, x, incx, y, incy, conjugate) : T{}; });
}

template <typename T, typename R, typename I>
cublasStatus_t nrm2(cublasHandle_t handle, const char* function, I n, const T* x, I incx, R* result) {
  if (!fits_blas(n, incx)) return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, {vector(x, n, incx)},
                [=] { return n > 0 && incx > 0 ? cublas::nrm2(n, x, incx) : R{}; });
}

template <typename T, typename R, typename I>
cublasStatus_t asum(cublasHandle_t handle, const char* function, I n, const T* x, I incx, R* result) {
  if (!fits_blas(n, incx)) return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, {vector(x, n, incx)},
                [=] { return n > 0 && incx > 0 ? cublas::asum(n, x, incx) : R{}; });
}

// The 1-based index of the first element of largest (smallest) |re| + |im|; 0 for no elements.
template <bool largest, typename T, typename I>
cublasStatus_t extreme(cublasHandle_t handle, const char* function, I n, const T* x, I incx, I* result) {
  if (!fits_blas(n, incx)) return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, {vector(x, n, incx)}, [=]() -> I {
    if (n <= 0 || incx <= 0) return 0;
    return static_cast<I>((largest ? cublas::iamax(n, x, incx) : cublas::iamin(n, x, incx)) + 1);
  });
}

// Plane rotation: (x, y) <- (c x + s y, c y - conj(s) x), s real or complex.
template <typename T, typename C, typename S, typename I>
cublasStatus_t rot(cublasHandle_t handle, const char* function, I n, T* x, I incx, T* y, I incy, const C* c,
                   const S* s) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!c || !s) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  Scalar<C> s_c(handle, c);
  Scalar<S> s_s(handle, s);
  return run(handle, function, {s_c.range(), s_s.range(), vector(x, n, incx), vector(y, n, incy)}, [=] {
    const T cosine = promote<T>(s_c());
    const S sine = s_s();
    T* xi = incx < 0 ? x + (n - 1) * -incx : x;
    T* yi = incy < 0 ? y + (n - 1) * -incy : y;
    for (I i = 0; i < n; ++i, xi += incx, yi += incy) {
      const T xv = *xi, yv = *yi;
      *xi = add(mul(cosine, xv), mul(promote<T>(sine), yv));
      *yi = sub(mul(cosine, yv), mul(conjugate(promote<T>(sine)), xv));
    }
  });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

#define CUCPU_LEVEL1(X, Xl, T, I, suffix)                                                                             \
  cublasStatus_t CUBLASWINAPI cublas##X##axpy##suffix(cublasHandle_t handle, I n, const T* alpha, const T* x, I incx, \
                                                      T* y, I incy) {                                                 \
    return axpy(handle, __func__, n, alpha, x, incx, y, incy);                                                        \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##copy##suffix(cublasHandle_t handle, I n, const T* x, I incx, T* y, I incy) { \
    return copy(handle, __func__, n, x, incx, y, incy);                                                               \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##swap##suffix(cublasHandle_t handle, I n, T* x, I incx, T* y, I incy) {       \
    return swap(handle, __func__, n, x, incx, y, incy);                                                               \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##scal##suffix(cublasHandle_t handle, I n, const T* alpha, T* x, I incx) {     \
    return scal(handle, __func__, n, alpha, x, incx);                                                                 \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasI##Xl##amax##suffix(cublasHandle_t handle, I n, const T* x, I incx, I* result) {  \
    return extreme<true>(handle, __func__, n, x, incx, result);                                                       \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasI##Xl##amin##suffix(cublasHandle_t handle, I n, const T* x, I incx, I* result) {  \
    return extreme<false>(handle, __func__, n, x, incx, result);                                                      \
  }

// Routines whose names carry the result's type too (Scnrm2, Dzasum) or only exist for real types.
#define CUCPU_LEVEL1_REAL(X, T, I, suffix)                                                                         \
  cublasStatus_t CUBLASWINAPI cublas##X##dot##suffix(cublasHandle_t handle, I n, const T* x, I incx, const T* y,   \
                                                     I incy, T* result) {                                          \
    return dot(handle, __func__, n, x, incx, y, incy, result, false);                                              \
  }                                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##X##nrm2##suffix(cublasHandle_t handle, I n, const T* x, I incx, T* result) { \
    return nrm2(handle, __func__, n, x, incx, result);                                                             \
  }                                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##X##asum##suffix(cublasHandle_t handle, I n, const T* x, I incx, T* result) { \
    return asum(handle, __func__, n, x, incx, result);                                                             \
  }                                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##X##rot##suffix(cublasHandle_t handle, I n, T* x, I incx, T* y, I incy,       \
                                                     const T* c, const T* s) {                                     \
    return rot(handle, __func__, n, x, incx, y, incy, c, s);                                                       \
  }

#define CUCPU_LEVEL1_COMPLEX(X, Xl, R, Rl, T, I, suffix)                                                            \
  cublasStatus_t CUBLASWINAPI cublas##X##dotu##suffix(cublasHandle_t handle, I n, const T* x, I incx, const T* y,   \
                                                      I incy, T* result) {                                          \
    return dot(handle, __func__, n, x, incx, y, incy, result, false);                                               \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##dotc##suffix(cublasHandle_t handle, I n, const T* x, I incx, const T* y,   \
                                                      I incy, T* result) {                                          \
    return dot(handle, __func__, n, x, incx, y, incy, result, true);                                                \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##R##Xl##nrm2##suffix(cublasHandle_t handle, I n, const T* x, I incx,           \
                                                          RealOf<T>* result) {                                      \
    return nrm2(handle, __func__, n, x, incx, result);                                                              \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##R##Xl##asum##suffix(cublasHandle_t handle, I n, const T* x, I incx,           \
                                                          RealOf<T>* result) {                                      \
    return asum(handle, __func__, n, x, incx, result);                                                              \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##Rl##scal##suffix(cublasHandle_t handle, I n, const RealOf<T>* alpha, T* x, \
                                                          I incx) {                                                 \
    return scal(handle, __func__, n, alpha, x, incx);                                                               \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##rot##suffix(cublasHandle_t handle, I n, T* x, I incx, T* y, I incy,        \
                                                     const RealOf<T>* c, const T* s) {                              \
    return rot(handle, __func__, n, x, incx, y, incy, c, s);                                                        \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##Rl##rot##suffix(cublasHandle_t handle, I n, T* x, I incx, T* y, I incy,    \
                                                         const RealOf<T>* c, const RealOf<T>* s) {                  \
    return rot(handle, __func__, n, x, incx, y, incy, c, s);                                                        \
  }

extern "C" {
CUCPU_LEVEL1(S, s, float, int, _v2)
CUCPU_LEVEL1(D, d, double, int, _v2)
CUCPU_LEVEL1(C, c, cuComplex, int, _v2)
CUCPU_LEVEL1(Z, z, cuDoubleComplex, int, _v2)
CUCPU_LEVEL1(S, s, float, int64_t, _v2_64)
CUCPU_LEVEL1(D, d, double, int64_t, _v2_64)
CUCPU_LEVEL1(C, c, cuComplex, int64_t, _v2_64)
CUCPU_LEVEL1(Z, z, cuDoubleComplex, int64_t, _v2_64)
CUCPU_LEVEL1_REAL(S, float, int, _v2)
CUCPU_LEVEL1_REAL(D, double, int, _v2)
CUCPU_LEVEL1_REAL(S, float, int64_t, _v2_64)
CUCPU_LEVEL1_REAL(D, double, int64_t, _v2_64)
CUCPU_LEVEL1_COMPLEX(C, c, S, s, cuComplex, int, _v2)
CUCPU_LEVEL1_COMPLEX(Z, z, D, d, cuDoubleComplex, int, _v2)
CUCPU_LEVEL1_COMPLEX(C, c, S, s, cuComplex, int64_t, _v2_64)
CUCPU_LEVEL1_COMPLEX(Z, z, D, d, cuDoubleComplex, int64_t, _v2_64)
}
