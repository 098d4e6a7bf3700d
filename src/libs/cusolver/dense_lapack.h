// The LAPACK calls behind cuSOLVER's dense routines that both of its APIs use (dense_api.cpp,
// the 32-bit one; dense_x_api.cpp, the 64-bit cusolverDnX one): element types, workspace
// queries, LU without pivoting, the SVD and the symmetric/Hermitian eigensolver.
#pragma once

#include <cusolverDn.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "libs/common/lapack_calls.h"
#include "libs/cusolver/element_types.h"

namespace cucpu::cusolver::dense {

// The size a LAPACK workspace query returned in work[0] (a real number, or a complex one's real part).
template <typename T>
int queried_size(const T& value) {
  if constexpr (is_complex<T>)
    return std::max(1, static_cast<int>(value.x));
  else
    return std::max(1, static_cast<int>(value));
}

inline bool valid(cublasFillMode_t uplo) { return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER; }
inline bool valid(cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }
inline bool valid(cublasSideMode_t side) { return side == CUBLAS_SIDE_LEFT || side == CUBLAS_SIDE_RIGHT; }
inline char to_lapack(cublasFillMode_t uplo) { return uplo == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U'; }
inline char to_lapack(cublasOperation_t op) { return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : 'C'; }
inline char to_lapack(cublasSideMode_t side) { return side == CUBLAS_SIDE_LEFT ? 'L' : 'R'; }

// LU without pivoting (cuSOLVER's getrf with a null devIpiv), right-looking as LAPACK's
// unblocked getf2: a zero pivot is reported in info (its first one) and its column is left
// unscaled.
template <typename T>
int lu_without_pivoting(int m, int n, T* a_raw, int lda) {
  using M = typename Element<T>::Math;
  M* a = reinterpret_cast<M*>(a_raw);
  auto at = [&](int i, int j) -> M& { return a[i + static_cast<int64_t>(j) * lda]; };
  int info = 0;
  for (int j = 0; j < std::min(m, n); ++j) {
    const M pivot = at(j, j);
    if (pivot == M{}) {
      if (info == 0) info = j + 1;
      continue;
    }
    for (int i = j + 1; i < m; ++i) at(i, j) /= pivot;
    for (int k = j + 1; k < n; ++k) {
      const M factor = at(j, k);
      if (factor == M{}) continue;
      for (int i = j + 1; i < m; ++i) at(i, k) -= at(i, j) * factor;
    }
  }
  return info;
}

template <typename T>
int geqrf_size(int m, int n, T* A, int lda) {
  T query{};
  libs::geqrf(m, n, A, lda, nullptr, &query, -1);
  return queried_size(query);
}

template <typename T>
int svd(char jobu, char jobvt, int m, int n, T* A, int lda, Real<T>* S, T* U, int ldu, T* VT, int ldvt, T* work,
        int work_size, Real<T>* rwork) {
  if constexpr (is_complex<T>)
    return libs::gesvd(jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, work, work_size, rwork);
  else
    return libs::gesvd(jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, work, work_size);
}

template <typename T>
int gesvd_size(char jobu, char jobvt, int m, int n, int lda, int ldu, int ldvt) {
  T query{};
  Real<T> none{};
  T dummy{};
  svd<T>(jobu, jobvt, m, n, &dummy, lda, &none, &dummy, ldu, &dummy, ldvt, &query, -1, &none);
  return queried_size(query);
}

inline bool valid_job(signed char job) { return job == 'A' || job == 'S' || job == 'O' || job == 'N'; }

// LAPACK's syevd/heevd with workspaces it asks for first.
template <typename T>
int eigen(char jobz, char uplo, int n, T* A, int lda, Real<T>* W, bool query_only, int* work_size) {
  T work_query{};
  Real<T> rwork_query{};
  int iwork_query = 0;
  int info;
  if constexpr (is_complex<T>)
    info = libs::heevd(jobz, uplo, n, A, lda, W, &work_query, -1, &rwork_query, -1, &iwork_query, -1);
  else
    info = libs::syevd(jobz, uplo, n, A, lda, W, &work_query, -1, &iwork_query, -1);
  *work_size = queried_size(work_query);
  if (query_only || info != 0) return info;
  std::vector<T> work(*work_size);
  std::vector<int> iwork(std::max(1, iwork_query));
  if constexpr (is_complex<T>) {
    std::vector<Real<T>> rwork(std::max(1, static_cast<int>(rwork_query)));
    return libs::heevd(jobz, uplo, n, A, lda, W, work.data(), *work_size, rwork.data(), static_cast<int>(rwork.size()),
                       iwork.data(), static_cast<int>(iwork.size()));
  } else {
    return libs::syevd(jobz, uplo, n, A, lda, W, work.data(), *work_size, iwork.data(), static_cast<int>(iwork.size()));
  }
}

inline bool valid(cusolverEigMode_t jobz) {
  return jobz == CUSOLVER_EIG_MODE_NOVECTOR || jobz == CUSOLVER_EIG_MODE_VECTOR;
}

}  // namespace cucpu::cusolver::dense
