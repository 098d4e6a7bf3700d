#include "libs/cublas/gemm_ex.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/element_math.h"
#include "libs/cublas/element_types.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

enum class Work { Float, Double, ComplexFloat, ComplexDouble, Int32 };

// How a supported combination computes: the working type, the scalars' type, the rounding
// of the inputs.
struct Combination {
  Work work;
  cudaDataType scale;
  InputRounding rounding = InputRounding::None;
};

std::optional<Combination> combination(cublasComputeType_t compute, cudaDataType a, cudaDataType b, cudaDataType c) {
  if (a != b) return std::nullopt;
  switch (compute) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
      if (a == CUDA_R_16F && c == CUDA_R_16F) return Combination{Work::Float, CUDA_R_16F};
      return std::nullopt;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
      if (a == CUDA_R_8I && c == CUDA_R_32I) return Combination{Work::Int32, CUDA_R_32I};
      return std::nullopt;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_EMULATED_16BFX9:  // emulates FP32 products to FP32 accuracy
      if ((a == CUDA_R_16BF || a == CUDA_R_16F) && (c == a || c == CUDA_R_32F))
        return Combination{Work::Float, CUDA_R_32F};
      if ((a == CUDA_R_8I || a == CUDA_R_32F) && c == CUDA_R_32F) return Combination{Work::Float, CUDA_R_32F};
      if ((a == CUDA_C_8I || a == CUDA_C_32F) && c == CUDA_C_32F) return Combination{Work::ComplexFloat, CUDA_C_32F};
      return std::nullopt;
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32: {
      // The H200's cuBLAS 13.1 runs all three fast types on TF32 inputs (1 + 2^-8 survives
      // FAST_16BF, 1 + 2^-12 does not: tests/e2e/cublas_routines).
      if (a == CUDA_R_32F && c == CUDA_R_32F) return Combination{Work::Float, CUDA_R_32F, InputRounding::Tf32};
      if (a == CUDA_C_32F && c == CUDA_C_32F) return Combination{Work::ComplexFloat, CUDA_C_32F, InputRounding::Tf32};
      return std::nullopt;
    }
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
      if (a == CUDA_R_64F && c == CUDA_R_64F) return Combination{Work::Double, CUDA_R_64F};
      if (a == CUDA_C_64F && c == CUDA_C_64F) return Combination{Work::ComplexDouble, CUDA_C_64F};
      return std::nullopt;
  }
  return std::nullopt;
}

// A scalar of any scale type in the handle's pointer mode: its bytes copied at the call
// (host) or read when the work runs (device).
class RawScalar {
 public:
  RawScalar(cublasHandle_t handle, const void* pointer, size_t size)
      : device_(handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE ? pointer : nullptr), size_(size) {
    if (!device_) std::memcpy(bytes_, pointer, size);
  }
  template <typename W>
  W as(cudaDataType type) const {
    return load_element<W>(device_ ? device_ : bytes_, type, 0);
  }
  DeviceRange range() const { return {device_, device_ ? size_ : 0}; }

 private:
  const void* device_;
  size_t size_;
  unsigned char bytes_[16] = {};
};

template <typename W>
W rounded(W value, InputRounding rounding) {
  if constexpr (std::is_same_v<W, float>)
    return round_input(value, rounding);
  else if constexpr (std::is_same_v<W, cuComplex>)
    return W{round_input(value.x, rounding), round_input(value.y, rounding)};
  else
    return value;
}

// A rows x columns matrix of `type` (leading dimension ld) as a packed matrix of W.
template <typename W>
std::vector<W> widen(const void* base, cudaDataType type, int64_t rows, int64_t columns, int64_t ld,
                     InputRounding rounding) {
  std::vector<W> out(static_cast<size_t>(rows * columns));
  for (int64_t c = 0; c < columns; ++c)
    for (int64_t r = 0; r < rows; ++r) out[r + c * rows] = rounded(load_element<W>(base, type, r + c * ld), rounding);
  return out;
}

// C = alpha op(A) op(B) + beta C in 32-bit integers, wrapping as the GPU's integer units do.
void integer_gemm(const GemmExArguments& g, int32_t alpha, const std::vector<int32_t>& a, int64_t a_ld,
                  const std::vector<int32_t>& b, int64_t b_ld, int32_t beta, std::vector<int32_t>& c) {
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = 0; i < g.m; ++i) {
      uint32_t sum = 0;
      for (int64_t l = 0; l < g.k; ++l) {
        const int32_t x = g.transa == CUBLAS_OP_N ? a[i + l * a_ld] : a[l + i * a_ld];
        const int32_t y = g.transb == CUBLAS_OP_N ? b[l + j * b_ld] : b[j + l * b_ld];
        sum += static_cast<uint32_t>(x) * static_cast<uint32_t>(y);
      }
      c[i + j * g.m] = static_cast<int32_t>(static_cast<uint32_t>(alpha) * sum +
                                            static_cast<uint32_t>(beta) * static_cast<uint32_t>(c[i + j * g.m]));
    }
}

