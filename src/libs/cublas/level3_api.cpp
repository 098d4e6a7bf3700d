// cuBLAS level 3: matrix-matrix products and triangular solves, S/D/C/Z, 32- and 64-bit
// sizes, each queued on the handle's stream and computed by the CPU BLAS. Argument checks
// follow cuBLAS's documentation (CUBLAS_STATUS_INVALID_VALUE for negative sizes, unknown
// enumerations, leading dimensions below the rows they hold).
#include <cublas_api.h>

#include <cstdint>
#include <cstring>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/gemm_ex.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

template <typename T, typename I>
cublasStatus_t gemm(cublasHandle_t handle, const char* function, cublasOperation_t transa, cublasOperation_t transb,
                    I m, I n, I k, const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (int bad = gemm_broken_parameter(transa, transb, m, n, k, lda, ldb, ldc, kGemmPositions))
    return invalid_parameter(function, bad);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, k, lda, ldb, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, cuComplex>) {
    // A math mode that allows tensor-core inputs (TF32, half) makes Sgemm and Cgemm round them.
    if (const cublasComputeType_t compute = single_precision_compute(handle); compute != CUBLAS_COMPUTE_32F) {
      const cudaDataType type = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_C_32F;
      return gemm_ex(handle, function,
                     {transa, transb, m, n, k, alpha, type, lda, type, ldb, beta, type, ldc, compute, 1, {}},
                     single(A, B, C));
    }
  }
  const Shape<I> a = operand(transa, m, k), b = operand(transb, k, n);
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(
      handle, function,
      {s_alpha.range(), s_beta.range(), matrix(A, a, lda), matrix(B, b, ldb), matrix(C, Shape<I>{m, n}, ldc)},
      [=] { cublas::gemm(to_cblas(transa), to_cblas(transb), m, n, k, s_alpha(), A, lda, B, ldb, s_beta(), C, ldc); });
}

// symm and hemm: C = alpha A B + beta C with A symmetric (Hermitian) on `side`.
template <bool hermitian, typename T, typename I>
cublasStatus_t symm(cublasHandle_t handle, const char* function, cublasSideMode_t side, cublasFillMode_t uplo, I m, I n,
                    const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const I order = side == CUBLAS_SIDE_LEFT ? m : n;
  if (int bad = first_broken({{valid(side), 1},
                              {valid(uplo), 2},
                              {m >= 0, 3},
                              {n >= 0, 4},
                              {leading_ok(lda, order), 7},
                              {leading_ok(ldb, m), 9},
                              {leading_ok(ldc, m), 12}}))
    return invalid_parameter(function, bad);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, ldb, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function,
             {s_alpha.range(), s_beta.range(), matrix(A, Shape<I>{order, order}, lda), matrix(B, Shape<I>{m, n}, ldb),
              matrix(C, Shape<I>{m, n}, ldc)},
             [=] {
               if constexpr (hermitian)
                 hemm(to_cblas(side), to_cblas(uplo), m, n, s_alpha(), A, lda, B, ldb, s_beta(), C, ldc);
               else
                 cublas::symm(to_cblas(side), to_cblas(uplo), m, n, s_alpha(), A, lda, B, ldb, s_beta(), C, ldc);
             });
}

// syrk and herk: C = alpha op(A) op(A)^T (^H) + beta C, one triangle of C.
template <bool hermitian, typename T, typename S, typename I>
cublasStatus_t syrk(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, cublasOperation_t trans, I n,
                    I k, const S* alpha, const T* A, I lda, const S* beta, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const Shape<I> a = operand(trans, n, k);
  // A real type's syrk takes CUBLAS_OP_C as CUBLAS_OP_T; a complex syrk takes only N and T, herk N and C.
  const bool op_ok =
      is_complex<T> ? (trans == CUBLAS_OP_N || trans == (hermitian ? CUBLAS_OP_C : CUBLAS_OP_T)) : valid(trans);
  if (int bad = first_broken({{valid(uplo), 1},
                              {op_ok, 2},
                              {n >= 0, 3},
                              {k >= 0, 4},
                              {leading_ok(lda, a.rows), 7},
                              {leading_ok(ldc, n), 10}}))
    return invalid_parameter(function, bad);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, k, lda, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<S> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function, {s_alpha.range(), s_beta.range(), matrix(A, a, lda), matrix(C, Shape<I>{n, n}, ldc)},
             [=] {
               if constexpr (hermitian)
                 herk(to_cblas(uplo), to_cblas(trans), n, k, s_alpha(), A, lda, s_beta(), C, ldc);
               else
                 cublas::syrk(to_cblas(uplo), to_cblas(trans), n, k, s_alpha(), A, lda, s_beta(), C, ldc);
             });
}

