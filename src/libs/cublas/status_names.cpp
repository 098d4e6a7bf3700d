#include "libs/cublas/status_names.h"

namespace cucpu::cublas {

const char* status_name(cublasStatus_t status) {
  switch (status) {
#define CUCPU_STATUS_NAME(name) \
  case name:                    \
    return #name;
    CUCPU_STATUS_NAME(CUBLAS_STATUS_SUCCESS)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_NOT_INITIALIZED)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_ALLOC_FAILED)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_INVALID_VALUE)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_ARCH_MISMATCH)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_MAPPING_ERROR)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_EXECUTION_FAILED)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_INTERNAL_ERROR)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_NOT_SUPPORTED)
    CUCPU_STATUS_NAME(CUBLAS_STATUS_LICENSE_ERROR)
#undef CUCPU_STATUS_NAME
  }
  return "unrecognized status";
}

// The strings of cuBLAS 13.1 (printed by the H200's library, tests/e2e/cublas_routines).
const char* status_string(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "an unsupported value or parameter was passed to the function";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "the function requires an architectural feature absent from the device";
    case CUBLAS_STATUS_MAPPING_ERROR:
      return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "the function failed to launch on the GPU";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR:
      return "the license check failed";
  }
  return "unrecognized status";
}

cublasStatus_t library_property(libraryPropertyType type, int* value) {
  if (!value) return CUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION:
      *value = CUBLAS_VER_MAJOR;
      return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = CUBLAS_VER_MINOR;
      return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = CUBLAS_VER_PATCH;
      return CUBLAS_STATUS_SUCCESS;
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

}  // namespace cucpu::cublas
