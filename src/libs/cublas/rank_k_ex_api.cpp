// cuBLAS's rank-k updates of a complex matrix from an input of another type: cublasCsyrkEx,
// cublasCherkEx and their 3M forms (cublasCsyrk3mEx, cublasCherk3mEx), int and int64_t sizes.
// cuBLAS's table names A of CUDA_C_8I or CUDA_C_32F and C of CUDA_C_32F; the update is computed
// in single-precision complex, A widened exactly, by the CPU BLAS's csyrk/cherk. The 3M forms
// give the plain forms' result: NVIDIA's 3M algorithm (three real products where four would do)
// only changes the rounding.
#include <cublas_api.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/element_types.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

// C = alpha op(A) op(A)^T + beta C (syrk, S = cuComplex) or alpha op(A) op(A)^H + beta C (herk,
// S = float), one triangle of C.
template <bool hermitian, typename S, typename I>
cublasStatus_t rank_k_ex(cublasHandle_t handle, const char* function, const char* label, cublasFillMode_t uplo,
                         cublasOperation_t trans, I n, I k, const S* alpha, const void* A, cudaDataType a_type, I lda,
                         const S* beta, void* C, cudaDataType c_type, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // Unlike Csyrk and Cherk, the Ex forms take either transposition: herk's T is C, syrk's C is T
  // (the H200's results). A bad argument is reported as the plain routine's (CHERK, CSYRK,
  // CSYRK3M: `label`), numbered as its parameters (lda 7, ldc 10).
  const cublasOperation_t op = trans == CUBLAS_OP_N ? CUBLAS_OP_N : hermitian ? CUBLAS_OP_C : CUBLAS_OP_T;
  const Shape<I> a = operand(op, n, k);
  if (int bad = first_broken({{valid(uplo), 1},
                              {valid(trans), 2},
                              {n >= 0, 3},
                              {k >= 0, 4},
                              {leading_ok(lda, a.rows), 7},
                              {leading_ok(ldc, n), 10}}))
    return invalid_parameter(label, bad);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  // cuBLAS's table also names CUDA_C_8I inputs; the H200's cuBLAS 13 refuses them.
  if (a_type != CUDA_C_32F || c_type != CUDA_C_32F) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, k, lda, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<S> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function,
             {s_alpha.range(), s_beta.range(), matrix_range(A, a.rows, a.columns, lda, element_size(a_type)),
              matrix_range(C, n, n, ldc, sizeof(cuComplex))},
             [=] {
               const I rows = std::max<I>(a.rows, 1);
               std::vector<cuComplex> wide(static_cast<size_t>(rows * a.columns));
               for (I c = 0; c < a.columns; ++c)
                 for (I r = 0; r < a.rows; ++r) wide[r + c * rows] = load_element<cuComplex>(A, a_type, r + c * lda);
               auto* out = static_cast<cuComplex*>(C);
               if constexpr (hermitian)
                 herk(to_cblas(uplo), to_cblas(op), n, k, s_alpha(), wide.data(), rows, s_beta(), out, ldc);
               else
                 syrk(to_cblas(uplo), to_cblas(op), n, k, s_alpha(), wide.data(), rows, s_beta(), out, ldc);
             });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

// name: the routine (CsyrkEx, Cherk3mEx, ...); S: its scalars' type; label: the routine its
// bad arguments are reported as.
#define CUCPU_RANK_K_EX(name, label, hermitian, S, I, suffix)                                                         \
  cublasStatus_t CUBLASWINAPI cublas##name##suffix(                                                                   \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k, const S* alpha, const void* A, \
      cudaDataType Atype, I lda, const S* beta, void* C, cudaDataType Ctype, I ldc) {                                 \
    return rank_k_ex<hermitian>(handle, __func__, label, uplo, trans, n, k, alpha, A, Atype, lda, beta, C, Ctype,     \
                                ldc);                                                                                 \
  }

extern "C" {
CUCPU_RANK_K_EX(CsyrkEx, "cublasCsyrk", false, cuComplex, int, )
CUCPU_RANK_K_EX(Csyrk3mEx, "cublasCsyrk3m", false, cuComplex, int, )
CUCPU_RANK_K_EX(CherkEx, "cublasCherk", true, float, int, )
CUCPU_RANK_K_EX(Cherk3mEx, "cublasCherk", true, float, int, )
CUCPU_RANK_K_EX(CsyrkEx, "cublasCsyrk", false, cuComplex, int64_t, _64)
CUCPU_RANK_K_EX(Csyrk3mEx, "cublasCsyrk3m", false, cuComplex, int64_t, _64)
CUCPU_RANK_K_EX(CherkEx, "cublasCherk", true, float, int64_t, _64)
CUCPU_RANK_K_EX(Cherk3mEx, "cublasCherk", true, float, int64_t, _64)
}