// syr2k and her2k: C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C (her2k: conjugates).
template <bool hermitian, typename T, typename S, typename I>
cublasStatus_t syr2k(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, cublasOperation_t trans, I n,
                     I k, const T* alpha, const T* A, I lda, const T* B, I ldb, const S* beta, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const Shape<I> a = operand(trans, n, k);
  const bool op_ok =
      is_complex<T> ? (trans == CUBLAS_OP_N || trans == (hermitian ? CUBLAS_OP_C : CUBLAS_OP_T)) : valid(trans);
  if (int bad = first_broken({{valid(uplo), 1},
                              {op_ok, 2},
                              {n >= 0, 3},
                              {k >= 0, 4},
                              {leading_ok(lda, a.rows), 7},
                              {leading_ok(ldb, a.rows), 9},
                              {leading_ok(ldc, n), 12}}))
    return invalid_parameter(function, bad);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, k, lda, ldb, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha);
  Scalar<S> s_beta(handle, beta);
  return run(handle, function,
             {s_alpha.range(), s_beta.range(), matrix(A, a, lda), matrix(B, a, ldb), matrix(C, Shape<I>{n, n}, ldc)},
             [=] {
               if constexpr (hermitian)
                 her2k(to_cblas(uplo), to_cblas(trans), n, k, s_alpha(), A, lda, B, ldb, s_beta(), C, ldc);
               else
                 cublas::syr2k(to_cblas(uplo), to_cblas(trans), n, k, s_alpha(), A, lda, B, ldb, s_beta(), C, ldc);
             });
}

// trsm's and trmm's first bad argument (the same positions in both), or 0.
template <typename I>
int triangular_broken_parameter(cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,
                                cublasDiagType_t diag, I m, I n, I lda, I ldb) {
  return first_broken({{valid(side), 1},
                       {valid(uplo), 2},
                       {valid(trans), 3},
                       {valid(diag), 4},
                       {m >= 0, 5},
                       {n >= 0, 6},
                       {leading_ok(lda, side == CUBLAS_SIDE_LEFT ? m : n), 9},
                       {leading_ok(ldb, m), 11}});
}

// trsm: solves op(A) X = alpha B (or X op(A) = alpha B), X overwriting B.
template <typename T, typename I>
cublasStatus_t trsm(cublasHandle_t handle, const char* function, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T* alpha, const T* A, I lda, T* B,
                    I ldb) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (int bad = triangular_broken_parameter(side, uplo, trans, diag, m, n, lda, ldb))
    return invalid_parameter(function, bad);
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, ldb)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const I order = side == CUBLAS_SIDE_LEFT ? m : n;
  Scalar<T> s_alpha(handle, alpha);
  return run(
      handle, function, {s_alpha.range(), matrix(A, Shape<I>{order, order}, lda), matrix(B, Shape<I>{m, n}, ldb)}, [=] {
        cublas::trsm(to_cblas(side), to_cblas(uplo), to_cblas(trans), to_cblas(diag), m, n, s_alpha(), A, lda, B, ldb);
      });
}

