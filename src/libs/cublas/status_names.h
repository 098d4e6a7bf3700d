// What cuBLAS and cublasLt both answer: status names and strings (cuBLAS 13.1's, as the
// H200's library prints them), the library's version properties.
#pragma once

#include <cublas_api.h>
#include <library_types.h>

namespace cucpu::cublas {

const char* status_name(cublasStatus_t status);
const char* status_string(cublasStatus_t status);
cublasStatus_t library_property(libraryPropertyType type, int* value);

}  // namespace cucpu::cublas
