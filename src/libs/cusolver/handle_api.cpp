// cuSOLVER's handle functions: the dense handle, its stream and deterministic mode, the
// library's version.
#include <cusolverDn.h>

#include <new>

#include "libs/cusolver/handle.h"

extern "C" {

cusolverStatus_t CUSOLVERAPI cusolverGetProperty(libraryPropertyType type, int* value) {
  if (!value) return CUSOLVER_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUSOLVER_VER_MAJOR; return CUSOLVER_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUSOLVER_VER_MINOR; return CUSOLVER_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUSOLVER_VER_PATCH; return CUSOLVER_STATUS_SUCCESS;
  }
  return CUSOLVER_STATUS_INVALID_VALUE;
}

cusolverStatus_t CUSOLVERAPI cusolverGetVersion(int* version) {
  if (!version) return CUSOLVER_STATUS_INVALID_VALUE;
  *version = CUSOLVER_VERSION;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverDnCreate(cusolverDnHandle_t* handle) {
  if (!handle) return CUSOLVER_STATUS_INVALID_VALUE;
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CUSOLVER_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cusolverDnContext;
  return *handle ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

cusolverStatus_t CUSOLVERAPI cusolverDnDestroy(cusolverDnHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  // The work queued with the handle finishes before its resources go.
  (void)cucpu::libs::synchronize(handle->stream);
  delete handle;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t* streamId) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!streamId) return CUSOLVER_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverDnSetDeterministicMode(cusolverDnHandle_t handle,
                                                            cusolverDeterministicMode_t mode) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (mode != CUSOLVER_DETERMINISTIC_RESULTS && mode != CUSOLVER_ALLOW_NON_DETERMINISTIC_RESULTS)
    return CUSOLVER_STATUS_INVALID_VALUE;
  handle->deterministic_mode = mode;  // the CPU's results are deterministic either way
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverDnGetDeterministicMode(cusolverDnHandle_t handle,
                                                            cusolverDeterministicMode_t* mode) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!mode) return CUSOLVER_STATUS_INVALID_VALUE;
  *mode = handle->deterministic_mode;
  return CUSOLVER_STATUS_SUCCESS;
}

}  // extern "C"
