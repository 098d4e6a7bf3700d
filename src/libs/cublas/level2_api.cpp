// cuBLAS level 2: matrix-vector operations, S/D/C/Z, 32- and 64-bit sizes: general, banded,
// triangular (full, banded, packed), symmetric/Hermitian (full, banded, packed) and rank
// updates. Argument checks as cuBLAS documents them.
#include <cublas_api.h>

#include <cstdint>
#include <vector>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

template <typename T, typename I>
DeviceRange packed(const T* ap, I n) {
  return {ap, n > 0 ? static_cast<size_t>(n) * (n + 1) / 2 * sizeof(T) : 0};
}

// The handle, then each argument in parameter order (reported by position), then the
// scalars' pointers (refused quietly).
#define CUCPU_REQUIRE(scalars, ...)                                                       \
  do {                                                                                    \
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
    if (int bad_ = first_broken({__VA_ARGS__})) return invalid_parameter(function, bad_); \
    if (!(scalars)) return CUBLAS_STATUS_INVALID_VALUE;                                   \
  } while (0)

// The same, for the routines that refuse quietly (symv and its banded and packed forms
// print nothing on the H200).
#define CUCPU_REQUIRE_QUIETLY(scalars, ...)                                            \
  do {                                                                                 \
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;                                 \
    if (first_broken({__VA_ARGS__}) || !(scalars)) return CUBLAS_STATUS_INVALID_VALUE; \
  } while (0)

// A vector read with increment 0 (cuBLAS takes it: every element is x[0]) as a unit-stride
// copy, since the CPU BLAS refuses increment 0.
template <typename T, typename I>
std::vector<T> broadcast(const T* x, I n) {
  return std::vector<T>(static_cast<size_t>(n), *x);
}

// y = alpha op(A) x + beta y; A general (kl = ku = -1) or banded with kl sub- and ku superdiagonals.
template <typename T, typename I>
cublasStatus_t gemv(cublasHandle_t handle, const char* function, cublasOperation_t trans, I m, I n, I kl, I ku,
                    const T* alpha, const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {
  const bool banded = kl >= 0;
  // gemv: trans 1, m 2, n 3, lda 6; gbmv: kl 4, ku 5, lda 8. Increments are not checked.
  CUCPU_REQUIRE(alpha && beta, {valid(trans), 1}, {m >= 0, 2}, {n >= 0, 3}, {!banded || ku >= 0, 5},
                {banded ? lda >= kl + ku + 1 : leading_ok(lda, m), banded ? 8 : 6});
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const I x_length = trans == CUBLAS_OP_N ? n : m, y_length = trans == CUBLAS_OP_N ? m : n;
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function,
             {s_alpha.range(), s_beta.range(), matrix(A, Shape<I>{banded ? lda : m, n}, lda), vector(x, x_length, incx),
              vector(y, y_length, incy)},
             [=] {
               std::vector<T> x_copy = incx == 0 ? broadcast(x, x_length) : std::vector<T>();
               const T* x_read = incx == 0 ? x_copy.data() : x;
               const I x_step = incx == 0 ? 1 : incx;
               std::vector<T> y_copy = incy == 0 ? broadcast(y, y_length) : std::vector<T>();
               T* y_write = incy == 0 ? y_copy.data() : y;
               const I y_step = incy == 0 ? 1 : incy;
               if (banded)
                 gbmv(to_cblas(trans), m, n, kl, ku, s_alpha(), A, lda, x_read, x_step, s_beta(), y_write, y_step);
               else
                 cublas::gemv(to_cblas(trans), m, n, s_alpha(), A, lda, x_read, x_step, s_beta(), y_write, y_step);
               if (incy == 0) *y = y_copy.back();  // every element lands on y[0]: the last one stays
             });
}

enum class Storage { Full, Banded, Packed };

