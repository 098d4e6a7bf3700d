// cuBLAS's BLAS-like extensions: geam (C = alpha op(A) + beta op(B)), dgmm (a matrix scaled by
// a diagonal), syrkx/herkx, the packed/full triangle conversions, gemm3m (complex gemm,
// computed as gemm: the GPU's 3M split only changes rounding).
#include <cublas_api.h>

#include <cstdint>
#include <vector>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/element_math.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

template <typename T, typename I>
T element(const T* a, I ld, cublasOperation_t op, I row, I column) {
  return op == CUBLAS_OP_N   ? a[row + column * ld]
         : op == CUBLAS_OP_T ? a[column + row * ld]
                             : conjugate(a[column + row * ld]);
}

template <typename T, typename I>
cublasStatus_t geam(cublasHandle_t handle, const char* function, cublasOperation_t transa, cublasOperation_t transb,
                    I m, I n, const T* alpha, const T* A, I lda, const T* beta, const T* B, I ldb, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const Shape<I> a = operand(transa, m, n), b = operand(transb, m, n);
  if (int bad = first_broken({{valid(transa), 1},
                              {valid(transb), 2},
                              {m >= 0, 3},
                              {n >= 0, 4},
                              {leading_ok(lda, a.rows), 7},
                              {leading_ok(ldb, b.rows), 10},
                              {leading_ok(ldc, m), 12}}))
    return invalid_parameter(function, bad);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  // In place only as C = alpha C + beta op(B) or C = alpha op(A) + beta C, with C's layout.
  if ((C == A && (lda != ldc || transa != CUBLAS_OP_N)) || (C == B && (ldb != ldc || transb != CUBLAS_OP_N)))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function, {s_alpha.range(), s_beta.range(), matrix(C, Shape<I>{m, n}, ldc)}, [=] {
    const T alpha_value = s_alpha(), beta_value = s_beta();
    // A term whose scalar is zero is not read (cuBLAS: "A does not have to be a valid input").
    if ((!is_zero(alpha_value) && !libs::require_device_memory(function, matrix(A, a, lda))) ||
        (!is_zero(beta_value) && !libs::require_device_memory(function, matrix(B, b, ldb))))
      return;
    for (I j = 0; j < n; ++j)
      for (I i = 0; i < m; ++i) {
        T value{};
        if (!is_zero(alpha_value)) value = mul(alpha_value, element(A, lda, transa, i, j));
        if (!is_zero(beta_value)) value = add(value, mul(beta_value, element(B, ldb, transb, i, j)));
        C[i + j * ldc] = value;
      }
  });
}

// C = A diag(x) (right) or diag(x) A (left).
template <typename T, typename I>
cublasStatus_t dgmm(cublasHandle_t handle, const char* function, cublasSideMode_t mode, I m, I n, const T* A, I lda,
                    const T* x, I incx, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (int bad =
          first_broken({{valid(mode), 1}, {m >= 0, 2}, {n >= 0, 3}, {leading_ok(lda, m), 5}, {leading_ok(ldc, m), 9}}))
    return invalid_parameter(function, bad);
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  const I length = mode == CUBLAS_SIDE_LEFT ? m : n;
  return run(handle, function,
             {matrix(A, Shape<I>{m, n}, lda), vector_range(x, length, incx, sizeof(T)), matrix(C, Shape<I>{m, n}, ldc)},
             [=] {
               const T* first = incx < 0 ? x + (length - 1) * -incx : x;
               for (I j = 0; j < n; ++j)
                 for (I i = 0; i < m; ++i)
                   C[i + j * ldc] = mul(A[i + j * lda], first[(mode == CUBLAS_SIDE_LEFT ? i : j) * incx]);
             });
}

