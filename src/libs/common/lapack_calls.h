// LAPACK (OpenBLAS's, Fortran interface) called by element type: float, double, cuComplex,
// cuDoubleComplex, for the factorizations cuBLAS's batched helpers and cuSOLVER share.
#pragma once

#include <cuComplex.h>

#define lapack_complex_float cuComplex
#define lapack_complex_double cuDoubleComplex
#include <lapack.h>

namespace cucpu::libs {

#define CUCPU_LAPACK(T, P)                                                                                  \
  inline int getrf(int m, int n, T* a, int lda, int* pivots) {                                              \
    int info = 0;                                                                                           \
    LAPACK_##P##getrf(&m, &n, a, &lda, pivots, &info);                                                      \
    return info;                                                                                            \
  }                                                                                                         \
  inline int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* pivots, T* b, int ldb) {   \
    int info = 0;                                                                                           \
    LAPACK_##P##getrs(&trans, &n, &nrhs, a, &lda, pivots, b, &ldb, &info);                                  \
    return info;                                                                                            \
  }                                                                                                         \
  /* work holds at least n values */                                                                        \
  inline int getri(int n, T* a, int lda, const int* pivots, T* work, int work_size) {                      \
    int info = 0;                                                                                           \
    LAPACK_##P##getri(&n, a, &lda, pivots, work, &work_size, &info);                                        \
    return info;                                                                                            \
  }                                                                                                         \
  /* work holds at least n values */                                                                        \
  inline int geqrf(int m, int n, T* a, int lda, T* tau, T* work, int work_size) {                          \
    int info = 0;                                                                                           \
    LAPACK_##P##geqrf(&m, &n, a, &lda, tau, work, &work_size, &info);                                       \
    return info;                                                                                            \
  }

CUCPU_LAPACK(float, s)
CUCPU_LAPACK(double, d)
CUCPU_LAPACK(cuComplex, c)
CUCPU_LAPACK(cuDoubleComplex, z)
#undef CUCPU_LAPACK

}  // namespace cucpu::libs
