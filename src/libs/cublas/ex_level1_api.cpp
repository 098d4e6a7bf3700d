// cuBLAS's type-generic level-1 routines (cublasAxpyEx, DotEx, DotcEx, Nrm2Ex, AsumEx, ScalEx,
// IamaxEx, IaminEx, CopyEx, SwapEx, RotEx): vectors of any cudaDataType cuBLAS allows, computed
// in the execution type (half and bfloat16 in float), results narrowed to nearest even.
// Scalars and results follow the pointer mode as in level1_api.cpp.
#include <cublas_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "libs/cublas/element_math.h"
#include "libs/cublas/element_types.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

// The execution type a storage type computes in (cuBLAS's table: half and bfloat16 in float),
// or CUDA_R_8I (none) for a type these routines do not take.
cudaDataType execution_of(cudaDataType type) {
  switch (type) {
    case CUDA_R_16F:
    case CUDA_R_16BF:
    case CUDA_R_32F:
      return CUDA_R_32F;
    case CUDA_R_64F:
      return CUDA_R_64F;
    case CUDA_C_32F:
      return CUDA_C_32F;
    case CUDA_C_64F:
      return CUDA_C_64F;
    default:
      return CUDA_R_8I;
  }
}

// Calls body(W{}) with W the C++ type of execution type `execution`.
template <typename Body>
void with_type(cudaDataType execution, Body body) {
  switch (execution) {
    case CUDA_R_32F:
      return body(float{});
    case CUDA_R_64F:
      return body(double{});
    case CUDA_C_32F:
      return body(cuComplex{});
    default:
      return body(cuDoubleComplex{});
  }
}

// The element at position i of n strided elements (BLAS: a negative increment walks back).
size_t index(int64_t i, int64_t n, int64_t increment) {
  return static_cast<size_t>(increment >= 0 ? i * increment : (n - 1 - i) * -increment);
}

DeviceRange vector(const void* x, int64_t n, int64_t increment, cudaDataType type) {
  return vector_range(x, n, increment, element_size(type));
}

double magnitude(float v) { return std::fabs(v); }
double magnitude(double v) { return std::fabs(v); }
double magnitude(cuComplex v) { return std::hypot(v.x, v.y); }
double magnitude(cuDoubleComplex v) { return std::hypot(v.x, v.y); }
double abs_sum(float v) { return std::fabs(v); }
double abs_sum(double v) { return std::fabs(v); }
double abs_sum(cuComplex v) { return std::fabs(v.x) + std::fabs(v.y); }
double abs_sum(cuDoubleComplex v) { return std::fabs(v.x) + std::fabs(v.y); }

// Writes `value()` through result (of `type`) in the handle's pointer mode.
template <typename Compute>
cublasStatus_t reduce(cublasHandle_t handle, const char* function, void* result, size_t result_size,
                      std::initializer_list<DeviceRange> ranges, Compute compute) {
  if (!result) return CUBLAS_STATUS_INVALID_VALUE;
  const bool device = handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  std::vector<DeviceRange> all(ranges);
  if (device) all.push_back({result, result_size});
  auto queued = libs::enqueue(handle->stream, function, {}, [=] {
    for (const DeviceRange& range : all)
      if (!libs::require_device_memory(function, range)) return;
    compute();
  });
  if (!queued) return to_status(queued.error());
  return device ? CUBLAS_STATUS_SUCCESS : finish(handle);
}

cublasStatus_t dot_ex(cublasHandle_t handle, const char* function, int64_t n, const void* x, cudaDataType x_type,
                      int64_t incx, const void* y, cudaDataType y_type, int64_t incy, void* result,
                      cudaDataType result_type, cudaDataType execution, bool conjugate) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (x_type != y_type || x_type != result_type || execution_of(x_type) != execution)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, element_size(result_type),
                {vector(x, n, incx, x_type), vector(y, n, incy, y_type)}, [=] {
                  with_type(execution, [&]<typename W>(W) {
                    W sum{};
                    for (int64_t i = 0; i < n; ++i) {
                      W a = load_element<W>(x, x_type, index(i, n, incx));
                      if (conjugate) a = cublas::conjugate(a);
                      sum = add(sum, mul(a, load_element<W>(y, y_type, index(i, n, incy))));
                    }
                    store_element<W>(result, result_type, 0, sum);
                  });
                });
}

