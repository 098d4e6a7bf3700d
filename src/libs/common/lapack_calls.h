// LAPACK (OpenBLAS's, Fortran interface) called by element type: float, double, cuComplex,
// cuDoubleComplex, for the factorizations cuBLAS's batched helpers and cuSOLVER share.
#pragma once

#include <cuComplex.h>

#define lapack_complex_float cuComplex
#define lapack_complex_double cuDoubleComplex
#include <lapack.h>

namespace cucpu::libs {

#define CUCPU_LAPACK(T, P)                                                                                    \
  inline int getrf(int m, int n, T* a, int lda, int* pivots) {                                                \
    int info = 0;                                                                                             \
    LAPACK_##P##getrf(&m, &n, a, &lda, pivots, &info);                                                        \
    return info;                                                                                              \
  }                                                                                                           \
  inline int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* pivots, T* b, int ldb) {      \
    int info = 0;                                                                                             \
    LAPACK_##P##getrs(&trans, &n, &nrhs, a, &lda, pivots, b, &ldb, &info);                                    \
    return info;                                                                                              \
  }                                                                                                           \
  /* work holds at least n values */                                                                          \
  inline int getri(int n, T* a, int lda, const int* pivots, T* work, int work_size) {                         \
    int info = 0;                                                                                             \
    LAPACK_##P##getri(&n, a, &lda, pivots, work, &work_size, &info);                                          \
    return info;                                                                                              \
  }                                                                                                           \
  /* work holds at least n values */                                                                          \
  inline int geqrf(int m, int n, T* a, int lda, T* tau, T* work, int work_size) {                             \
    int info = 0;                                                                                             \
    LAPACK_##P##geqrf(&m, &n, a, &lda, tau, work, &work_size, &info);                                         \
    return info;                                                                                              \
  }                                                                                                           \
  /* least squares by QR (LQ for trans); work holds at least n + nrhs values */                               \
  inline int gels(char trans, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* work, int work_size) { \
    int info = 0;                                                                                             \
    LAPACK_##P##gels(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &work_size, &info);                       \
    return info;                                                                                              \
  }

CUCPU_LAPACK(float, s)
CUCPU_LAPACK(double, d)
CUCPU_LAPACK(cuComplex, c)
CUCPU_LAPACK(cuDoubleComplex, z)
#undef CUCPU_LAPACK

// cuSOLVER's dense routines: Cholesky, the products with Q of a QR factorization, the SVD and
// the symmetric/Hermitian eigensolver. A call with work_size (lwork) -1 is LAPACK's workspace
// query: the sizes it needs come back in work[0] (and rwork[0], iwork[0]).
#define CUCPU_LAPACK_DENSE(T, P)                                                     \
  inline int potrf(char uplo, int n, T* a, int lda) {                                \
    int info = 0;                                                                    \
    LAPACK_##P##potrf(&uplo, &n, a, &lda, &info);                                    \
    return info;                                                                     \
  }                                                                                  \
  inline int trtri(char uplo, char diag, int n, T* a, int lda) {                     \
    int info = 0;                                                                    \
    LAPACK_##P##trtri(&uplo, &diag, &n, a, &lda, &info);                             \
    return info;                                                                     \
  }                                                                                  \
  inline int potrs(char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb) { \
    int info = 0;                                                                    \
    LAPACK_##P##potrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, &info);                    \
    return info;                                                                     \
  }                                                                                  \
  inline int potri(char uplo, int n, T* a, int lda) {                                \
    int info = 0;                                                                    \
    LAPACK_##P##potri(&uplo, &n, a, &lda, &info);                                    \
    return info;                                                                     \
  }
CUCPU_LAPACK_DENSE(float, s)
CUCPU_LAPACK_DENSE(double, d)
CUCPU_LAPACK_DENSE(cuComplex, c)
CUCPU_LAPACK_DENSE(cuDoubleComplex, z)
#undef CUCPU_LAPACK_DENSE

// The real ones (or: orthogonal Q, sy: symmetric; trans 'N' or 'T').
#define CUCPU_LAPACK_REAL(T, P)                                                                                       \
  inline int ormqr(char side, char trans, int m, int n, int k, const T* a, int lda, const T* tau, T* c, int ldc,      \
                   T* work, int work_size) {                                                                          \
    int info = 0;                                                                                                     \
    LAPACK_##P##ormqr(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &work_size, &info);                     \
    return info;                                                                                                      \
  }                                                                                                                   \
  inline int orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int work_size) {                        \
    int info = 0;                                                                                                     \
    LAPACK_##P##orgqr(&m, &n, &k, a, &lda, tau, work, &work_size, &info);                                             \
    return info;                                                                                                      \
  }                                                                                                                   \
  inline int gesvd(char jobu, char jobvt, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, T* work, \
                   int work_size) {                                                                                   \
    int info = 0;                                                                                                     \
    LAPACK_##P##gesvd(&jobu, &jobvt, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &work_size, &info);                \
    return info;                                                                                                      \
  }                                                                                                                   \
  inline int syevd(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int work_size, int* iwork,              \
                   int iwork_size) {                                                                                  \
    int info = 0;                                                                                                     \
    LAPACK_##P##syevd(&jobz, &uplo, &n, a, &lda, w, work, &work_size, iwork, &iwork_size, &info);                     \
    return info;                                                                                                      \
  }
CUCPU_LAPACK_REAL(float, s)
CUCPU_LAPACK_REAL(double, d)
#undef CUCPU_LAPACK_REAL

// The complex ones (un: unitary Q, he: Hermitian; trans 'N' or 'C'); R is the real type of
// singular values and eigenvalues.
#define CUCPU_LAPACK_COMPLEX(T, R, P)                                                                                  \
  inline int unmqr(char side, char trans, int m, int n, int k, const T* a, int lda, const T* tau, T* c, int ldc,       \
                   T* work, int work_size) {                                                                           \
    int info = 0;                                                                                                      \
    LAPACK_##P##unmqr(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &work_size, &info);                      \
    return info;                                                                                                       \
  }                                                                                                                    \
  inline int ungqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int work_size) {                         \
    int info = 0;                                                                                                      \
    LAPACK_##P##ungqr(&m, &n, &k, a, &lda, tau, work, &work_size, &info);                                              \
    return info;                                                                                                       \
  }                                                                                                                    \
  /* rwork holds at least 5 min(m, n) values */                                                                        \
  inline int gesvd(char jobu, char jobvt, int m, int n, T* a, int lda, R* s, T* u, int ldu, T* vt, int ldvt, T* work,  \
                   int work_size, R* rwork) {                                                                          \
    int info = 0;                                                                                                      \
    LAPACK_##P##gesvd(&jobu, &jobvt, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &work_size, rwork, &info);          \
    return info;                                                                                                       \
  }                                                                                                                    \
  inline int heevd(char jobz, char uplo, int n, T* a, int lda, R* w, T* work, int work_size, R* rwork, int rwork_size, \
                   int* iwork, int iwork_size) {                                                                       \
    int info = 0;                                                                                                      \
    LAPACK_##P##heevd(&jobz, &uplo, &n, a, &lda, w, work, &work_size, rwork, &rwork_size, iwork, &iwork_size, &info);  \
    return info;                                                                                                       \
  }
CUCPU_LAPACK_COMPLEX(cuComplex, float, c)
CUCPU_LAPACK_COMPLEX(cuDoubleComplex, double, z)
#undef CUCPU_LAPACK_COMPLEX

}  // namespace cucpu::libs
