#include "libs/cublas/mixed_gemm.h"

#include <algorithm>
#include <vector>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/element_math.h"

namespace cucpu::cublas {

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

namespace {

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
void integer_gemm(const MixedGemm& g, int32_t alpha, const std::vector<int32_t>& a, int64_t a_ld,
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
void compute_one(const MixedGemm& g, W alpha, W beta, const void* A, const void* B, void* C) {
  const Combination& how = g.how;
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

void multiply(const MixedGemm& g, const void* alpha, const void* beta, const void* A, const void* B, void* C) {
  const cudaDataType scale = g.how.scale;
  switch (g.how.work) {
    case Work::Float:
      return compute_one<float>(g, load_element<float>(alpha, scale, 0), load_element<float>(beta, scale, 0), A, B, C);
    case Work::Double:
      return compute_one<double>(g, load_element<double>(alpha, scale, 0), load_element<double>(beta, scale, 0), A, B,
                                 C);
    case Work::ComplexFloat:
      return compute_one<cuComplex>(g, load_element<cuComplex>(alpha, scale, 0),
                                    load_element<cuComplex>(beta, scale, 0), A, B, C);
    case Work::ComplexDouble:
      return compute_one<cuDoubleComplex>(g, load_element<cuDoubleComplex>(alpha, scale, 0),
                                          load_element<cuDoubleComplex>(beta, scale, 0), A, B, C);
    case Work::Int32:
      return compute_one<int32_t>(g, load_element<int32_t>(alpha, scale, 0), load_element<int32_t>(beta, scale, 0), A,
                                  B, C);
  }
}

}  // namespace cucpu::cublas