template <typename W>
void compute_one(const GemmExArguments& g, const Combination& how, W alpha, W beta, const void* A, const void* B,
                 void* C) {
  const Shape<int64_t> a = operand(g.transa, g.m, g.k), b = operand(g.transb, g.k, g.n);
  constexpr cudaDataType native = std::is_same_v<W, float>             ? CUDA_R_32F
                                  : std::is_same_v<W, double>          ? CUDA_R_64F
                                  : std::is_same_v<W, cuComplex>       ? CUDA_C_32F
                                  : std::is_same_v<W, cuDoubleComplex> ? CUDA_C_64F
                                                                       : CUDA_R_32I;
  if constexpr (!std::is_same_v<W, int32_t>) {
    if (g.a_type == native && g.c_type == native && how.rounding == InputRounding::None) {
      gemm(to_cblas(g.transa), to_cblas(g.transb), g.m, g.n, g.k, alpha, static_cast<const W*>(A), g.lda,
           static_cast<const W*>(B), g.ldb, beta, static_cast<W*>(C), g.ldc);
      return;
    }
  }
  const std::vector<W> wa = widen<W>(A, g.a_type, a.rows, a.columns, g.lda, how.rounding);
  const std::vector<W> wb = widen<W>(B, g.b_type, b.rows, b.columns, g.ldb, how.rounding);
  // beta = 0: C is not read (it may hold NaNs), as BLAS defines.
  std::vector<W> wc = is_zero(beta) ? std::vector<W>(static_cast<size_t>(g.m * g.n))
                          : widen<W>(C, g.c_type, g.m, g.n, g.ldc, InputRounding::None);
  if constexpr (std::is_same_v<W, int32_t>)
    integer_gemm(g, alpha, wa, std::max<int64_t>(a.rows, 1), wb, std::max<int64_t>(b.rows, 1), beta, wc);
  else
    gemm(to_cblas(g.transa), to_cblas(g.transb), g.m, g.n, g.k, alpha, wa.data(), std::max<int64_t>(a.rows, 1),
         wb.data(), std::max<int64_t>(b.rows, 1), beta, wc.data(), g.m);
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = 0; i < g.m; ++i) store_element<W>(C, g.c_type, i + j * g.ldc, wc[i + j * g.m]);
}

}  // namespace

cublasComputeType_t single_precision_compute(cublasHandle_t handle) {
  switch (handle->math_mode & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION) {
    case CUBLAS_TF32_TENSOR_OP_MATH: return CUBLAS_COMPUTE_32F_FAST_TF32;
    case CUBLAS_TENSOR_OP_MATH: return CUBLAS_COMPUTE_32F_FAST_16F;
    default: return CUBLAS_COMPUTE_32F;
  }
}

cublasStatus_t gemm_ex(cublasHandle_t handle, const char* function, const GemmExArguments& g,
                       BatchMatrices matrices) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // cublasGemmEx names its bad argument (lda is its parameter 9, ldb 12, ldc 16); what the
  // other Ex forms print is not known: they refuse quietly.
  if (int bad = gemm_broken_parameter(g.transa, g.transb, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, GemmPositions{9, 12, 16}))
    return std::string_view(function).starts_with("cublasGemmEx") ? invalid_parameter(function, bad)
                                                                  : CUBLAS_STATUS_INVALID_VALUE;
  if (g.count < 0 || !g.alpha || !g.beta) return CUBLAS_STATUS_INVALID_VALUE;
  const auto how = combination(g.compute, g.a_type, g.b_type, g.c_type);
  if (!how) return CUBLAS_STATUS_NOT_SUPPORTED;
  if ((how->work == Work::Int32 || g.a_type == CUDA_C_8I) && (g.transa == CUBLAS_OP_C || g.transb == CUBLAS_OP_C))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (g.m == 0 || g.n == 0 || g.count == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(g.m, g.n, g.k, g.lda, g.ldb, g.ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const RawScalar alpha(handle, g.alpha, element_size(how->scale)), beta(handle, g.beta, element_size(how->scale));
  const auto pointer_array = [&](const void* array) {
    return DeviceRange{array, array ? sizeof(void*) * static_cast<size_t>(g.count) : 0};
  };
  const Combination combination = *how;
  return run(handle, function,
             {alpha.range(), beta.range(), pointer_array(g.arrays[0]), pointer_array(g.arrays[1]),
              pointer_array(g.arrays[2])},
             [=] {
               const Shape<int64_t> a = operand(g.transa, g.m, g.k), b = operand(g.transb, g.k, g.n);
               for (int64_t i = 0; i < g.count; ++i) {
                 auto [A, B, C] = matrices(i);
                 if (!libs::require_device_memory(function, matrix_range(A, a.rows, a.columns, g.lda,
                                                                          element_size(g.a_type))) ||
                     !libs::require_device_memory(function, matrix_range(B, b.rows, b.columns, g.ldb,
                                                                          element_size(g.b_type))) ||
                     !libs::require_device_memory(function, matrix_range(C, g.m, g.n, g.ldc, element_size(g.c_type))))
                   return;
                 switch (combination.work) {
                   case Work::Float:
                     compute_one<float>(g, combination, alpha.as<float>(combination.scale),
                                        beta.as<float>(combination.scale), A, B, C);
                     break;
                   case Work::Double:
                     compute_one<double>(g, combination, alpha.as<double>(combination.scale),
                                         beta.as<double>(combination.scale), A, B, C);
                     break;
                   case Work::ComplexFloat:
                     compute_one<cuComplex>(g, combination, alpha.as<cuComplex>(combination.scale),
                                            beta.as<cuComplex>(combination.scale), A, B, C);
                     break;
                   case Work::ComplexDouble:
                     compute_one<cuDoubleComplex>(g, combination, alpha.as<cuDoubleComplex>(combination.scale),
                                                  beta.as<cuDoubleComplex>(combination.scale), A, B, C);
                     break;
                   case Work::Int32:
                     compute_one<int32_t>(g, combination, alpha.as<int32_t>(combination.scale),
                                          beta.as<int32_t>(combination.scale), A, B, C);
                     break;
                 }
               }
             });
}

}  // namespace cucpu::cublas
