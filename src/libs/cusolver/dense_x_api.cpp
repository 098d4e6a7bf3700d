// cuSOLVER's 64-bit dense API (cusolverDnX*: sizes as int64_t, the element type as a
// cudaDataType, a cusolverDnParams_t of algorithm choices) over the same LAPACK calls as the
// 32-bit API (dense_lapack.h): potrf/potrs, getrf/getrs (64-bit pivots), geqrf, gesvd,
// syevd, syevdx and trtri. The data type and the compute type must be the same one of float,
// double, cuComplex and cuDoubleComplex; sizes beyond LAPACK's 32-bit ints are not supported.
// Bad arguments are numbered as in the 32-bit API (the H200's devInfo says so), the
// parameters and data types not counted. Workspaces: LAPACK allocates its own inside the
// work; the sizes asked for are LAPACK's, on the device.
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <new>
#include <vector>

#include "libs/cusolver/dense_lapack.h"
#include "libs/cusolver/handle.h"

// The algorithm choices of cusolverDnSetAdvOptions. getrf's (ALG_0 or ALG_1) changes how the
// GPU blocks the factorization, not its result: LAPACK's serves for both.
struct cusolverDnParams {
  cusolverAlgMode_t getrf = CUSOLVER_ALG_0;
};

namespace cucpu::cusolver {
namespace {

using namespace dense;

// Runs body.template operator()<T>() with T the element type both types name; other types
// are refused with info 0 (as on the H200).
template <typename Body>
cusolverStatus_t with_element_type(cusolverDnHandle_t handle, const char* function, int* info, cudaDataType data,
                                   cudaDataType compute, Body&& body) {
  if (data == compute) switch (data) {
      case CUDA_R_32F:
        return body.template operator()<float>();
      case CUDA_R_64F:
        return body.template operator()<double>();
      case CUDA_C_32F:
        return body.template operator()<cuComplex>();
      case CUDA_C_64F:
        return body.template operator()<cuDoubleComplex>();
      default:
        break;
    }
  return invalid_parameter(handle, function, info, 0);
}

template <typename T>
T one() {
  if constexpr (is_complex<T>)
    return T{1, 0};
  else
    return T{1};
}

// Whether every size fits LAPACK's int.
bool fits(std::initializer_list<int64_t> sizes) {
  return std::all_of(sizes.begin(), sizes.end(), [](int64_t v) { return v <= INT_MAX; });
}

template <typename T>
DeviceRange matrix(const void* a, int64_t rows, int64_t columns, int64_t ld) {
  return matrix_range(a, static_cast<int>(rows), static_cast<int>(columns), static_cast<int>(ld), sizeof(T));
}
DeviceRange info_range(int* info) { return {info, sizeof(int)}; }

// A bad argument at `position` (0: none): the status, and -position in devInfo as the 32-bit
// API writes it.
cusolverStatus_t refuse(cusolverDnHandle_t handle, const char* function, int* info, int position) {
  return invalid_parameter(handle, function, info, position);
}

// The buffer-size queries: LAPACK's workspace in bytes on the device, none on the host.
// Like the 32-bit ones on the H200 they answer SUCCESS to arguments the routine refuses.
cusolverStatus_t workspace(cusolverDnHandle_t handle, size_t* device_bytes, size_t* host_bytes, size_t bytes) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!device_bytes || !host_bytes) return CUSOLVER_STATUS_INVALID_VALUE;
  *device_bytes = bytes;
  *host_bytes = 0;
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusolver

using namespace cucpu::cusolver;
using namespace cucpu::cusolver::dense;

extern "C" {

cusolverStatus_t CUSOLVERAPI cusolverDnCreateParams(cusolverDnParams_t* params) {
  if (!params) return CUSOLVER_STATUS_INVALID_VALUE;
  *params = new (std::nothrow) cusolverDnParams;
  return *params ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

cusolverStatus_t CUSOLVERAPI cusolverDnDestroyParams(cusolverDnParams_t params) {
  if (!params) return CUSOLVER_STATUS_INVALID_VALUE;
  delete params;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverDnSetAdvOptions(cusolverDnParams_t params, cusolverDnFunction_t function,
                                                     cusolverAlgMode_t algo) {
  if (!params) return CUSOLVER_STATUS_INVALID_VALUE;
  if (function != CUSOLVERDN_GETRF || (algo != CUSOLVER_ALG_0 && algo != CUSOLVER_ALG_1))
    return CUSOLVER_STATUS_INVALID_VALUE;
  params->getrf = algo;
  return CUSOLVER_STATUS_SUCCESS;
}

// ---- Cholesky ----

cusolverStatus_t CUSOLVERAPI cusolverDnXpotrf_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t,
                                                         cublasFillMode_t, int64_t, cudaDataType, const void*, int64_t,
                                                         cudaDataType, size_t* workspaceInBytesOnDevice,
                                                         size_t* workspaceInBytesOnHost) {
  return workspace(handle, workspaceInBytesOnDevice, workspaceInBytesOnHost, 0);  // potrf needs none
}

cusolverStatus_t CUSOLVERAPI cusolverDnXpotrf(cusolverDnHandle_t handle, cusolverDnParams_t, cublasFillMode_t uplo,
                                              int64_t n, cudaDataType dataTypeA, void* A, int64_t lda,
                                              cudaDataType computeType, void*, size_t, void*, size_t, int* info) {
  constexpr const char* function = "cusolverDnXpotrf";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (int bad = first_broken({{valid(uplo), 1}, {n >= 0, 2}, {lda >= std::max<int64_t>(1, n), 4}}))
    return refuse(handle, function, info, bad);
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({n, lda})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  return with_element_type(handle, function, info, dataTypeA, computeType, [&]<typename T>() {
    return run(handle, function, {matrix<T>(A, n, n, lda), info_range(info)}, [=] {
      *info = cucpu::libs::potrf(to_lapack(uplo), static_cast<int>(n), static_cast<T*>(A), static_cast<int>(lda));
    });
  });
}

cusolverStatus_t CUSOLVERAPI cusolverDnXpotrs(cusolverDnHandle_t handle, cusolverDnParams_t, cublasFillMode_t uplo,
                                              int64_t n, int64_t nrhs, cudaDataType dataTypeA, const void* A,
                                              int64_t lda, cudaDataType dataTypeB, void* B, int64_t ldb, int* info) {
  constexpr const char* function = "cusolverDnXpotrs";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (int bad = first_broken({{valid(uplo), 1},
                              {n >= 0, 2},
                              {nrhs >= 0, 3},
                              {lda >= std::max<int64_t>(1, n), 5},
                              {ldb >= std::max<int64_t>(1, n), 7}}))
    return refuse(handle, function, info, bad);
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({n, nrhs, lda, ldb})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  return with_element_type(handle, function, info, dataTypeA, dataTypeB, [&]<typename T>() {
    return run(handle, function, {matrix<T>(A, n, n, lda), matrix<T>(B, n, nrhs, ldb), info_range(info)}, [=] {
      *info = cucpu::libs::potrs(to_lapack(uplo), static_cast<int>(n), static_cast<int>(nrhs), static_cast<const T*>(A),
                                 static_cast<int>(lda), static_cast<T*>(B), static_cast<int>(ldb));
    });
  });
}

// ---- LU ----

cusolverStatus_t CUSOLVERAPI cusolverDnXgetrf_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t, int64_t,
                                                         int64_t, cudaDataType, const void*, int64_t, cudaDataType,
                                                         size_t* workspaceInBytesOnDevice,
                                                         size_t* workspaceInBytesOnHost) {
  return workspace(handle, workspaceInBytesOnDevice, workspaceInBytesOnHost, 0);  // getrf needs none
}

// Pivots are 64-bit: LAPACK's 32-bit ones are widened after the factorization. Without
// pivots (ipiv NULL) the factorization does not pivot.
cusolverStatus_t CUSOLVERAPI cusolverDnXgetrf(cusolverDnHandle_t handle, cusolverDnParams_t, int64_t m, int64_t n,
                                              cudaDataType dataTypeA, void* A, int64_t lda, int64_t* ipiv,
                                              cudaDataType computeType, void*, size_t, void*, size_t, int* info) {
  constexpr const char* function = "cusolverDnXgetrf";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (int bad = first_broken({{m >= 0, 1}, {n >= 0, 2}, {lda >= std::max<int64_t>(1, m), 4}}))
    return refuse(handle, function, info, bad);
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({m, n, lda})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  const int64_t steps = std::min(m, n);
  return with_element_type(handle, function, info, dataTypeA, computeType, [&]<typename T>() {
    return run(handle, function,
               {matrix<T>(A, m, n, lda), array_range(ipiv, ipiv ? static_cast<int>(steps) : 0, sizeof(int64_t)),
                info_range(info)},
               [=] {
                 T* a = static_cast<T*>(A);
                 if (!ipiv) {
                   *info = lu_without_pivoting(static_cast<int>(m), static_cast<int>(n), a, static_cast<int>(lda));
                   return;
                 }
                 std::vector<int> pivots(std::max<int64_t>(1, steps));
                 *info = cucpu::libs::getrf(static_cast<int>(m), static_cast<int>(n), a, static_cast<int>(lda),
                                            pivots.data());
                 std::copy(pivots.begin(), pivots.begin() + steps, ipiv);
               });
  });
}

cusolverStatus_t CUSOLVERAPI cusolverDnXgetrs(cusolverDnHandle_t handle, cusolverDnParams_t, cublasOperation_t trans,
                                              int64_t n, int64_t nrhs, cudaDataType dataTypeA, const void* A,
                                              int64_t lda, const int64_t* ipiv, cudaDataType dataTypeB, void* B,
                                              int64_t ldb, int* info) {
  // A bad argument leaves devInfo as it was (as the 32-bit getrs on the H200).
  constexpr const char* function = "cusolverDnXgetrs";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (first_broken({{valid(trans), 1},
                    {n >= 0, 2},
                    {nrhs >= 0, 3},
                    {lda >= std::max<int64_t>(1, n), 5},
                    {ldb >= std::max<int64_t>(1, n), 8}}) ||
      !info)
    return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({n, nrhs, lda, ldb})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  return with_element_type(handle, function, info, dataTypeA, dataTypeB, [&]<typename T>() {
    return run(handle, function,
               {matrix<T>(A, n, n, lda), array_range(ipiv, ipiv ? static_cast<int>(n) : 0, sizeof(int64_t)),
                matrix<T>(B, n, nrhs, ldb), info_range(info)},
               [=] {
                 std::vector<int> pivots(std::max<int64_t>(1, n));
                 for (int64_t i = 0; i < n; ++i) pivots[i] = ipiv ? static_cast<int>(ipiv[i]) : static_cast<int>(i + 1);
                 *info = cucpu::libs::getrs(to_lapack(trans), static_cast<int>(n), static_cast<int>(nrhs),
                                            static_cast<const T*>(A), static_cast<int>(lda), pivots.data(),
                                            static_cast<T*>(B), static_cast<int>(ldb));
               });
  });
}

// ---- QR ----

cusolverStatus_t CUSOLVERAPI cusolverDnXgeqrf_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t, int64_t m,
                                                         int64_t n, cudaDataType dataTypeA, const void* A, int64_t lda,
                                                         cudaDataType, const void*, cudaDataType computeType,
                                                         size_t* workspaceInBytesOnDevice,
                                                         size_t* workspaceInBytesOnHost) {
  size_t bytes = 0;
  if (m >= 0 && n >= 0 && lda >= std::max<int64_t>(1, m) && fits({m, n, lda}))
    (void)with_element_type(handle, "", nullptr, dataTypeA, computeType, [&]<typename T>() {
      bytes = sizeof(T) * geqrf_size(static_cast<int>(m), static_cast<int>(n), static_cast<T*>(const_cast<void*>(A)),
                                     static_cast<int>(lda));
      return CUSOLVER_STATUS_SUCCESS;
    });
  return workspace(handle, workspaceInBytesOnDevice, workspaceInBytesOnHost, bytes);
}

cusolverStatus_t CUSOLVERAPI cusolverDnXgeqrf(cusolverDnHandle_t handle, cusolverDnParams_t, int64_t m, int64_t n,
                                              cudaDataType dataTypeA, void* A, int64_t lda, cudaDataType dataTypeTau,
                                              void* tau, cudaDataType computeType, void*, size_t, void*, size_t,
                                              int* info) {
  constexpr const char* function = "cusolverDnXgeqrf";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (int bad = first_broken({{m >= 0, 1}, {n >= 0, 2}, {lda >= std::max<int64_t>(1, m), 4}}))
    return refuse(handle, function, info, bad);
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({m, n, lda})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  if (dataTypeTau != dataTypeA) return CUSOLVER_STATUS_INVALID_VALUE;
  return with_element_type(handle, function, info, dataTypeA, computeType, [&]<typename T>() {
    return run(
        handle, function,
        {matrix<T>(A, m, n, lda), array_range(tau, static_cast<int>(std::min(m, n)), sizeof(T)), info_range(info)},
        [=] {
          const int rows = static_cast<int>(m), columns = static_cast<int>(n), ld = static_cast<int>(lda);
          T* a = static_cast<T*>(A);
          std::vector<T> work(geqrf_size(rows, columns, a, ld));
          *info = cucpu::libs::geqrf(rows, columns, a, ld, static_cast<T*>(tau), work.data(),
                                     static_cast<int>(work.size()));
        });
  });
}

// ---- SVD ----

cusolverStatus_t CUSOLVERAPI cusolverDnXgesvd_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t,
                                                         signed char jobu, signed char jobvt, int64_t m, int64_t n,
                                                         cudaDataType dataTypeA, const void*, int64_t lda, cudaDataType,
                                                         const void*, cudaDataType, const void*, int64_t ldu,
                                                         cudaDataType, const void*, int64_t ldvt,
                                                         cudaDataType computeType, size_t* workspaceInBytesOnDevice,
                                                         size_t* workspaceInBytesOnHost) {
  size_t bytes = 0;
  if (valid_job(jobu) && valid_job(jobvt) && m >= n && n >= 0 && fits({m, n, lda, ldu, ldvt}))
    (void)with_element_type(handle, "", nullptr, dataTypeA, computeType, [&]<typename T>() {
      bytes = sizeof(T) * gesvd_size<T>(jobu, jobvt, static_cast<int>(m), static_cast<int>(n),
                                        std::max(1, static_cast<int>(lda)), std::max(1, static_cast<int>(ldu)),
                                        std::max(1, static_cast<int>(ldvt)));
      return CUSOLVER_STATUS_SUCCESS;
    });
  return workspace(handle, workspaceInBytesOnDevice, workspaceInBytesOnHost, bytes);
}

