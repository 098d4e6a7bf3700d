// The CPU BLAS (OpenBLAS's CBLAS interface, column-major as cuBLAS) called by element type:
// one overload per routine for float, double, cuComplex and cuDoubleComplex, so that each
// cuBLAS entry point is one template over its type.
#pragma once

#include <cblas.h>
#include <cuComplex.h>

#include <type_traits>

namespace cucpu::cublas {

template <typename T>
constexpr bool is_complex = std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>;

// The real type of T's parts (float for cuComplex).
template <typename T>
using RealOf = std::conditional_t<std::is_same_v<T, cuComplex>, float,
                                  std::conditional_t<std::is_same_v<T, cuDoubleComplex>, double, T>>;

// CBLAS passes real scalars by value and complex ones by address.
inline float scalar_arg(const float& x) { return x; }
inline double scalar_arg(const double& x) { return x; }
inline const void* scalar_arg(const cuComplex& x) { return &x; }
inline const void* scalar_arg(const cuDoubleComplex& x) { return &x; }

constexpr CBLAS_ORDER kColumnMajor = CblasColMajor;

#define CUCPU_BLAS_LEVEL3(T, p)                                                                                       \
  inline void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, T alpha, const T* a, int lda,         \
                   const T* b, int ldb, T beta, T* c, int ldc) {                                                      \
    cblas_##p##gemm(kColumnMajor, ta, tb, m, n, k, scalar_arg(alpha), a, lda, b, ldb, scalar_arg(beta), c, ldc);      \
  }                                                                                                                   \
  inline void symm(CBLAS_SIDE side, CBLAS_UPLO uplo, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb, \
                   T beta, T* c, int ldc) {                                                                           \
    cblas_##p##symm(kColumnMajor, side, uplo, m, n, scalar_arg(alpha), a, lda, b, ldb, scalar_arg(beta), c, ldc);     \
  }                                                                                                                   \
  inline void syrk(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k, T alpha, const T* a, int lda, T beta, T* c,  \
                   int ldc) {                                                                                         \
    cblas_##p##syrk(kColumnMajor, uplo, trans, n, k, scalar_arg(alpha), a, lda, scalar_arg(beta), c, ldc);            \
  }                                                                                                                   \
  inline void syr2k(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k, T alpha, const T* a, int lda, const T* b,   \
                    int ldb, T beta, T* c, int ldc) {                                                                 \
    cblas_##p##syr2k(kColumnMajor, uplo, trans, n, k, scalar_arg(alpha), a, lda, b, ldb, scalar_arg(beta), c, ldc);   \
  }                                                                                                                   \
  inline void trmm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int m, int n, T alpha,   \
                   const T* a, int lda, T* b, int ldb) {                                                              \
    cblas_##p##trmm(kColumnMajor, side, uplo, trans, diag, m, n, scalar_arg(alpha), a, lda, b, ldb);                  \
  }                                                                                                                   \
  inline void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int m, int n, T alpha,   \
                   const T* a, int lda, T* b, int ldb) {                                                              \
    cblas_##p##trsm(kColumnMajor, side, uplo, trans, diag, m, n, scalar_arg(alpha), a, lda, b, ldb);                  \
  }

#define CUCPU_BLAS_LEVEL2(T, p)                                                                                        \
  inline void gemv(CBLAS_TRANSPOSE trans, int m, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta,    \
                   T* y, int incy) {                                                                                   \
    cblas_##p##gemv(kColumnMajor, trans, m, n, scalar_arg(alpha), a, lda, x, incx, scalar_arg(beta), y, incy);         \
  }                                                                                                                    \
  inline void gbmv(CBLAS_TRANSPOSE trans, int m, int n, int kl, int ku, T alpha, const T* a, int lda, const T* x,      \
                   int incx, T beta, T* y, int incy) {                                                                 \
    cblas_##p##gbmv(kColumnMajor, trans, m, n, kl, ku, scalar_arg(alpha), a, lda, x, incx, scalar_arg(beta), y, incy); \
  }                                                                                                                    \
  inline void trmv(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, const T* a, int lda, T* x,          \
                   int incx) {                                                                                         \
    cblas_##p##trmv(kColumnMajor, uplo, trans, diag, n, a, lda, x, incx);                                              \
  }                                                                                                                    \
  inline void trsv(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, const T* a, int lda, T* x,          \
                   int incx) {                                                                                         \
    cblas_##p##trsv(kColumnMajor, uplo, trans, diag, n, a, lda, x, incx);                                              \
  }                                                                                                                    \
  inline void tbmv(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, int k, const T* a, int lda, T* x,   \
                   int incx) {                                                                                         \
    cblas_##p##tbmv(kColumnMajor, uplo, trans, diag, n, k, a, lda, x, incx);                                           \
  }                                                                                                                    \
  inline void tbsv(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, int k, const T* a, int lda, T* x,   \
                   int incx) {                                                                                         \
    cblas_##p##tbsv(kColumnMajor, uplo, trans, diag, n, k, a, lda, x, incx);                                           \
  }                                                                                                                    \
  inline void tpmv(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, const T* ap, T* x, int incx) {      \
    cblas_##p##tpmv(kColumnMajor, uplo, trans, diag, n, ap, x, incx);                                                  \
  }                                                                                                                    \
  inline void tpsv(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n, const T* ap, T* x, int incx) {      \
    cblas_##p##tpsv(kColumnMajor, uplo, trans, diag, n, ap, x, incx);                                                  \
  }

