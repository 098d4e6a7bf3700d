// cuSOLVER's dense routines over LAPACK (src/libs/common/lapack_calls.h), S/D/C/Z: Cholesky
// (potrf, potrs, potri), LU (getrf, with or without pivoting, getrs), QR (geqrf, orgqr/ungqr,
// ormqr/unmqr), the SVD (gesvd) and the symmetric/Hermitian eigensolver (syevd/heevd).
// Each queues one piece of work that runs LAPACK on the matrices in place and writes LAPACK's
// info to the caller's device int, as cuSOLVER's devInfo. A bad argument is refused at the
// call with CUSOLVER_STATUS_INVALID_VALUE and -(its position) written to devInfo. LAPACK's
// workspace is allocated inside the work: the caller's (sized by the _bufferSize functions,
// which return LAPACK's workspace query) is not needed.
#include <cusolverDn.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "libs/common/lapack_calls.h"
#include "libs/cusolver/dense_lapack.h"
#include "libs/cusolver/handle.h"

namespace cucpu::cusolver {
namespace {

using namespace dense;

// The handle, the info pointer, then the arguments: returns from the entry point when one is bad.
#define CUCPU_REQUIRE(info, ...)                                                                        \
  do {                                                                                                  \
    if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;                                                \
    if (int bad_ = first_broken({__VA_ARGS__})) return invalid_parameter(handle, function, info, bad_); \
    if (!(info)) return CUSOLVER_STATUS_INVALID_VALUE;                                                  \
  } while (0)

DeviceRange info_range(int* info) { return {info, sizeof(int)}; }

template <typename T>
DeviceRange matrix(const T* a, int rows, int columns, int ld) {
  return matrix_range(a, rows, columns, ld, sizeof(T));
}

// ---- Cholesky ----

template <typename T>
cusolverStatus_t potrf(cusolverDnHandle_t handle, const char* function, cublasFillMode_t uplo, int n, T* A, int lda,
                       int* info) {
  CUCPU_REQUIRE(info, {valid(uplo), 1}, {n >= 0, 2}, {lda >= std::max(1, n), 4});
  return run(handle, function, {matrix(A, n, n, lda), info_range(info)},
             [=] { *info = libs::potrf(to_lapack(uplo), n, A, lda); });
}

template <typename T>
cusolverStatus_t potrs(cusolverDnHandle_t handle, const char* function, cublasFillMode_t uplo, int n, int nrhs,
                       const T* A, int lda, T* B, int ldb, int* info) {
  CUCPU_REQUIRE(info, {valid(uplo), 1}, {n >= 0, 2}, {nrhs >= 0, 3}, {lda >= std::max(1, n), 5},
                {ldb >= std::max(1, n), 7});
  return run(handle, function, {matrix(A, n, n, lda), matrix(B, n, nrhs, ldb), info_range(info)},
             [=] { *info = libs::potrs(to_lapack(uplo), n, nrhs, A, lda, B, ldb); });
}

template <typename T>
cusolverStatus_t potri(cusolverDnHandle_t handle, const char* function, cublasFillMode_t uplo, int n, T* A, int lda,
                       int* info) {
  CUCPU_REQUIRE(info, {valid(uplo), 1}, {n >= 0, 2}, {lda >= std::max(1, n), 4});
  return run(handle, function, {matrix(A, n, n, lda), info_range(info)},
             [=] { *info = libs::potri(to_lapack(uplo), n, A, lda); });
}

// ---- LU ----

template <typename T>
cusolverStatus_t getrf(cusolverDnHandle_t handle, const char* function, int m, int n, T* A, int lda, int* pivots,
                       int* info) {
  CUCPU_REQUIRE(info, {m >= 0, 1}, {n >= 0, 2}, {lda >= std::max(1, m), 4});
  return run(handle, function,
             {matrix(A, m, n, lda), array_range(pivots, pivots ? std::min(m, n) : 0, sizeof(int)), info_range(info)},
             [=] { *info = pivots ? libs::getrf(m, n, A, lda, pivots) : lu_without_pivoting(m, n, A, lda); });
}

template <typename T>
cusolverStatus_t getrs(cusolverDnHandle_t handle, const char* function, cublasOperation_t trans, int n, int nrhs,
                       const T* A, int lda, const int* pivots, T* B, int ldb, int* info) {
  // A bad argument leaves devInfo as it was (the H200's getrs writes nothing then).
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (first_broken(
          {{valid(trans), 1}, {n >= 0, 2}, {nrhs >= 0, 3}, {lda >= std::max(1, n), 5}, {ldb >= std::max(1, n), 8}}) ||
      !info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  return run(handle, function,
             {matrix(A, n, n, lda), array_range(pivots, pivots ? n : 0, sizeof(int)), matrix(B, n, nrhs, ldb),
              info_range(info)},
             [=] {
               std::vector<int> identity;
               if (!pivots) {  // factored without pivoting: no rows were swapped
                 identity.resize(std::max(n, 1));
                 for (int i = 0; i < n; ++i) identity[i] = i + 1;
               }
               *info = libs::getrs(to_lapack(trans), n, nrhs, A, lda, pivots ? pivots : identity.data(), B, ldb);
             });
}

// ---- QR ----

template <typename T>
cusolverStatus_t geqrf(cusolverDnHandle_t handle, const char* function, int m, int n, T* A, int lda, T* tau,
                       int* info) {
  CUCPU_REQUIRE(info, {m >= 0, 1}, {n >= 0, 2}, {lda >= std::max(1, m), 4});
  return run(handle, function, {matrix(A, m, n, lda), array_range(tau, std::min(m, n), sizeof(T)), info_range(info)},
             [=] {
               std::vector<T> work(geqrf_size(m, n, A, lda));
               *info = libs::geqrf(m, n, A, lda, tau, work.data(), static_cast<int>(work.size()));
             });
}

// Q of a QR factorization: formed (orgqr/ungqr) or applied to C (ormqr/unmqr).
template <typename T>
int form_q(int m, int n, int k, T* A, int lda, const T* tau, T* work, int work_size) {
  if constexpr (is_complex<T>)
    return libs::ungqr(m, n, k, A, lda, tau, work, work_size);
  else
    return libs::orgqr(m, n, k, A, lda, tau, work, work_size);
}

template <typename T>
int apply_q(char side, char trans, int m, int n, int k, const T* A, int lda, const T* tau, T* C, int ldc, T* work,
            int work_size) {
  if constexpr (is_complex<T>)
    return libs::unmqr(side, trans, m, n, k, A, lda, tau, C, ldc, work, work_size);
  else
    return libs::ormqr(side, trans, m, n, k, A, lda, tau, C, ldc, work, work_size);
}

template <typename T>
int orgqr_size(int m, int n, int k, T* A, int lda, const T* tau) {
  T query{};
  form_q(m, n, k, A, lda, tau, &query, -1);
  return queried_size(query);
}

template <typename T>
cusolverStatus_t orgqr(cusolverDnHandle_t handle, const char* function, int m, int n, int k, T* A, int lda,
                       const T* tau, int* info) {
  CUCPU_REQUIRE(info, {m >= 0, 1}, {n >= 0 && n <= m, 2}, {k >= 0 && k <= n, 3}, {lda >= std::max(1, m), 5});
  return run(handle, function, {matrix(A, m, n, lda), array_range(tau, k, sizeof(T)), info_range(info)}, [=] {
    std::vector<T> work(orgqr_size(m, n, k, A, lda, tau));
    *info = form_q(m, n, k, A, lda, tau, work.data(), static_cast<int>(work.size()));
  });
}

// The LAPACK letter of Q's operation: a real Q's conjugate transpose is its transpose; a
// complex Q has no plain transpose in LAPACK (0: refused).
template <typename T>
char q_operation(cublasOperation_t trans) {
  if (trans == CUBLAS_OP_N) return 'N';
  if constexpr (is_complex<T>)
    return trans == CUBLAS_OP_C ? 'C' : 0;
  else
    return 'T';
}

template <typename T>
int ormqr_size(char side, char trans, int m, int n, int k, const T* A, int lda, const T* tau, T* C, int ldc) {
  T query{};
  apply_q(side, trans, m, n, k, A, lda, tau, C, ldc, &query, -1);
  return queried_size(query);
}

template <typename T>
cusolverStatus_t ormqr(cusolverDnHandle_t handle, const char* function, cublasSideMode_t side, cublasOperation_t trans,
                       int m, int n, int k, const T* A, int lda, const T* tau, T* C, int ldc, int* info) {
  const int order = side == CUBLAS_SIDE_LEFT ? m : n;  // Q is order x order
  CUCPU_REQUIRE(info, {valid(side), 1}, {valid(trans) && q_operation<T>(trans) != 0, 2}, {m >= 0, 3}, {n >= 0, 4},
                {k >= 0 && k <= order, 5}, {lda >= std::max(1, order), 7}, {ldc >= std::max(1, m), 10});
  return run(handle, function,
             {matrix(A, order, k, lda), array_range(tau, k, sizeof(T)), matrix(C, m, n, ldc), info_range(info)}, [=] {
               const char s = to_lapack(side), t = q_operation<T>(trans);
               std::vector<T> work(ormqr_size(s, t, m, n, k, A, lda, tau, C, ldc));
               *info = apply_q(s, t, m, n, k, A, lda, tau, C, ldc, work.data(), static_cast<int>(work.size()));
             });
}

// ---- SVD ----

template <typename T>
cusolverStatus_t gesvd(cusolverDnHandle_t handle, const char* function, signed char jobu, signed char jobvt, int m,
                       int n, T* A, int lda, Real<T>* S, T* U, int ldu, T* VT, int ldvt, Real<T>* rwork, int* info) {
  const int small = std::min(m, n);
  const int u_columns = jobu == 'A' ? m : jobu == 'S' ? small : 0;
  const int vt_rows = jobvt == 'A' ? n : jobvt == 'S' ? small : 0;
  CUCPU_REQUIRE(info, {valid_job(jobu), 1}, {valid_job(jobvt) && !(jobu == 'O' && jobvt == 'O'), 2}, {m >= 0, 3},
                {n >= 0, 4}, {lda >= std::max(1, m), 6}, {ldu >= std::max(1, u_columns ? m : 1), 9},
                {ldvt >= std::max(1, vt_rows), 11});
  // cuSOLVER's gesvd takes only m >= n; refusing the others it writes devInfo 0 (the H200's).
  if (n > m) {
    (void)run(handle, function, {info_range(info)}, [info] { *info = 0; });
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return run(
      handle, function,
      {matrix(A, m, n, lda), array_range(S, small, sizeof(Real<T>)), matrix(U, m, u_columns, ldu),
       matrix(VT, vt_rows, n, ldvt), array_range(rwork, rwork ? small - 1 : 0, sizeof(Real<T>)), info_range(info)},
      [=] {
        std::vector<T> work(gesvd_size<T>(jobu, jobvt, m, n, lda, ldu, ldvt));
        std::vector<Real<T>> lapack_rwork(is_complex<T> ? std::max(1, 5 * small) : 1);
        *info = svd<T>(jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, work.data(), static_cast<int>(work.size()),
                       lapack_rwork.data());
        // The superdiagonal of the bidiagonal form that did not converge, as cuSOLVER's rwork holds it.
        if (rwork)
          for (int i = 0; i + 1 < small; ++i) {
            if constexpr (is_complex<T>)
              rwork[i] = lapack_rwork[i];
            else
              rwork[i] = work[i + 1];
          }
      });
}

// ---- symmetric / Hermitian eigenvalues ----

template <typename T>
cusolverStatus_t syevd(cusolverDnHandle_t handle, const char* function, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                       int n, T* A, int lda, Real<T>* W, int* info) {
  CUCPU_REQUIRE(info, {valid(jobz), 1}, {valid(uplo), 2}, {n >= 0, 3}, {lda >= std::max(1, n), 5});
  return run(handle, function, {matrix(A, n, n, lda), array_range(W, n, sizeof(Real<T>)), info_range(info)}, [=] {
    int work_size;
    *info = eigen(jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N', to_lapack(uplo), n, A, lda, W, false, &work_size);
  });
}

// The buffer-size functions: the H200's answer CUSOLVER_STATUS_SUCCESS to arguments their
// routine refuses (a negative n, a small lda), so they answer a one-element workspace then.
#define CUCPU_REQUIRE_SIZE(lwork, ...)                   \
  do {                                                   \
    if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED; \
    if (!(lwork)) return CUSOLVER_STATUS_INVALID_VALUE;  \
    if (first_broken({__VA_ARGS__})) {                   \
      *(lwork) = 1;                                      \
      return CUSOLVER_STATUS_SUCCESS;                    \
    }                                                    \
  } while (0)

}  // namespace
}  // namespace cucpu::cusolver

using namespace cucpu::cusolver;

// The entry points of one element type: X is S, D, C or Z.
#define CUCPU_DENSE_ENTRY_POINTS(X, T)                                                                                 \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##potrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo,       \
                                                               int n, T*, int lda, int* Lwork) {                       \
    CUCPU_REQUIRE_SIZE(Lwork, {valid(uplo), 1}, {n >= 0, 2}, {lda >= std::max(1, n), 4});                              \
    *Lwork = 1; /* LAPACK's potrf needs no workspace */                                                                \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##potrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, T* A,     \
                                                    int lda, T*, int, int* devInfo) {                                  \
    return potrf(handle, "cusolverDn" #X "potrf", uplo, n, A, lda, devInfo);                                           \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##potrs(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int nrhs, \
                                                    const T* A, int lda, T* B, int ldb, int* devInfo) {                \
    return potrs(handle, "cusolverDn" #X "potrs", uplo, n, nrhs, A, lda, B, ldb, devInfo);                             \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##potri_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo,       \
                                                               int n, T*, int lda, int* Lwork) {                       \
    CUCPU_REQUIRE_SIZE(Lwork, {valid(uplo), 1}, {n >= 0, 2}, {lda >= std::max(1, n), 4});                              \
    *Lwork = 1; /* LAPACK's potri needs no workspace */                                                                \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##potri(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, T* A,     \
                                                    int lda, T*, int, int* devInfo) {                                  \
    return potri(handle, "cusolverDn" #X "potri", uplo, n, A, lda, devInfo);                                           \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##getrf_bufferSize(cusolverDnHandle_t handle, int m, int n, T*, int lda,   \
                                                               int* Lwork) {                                           \
    CUCPU_REQUIRE_SIZE(Lwork, {m >= 0, 1}, {n >= 0, 2}, {lda >= std::max(1, m), 4});                                   \
    *Lwork = 1; /* LAPACK's getrf needs no workspace */                                                                \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##getrf(cusolverDnHandle_t handle, int m, int n, T* A, int lda, T*,        \
                                                    int* devIpiv, int* devInfo) {                                      \
    return getrf(handle, "cusolverDn" #X "getrf", m, n, A, lda, devIpiv, devInfo);                                     \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##getrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n,         \
                                                    int nrhs, const T* A, int lda, const int* devIpiv, T* B, int ldb,  \
                                                    int* devInfo) {                                                    \
    return getrs(handle, "cusolverDn" #X "getrs", trans, n, nrhs, A, lda, devIpiv, B, ldb, devInfo);                   \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##geqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, T* A, int lda, \
                                                               int* lwork) {                                           \
    CUCPU_REQUIRE_SIZE(lwork, {m >= 0, 1}, {n >= 0, 2}, {lda >= std::max(1, m), 4});                                   \
    *lwork = geqrf_size(m, n, A, lda);                                                                                 \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##geqrf(cusolverDnHandle_t handle, int m, int n, T* A, int lda, T* TAU,    \
                                                    T*, int, int* devInfo) {                                           \
    return geqrf(handle, "cusolverDn" #X "geqrf", m, n, A, lda, TAU, devInfo);                                         \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##gesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int* lwork) {  \
    CUCPU_REQUIRE_SIZE(lwork, {m >= 0, 1}, {n >= 0 && n <= m, 2});                                                     \
    *lwork = gesvd_size<T>('A', 'A', m, n, std::max(1, m), std::max(1, m), std::max(1, n));                            \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##gesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt,    \
                                                    int m, int n, T* A, int lda, Real<T>* S, T* U, int ldu, T* VT,     \
                                                    int ldvt, T*, int, Real<T>* rwork, int* info) {                    \
    return gesvd(handle, "cusolverDn" #X "gesvd", jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, rwork, info);        \
  }

// The routines named differently for real and complex types (orgqr/ungqr, ormqr/unmqr, syevd/heevd).
#define CUCPU_Q_AND_EIGEN_ENTRY_POINTS(X, T, ORGQR, ORMQR, SYEVD)                                                      \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##ORGQR##_bufferSize(cusolverDnHandle_t handle, int m, int n, int k,       \
                                                                 const T* A, int lda, const T* tau, int* lwork) {      \
    CUCPU_REQUIRE_SIZE(lwork, {m >= 0, 1}, {n >= 0 && n <= m, 2}, {k >= 0 && k <= n, 3}, {lda >= std::max(1, m), 5});  \
    *lwork = orgqr_size(m, n, k, const_cast<T*>(A), lda, tau);                                                         \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##ORGQR(cusolverDnHandle_t handle, int m, int n, int k, T* A, int lda,     \
                                                    const T* tau, T*, int, int* info) {                                \
    return orgqr(handle, "cusolverDn" #X #ORGQR, m, n, k, A, lda, tau, info);                                          \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##ORMQR##_bufferSize(                                                      \
      cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans, int m, int n, int k, const T* A,      \
      int lda, const T* tau, const T* C, int ldc, int* lwork) {                                                        \
    const int order = side == CUBLAS_SIDE_LEFT ? m : n;                                                                \
    CUCPU_REQUIRE_SIZE(lwork, {valid(side), 1}, {valid(trans) && q_operation<T>(trans) != 0, 2}, {m >= 0, 3},          \
                       {n >= 0, 4}, {k >= 0 && k <= order, 5}, {lda >= std::max(1, order), 7},                         \
                       {ldc >= std::max(1, m), 10});                                                                   \
    *lwork = ormqr_size(to_lapack(side), q_operation<T>(trans), m, n, k, A, lda, tau, const_cast<T*>(C), ldc);         \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##ORMQR(cusolverDnHandle_t handle, cublasSideMode_t side,                  \
                                                    cublasOperation_t trans, int m, int n, int k, const T* A, int lda, \
                                                    const T* tau, T* C, int ldc, T*, int, int* devInfo) {              \
    return ormqr(handle, "cusolverDn" #X #ORMQR, side, trans, m, n, k, A, lda, tau, C, ldc, devInfo);                  \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##SYEVD##_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz,    \
                                                                 cublasFillMode_t uplo, int n, const T* A, int lda,    \
                                                                 const Real<T>* W, int* lwork) {                       \
    CUCPU_REQUIRE_SIZE(lwork, {valid(jobz), 1}, {valid(uplo), 2}, {n >= 0, 3}, {lda >= std::max(1, n), 5});            \
    eigen(jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N', to_lapack(uplo), n, const_cast<T*>(A), lda,                    \
          const_cast<Real<T>*>(W), true, lwork);                                                                       \
    return CUSOLVER_STATUS_SUCCESS;                                                                                    \
  }                                                                                                                    \
  cusolverStatus_t CUSOLVERAPI cusolverDn##X##SYEVD(cusolverDnHandle_t handle, cusolverEigMode_t jobz,                 \
                                                    cublasFillMode_t uplo, int n, T* A, int lda, Real<T>* W, T*, int,  \
                                                    int* info) {                                                       \
    return syevd(handle, "cusolverDn" #X #SYEVD, jobz, uplo, n, A, lda, W, info);                                      \
  }

extern "C" {
CUCPU_DENSE_ENTRY_POINTS(S, float)
CUCPU_DENSE_ENTRY_POINTS(D, double)
CUCPU_DENSE_ENTRY_POINTS(C, cuComplex)
CUCPU_DENSE_ENTRY_POINTS(Z, cuDoubleComplex)
CUCPU_Q_AND_EIGEN_ENTRY_POINTS(S, float, orgqr, ormqr, syevd)
CUCPU_Q_AND_EIGEN_ENTRY_POINTS(D, double, orgqr, ormqr, syevd)
CUCPU_Q_AND_EIGEN_ENTRY_POINTS(C, cuComplex, ungqr, unmqr, heevd)
CUCPU_Q_AND_EIGEN_ENTRY_POINTS(Z, cuDoubleComplex, ungqr, unmqr, heevd)
}  // extern "C"