cusolverStatus_t CUSOLVERAPI cusolverDnXgesvd(cusolverDnHandle_t handle, cusolverDnParams_t, signed char jobu,
                                              signed char jobvt, int64_t m, int64_t n, cudaDataType dataTypeA, void* A,
                                              int64_t lda, cudaDataType dataTypeS, void* S, cudaDataType dataTypeU,
                                              void* U, int64_t ldu, cudaDataType dataTypeVT, void* VT, int64_t ldvt,
                                              cudaDataType computeType, void*, size_t, void*, size_t, int* info) {
  constexpr const char* function = "cusolverDnXgesvd";
  const int64_t small = std::min(m, n);
  const int64_t u_columns = jobu == 'A' ? m : jobu == 'S' ? small : 0;
  const int64_t vt_rows = jobvt == 'A' ? n : jobvt == 'S' ? small : 0;
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (int bad = first_broken({{valid_job(jobu), 1},
                              {valid_job(jobvt) && !(jobu == 'O' && jobvt == 'O'), 2},
                              {m >= 0, 3},
                              {n >= 0, 4},
                              {lda >= std::max<int64_t>(1, m), 6},
                              {ldu >= std::max<int64_t>(1, u_columns ? m : 1), 9},
                              {ldvt >= std::max<int64_t>(1, vt_rows), 11}}))
    return refuse(handle, function, info, bad);
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  if (n > m) return refuse(handle, function, info, 0);  // m >= n only, as the 32-bit gesvd
  if (!fits({m, n, lda, ldu, ldvt})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  if (dataTypeU != dataTypeA || dataTypeVT != dataTypeA) return CUSOLVER_STATUS_INVALID_VALUE;
  return with_element_type(handle, function, info, dataTypeA, computeType, [&]<typename T>() {
    if (dataTypeS != (is_complex<T> ? (sizeof(T) == 8 ? CUDA_R_32F : CUDA_R_64F) : dataTypeA))
      return CUSOLVER_STATUS_INVALID_VALUE;
    return run(handle, function,
               {matrix<T>(A, m, n, lda), array_range(S, static_cast<int>(small), sizeof(Real<T>)),
                matrix<T>(U, m, u_columns, ldu), matrix<T>(VT, vt_rows, n, ldvt), info_range(info)},
               [=] {
                 const int rows = static_cast<int>(m), columns = static_cast<int>(n);
                 const int ld = static_cast<int>(lda), ld_u = static_cast<int>(ldu), ld_vt = static_cast<int>(ldvt);
                 std::vector<T> work(gesvd_size<T>(jobu, jobvt, rows, columns, ld, ld_u, ld_vt));
                 std::vector<Real<T>> rwork(is_complex<T> ? std::max<int64_t>(1, 5 * small) : 1);
                 *info = svd<T>(jobu, jobvt, rows, columns, static_cast<T*>(A), ld, static_cast<Real<T>*>(S),
                                static_cast<T*>(U), ld_u, static_cast<T*>(VT), ld_vt, work.data(),
                                static_cast<int>(work.size()), rwork.data());
               });
  });
}

// ---- symmetric / Hermitian eigenvalues ----

cusolverStatus_t CUSOLVERAPI cusolverDnXsyevd_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t,
                                                         cusolverEigMode_t jobz, cublasFillMode_t uplo, int64_t n,
                                                         cudaDataType dataTypeA, const void* A, int64_t lda,
                                                         cudaDataType, const void* W, cudaDataType computeType,
                                                         size_t* workspaceInBytesOnDevice,
                                                         size_t* workspaceInBytesOnHost) {
  size_t bytes = 0;
  if (valid(jobz) && valid(uplo) && n >= 0 && lda >= std::max<int64_t>(1, n) && fits({n, lda}))
    (void)with_element_type(handle, "", nullptr, dataTypeA, computeType, [&]<typename T>() {
      int size = 0;
      eigen(jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N', to_lapack(uplo), static_cast<int>(n),
            static_cast<T*>(const_cast<void*>(A)), static_cast<int>(lda), static_cast<Real<T>*>(const_cast<void*>(W)),
            true, &size);
      bytes = sizeof(T) * size;
      return CUSOLVER_STATUS_SUCCESS;
    });
  return workspace(handle, workspaceInBytesOnDevice, workspaceInBytesOnHost, bytes);
}

