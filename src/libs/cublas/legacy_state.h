// The legacy cuBLAS API (cublas.h): one implicit handle per process made by cublasInit,
// and the status of the last failed call, which cublasGetError returns and clears.
#pragma once

#include <cublas_api.h>

namespace cucpu::cublas {

void set_legacy_error(cublasStatus_t status);
cublasStatus_t take_legacy_error();

}  // namespace cucpu::cublas
