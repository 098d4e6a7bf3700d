// cuBLAS's type-generic level-1 routines (cublasAxpyEx, DotEx, DotcEx, Nrm2Ex, AsumEx, ScalEx,
// IamaxEx, IaminEx, CopyEx, SwapEx, and the rotations RotEx, RotgEx, RotmEx, RotmgEx): vectors
// of any cudaDataType cuBLAS allows, computed in the execution type (half and bfloat16 in float),
// results narrowed to nearest even. Scalars and results follow the pointer mode as in
// level1_api.cpp and rotation_api.cpp.
#include <cublas_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "libs/cublas/blas_calls.h"
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

// A scalar of `type` as W: a real one makes a complex W with no imaginary part.
template <typename W>
W load_scalar(const void* p, cudaDataType type) {
  if constexpr (is_complex<W>)
    if (type == CUDA_R_32F || type == CUDA_R_64F) return promote<W>(load_element<RealOf<W>>(p, type, 0));
  return load_element<W>(p, type, 0);
}

// The real type of a complex type's parts (CUDA_C_32F: CUDA_R_32F), else the type itself.
cudaDataType real_part(cudaDataType type) {
  return type == CUDA_C_32F ? CUDA_R_32F : type == CUDA_C_64F ? CUDA_R_64F : type;
}

bool is_real_execution(cudaDataType execution) { return execution == CUDA_R_32F || execution == CUDA_R_64F; }

// Runs `compute` on scalars now (host pointer mode) or queued in stream order (device mode).
template <typename Compute>
cublasStatus_t on_scalars(cublasHandle_t handle, const char* function, std::initializer_list<DeviceRange> scalars,
                          Compute compute) {
  if (handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) return run(handle, function, scalars, compute);
  compute();
  return CUBLAS_STATUS_SUCCESS;
}

// RotEx: (x, y) <- (c x + s y, c y - conj(s) x). cuBLAS's table: x and y of one type, c and s of
// that type or, for complex vectors, also of its real type; a complex c's imaginary part is not
// used (c is a cosine).
cublasStatus_t rot_ex(cublasHandle_t handle, const char* function, int64_t n, void* x, cudaDataType x_type,
                      int64_t incx, void* y, cudaDataType y_type, int64_t incy, const void* c, const void* s,
                      cudaDataType cs_type, cudaDataType execution) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (x_type != y_type || execution_of(x_type) != execution || (cs_type != x_type && cs_type != real_part(x_type)))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (!c || !s) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  const RawScalar s_c(handle, c, element_size(cs_type)), s_s(handle, s, element_size(cs_type));
  return run(handle, function, {s_c.range(), s_s.range(), vector(x, n, incx, x_type), vector(y, n, incy, y_type)}, [=] {
    with_type(execution, [&]<typename W>(W) {
      const W cosine = promote<W>(load_scalar<RealOf<W>>(s_c.value(), real_part(cs_type)));
      const W sine = load_scalar<W>(s_s.value(), cs_type);
      for (int64_t i = 0; i < n; ++i) {
        const size_t at_x = index(i, n, incx), at_y = index(i, n, incy);
        const W xv = load_element<W>(x, x_type, at_x), yv = load_element<W>(y, y_type, at_y);
        store_element<W>(x, x_type, at_x, add(mul(cosine, xv), mul(sine, yv)));
        store_element<W>(y, y_type, at_y, sub(mul(cosine, yv), mul(conjugate(sine), xv)));
      }
    });
  });
}

void rotg(float* a, float* b, float* c, float* s) { cblas_srotg(a, b, c, s); }
void rotg(double* a, double* b, double* c, double* s) { cblas_drotg(a, b, c, s); }
void rotmg(float* d1, float* d2, float* x1, float y1, float* p) { cblas_srotmg(d1, d2, x1, y1, p); }
void rotmg(double* d1, double* d2, double* x1, double y1, double* p) { cblas_drotmg(d1, d2, x1, y1, p); }

// RotgEx: the Givens rotation zeroing b (a becomes r, as rotg does), computed in the execution
// type, c and s of the type of a and b. Real types only: the H200's cuBLAS 13 refuses complex ones.
cublasStatus_t rotg_ex(cublasHandle_t handle, const char* function, void* a, void* b, cudaDataType ab_type, void* c,
                       void* s, cudaDataType cs_type, cudaDataType execution) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (execution_of(ab_type) != execution || cs_type != ab_type || !is_real_execution(execution))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (!a || !b || !c || !s) return CUBLAS_STATUS_INVALID_VALUE;
  const size_t ab_size = element_size(ab_type), cs_size = element_size(cs_type);
  return on_scalars(handle, function, {{a, ab_size}, {b, ab_size}, {c, cs_size}, {s, cs_size}}, [=] {
    with_type(execution, [&]<typename W>(W) {
      if constexpr (!is_complex<W>) {
        W va = load_element<W>(a, ab_type, 0), vb = load_element<W>(b, ab_type, 0), vc{}, vs{};
        rotg(&va, &vb, &vc, &vs);
        store_element<W>(a, ab_type, 0, va);
        store_element<W>(b, ab_type, 0, vb);
        store_element<W>(c, cs_type, 0, vc);
        store_element<W>(s, cs_type, 0, vs);
      }
    });
  });
}