// Nrm2Ex and AsumEx: a real result of a real or complex vector.
template <bool euclidean>
cublasStatus_t norm_ex(cublasHandle_t handle, const char* function, int64_t n, const void* x, cudaDataType x_type,
                       int64_t incx, void* result, cudaDataType result_type, cudaDataType execution) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const cudaDataType real_execution = execution_of(x_type) == CUDA_C_32F   ? CUDA_R_32F
                                      : execution_of(x_type) == CUDA_C_64F ? CUDA_R_64F
                                                                           : execution_of(x_type);
  // Nrm2Ex writes a result of x's (real) type; AsumEx one of the execution type (the H200:
  // bfloat16 into float, not into bfloat16).
  const bool result_ok = euclidean ? (x_type == CUDA_C_32F   ? result_type == CUDA_R_32F
                                      : x_type == CUDA_C_64F ? result_type == CUDA_R_64F
                                                             : result_type == x_type)
                                   : result_type == real_execution;
  if (real_execution != execution || !result_ok) return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, element_size(result_type), {vector(x, n, incx, x_type)}, [=] {
    with_type(execution_of(x_type), [&]<typename W>(W) {
      double total = 0;  // nrm2's squares summed in double: no overflow for float inputs
      for (int64_t i = 0; n > 0 && incx > 0 && i < n; ++i) {
        const W v = load_element<W>(x, x_type, i * incx);
        total += euclidean ? magnitude(v) * magnitude(v) : abs_sum(v);
      }
      store_element<double>(result, result_type, 0, euclidean ? std::sqrt(total) : total);
    });
  });
}

// IamaxEx and IaminEx: the 1-based index of the first largest (smallest) |re| + |im|.
template <bool largest>
cublasStatus_t extreme_ex(cublasHandle_t handle, const char* function, int64_t n, const void* x, cudaDataType x_type,
                          int64_t incx, void* result, size_t result_size) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (execution_of(x_type) == CUDA_R_8I) return CUBLAS_STATUS_NOT_SUPPORTED;
  return reduce(handle, function, result, result_size, {vector(x, n, incx, x_type)}, [=] {
    int64_t best = 0;
    double best_value = 0;
    with_type(execution_of(x_type), [&]<typename W>(W) {
      for (int64_t i = 0; n > 0 && incx > 0 && i < n; ++i) {
        const double v = abs_sum(load_element<W>(x, x_type, i * incx));
        if (best == 0 || (largest ? v > best_value : v < best_value)) best = i + 1, best_value = v;
      }
    });
    if (result_size == sizeof(int64_t))
      *static_cast<int64_t*>(result) = best;
    else
      *static_cast<int*>(result) = static_cast<int>(best);
  });
}

// AxpyEx (y += alpha x) and ScalEx (x *= alpha).
cublasStatus_t axpy_ex(cublasHandle_t handle, const char* function, int64_t n, const void* alpha,
                       cudaDataType alpha_type, const void* x, cudaDataType x_type, int64_t incx, void* y,
                       cudaDataType y_type, int64_t incy, cudaDataType execution) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if ((x && x_type != y_type) || execution_of(y_type) != execution || alpha_type != execution)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  const RawScalar s_alpha(handle, alpha, element_size(alpha_type));
  return run(handle, function,
             {s_alpha.range(), x ? vector(x, n, incx, x_type) : DeviceRange{}, vector(y, n, incy, y_type)}, [=] {
               with_type(execution, [&]<typename W>(W) {
                 const W a = load_element<W>(s_alpha.value(), alpha_type, 0);
                 for (int64_t i = 0; i < n; ++i) {
                   const size_t at = index(i, n, incy);
                   const W current = load_element<W>(y, y_type, at);
                   const W value =
                       x ? add(current, mul(a, load_element<W>(x, x_type, index(i, n, incx)))) : mul(a, current);
                   store_element<W>(y, y_type, at, value);
                 }
               });
             });
}