// trmm, cuBLAS's out-of-place form: C = alpha op(A) B (or B op(A)); C may be B.
template <typename T, typename I>
cublasStatus_t trmm(cublasHandle_t handle, const char* function, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T* alpha, const T* A, I lda,
                    const T* B, I ldb, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (int bad = triangular_broken_parameter(side, uplo, trans, diag, m, n, lda, ldb))
    return invalid_parameter(function, bad);
  if (!leading_ok(ldc, m)) return invalid_parameter(function, 13);
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, ldb, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const I order = side == CUBLAS_SIDE_LEFT ? m : n;
  Scalar<T> s_alpha(handle, alpha);
  return run(handle, function,
             {s_alpha.range(), matrix(A, Shape<I>{order, order}, lda), matrix(B, Shape<I>{m, n}, ldb),
              matrix(C, Shape<I>{m, n}, ldc)},
             [=] {
               if (C != B)
                 for (I column = 0; column < n; ++column)
                   std::memmove(C + column * ldc, B + column * ldb, sizeof(T) * m);
               cublas::trmm(to_cblas(side), to_cblas(uplo), to_cblas(trans), to_cblas(diag), m, n, s_alpha(), A, lda, C,
                            ldc);
             });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

// Each routine's entry points for one element type (X: S, D, C or Z), with int and int64_t sizes.
#define CUCPU_LEVEL3(X, T, I, suffix)                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##gemm##suffix(                                                                \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const T* alpha,       \
      const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {                                             \
    return gemm(handle, __func__, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                      \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##symm##suffix(cublasHandle_t handle, cublasSideMode_t side,                   \
                                                      cublasFillMode_t uplo, I m, I n, const T* alpha, const T* A,    \
                                                      I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {         \
    return symm<false>(handle, __func__, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);                      \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##syrk##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                   \
                                                      cublasOperation_t trans, I n, I k, const T* alpha, const T* A,  \
                                                      I lda, const T* beta, T* C, I ldc) {                            \
    return syrk<false>(handle, __func__, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);                             \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##syr2k##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                  \
                                                       cublasOperation_t trans, I n, I k, const T* alpha, const T* A, \
                                                       I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {        \
    return syr2k<false>(handle, __func__, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                    \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##trsm##suffix(                                                                \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,                   \
      cublasDiagType_t diag, I m, I n, const T* alpha, const T* A, I lda, T* B, I ldb) {                              \
    return trsm(handle, __func__, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);                              \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##trmm##suffix(                                                                \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,                   \
      cublasDiagType_t diag, I m, I n, const T* alpha, const T* A, I lda, const T* B, I ldb, T* C, I ldc) {           \
    return trmm(handle, __func__, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, C, ldc);                      \
  }

#define CUCPU_LEVEL3_HERMITIAN(X, T, R, I, suffix)                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##hemm##suffix(cublasHandle_t handle, cublasSideMode_t side,                   \
                                                      cublasFillMode_t uplo, I m, I n, const T* alpha, const T* A,    \
                                                      I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {         \
    return symm<true>(handle, __func__, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);                       \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##herk##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                   \
                                                      cublasOperation_t trans, I n, I k, const R* alpha, const T* A,  \
                                                      I lda, const R* beta, T* C, I ldc) {                            \
    return syrk<true>(handle, __func__, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);                              \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##her2k##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                  \
                                                       cublasOperation_t trans, I n, I k, const T* alpha, const T* A, \
                                                       I lda, const T* B, I ldb, const R* beta, T* C, I ldc) {        \
    return syr2k<true>(handle, __func__, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                     \
  }

extern "C" {
CUCPU_LEVEL3(S, float, int, _v2)
CUCPU_LEVEL3(D, double, int, _v2)
CUCPU_LEVEL3(C, cuComplex, int, _v2)
CUCPU_LEVEL3(Z, cuDoubleComplex, int, _v2)
CUCPU_LEVEL3(S, float, int64_t, _v2_64)
CUCPU_LEVEL3(D, double, int64_t, _v2_64)
CUCPU_LEVEL3(C, cuComplex, int64_t, _v2_64)
CUCPU_LEVEL3(Z, cuDoubleComplex, int64_t, _v2_64)
CUCPU_LEVEL3_HERMITIAN(C, cuComplex, float, int, _v2)
CUCPU_LEVEL3_HERMITIAN(Z, cuDoubleComplex, double, int, _v2)
CUCPU_LEVEL3_HERMITIAN(C, cuComplex, float, int64_t, _v2_64)
CUCPU_LEVEL3_HERMITIAN(Z, cuDoubleComplex, double, int64_t, _v2_64)
}