// x = op(A) x or x = op(A)^-1 x for a triangular A, full (k = 0), banded (k diagonals) or packed.
template <bool solve, Storage storage, typename T, typename I>
cublasStatus_t triangular(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, cublasOperation_t trans,
                          cublasDiagType_t diag, I n, I k, const T* A, I lda, T* x, I incx) {
  // uplo 1, trans 2, diag 3, n 4, then full: lda 6, incx 8; banded: k 5, lda 7, incx 9; packed: incx 7.
  constexpr int shift = storage == Storage::Banded ? 1 : 0;
  CUCPU_REQUIRE(
      true, {valid(uplo), 1}, {valid(trans), 2}, {valid(diag), 3}, {n >= 0, 4}, {k >= 0, 5},
      {storage == Storage::Packed || (storage == Storage::Banded ? lda >= k + 1 : leading_ok(lda, n)), 6 + shift},
      {incx != 0, storage == Storage::Packed ? 7 : 8 + shift});
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, k, lda, incx)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const DeviceRange a =
      storage == Storage::Packed ? packed(A, n) : matrix(A, Shape<I>{storage == Storage::Banded ? lda : n, n}, lda);
  return run(handle, function, {a, vector(x, n, incx)}, [=] {
    const auto u = to_cblas(uplo);
    const auto t = to_cblas(trans);
    const auto d = to_cblas(diag);
    if constexpr (storage == Storage::Full)
      solve ? trsv(u, t, d, n, A, lda, x, incx) : trmv(u, t, d, n, A, lda, x, incx);
    else if constexpr (storage == Storage::Banded)
      solve ? tbsv(u, t, d, n, k, A, lda, x, incx) : tbmv(u, t, d, n, k, A, lda, x, incx);
    else
      solve ? tpsv(u, t, d, n, A, x, incx) : tpmv(u, t, d, n, A, x, incx);
  });
}

// y = alpha A x + beta y for a symmetric (Hermitian) A: full, banded (k) or packed.
template <Storage storage, typename T, typename I>
cublasStatus_t symv(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, I n, I k, const T* alpha,
                    const T* A, I lda, const T* x, I incx, const T* beta, T* y, I incy) {
  // uplo 1, n 2, then full: lda 5, incx 7, incy 10; banded: k 3, one later; packed: incx 6, incy 9.
  constexpr int shift = storage == Storage::Banded ? 1 : storage == Storage::Packed ? -1 : 0;
  CUCPU_REQUIRE_QUIETLY(
      alpha && beta, {valid(uplo), 1}, {n >= 0, 2}, {k >= 0, 3},
      {storage == Storage::Packed || (storage == Storage::Banded ? lda >= k + 1 : leading_ok(lda, n)), 5 + shift},
      {incx != 0, 7 + shift}, {incy != 0, 10 + shift});
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, k, lda, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const DeviceRange a =
      storage == Storage::Packed ? packed(A, n) : matrix(A, Shape<I>{storage == Storage::Banded ? lda : n, n}, lda);
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  return run(handle, function, {s_alpha.range(), s_beta.range(), a, vector(x, n, incx), vector(y, n, incy)}, [=] {
    if constexpr (storage == Storage::Full)
      cublas::symv(to_cblas(uplo), n, s_alpha(), A, lda, x, incx, s_beta(), y, incy);
    else if constexpr (storage == Storage::Banded)
      sbmv(to_cblas(uplo), n, k, s_alpha(), A, lda, x, incx, s_beta(), y, incy);
    else
      spmv(to_cblas(uplo), n, s_alpha(), A, x, incx, s_beta(), y, incy);
  });
}

// A += alpha x y^T (conjugate: y^H), A m x n.
template <typename T, typename I>
cublasStatus_t ger(cublasHandle_t handle, const char* function, I m, I n, const T* alpha, const T* x, I incx,
                   const T* y, I incy, T* A, I lda, bool conjugate) {
  CUCPU_REQUIRE(alpha, {m >= 0, 1}, {n >= 0, 2}, {incx != 0, 5}, {incy != 0, 7}, {leading_ok(lda, m), 9});
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha);
  return run(handle, function,
             {s_alpha.range(), vector(x, m, incx), vector(y, n, incy), matrix(A, Shape<I>{m, n}, lda)},
             [=] { cublas::ger(m, n, s_alpha(), x, incx, y, incy, A, lda, conjugate); });
}

// A += alpha x x^T (x^H), full or packed, one triangle.
template <bool is_packed, typename T, typename S, typename I>
cublasStatus_t syr(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, I n, const S* alpha, const T* x,
                   I incx, T* A, I lda) {
  CUCPU_REQUIRE(alpha, {valid(uplo), 1}, {n >= 0, 2}, {incx != 0, 5}, {is_packed || leading_ok(lda, n), 7});
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, lda, incx)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<S> s_alpha(handle, alpha);
  const DeviceRange a = is_packed ? packed(A, n) : matrix(A, Shape<I>{n, n}, lda);
  return run(handle, function, {s_alpha.range(), vector(x, n, incx), a}, [=] {
    if constexpr (is_packed)
      spr(to_cblas(uplo), n, s_alpha(), x, incx, A);
    else
      cublas::syr(to_cblas(uplo), n, s_alpha(), x, incx, A, lda);
  });
}