cusolverStatus_t CUSOLVERAPI cusolverDnXsyevd(cusolverDnHandle_t handle, cusolverDnParams_t, cusolverEigMode_t jobz,
                                              cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, void* A,
                                              int64_t lda, cudaDataType dataTypeW, void* W, cudaDataType computeType,
                                              void*, size_t, void*, size_t, int* info) {
  constexpr const char* function = "cusolverDnXsyevd";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  // jobz is argument 2 in the H200's devInfo (-2), unlike the 32-bit syevd's 1.
  if (int bad = first_broken({{valid(jobz), 2}, {valid(uplo), 2}, {n >= 0, 3}, {lda >= std::max<int64_t>(1, n), 5}}))
    return refuse(handle, function, info, bad);
  if (!info) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({n, lda})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  return with_element_type(handle, function, info, dataTypeA, computeType, [&]<typename T>() {
    if (dataTypeW != (is_complex<T> ? (sizeof(T) == 8 ? CUDA_R_32F : CUDA_R_64F) : dataTypeA))
      return CUSOLVER_STATUS_INVALID_VALUE;
    return run(handle, function,
               {matrix<T>(A, n, n, lda), array_range(W, static_cast<int>(n), sizeof(Real<T>)), info_range(info)}, [=] {
                 int size;
                 *info = eigen(jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N', to_lapack(uplo), static_cast<int>(n),
                               static_cast<T*>(A), static_cast<int>(lda), static_cast<Real<T>*>(W), false, &size);
               });
  });
}