// syrkx and herkx: one triangle of C = alpha op(A) op(B)^T (^H) + beta C, a syrk whose two
// factors differ. The full product goes to a scratch matrix, then its triangle into C.
template <bool hermitian, typename T, typename S, typename I>
cublasStatus_t syrkx(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, cublasOperation_t trans, I n,
                     I k, const T* alpha, const T* A, I lda, const T* B, I ldb, const S* beta, T* C, I ldc) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const Shape<I> a = operand(trans, n, k);
  if (int bad = first_broken({{valid(uplo), 1},
                              {valid(trans), 2},
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
  return run(
      handle, function,
      {s_alpha.range(), s_beta.range(), matrix(A, a, lda), matrix(B, a, ldb), matrix(C, Shape<I>{n, n}, ldc)}, [=] {
        std::vector<T> product(static_cast<size_t>(n) * n);
        const cublasOperation_t second = trans == CUBLAS_OP_N ? (hermitian ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N;
        gemm(to_cblas(trans), to_cblas(second), n, n, k, s_alpha(), A, lda, B, ldb, T{}, product.data(), n);
        const T beta_value = promote<T>(s_beta());
        for (I j = 0; j < n; ++j)
          for (I i = uplo == CUBLAS_FILL_MODE_LOWER ? j : 0; i < (uplo == CUBLAS_FILL_MODE_LOWER ? n : j + 1); ++i) {
            T& c = C[i + j * ldc];
            c = add(product[i + j * n], is_zero(beta_value) ? T{} : mul(beta_value, c));
            if constexpr (hermitian && is_complex<T>)
              if (i == j) c.y = 0;  // a Hermitian matrix's diagonal is real
          }
      });
}

// The complex symmetric (not Hermitian) level-2 routines, which BLAS has no form of:
// y = alpha A x + beta y (symv), A += alpha x x^T (syr), A += alpha (x y^T + y x^T) (syr2),
// A symmetric with one triangle stored.
template <typename T, typename I>
T symmetric_element(const T* a, I lda, cublasFillMode_t uplo, I i, I j) {
  const bool stored = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
  return stored ? a[i + j * lda] : a[j + i * lda];
}

template <typename T, typename I>
const T& at(const T* x, I n, I increment, I i) {
  return x[increment >= 0 ? i * increment : (n - 1 - i) * -increment];
}

template <typename T, typename I>
cublasStatus_t complex_symv(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, I n, const T* alpha,
                            const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid(uplo) || n < 0 || !leading_ok(lda, n) || incx == 0 || incy == 0 || !alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function,
             {s_alpha.range(), s_beta.range(), matrix(A, Shape<I>{n, n}, lda), vector_range(x, n, incx, sizeof(T)),
              vector_range(y, n, incy, sizeof(T))},
             [=] {
               const T alpha_value = s_alpha(), beta_value = s_beta();
               std::vector<T> result(static_cast<size_t>(n));
               for (I i = 0; i < n; ++i) {
                 T sum{};
                 for (I j = 0; j < n; ++j)
                   sum = add(sum, mul(symmetric_element(A, lda, uplo, i, j), at(x, n, incx, j)));
                 result[i] = add(mul(alpha_value, sum), is_zero(beta_value) ? T{} : mul(beta_value, at(y, n, incy, i)));
               }
               for (I i = 0; i < n; ++i) y[incy >= 0 ? i * incy : (n - 1 - i) * -incy] = result[i];
             });
}

template <typename T, typename I>
cublasStatus_t complex_syr(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, I n, const T* alpha,
                           const T* x, I incx, const T* y, I incy, T* A, I lda) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid(uplo) || n < 0 || incx == 0 || (y && incy == 0) || !leading_ok(lda, n) || !alpha)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  Scalar<T> s_alpha(handle, alpha);
  return run(handle, function,
             {s_alpha.range(), vector_range(x, n, incx, sizeof(T)), vector_range(y, y ? n : 0, incy, sizeof(T)),
              matrix(A, Shape<I>{n, n}, lda)},
             [=] {
               const T alpha_value = s_alpha();
               for (I j = 0; j < n; ++j)
                 for (I i = uplo == CUBLAS_FILL_MODE_LOWER ? j : 0; i < (uplo == CUBLAS_FILL_MODE_LOWER ? n : j + 1);
                      ++i) {
                   T update = mul(at(x, n, incx, i), y ? at(y, n, incy, j) : at(x, n, incx, j));
                   if (y) update = add(update, mul(at(y, n, incy, i), at(x, n, incx, j)));
                   A[i + j * lda] = add(A[i + j * lda], mul(alpha_value, update));
                 }
             });
}