#define CUCPU_BLAS_LEVEL1(T, p)                                                                           \
  inline void axpy(int n, T alpha, const T* x, int incx, T* y, int incy) {                                \
    cblas_##p##axpy(n, scalar_arg(alpha), x, incx, y, incy);                                              \
  }                                                                                                       \
  inline void copy(int n, const T* x, int incx, T* y, int incy) { cblas_##p##copy(n, x, incx, y, incy); } \
  inline void swap(int n, T* x, int incx, T* y, int incy) { cblas_##p##swap(n, x, incx, y, incy); }       \
  inline void scal(int n, T alpha, T* x, int incx) { cblas_##p##scal(n, scalar_arg(alpha), x, incx); }    \
  inline size_t iamax(int n, const T* x, int incx) { return cblas_i##p##amax(n, x, incx); }               \
  inline size_t iamin(int n, const T* x, int incx) { return cblas_i##p##amin(n, x, incx); }

CUCPU_BLAS_LEVEL3(float, s)
CUCPU_BLAS_LEVEL3(double, d)
CUCPU_BLAS_LEVEL3(cuComplex, c)
CUCPU_BLAS_LEVEL3(cuDoubleComplex, z)
CUCPU_BLAS_LEVEL2(float, s)
CUCPU_BLAS_LEVEL2(double, d)
CUCPU_BLAS_LEVEL2(cuComplex, c)
CUCPU_BLAS_LEVEL2(cuDoubleComplex, z)
CUCPU_BLAS_LEVEL1(float, s)
CUCPU_BLAS_LEVEL1(double, d)
CUCPU_BLAS_LEVEL1(cuComplex, c)
CUCPU_BLAS_LEVEL1(cuDoubleComplex, z)
#undef CUCPU_BLAS_LEVEL3
#undef CUCPU_BLAS_LEVEL2
#undef CUCPU_BLAS_LEVEL1

// Routines whose real and complex forms differ in name or shape.
inline float dot(int n, const float* x, int incx, const float* y, int incy, bool) {
  return cblas_sdot(n, x, incx, y, incy);
}
inline double dot(int n, const double* x, int incx, const double* y, int incy, bool) {
  return cblas_ddot(n, x, incx, y, incy);
}
inline cuComplex dot(int n, const cuComplex* x, int incx, const cuComplex* y, int incy, bool conjugate) {
  cuComplex result;
  (conjugate ? cblas_cdotc_sub : cblas_cdotu_sub)(n, x, incx, y, incy, &result);
  return result;
}
inline cuDoubleComplex dot(int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy,
                           bool conjugate) {
  cuDoubleComplex result;
  (conjugate ? cblas_zdotc_sub : cblas_zdotu_sub)(n, x, incx, y, incy, &result);
  return result;
}
inline float nrm2(int n, const float* x, int incx) { return cblas_snrm2(n, x, incx); }
inline double nrm2(int n, const double* x, int incx) { return cblas_dnrm2(n, x, incx); }
inline float nrm2(int n, const cuComplex* x, int incx) { return cblas_scnrm2(n, x, incx); }
inline double nrm2(int n, const cuDoubleComplex* x, int incx) { return cblas_dznrm2(n, x, incx); }
inline float asum(int n, const float* x, int incx) { return cblas_sasum(n, x, incx); }
inline double asum(int n, const double* x, int incx) { return cblas_dasum(n, x, incx); }
inline float asum(int n, const cuComplex* x, int incx) { return cblas_scasum(n, x, incx); }
inline double asum(int n, const cuDoubleComplex* x, int incx) { return cblas_dzasum(n, x, incx); }
// x *= a real alpha (cublasCsscal, cublasZdscal).
inline void scal(int n, float alpha, cuComplex* x, int incx) { cblas_csscal(n, alpha, x, incx); }
inline void scal(int n, double alpha, cuDoubleComplex* x, int incx) { cblas_zdscal(n, alpha, x, incx); }

// A rank-1 update, A += alpha x y^T (y^H where conjugate).
inline void ger(int m, int n, float alpha, const float* x, int incx, const float* y, int incy, float* a, int lda,
                bool) {
  cblas_sger(kColumnMajor, m, n, alpha, x, incx, y, incy, a, lda);
}
inline void ger(int m, int n, double alpha, const double* x, int incx, const double* y, int incy, double* a, int lda,
                bool) {
  cblas_dger(kColumnMajor, m, n, alpha, x, incx, y, incy, a, lda);
}
inline void ger(int m, int n, cuComplex alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* a,
                int lda, bool conjugate) {
  (conjugate ? cblas_cgerc : cblas_cgeru)(kColumnMajor, m, n, &alpha, x, incx, y, incy, a, lda);
}
inline void ger(int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y,
                int incy, cuDoubleComplex* a, int lda, bool conjugate) {
  (conjugate ? cblas_zgerc : cblas_zgeru)(kColumnMajor, m, n, &alpha, x, incx, y, incy, a, lda);
}

// The symmetric (real) and Hermitian (complex) level-2 routines under one name each: full,
// packed (sp/hp) and banded (sb/hb) storage. syr's, spr's (her's, hpr's) alpha is real.
#define CUCPU_BLAS_SYMMETRIC2(T, p, full, packed, banded)                                                           \
  inline void symv(CBLAS_UPLO uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,        \
                   int incy) {                                                                                      \
    cblas_##p##full##mv(kColumnMajor, uplo, n, scalar_arg(alpha), a, lda, x, incx, scalar_arg(beta), y, incy);      \
  }                                                                                                                 \
  inline void sbmv(CBLAS_UPLO uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y, \
                   int incy) {                                                                                      \
    cblas_##p##banded##mv(kColumnMajor, uplo, n, k, scalar_arg(alpha), a, lda, x, incx, scalar_arg(beta), y, incy); \
  }                                                                                                                 \
  inline void spmv(CBLAS_UPLO uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y, int incy) {    \
    cblas_##p##packed##mv(kColumnMajor, uplo, n, scalar_arg(alpha), ap, x, incx, scalar_arg(beta), y, incy);        \
  }                                                                                                                 \
  inline void syr(CBLAS_UPLO uplo, int n, RealOf<T> alpha, const T* x, int incx, T* a, int lda) {                   \
    cblas_##p##full##r(kColumnMajor, uplo, n, alpha, x, incx, a, lda);                                              \
  }                                                                                                                 \
  inline void spr(CBLAS_UPLO uplo, int n, RealOf<T> alpha, const T* x, int incx, T* ap) {                           \
    cblas_##p##packed##r(kColumnMajor, uplo, n, alpha, x, incx, ap);                                                \
  }                                                                                                                 \
  inline void syr2(CBLAS_UPLO uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {    \
    cblas_##p##full##r2(kColumnMajor, uplo, n, scalar_arg(alpha), x, incx, y, incy, a, lda);                        \
  }                                                                                                                 \
  inline void spr2(CBLAS_UPLO uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {            \
    cblas_##p##packed##r2(kColumnMajor, uplo, n, scalar_arg(alpha), x, incx, y, incy, ap);                          \
  }
CUCPU_BLAS_SYMMETRIC2(float, s, sy, sp, sb)
CUCPU_BLAS_SYMMETRIC2(double, d, sy, sp, sb)
CUCPU_BLAS_SYMMETRIC2(cuComplex, c, he, hp, hb)
CUCPU_BLAS_SYMMETRIC2(cuDoubleComplex, z, he, hp, hb)
#undef CUCPU_BLAS_SYMMETRIC2

// The Hermitian level-3 routines (complex only; herk's and her2k's beta is real).
#define CUCPU_BLAS_HERMITIAN(T, p)                                                                                    \
  inline void hemm(CBLAS_SIDE side, CBLAS_UPLO uplo, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb, \
                   T beta, T* c, int ldc) {                                                                           \
    cblas_##p##hemm(kColumnMajor, side, uplo, m, n, &alpha, a, lda, b, ldb, &beta, c, ldc);                           \
  }                                                                                                                   \
  inline void herk(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k, RealOf<T> alpha, const T* a, int lda,        \
                   RealOf<T> beta, T* c, int ldc) {                                                                   \
    cblas_##p##herk(kColumnMajor, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);                                    \
  }                                                                                                                   \
  inline void her2k(CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k, T alpha, const T* a, int lda, const T* b,   \
                    int ldb, RealOf<T> beta, T* c, int ldc) {                                                         \
    cblas_##p##her2k(kColumnMajor, uplo, trans, n, k, &alpha, a, lda, b, ldb, beta, c, ldc);                          \
  }
CUCPU_BLAS_HERMITIAN(cuComplex, c)
CUCPU_BLAS_HERMITIAN(cuDoubleComplex, z)
#undef CUCPU_BLAS_HERMITIAN

}  // namespace cucpu::cublas