cusolverStatus_t CUSOLVERAPI cusolverDnXsyevdx_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t params,
                                                          cusolverEigMode_t jobz, cusolverEigRange_t,
                                                          cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA,
                                                          const void* A, int64_t lda, void*, void*, int64_t, int64_t,
                                                          int64_t*, cudaDataType dataTypeW, const void* W,
                                                          cudaDataType computeType, size_t* workspaceInBytesOnDevice,
                                                          size_t* workspaceInBytesOnHost) {
  return cusolverDnXsyevd_bufferSize(handle, params, jobz, uplo, n, dataTypeA, A, lda, dataTypeW, W, computeType,
                                     workspaceInBytesOnDevice, workspaceInBytesOnHost);
}

// Every eigenvalue (syevd's), then those in the range moved to the front of W, with their
// vectors to the first columns of A: an index range il..iu (1-based) or the values in (vl, vu].
// meig64 and the bounds are host pointers: the call waits for the work.
cusolverStatus_t CUSOLVERAPI cusolverDnXsyevdx(cusolverDnHandle_t handle, cusolverDnParams_t, cusolverEigMode_t jobz,
                                               cusolverEigRange_t range, cublasFillMode_t uplo, int64_t n,
                                               cudaDataType dataTypeA, void* A, int64_t lda, void* vl, void* vu,
                                               int64_t il, int64_t iu, int64_t* meig64, cudaDataType dataTypeW, void* W,
                                               cudaDataType computeType, void*, size_t, void*, size_t, int* info) {
  constexpr const char* function = "cusolverDnXsyevdx";
  const bool by_index = range == CUSOLVER_EIG_RANGE_I, by_value = range == CUSOLVER_EIG_RANGE_V;
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (int bad = first_broken({{valid(jobz), 1},
                              {range == CUSOLVER_EIG_RANGE_ALL || by_index || by_value, 2},
                              {valid(uplo), 3},
                              {n >= 0, 4},
                              {lda >= std::max<int64_t>(1, n), 6},
                              {!by_value || (vl && vu), 7},
                              {!by_index || (il >= 1 && il <= std::max<int64_t>(1, n)), 9},
                              {!by_index || (iu >= std::min(n, il) && iu <= n), 10}}))
    return refuse(handle, function, info, bad);
  if (!info || !meig64) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({n, lda})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  return with_element_type(handle, function, info, dataTypeA, computeType, [&]<typename T>() {
    using R = Real<T>;
    if (dataTypeW != (is_complex<T> ? (sizeof(T) == 8 ? CUDA_R_32F : CUDA_R_64F) : dataTypeA))
      return CUSOLVER_STATUS_INVALID_VALUE;
    const R low = by_value ? *static_cast<const R*>(vl) : 0, high = by_value ? *static_cast<const R*>(vu) : 0;
    if (by_value && !(low < high)) return refuse(handle, function, info, 8);
    const cusolverStatus_t status = run(
        handle, function, {matrix<T>(A, n, n, lda), array_range(W, static_cast<int>(n), sizeof(R)), info_range(info)},
        [=] {
          const int order = static_cast<int>(n), ld = static_cast<int>(lda);
          T* a = static_cast<T*>(A);
          R* w = static_cast<R*>(W);
          int size;
          *info = eigen(jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N', to_lapack(uplo), order, a, ld, w, false, &size);
          int64_t kept = 0;
          for (int64_t i = 0; i < n && *info == 0; ++i) {
            const bool inside = by_index ? i + 1 >= il && i + 1 <= iu : by_value ? w[i] > low && w[i] <= high : true;
            if (!inside) continue;
            w[kept] = w[i];
            if (jobz == CUSOLVER_EIG_MODE_VECTOR && kept != i) std::copy(a + i * ld, a + i * ld + order, a + kept * ld);
            ++kept;
          }
          *meig64 = kept;
        });
    if (status != CUSOLVER_STATUS_SUCCESS) return status;
    return cucpu::libs::synchronize(handle->stream) ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_EXECUTION_FAILED;
  });
}

// ---- triangular inverse ----

cusolverStatus_t CUSOLVERAPI cusolverDnXtrtri_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t, cublasDiagType_t,
                                                         int64_t, cudaDataType, void*, int64_t,
                                                         size_t* workspaceInBytesOnDevice,
                                                         size_t* workspaceInBytesOnHost) {
  return workspace(handle, workspaceInBytesOnDevice, workspaceInBytesOnHost, 0);  // trtri needs none
}