// A += alpha x y^T + alpha y x^T (Hermitian: conjugates), full or packed.
template <bool is_packed, typename T, typename I>
cublasStatus_t syr2(cublasHandle_t handle, const char* function, cublasFillMode_t uplo, I n, const T* alpha, const T* x,
                    I incx, const T* y, I incy, T* A, I lda) {
  CUCPU_REQUIRE(alpha, {valid(uplo), 1}, {n >= 0, 2}, {incx != 0, 5}, {incy != 0, 7},
                {is_packed || leading_ok(lda, n), 9});
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(n, lda, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha);
  const DeviceRange a = is_packed ? packed(A, n) : matrix(A, Shape<I>{n, n}, lda);
  return run(handle, function, {s_alpha.range(), vector(x, n, incx), vector(y, n, incy), a}, [=] {
    if constexpr (is_packed)
      spr2(to_cblas(uplo), n, s_alpha(), x, incx, y, incy, A);
    else
      cublas::syr2(to_cblas(uplo), n, s_alpha(), x, incx, y, incy, A, lda);
  });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

#define CUCPU_LEVEL2(X, T, I, suffix)                                                                                  \
  cublasStatus_t CUBLASWINAPI cublas##X##gemv##suffix(cublasHandle_t handle, cublasOperation_t trans, I m, I n,        \
                                                      const T* alpha, const T* A, I lda, const T* x, I incx,           \
                                                      const T* beta, T* y, I incy) {                                   \
    return gemv(handle, __func__, trans, m, n, I{-1}, I{-1}, alpha, A, lda, x, incx, beta, y, incy);                   \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##gbmv##suffix(cublasHandle_t handle, cublasOperation_t trans, I m, I n, I kl,  \
                                                      I ku, const T* alpha, const T* A, I lda, const T* x, I incx,     \
                                                      const T* beta, T* y, I incy) {                                   \
    if (kl < 0) return handle ? invalid_parameter(__func__, 4) : CUBLAS_STATUS_NOT_INITIALIZED;                        \
    return gemv(handle, __func__, trans, m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy);                         \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##trmv##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                    \
                                                      cublasOperation_t trans, cublasDiagType_t diag, I n, const T* A, \
                                                      I lda, T* x, I incx) {                                           \
    return triangular<false, Storage::Full>(handle, __func__, uplo, trans, diag, n, I{0}, A, lda, x, incx);            \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##trsv##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                    \
                                                      cublasOperation_t trans, cublasDiagType_t diag, I n, const T* A, \
                                                      I lda, T* x, I incx) {                                           \
    return triangular<true, Storage::Full>(handle, __func__, uplo, trans, diag, n, I{0}, A, lda, x, incx);             \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##tbmv##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                    \
                                                      cublasOperation_t trans, cublasDiagType_t diag, I n, I k,        \
                                                      const T* A, I lda, T* x, I incx) {                               \
    return triangular<false, Storage::Banded>(handle, __func__, uplo, trans, diag, n, k, A, lda, x, incx);             \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##tbsv##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                    \
                                                      cublasOperation_t trans, cublasDiagType_t diag, I n, I k,        \
                                                      const T* A, I lda, T* x, I incx) {                               \
    return triangular<true, Storage::Banded>(handle, __func__, uplo, trans, diag, n, k, A, lda, x, incx);              \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##tpmv##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                    \
                                                      cublasOperation_t trans, cublasDiagType_t diag, I n,             \
                                                      const T* AP, T* x, I incx) {                                     \
    return triangular<false, Storage::Packed>(handle, __func__, uplo, trans, diag, n, I{0}, AP, I{1}, x, incx);        \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##tpsv##suffix(cublasHandle_t handle, cublasFillMode_t uplo,                    \
                                                      cublasOperation_t trans, cublasDiagType_t diag, I n,             \
                                                      const T* AP, T* x, I incx) {                                     \
    return triangular<true, Storage::Packed>(handle, __func__, uplo, trans, diag, n, I{0}, AP, I{1}, x, incx);         \
  }

