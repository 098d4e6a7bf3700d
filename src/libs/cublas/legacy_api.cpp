// The legacy cuBLAS API's status functions (cublas.h); its BLAS routines are generated
// (scripts/gen_cublas_legacy.py).
#include <cublas.h>
#include <cuda.h>

#include "libs/common/stream_work.h"
#include "libs/cublas/legacy_state.h"

using namespace cucpu::cublas;

extern "C" {

cublasStatus CUBLASWINAPI cublasInit(void) {
  return legacy_handle() ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus CUBLASWINAPI cublasShutdown(void) { return shut_down_legacy_handle(); }

cublasStatus CUBLASWINAPI cublasGetError(void) { return take_legacy_error(); }

cublasStatus CUBLASWINAPI cublasGetVersion(int* version) {
  if (!version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus CUBLASWINAPI cublasSetKernelStream(cudaStream_t stream) {
  cublasHandle_t handle = legacy_handle();
  return handle ? cublasSetStream_v2(handle, stream) : CUBLAS_STATUS_NOT_INITIALIZED;
}

// Device memory for the legacy API, from the current device's primary context (cudaMalloc's).
cublasStatus CUBLASWINAPI cublasAlloc(int n, int elemSize, void** devicePtr) {
  if (n <= 0 || elemSize <= 0 || !devicePtr) return CUBLAS_STATUS_INVALID_VALUE;
  if (!cucpu::libs::prepare_device() || cuInit(0) != CUDA_SUCCESS) return CUBLAS_STATUS_ALLOC_FAILED;
  CUdeviceptr pointer = 0;
  if (cuMemAlloc(&pointer, static_cast<size_t>(n) * elemSize) != CUDA_SUCCESS) return CUBLAS_STATUS_ALLOC_FAILED;
  *devicePtr = reinterpret_cast<void*>(pointer);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus CUBLASWINAPI cublasFree(void* devicePtr) {
  return cuMemFree(reinterpret_cast<CUdeviceptr>(devicePtr)) == CUDA_SUCCESS ? CUBLAS_STATUS_SUCCESS
                                                                             : CUBLAS_STATUS_INTERNAL_ERROR;
}

}  // extern "C"