// A unit diagonal is written as ones (the H200's trtri does; LAPACK's leaves it alone).
cusolverStatus_t CUSOLVERAPI cusolverDnXtrtri(cusolverDnHandle_t handle, cublasFillMode_t uplo, cublasDiagType_t diag,
                                              int64_t n, cudaDataType dataTypeA, void* A, int64_t lda, void*, size_t,
                                              void*, size_t, int* devInfo) {
  constexpr const char* function = "cusolverDnXtrtri";
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  const bool unit = diag == CUBLAS_DIAG_UNIT;
  if (int bad = first_broken({{valid(uplo), 1},
                              {unit || diag == CUBLAS_DIAG_NON_UNIT, 2},
                              {n >= 0, 3},
                              {lda >= std::max<int64_t>(1, n), 5}}))
    return refuse(handle, function, devInfo, bad);
  if (!devInfo) return CUSOLVER_STATUS_INVALID_VALUE;
  if (!fits({n, lda})) return CUSOLVER_STATUS_NOT_SUPPORTED;
  return with_element_type(handle, function, devInfo, dataTypeA, dataTypeA, [&]<typename T>() {
    return run(handle, function, {matrix<T>(A, n, n, lda), info_range(devInfo)}, [=] {
      T* a = static_cast<T*>(A);
      *devInfo = cucpu::libs::trtri(to_lapack(uplo), unit ? 'U' : 'N', static_cast<int>(n), a, static_cast<int>(lda));
      if (unit)
        for (int64_t i = 0; i < n; ++i) a[i + i * lda] = one<T>();
    });
  });
}

}  // extern "C"