// The symmetric routines of a real type (sy, sb, sp) or the Hermitian ones of a complex type
// (he, hb, hp), and its rank-1 update (ger; geru and gerc).
#define CUCPU_LEVEL2_SYMMETRIC(X, T, R, I, suffix, sy, sb, sp)                                                        \
  cublasStatus_t CUBLASWINAPI cublas##X##sy##mv##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,            \
                                                        const T* alpha, const T* A, I lda, const T* x, I incx,        \
                                                        const T* beta, T* y, I incy) {                                \
    return symv<Storage::Full>(handle, __func__, uplo, n, I{0}, alpha, A, lda, x, incx, beta, y, incy);               \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##sb##mv##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n, I k,       \
                                                        const T* alpha, const T* A, I lda, const T* x, I incx,        \
                                                        const T* beta, T* y, I incy) {                                \
    return symv<Storage::Banded>(handle, __func__, uplo, n, k, alpha, A, lda, x, incx, beta, y, incy);                \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##sp##mv##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,            \
                                                        const T* alpha, const T* AP, const T* x, I incx,              \
                                                        const T* beta, T* y, I incy) {                                \
    return symv<Storage::Packed>(handle, __func__, uplo, n, I{0}, alpha, AP, I{1}, x, incx, beta, y, incy);           \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##sy##r##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,             \
                                                       const R* alpha, const T* x, I incx, T* A, I lda) {             \
    return syr<false>(handle, __func__, uplo, n, alpha, x, incx, A, lda);                                             \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##sp##r##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,             \
                                                       const R* alpha, const T* x, I incx, T* AP) {                   \
    return syr<true>(handle, __func__, uplo, n, alpha, x, incx, AP, I{1});                                            \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##sy##r2##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,            \
                                                        const T* alpha, const T* x, I incx, const T* y, I incy, T* A, \
                                                        I lda) {                                                      \
    return syr2<false>(handle, __func__, uplo, n, alpha, x, incx, y, incy, A, lda);                                   \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublas##X##sp##r2##suffix(cublasHandle_t handle, cublasFillMode_t uplo, I n,            \
                                                        const T* alpha, const T* x, I incx, const T* y, I incy,       \
                                                        T* AP) {                                                      \
    return syr2<true>(handle, __func__, uplo, n, alpha, x, incx, y, incy, AP, I{1});                                  \
  }

#define CUCPU_LEVEL2_GER_REAL(X, T, I, suffix)                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##ger##suffix(cublasHandle_t handle, I m, I n, const T* alpha, const T* x, \
                                                     I incx, const T* y, I incy, T* A, I lda) {                   \
    return ger(handle, __func__, m, n, alpha, x, incx, y, incy, A, lda, false);                                   \
  }
#define CUCPU_LEVEL2_GER_COMPLEX(X, T, I, suffix)                                                                  \
  cublasStatus_t CUBLASWINAPI cublas##X##geru##suffix(cublasHandle_t handle, I m, I n, const T* alpha, const T* x, \
                                                      I incx, const T* y, I incy, T* A, I lda) {                   \
    return ger(handle, __func__, m, n, alpha, x, incx, y, incy, A, lda, false);                                    \
  }                                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##X##gerc##suffix(cublasHandle_t handle, I m, I n, const T* alpha, const T* x, \
                                                      I incx, const T* y, I incy, T* A, I lda) {                   \
    return ger(handle, __func__, m, n, alpha, x, incx, y, incy, A, lda, true);                                     \
  }

#define CUCPU_LEVEL2_ALL(I, suffix)                                         \
  CUCPU_LEVEL2(S, float, I, suffix)                                         \
  CUCPU_LEVEL2(D, double, I, suffix)                                        \
  CUCPU_LEVEL2(C, cuComplex, I, suffix)                                     \
  CUCPU_LEVEL2(Z, cuDoubleComplex, I, suffix)                               \
  CUCPU_LEVEL2_SYMMETRIC(S, float, float, I, suffix, sy, sb, sp)            \
  CUCPU_LEVEL2_SYMMETRIC(D, double, double, I, suffix, sy, sb, sp)          \
  CUCPU_LEVEL2_SYMMETRIC(C, cuComplex, float, I, suffix, he, hb, hp)        \
  CUCPU_LEVEL2_SYMMETRIC(Z, cuDoubleComplex, double, I, suffix, he, hb, hp) \
  CUCPU_LEVEL2_GER_REAL(S, float, I, suffix)                                \
  CUCPU_LEVEL2_GER_REAL(D, double, I, suffix)                               \
  CUCPU_LEVEL2_GER_COMPLEX(C, cuComplex, I, suffix)                         \
  CUCPU_LEVEL2_GER_COMPLEX(Z, cuDoubleComplex, I, suffix)

extern "C" {
CUCPU_LEVEL2_ALL(int, _v2)
CUCPU_LEVEL2_ALL(int64_t, _v2_64)
}
