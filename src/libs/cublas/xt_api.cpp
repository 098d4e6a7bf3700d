// cuBLAS-XT (cublasXt.h): level-3 routines on matrices in host or device memory, blocking
// until done, which NVIDIA's spreads over the selected GPUs in tiles. Here every device is
// the host: each routine is the v2 one (64-bit sizes) on a handle that takes any memory,
// followed by a wait. Tiling, pinning and the CPU share are settings kept and read back.
#include <cublasXt.h>
#include <cublas_api.h>
#include <cuda.h>

#include <cstdint>
#include <limits>
#include <new>

#include "libs/cublas/handle.h"

struct cublasXtContext {
  cublasContext blas;
  int block_dim = 1024;  // NVIDIA's default tile edge
  cublasXtPinnedMemMode_t pinning = CUBLASXT_PINNING_DISABLED;
  bool devices_selected = false;
};

namespace {

// A size_t size as the 64-bit routines take it (too large: negative, which they refuse).
int64_t size(size_t value) {
  return value > static_cast<size_t>(std::numeric_limits<int64_t>::max()) ? -1 : static_cast<int64_t>(value);
}

template <typename Call>
cublasStatus_t blocking(cublasXtHandle_t handle, Call call) {
  if (!handle || !handle->devices_selected) return CUBLAS_STATUS_NOT_INITIALIZED;
  cublasStatus_t status;
  {
    cucpu::cublas::QuietParameterErrors quiet;
    status = call(&handle->blas);
  }
  return status == CUBLAS_STATUS_SUCCESS ? cucpu::cublas::finish(&handle->blas) : status;
}

}  // namespace

extern "C" {

cublasStatus_t CUBLASWINAPI cublasXtCreate(cublasXtHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  if (!cucpu::libs::prepare_device()) return CUBLAS_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cublasXtContext;
  if (!*handle) return CUBLAS_STATUS_ALLOC_FAILED;
  (*handle)->blas.any_memory = true;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtDestroy(cublasXtHandle_t handle) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtGetNumBoards(int nbDevices, int deviceId[], int* nbBoards) {
  if (nbDevices < 0 || (nbDevices > 0 && !deviceId) || !nbBoards) return CUBLAS_STATUS_INVALID_VALUE;
  *nbBoards = nbDevices;  // one board per device
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtMaxBoards(int* nbGpuBoards) {
  if (!nbGpuBoards) return CUBLAS_STATUS_INVALID_VALUE;
  *nbGpuBoards = 16;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices, int deviceId[]) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  int count = 0;
  if (nbDevices <= 0 || !deviceId || cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS)
    return CUBLAS_STATUS_INVALID_VALUE;
  for (int i = 0; i < nbDevices; ++i)
    if (deviceId[i] < 0 || deviceId[i] >= count) return CUBLAS_STATUS_INVALID_VALUE;
  handle->devices_selected = true;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (blockDim <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  handle->block_dim = blockDim;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtGetBlockDim(cublasXtHandle_t handle, int* blockDim) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!blockDim) return CUBLAS_STATUS_INVALID_VALUE;
  *blockDim = handle->block_dim;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtGetPinningMemMode(cublasXtHandle_t handle, cublasXtPinnedMemMode_t* mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pinning;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtSetPinningMemMode(cublasXtHandle_t handle, cublasXtPinnedMemMode_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLASXT_PINNING_DISABLED && mode != CUBLASXT_PINNING_ENABLED) return CUBLAS_STATUS_INVALID_VALUE;
  handle->pinning = mode;
  return CUBLAS_STATUS_SUCCESS;
}

// A CPU share of the work only divides it between host and GPUs: here everything runs on the host.
cublasStatus_t CUBLASWINAPI cublasXtSetCpuRatio(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp, cublasXtOpType_t type,
                                                float ratio) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (blasOp < 0 || blasOp >= CUBLASXT_ROUTINE_MAX || type < CUBLASXT_FLOAT || type > CUBLASXT_DOUBLECOMPLEX ||
      !(ratio >= 0 && ratio <= 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"

#define CUCPU_XT(X, T, R)                                                                                              \
  cublasStatus_t CUBLASWINAPI cublasXt##X##gemm(                                                                       \
      cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m, size_t n, size_t k,       \
      const T* alpha, const T* A, size_t lda, const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {               \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##gemm_v2_64(h, transa, transb, size(m), size(n), size(k), alpha, A, size(lda), B, size(ldb),    \
                                   beta, C, size(ldc));                                                                \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##syrk(cublasXtHandle_t handle, cublasFillMode_t uplo,                        \
                                                cublasOperation_t trans, size_t n, size_t k, const T* alpha,           \
                                                const T* A, size_t lda, const T* beta, T* C, size_t ldc) {             \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##syrk_v2_64(h, uplo, trans, size(n), size(k), alpha, A, size(lda), beta, C, size(ldc));         \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##syr2k(                                                                      \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, size_t n, size_t k, const T* alpha,     \
      const T* A, size_t lda, const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {                               \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##syr2k_v2_64(h, uplo, trans, size(n), size(k), alpha, A, size(lda), B, size(ldb), beta, C,      \
                                    size(ldc));                                                                        \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##symm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                size_t m, size_t n, const T* alpha, const T* A, size_t lda,            \
                                                const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {             \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##symm_v2_64(h, side, uplo, size(m), size(n), alpha, A, size(lda), B, size(ldb), beta, C,        \
                                   size(ldc));                                                                         \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##trsm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n,    \
                                                const T* alpha, const T* A, size_t lda, T* B, size_t ldb) {            \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##trsm_v2_64(h, side, uplo, trans, diag, size(m), size(n), alpha, A, size(lda), B, size(ldb));   \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##trmm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n,    \
                                                const T* alpha, const T* A, size_t lda, const T* B, size_t ldb, T* C,  \
                                                size_t ldc) {                                                          \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##trmm_v2_64(h, side, uplo, trans, diag, size(m), size(n), alpha, A, size(lda), B, size(ldb), C, \
                                   size(ldc));                                                                         \
    });                                                                                                                \
  }

#define CUCPU_XT_HERMITIAN(X, T, R)                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##hemm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                size_t m, size_t n, const T* alpha, const T* A, size_t lda,            \
                                                const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {             \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##hemm_v2_64(h, side, uplo, size(m), size(n), alpha, A, size(lda), B, size(ldb), beta, C,        \
                                   size(ldc));                                                                         \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##herk(cublasXtHandle_t handle, cublasFillMode_t uplo,                        \
                                                cublasOperation_t trans, size_t n, size_t k, const R* alpha,           \
                                                const T* A, size_t lda, const R* beta, T* C, size_t ldc) {             \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##herk_v2_64(h, uplo, trans, size(n), size(k), alpha, A, size(lda), beta, C, size(ldc));         \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##her2k(                                                                      \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, size_t n, size_t k, const T* alpha,     \
      const T* A, size_t lda, const T* B, size_t ldb, const R* beta, T* C, size_t ldc) {                               \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##her2k_v2_64(h, uplo, trans, size(n), size(k), alpha, A, size(lda), B, size(ldb), beta, C,      \
                                    size(ldc));                                                                        \
    });                                                                                                                \
  }

extern "C" {
CUCPU_XT(S, float, float)
CUCPU_XT(D, double, double)
CUCPU_XT(C, cuComplex, float)
CUCPU_XT(Z, cuDoubleComplex, double)
CUCPU_XT_HERMITIAN(C, cuComplex, float)
CUCPU_XT_HERMITIAN(Z, cuDoubleComplex, double)
}