// Triangular storage conversions: packed (column by column, one triangle) to full and back.
template <bool to_full, typename T, typename I>
cublasStatus_t packed_conversion(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, I n, const T* from,
                                 T* to, I lda) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid(uplo) || n < 0 || !leading_ok(lda, n)) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  const DeviceRange packed{to_full ? from : to, static_cast<size_t>(n) * (n + 1) / 2 * sizeof(T)};
  const DeviceRange full = matrix(to_full ? to : from, Shape<I>{n, n}, lda);
  return run(handle, function, {packed, full}, [=] {
    size_t p = 0;
    for (I j = 0; j < n; ++j)
      for (I i = uplo == CUBLAS_FILL_MODE_LOWER ? j : 0; i < (uplo == CUBLAS_FILL_MODE_LOWER ? n : j + 1); ++i, ++p) {
        if constexpr (to_full)
          to[i + j * lda] = from[p];
        else
          to[p] = from[i + j * lda];
      }
  });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

#define CUCPU_EXTENSIONS(X, T, I, suffix)                                                                             \
  cublasStatus_t CUBLASWINAPI cublas##X##geam##suffix(cublasHandle_t handle, cublasOperation_t transa,                \
                                                      cublasOperation_t transb, I m, I n, const T* alpha, const T* A, \
                                                      I lda, const T* beta, const T* B, I ldb, T* C, I ldc) {         \
    return geam(handle, __func__, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);                         \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##dgmm##suffix(cublasHandle_t handle, cublasSideMode_t mode, I m, I n,         \
                                                      const T* A, I lda, const T* x, I incx, T* C, I ldc) {           \
    return dgmm(handle, __func__, mode, m, n, A, lda, x, incx, C, ldc);                                               \
  }

#define CUCPU_SYRKX(X, T, I, suffix, name, hermitian, S)                                                             \
  cublasStatus_t CUBLASWINAPI cublas##X##name##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                  \
                                                      cublasOperation_t trans, I n, I k, const T* alpha, const T* A, \
                                                      I lda, const T* B, I ldb, const S* beta, T* C, I ldc) {        \
    return syrkx<hermitian>(handle, __func__, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);               \
  }

#define CUCPU_PACKED(X, T)                                                                                             \
  cublasStatus_t CUBLASWINAPI cublas##X##tpttr(cublasHandle_t handle, cublasFillMode_t uplo, int n, const T* AP, T* A, \
                                               int lda) {                                                              \
    return packed_conversion<true>(handle, __func__, uplo, n, AP, A, lda);                                             \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##trttp(cublasHandle_t handle, cublasFillMode_t uplo, int n, const T* A,        \
                                               int lda, T* AP) {                                                       \
    return packed_conversion<false>(handle, __func__, uplo, n, A, AP, lda);                                            \
  }

#define CUCPU_COMPLEX_SYMMETRIC(X, T, I, suffix)                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##symv##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,            \
                                                      const T* alpha, const T* A, I lda, const T* x, I incx,        \
                                                      const T* beta, T* y, I incy) {                                \
    return complex_symv(handle, __func__, uplo, n, alpha, A, lda, x, incx, beta, y, incy);                          \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##syr##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,             \
                                                     const T* alpha, const T* x, I incx, T* A, I lda) {             \
    return complex_syr(handle, __func__, uplo, n, alpha, x, incx, static_cast<const T*>(nullptr), I{1}, A, lda);    \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##syr2##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,            \
                                                      const T* alpha, const T* x, I incx, const T* y, I incy, T* A, \
                                                      I lda) {                                                      \
    return complex_syr(handle, __func__, uplo, n, alpha, x, incx, y, incy, A, lda);                                 \
  }

