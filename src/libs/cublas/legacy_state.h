// The legacy cuBLAS API (cublas.h): one implicit handle per process, made at the first call
// (cublasInit, or any routine), whose stream is cublasSetKernelStream's; and the status of
// the last failed call, which cublasGetError returns and clears. Its BLAS routines are
// generated over the v2 ones (scripts/gen_cublas_legacy.py).
#pragma once

#include <cublas_api.h>

namespace cucpu::cublas {

// The implicit handle, made on first use (null if it cannot be: the v2 call then fails with
// CUBLAS_STATUS_NOT_INITIALIZED, which is kept).
cublasHandle_t legacy_handle();
// cublasShutdown: the handle is destroyed; the next call makes another.
cublasStatus_t shut_down_legacy_handle();

void set_legacy_error(cublasStatus_t status);
// Keeps a failure for cublasGetError; success leaves the kept status alone.
inline void keep_legacy_status(cublasStatus_t status) {
  if (status != CUBLAS_STATUS_SUCCESS) set_legacy_error(status);
}
cublasStatus_t take_legacy_error();

// The legacy API's characters as v2 enumerations ('N'/'n', 'T'/'t', 'C'/'c'; 'U'/'L';
// 'U'/'N'; 'L'/'R'); any other character is a value the v2 routine refuses.
cublasOperation_t operation(char c);
cublasFillMode_t fill_mode(char c);
cublasDiagType_t diag_type(char c);
cublasSideMode_t side_mode(char c);

}  // namespace cucpu::cublas
