// cuBLAS's handle functions: creation, the stream, pointer and math modes, versions,
// status names, the logger.
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <library_types.h>

#include <cstdio>
#include <mutex>
#include <new>

#include "libs/cublas/handle.h"
#include "libs/cublas/status_names.h"

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
  return cucpu::cublas::library_property(type, value);
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
  if (emulationStrategy != CUBLAS_EMULATION_STRATEGY_DEFAULT &&
      emulationStrategy != CUBLAS_EMULATION_STRATEGY_PERFORMANT && emulationStrategy != CUBLAS_EMULATION_STRATEGY_EAGER)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->emulation_strategy = emulationStrategy;
  return CUBLAS_STATUS_SUCCESS;
}

// The fixed-point emulation of double-precision products (CUDA 13). NVIDIA's cuBLAS emulates
// only where the strategy allows it: CUBLAS_EMULATION_STRATEGY_DEFAULT means PERFORMANT (unless
// the CUBLAS_EMULATION_STRATEGY variable says otherwise), which emulates only where that is
// faster than the hardware's FP64, and only for CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT or the
// math mode CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH; an H200 (sm_90, full-rate FP64) computes a
// default handle's double products natively. cucpu always does: these settings are kept and
// read back, and the bit count pointer is never written.
cublasStatus_t CUBLASWINAPI cublasGetEmulationSpecialValuesSupport(cublasHandle_t handle,
                                                                   cudaEmulationSpecialValuesSupport* mask) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mask) return CUBLAS_STATUS_INVALID_VALUE;
  *mask = handle->emulation_special_values;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetEmulationSpecialValuesSupport(cublasHandle_t handle,
                                                                   cudaEmulationSpecialValuesSupport mask) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->emulation_special_values = mask;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetFixedPointEmulationMantissaControl(cublasHandle_t handle,
                                                                        cudaEmulationMantissaControl* mantissaControl) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mantissaControl) return CUBLAS_STATUS_INVALID_VALUE;
  *mantissaControl = handle->mantissa_control;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetFixedPointEmulationMantissaControl(cublasHandle_t handle,
                                                                        cudaEmulationMantissaControl mantissaControl) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (mantissaControl != CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC &&
      mantissaControl != CUDA_EMULATION_MANTISSA_CONTROL_FIXED)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->mantissa_control = mantissaControl;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetFixedPointEmulationMaxMantissaBitCount(cublasHandle_t handle,
                                                                            int* maxMantissaBitCount) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!maxMantissaBitCount) return CUBLAS_STATUS_INVALID_VALUE;
  *maxMantissaBitCount = handle->max_mantissa_bits;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetFixedPointEmulationMaxMantissaBitCount(cublasHandle_t handle,
                                                                            int maxMantissaBitCount) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (maxMantissaBitCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
  handle->max_mantissa_bits = maxMantissaBitCount;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetFixedPointEmulationMantissaBitOffset(cublasHandle_t handle,
                                                                          int* mantissaBitOffset) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mantissaBitOffset) return CUBLAS_STATUS_INVALID_VALUE;
  *mantissaBitOffset = handle->mantissa_bit_offset;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetFixedPointEmulationMantissaBitOffset(cublasHandle_t handle,
                                                                          int mantissaBitOffset) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->mantissa_bit_offset = mantissaBitOffset;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetFixedPointEmulationMantissaBitCountPointer(cublasHandle_t handle,
                                                                                int** mantissaBitCount) {
  CUCPU_REQUIRE_HANDLE(handle);
  if (!mantissaBitCount) return CUBLAS_STATUS_INVALID_VALUE;
  *mantissaBitCount = handle->mantissa_bit_count;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetFixedPointEmulationMantissaBitCountPointer(cublasHandle_t handle,
                                                                                int* mantissaBitCount) {
  CUCPU_REQUIRE_HANDLE(handle);
  handle->mantissa_bit_count = mantissaBitCount;
  return CUBLAS_STATUS_SUCCESS;
}

// BLAS's error handler, as cuBLAS's routines call it for a bad argument.
void CUBLASWINAPI cublasXerbla(const char* srName, int info) {
  std::printf(" ** On entry to %s parameter number %d had an illegal value\n", srName ? srName : "", info);
}

const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) { return cucpu::cublas::status_name(status); }

const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) { return cucpu::cublas::status_string(status); }

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