extern "C" {
CUCPU_COMPLEX_SYMMETRIC(C, cuComplex, int, _v2)
CUCPU_COMPLEX_SYMMETRIC(Z, cuDoubleComplex, int, _v2)
CUCPU_COMPLEX_SYMMETRIC(C, cuComplex, int64_t, _v2_64)
CUCPU_COMPLEX_SYMMETRIC(Z, cuDoubleComplex, int64_t, _v2_64)
CUCPU_SYRKX(S, float, int, , syrkx, false, float)
CUCPU_SYRKX(D, double, int, , syrkx, false, double)
CUCPU_SYRKX(C, cuComplex, int, , syrkx, false, cuComplex)
CUCPU_SYRKX(Z, cuDoubleComplex, int, , syrkx, false, cuDoubleComplex)
CUCPU_SYRKX(C, cuComplex, int, , herkx, true, float)
CUCPU_SYRKX(Z, cuDoubleComplex, int, , herkx, true, double)
CUCPU_SYRKX(S, float, int64_t, _64, syrkx, false, float)
CUCPU_SYRKX(D, double, int64_t, _64, syrkx, false, double)
CUCPU_SYRKX(C, cuComplex, int64_t, _64, syrkx, false, cuComplex)
CUCPU_SYRKX(Z, cuDoubleComplex, int64_t, _64, syrkx, false, cuDoubleComplex)
CUCPU_SYRKX(C, cuComplex, int64_t, _64, herkx, true, float)
CUCPU_SYRKX(Z, cuDoubleComplex, int64_t, _64, herkx, true, double)
CUCPU_PACKED(S, float)
CUCPU_PACKED(D, double)
CUCPU_PACKED(C, cuComplex)
CUCPU_PACKED(Z, cuDoubleComplex)
CUCPU_EXTENSIONS(S, float, int, )
CUCPU_EXTENSIONS(D, double, int, )
CUCPU_EXTENSIONS(C, cuComplex, int, )
CUCPU_EXTENSIONS(Z, cuDoubleComplex, int, )
CUCPU_EXTENSIONS(S, float, int64_t, _64)
CUCPU_EXTENSIONS(D, double, int64_t, _64)
CUCPU_EXTENSIONS(C, cuComplex, int64_t, _64)
CUCPU_EXTENSIONS(Z, cuDoubleComplex, int64_t, _64)

cublasStatus_t CUBLASWINAPI cublasCgemm3m(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const cuComplex* alpha, const cuComplex* A, int lda,
                                          const cuComplex* B, int ldb, const cuComplex* beta, cuComplex* C, int ldc) {
  return cublasCgemm_v2(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasZgemm3m(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* A,
                                          int lda, const cuDoubleComplex* B, int ldb, const cuDoubleComplex* beta,
                                          cuDoubleComplex* C, int ldc) {
  return cublasZgemm_v2(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasCgemm3m_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                             int64_t m, int64_t n, int64_t k, const cuComplex* alpha,
                                             const cuComplex* A, int64_t lda, const cuComplex* B, int64_t ldb,
                                             const cuComplex* beta, cuComplex* C, int64_t ldc) {
  return cublasCgemm_v2_64(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasZgemm3m_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                             int64_t m, int64_t n, int64_t k, const cuDoubleComplex* alpha,
                                             const cuDoubleComplex* A, int64_t lda, const cuDoubleComplex* B,
                                             int64_t ldb, const cuDoubleComplex* beta, cuDoubleComplex* C,
                                             int64_t ldc) {
  return cublasZgemm_v2_64(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
}