// RotmEx: the modified rotation H of param (flag, h11, h21, h12, h22) applied to real x and y:
// (x, y) <- (h11 x + h12 y, h21 x + h22 y); flag -2 is the identity, 0 and 1 imply some entries.
cublasStatus_t rotm_ex(cublasHandle_t handle, const char* function, int64_t n, void* x, cudaDataType x_type,
                       int64_t incx, void* y, cudaDataType y_type, int64_t incy, const void* param,
                       cudaDataType param_type, cudaDataType execution) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (x_type != y_type || param_type != x_type || !is_real_execution(execution) || execution_of(x_type) != execution)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (!param) return CUBLAS_STATUS_INVALID_VALUE;
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  const bool device = handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  const size_t param_bytes = 5 * element_size(param_type);
  std::vector<unsigned char> host(param_bytes);
  if (!device) std::memcpy(host.data(), param, param_bytes);
  return run(
      handle, function,
      {vector(x, n, incx, x_type), vector(y, n, incy, y_type), {device ? param : nullptr, device ? param_bytes : 0}},
      [=] {
        with_type(execution, [&]<typename W>(W) {
          if constexpr (!is_complex<W>) {
            W p[5];
            for (int i = 0; i < 5; ++i) p[i] = load_element<W>(device ? param : host.data(), param_type, i);
            const W flag = p[0];
            if (flag == -2) return;
            const W h11 = flag == 0 ? 1 : p[1], h21 = flag == 1 ? -1 : p[2];
            const W h12 = flag == 1 ? 1 : p[3], h22 = flag == 0 ? 1 : p[4];
            for (int64_t i = 0; i < n; ++i) {
              const size_t at_x = index(i, n, incx), at_y = index(i, n, incy);
              const W xv = load_element<W>(x, x_type, at_x), yv = load_element<W>(y, y_type, at_y);
              store_element<W>(x, x_type, at_x, h11 * xv + h12 * yv);
              store_element<W>(y, y_type, at_y, h21 * xv + h22 * yv);
            }
          }
        });
      });
}

// RotmgEx: the modified rotation zeroing the second component of (sqrt(d1) x1, sqrt(d2) y1),
// every operand of one real type; param's entries that its flag implies keep their values.
cublasStatus_t rotmg_ex(cublasHandle_t handle, const char* function, void* d1, cudaDataType d1_type, void* d2,
                        cudaDataType d2_type, void* x1, cudaDataType x1_type, const void* y1, cudaDataType y1_type,
                        void* param, cudaDataType param_type, cudaDataType execution) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const cudaDataType type = d1_type;
  if (d2_type != type || x1_type != type || y1_type != type || param_type != type || !is_real_execution(execution) ||
      execution_of(type) != execution)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (!d1 || !d2 || !x1 || !y1 || !param) return CUBLAS_STATUS_INVALID_VALUE;
  const size_t size = element_size(type);
  return on_scalars(handle, function, {{d1, size}, {d2, size}, {x1, size}, {y1, size}, {param, 5 * size}}, [=] {
    with_type(execution, [&]<typename W>(W) {
      if constexpr (!is_complex<W>) {
        W vd1 = load_element<W>(d1, type, 0), vd2 = load_element<W>(d2, type, 0), vx1 = load_element<W>(x1, type, 0);
        W p[5];
        for (int i = 0; i < 5; ++i) p[i] = load_element<W>(param, type, i);
        rotmg(&vd1, &vd2, &vx1, load_element<W>(y1, type, 0), p);
        store_element<W>(d1, type, 0, vd1);
        store_element<W>(d2, type, 0, vd2);
        store_element<W>(x1, type, 0, vx1);
        for (int i = 0; i < 5; ++i) store_element<W>(param, type, i, p[i]);
      }
    });
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

#define CUCPU_ROTATION_EX(I, suffix)                                                                                 \
  cublasStatus_t CUBLASWINAPI cublasRotEx##suffix(cublasHandle_t handle, I n, void* x, cudaDataType xType, I incx,   \
                                                  void* y, cudaDataType yType, I incy, const void* c, const void* s, \
                                                  cudaDataType csType, cudaDataType executiontype) {                 \
    return rot_ex(handle, __func__, n, x, xType, incx, y, yType, incy, c, s, csType, executiontype);                 \
  }                                                                                                                  \
  cublasStatus_t CUBLASWINAPI cublasRotmEx##suffix(cublasHandle_t handle, I n, void* x, cudaDataType xType, I incx,  \
                                                   void* y, cudaDataType yType, I incy, const void* param,           \
                                                   cudaDataType paramType, cudaDataType executiontype) {             \
    return rotm_ex(handle, __func__, n, x, xType, incx, y, yType, incy, param, paramType, executiontype);            \
  }

extern "C" {
CUCPU_ROTATION_EX(int, )
CUCPU_ROTATION_EX(int64_t, _64)

cublasStatus_t CUBLASWINAPI cublasRotgEx(cublasHandle_t handle, void* a, void* b, cudaDataType abType, void* c, void* s,
                                         cudaDataType csType, cudaDataType executiontype) {
  return rotg_ex(handle, __func__, a, b, abType, c, s, csType, executiontype);
}

cublasStatus_t CUBLASWINAPI cublasRotmgEx(cublasHandle_t handle, void* d1, cudaDataType d1Type, void* d2,
                                          cudaDataType d2Type, void* x1, cudaDataType x1Type, const void* y1,
                                          cudaDataType y1Type, void* param, cudaDataType paramType,
                                          cudaDataType executiontype) {
  return rotmg_ex(handle, __func__, d1, d1Type, d2, d2Type, x1, x1Type, y1, y1Type, param, paramType, executiontype);
}

CUCPU_EX_LEVEL1(int, )
CUCPU_EX_LEVEL1(int64_t, _64)
}
