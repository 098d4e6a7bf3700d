// cuBLAS's handle functions: creation, the stream, pointer and math modes, versions,
// status names, the logger.
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <library_types.h>

#include <cstdio>
#include <mutex>
#include <new>

#include "libs/cublas/handle.h"

using cucpu::cublas::to_status;

namespace {

#define CUCPU_REQUIRE_HANDLE(handle) \
  if (!(handle)) return CUBLAS_STATUS_NOT_INITIALIZED

std::mutex logger_mutex;
cublasLogCallback logger_callback = nullptr;

}  // namespace

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CUBLAS_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cublasContext;
  return *handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
  CUCPU_REQUIRE_HANDLE(handle);
  // cuBLAS synchronises the device before it frees a handle's resources.
  cublasStatus_t status = cucpu::cublas::finish(handle);
  delete handle;
  return status == CUBLAS_STATUS_NOT_INITIALIZED ? status : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

size_t CUBLASWINAPI cublasGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t CUBLASWINAPI cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t workspaceSizeInBytes) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->workspace = workspace;
  handle->workspace_bytes = workspaceSizeInBytes;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->stream = streamId;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* streamId) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!streamId) return CUBLAS_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t* mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->atomics_mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED) return CUBLAS_STATUS_INVALID_VALUE;
  handle->atomics_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->math_mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->math_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetSmCountTarget(cublasHandle_t handle, int* smCountTarget) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!smCountTarget) return CUBLAS_STATUS_INVALID_VALUE;
  *smCountTarget = handle->sm_count_target;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (smCountTarget < 0) return CUBLAS_STATUS_INVALID_VALUE;
  handle->sm_count_target = smCountTarget;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetEmulationStrategy(cublasHandle_t handle,
                                                       cublasEmulationStrategy_t* emulationStrategy) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!emulationStrategy) return CUBLAS_STATUS_INVALID_VALUE;
  *emulationStrategy = handle->emulation_strategy;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetEmulationStrategy(cublasHandle_t handle,
                                                       cublasEmulationStrategy_t emulationStrategy) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->emulation_strategy = emulationStrategy;
  return CUBLAS_STATUS_SUCCESS;
}

const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
#define CUCPU_STATUS_NAME(name) \
  case name: return #name;
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
const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed to the function";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "the function requires an architectural feature absent from the device";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the function failed to launch on the GPU";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the requested functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "the license check failed";
  }
  return "unrecognized status";
}

// The logger: cucpu logs nothing, but keeps the callback a program installs.
cublasStatus_t CUBLASWINAPI cublasLoggerConfigure(int, int, int, const char*) { return CUBLAS_STATUS_SUCCESS; }

cublasStatus_t CUBLASWINAPI cublasSetLoggerCallback(cublasLogCallback userCallback) {
  std::lock_guard lock(logger_mutex);
  logger_callback = userCallback;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetLoggerCallback(cublasLogCallback* userCallback) {
  if (!userCallback) return CUBLAS_STATUS_INVALID_VALUE;
  std::lock_guard lock(logger_mutex);
  *userCallback = logger_callback;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