// CopyEx and SwapEx: element moves, any type of the table.
template <bool exchange>
cublasStatus_t move_ex(cublasHandle_t handle, const char* function, int64_t n, void* x, cudaDataType x_type,
                       int64_t incx, void* y, cudaDataType y_type, int64_t incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (x_type != y_type || execution_of(x_type) == CUDA_R_8I) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  const size_t size = element_size(x_type);
  return run(handle, function, {vector(x, n, incx, x_type), vector(y, n, incy, y_type)}, [=] {
    for (int64_t i = 0; i < n; ++i) {
      char* a = static_cast<char*>(x) + index(i, n, incx) * size;
      char* b = static_cast<char*>(y) + index(i, n, incy) * size;
      unsigned char held[16];
      if (exchange) std::memcpy(held, b, size);
      std::memcpy(b, a, size);
      if (exchange) std::memcpy(a, held, size);
    }
  });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

#define CUCPU_EX_LEVEL1(I, suffix)                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasDotEx##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,      \
                                                  I incx, const void* y, cudaDataType yType, I incy, void* result,    \
                                                  cudaDataType resultType, cudaDataType executionType) {              \
    return dot_ex(handle, __func__, n, x, xType, incx, y, yType, incy, result, resultType, executionType, false);     \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasDotcEx##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,     \
                                                   I incx, const void* y, cudaDataType yType, I incy, void* result,   \
                                                   cudaDataType resultType, cudaDataType executionType) {             \
    return dot_ex(handle, __func__, n, x, xType, incx, y, yType, incy, result, resultType, executionType, true);      \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasNrm2Ex##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,     \
                                                   I incx, void* result, cudaDataType resultType,                     \
                                                   cudaDataType executionType) {                                      \
    return norm_ex<true>(handle, __func__, n, x, xType, incx, result, resultType, executionType);                     \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasAsumEx##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,     \
                                                   I incx, void* result, cudaDataType resultType,                     \
                                                   cudaDataType executiontype) {                                      \
    return norm_ex<false>(handle, __func__, n, x, xType, incx, result, resultType, executiontype);                    \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasIamaxEx##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,    \
                                                    I incx, I* result) {                                              \
    return extreme_ex<true>(handle, __func__, n, x, xType, incx, result, sizeof(I));                                  \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasIaminEx##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,    \
                                                    I incx, I* result) {                                              \
    return extreme_ex<false>(handle, __func__, n, x, xType, incx, result, sizeof(I));                                 \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasAxpyEx##suffix(cublasHandle_t handle, I n, const void* alpha,                     \
                                                   cudaDataType alphaType, const void* x, cudaDataType xType, I incx, \
                                                   void* y, cudaDataType yType, I incy, cudaDataType executiontype) { \
    return axpy_ex(handle, __func__, n, alpha, alphaType, x, xType, incx, y, yType, incy, executiontype);             \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasScalEx##suffix(cublasHandle_t handle, I n, const void* alpha,                     \
                                                   cudaDataType alphaType, void* x, cudaDataType xType, I incx,       \
                                                   cudaDataType executionType) {                                      \
    return axpy_ex(handle, __func__, n, alpha, alphaType, nullptr, xType, incx, x, xType, incx, executionType);       \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasCopyEx##suffix(cublasHandle_t handle, I n, const void* x, cudaDataType xType,     \
                                                   I incx, void* y, cudaDataType yType, I incy) {                     \
    return move_ex<false>(handle, __func__, n, const_cast<void*>(x), xType, incx, y, yType, incy);                    \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasSwapEx##suffix(cublasHandle_t handle, I n, void* x, cudaDataType xType, I incx,   \
                                                   void* y, cudaDataType yType, I incy) {                             \
    return move_ex<true>(handle, __func__, n, x, xType, incx, y, yType, incy);                                        \
  }

extern "C" {
CUCPU_EX_LEVEL1(int, )
CUCPU_EX_LEVEL1(int64_t, _64)
}
