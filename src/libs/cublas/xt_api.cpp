// cuBLAS-XT (cublasXt.h): level-3 routines on matrices in host or device memory, blocking
// until done, which NVIDIA's spreads over the selected GPUs in tiles. Here every device is
// the host: each routine is the v2 one (64-bit sizes) on a handle that takes any memory,
// followed by a wait; spmm (a packed symmetric factor), which has no v2 form, unpacks it for
// symm. Tiling and pinning are settings kept and read back. A CPU routine given with a CPU
// ratio (cublasXtSetCpuRoutine, cublasXtSetCpuRatio) computes that share of a gemm's columns,
// as NVIDIA's hybrid split does for the gemm routines.
#include <cublasXt.h>
#include <cublas_api.h>
#include <cuda.h>

#include <cstdint>
#include <limits>
#include <new>
#include <vector>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/handle.h"

struct cublasXtContext {
  cublasContext blas;
  int block_dim = 1024;  // NVIDIA's default tile edge
  cublasXtPinnedMemMode_t pinning = CUBLASXT_PINNING_DISABLED;
  bool devices_selected = false;
  // The program's CPU BLAS routines and the share of the work they take, by routine and type.
  void* cpu_routine[CUBLASXT_ROUTINE_MAX][CUBLASXT_DOUBLECOMPLEX + 1] = {};
  float cpu_ratio[CUBLASXT_ROUTINE_MAX][CUBLASXT_DOUBLECOMPLEX + 1] = {};
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

template <typename T>
constexpr cublasXtOpType_t kOpType = std::is_same_v<T, float>       ? CUBLASXT_FLOAT
                                     : std::is_same_v<T, double>    ? CUBLASXT_DOUBLE
                                     : std::is_same_v<T, cuComplex> ? CUBLASXT_COMPLEX
                                                                    : CUBLASXT_DOUBLECOMPLEX;

// A CPU gemm as cublasXtSetCpuRoutine takes it: the Fortran BLAS interface (sgemm_ and its
// kin), 32-bit integers, every argument by address.
template <typename T>
using FortranGemm = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                             const T* alpha, const T* A, const int* lda, const T* B, const int* ldb, const T* beta,
                             T* C, const int* ldc);

// gemm with the hybrid split: the last `ratio` of C's columns go to the program's CPU routine,
// after the rest is done (a column of C depends only on the same column of op(B)).
template <typename T, typename Gemm>
cublasStatus_t hybrid_gemm(cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
                           int64_t n, int64_t k, const T* alpha, const T* A, int64_t lda, const T* B, int64_t ldb,
                           const T* beta, T* C, int64_t ldc, Gemm gemm) {
  using cucpu::cublas::fits_blas;
  auto routine = handle ? reinterpret_cast<FortranGemm<T>>(handle->cpu_routine[CUBLASXT_GEMM][kOpType<T>]) : nullptr;
  const float ratio = handle ? handle->cpu_ratio[CUBLASXT_GEMM][kOpType<T>] : 0;
  const int64_t cpu_columns =
      routine && n > 0 && fits_blas(m, n, k, lda, ldb, ldc) ? static_cast<int64_t>(ratio * n) : 0;
  const cublasStatus_t status = blocking(handle, [&](cublasHandle_t h) {
    return gemm(h, transa, transb, m, n - cpu_columns, k, alpha, A, lda, B, ldb, beta, C, ldc);
  });
  if (status != CUBLAS_STATUS_SUCCESS || cpu_columns == 0 || !alpha || !beta) return status;
  const int64_t first = n - cpu_columns;
  const char op[3] = {'N', 'T', 'C'};
  const int rows = static_cast<int>(m), columns = static_cast<int>(cpu_columns), depth = static_cast<int>(k);
  const int a_ld = static_cast<int>(lda), b_ld = static_cast<int>(ldb), c_ld = static_cast<int>(ldc);
  routine(&op[transa], &op[transb], &rows, &columns, &depth, alpha, A, &a_ld,
          B + (transb == CUBLAS_OP_N ? first * ldb : first), &b_ld, beta, C + first * ldc, &c_ld);
  return CUBLAS_STATUS_SUCCESS;
}

// spmm: C = alpha A B + beta C (left side) or alpha B A + beta C, A symmetric (not Hermitian)
// with one triangle packed column by column, unpacked into a full matrix for the CPU BLAS's symm.
template <typename T>
cublasStatus_t spmm(cublasXtHandle_t handle, const char* function, cublasSideMode_t side, cublasFillMode_t uplo,
                    size_t m, size_t n, const T* alpha, const T* AP, const T* B, size_t ldb, const T* beta, T* C,
                    size_t ldc) {
  using namespace cucpu::cublas;
  return blocking(handle, [&](cublasHandle_t h) {
    const int64_t rows = size(m), columns = size(n), b_ld = size(ldb), c_ld = size(ldc);
    if (!valid(side) || !valid(uplo) || rows < 0 || columns < 0 || !leading_ok(b_ld, rows) || !leading_ok(c_ld, rows) ||
        !alpha || !beta)
      return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || columns == 0) return CUBLAS_STATUS_SUCCESS;
    if (!fits_blas(rows, columns, b_ld, c_ld)) return CUBLAS_STATUS_NOT_SUPPORTED;
    const int order = static_cast<int>(side == CUBLAS_SIDE_LEFT ? rows : columns);
    const T alpha_value = *alpha, beta_value = *beta;
    return run(h, function, {}, [=] {
      std::vector<T> full(static_cast<size_t>(order) * order);
      size_t p = 0;
      for (int j = 0; j < order; ++j)
        for (int i = uplo == CUBLAS_FILL_MODE_LOWER ? j : 0; i < (uplo == CUBLAS_FILL_MODE_LOWER ? order : j + 1);
             ++i, ++p)
          full[i + j * order] = full[j + i * order] = AP[p];
      symm(to_cblas(side), CblasUpper, static_cast<int>(rows), static_cast<int>(columns), alpha_value, full.data(),
           order, B, static_cast<int>(b_ld), beta_value, C, static_cast<int>(c_ld));
    });
  });
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

// The share of a routine's work its CPU routine takes (hybrid_gemm); without one, everything
// runs on cucpu's BLAS.
cublasStatus_t CUBLASWINAPI cublasXtSetCpuRatio(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp, cublasXtOpType_t type,
                                                float ratio) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (blasOp < 0 || blasOp >= CUBLASXT_ROUTINE_MAX || type < CUBLASXT_FLOAT || type > CUBLASXT_DOUBLECOMPLEX ||
      !(ratio >= 0 && ratio <= 1))
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->cpu_ratio[blasOp][type] = ratio;
  return CUBLAS_STATUS_SUCCESS;
}

// The program's CPU BLAS routine for a routine and type (Fortran interface): called for the
// CPU ratio's share of the gemms; the other routines, which NVIDIA does not split, keep it unused.
cublasStatus_t CUBLASWINAPI cublasXtSetCpuRoutine(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp,
                                                  cublasXtOpType_t type, void* blasFunctor) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (blasOp < 0 || blasOp >= CUBLASXT_ROUTINE_MAX || type < CUBLASXT_FLOAT || type > CUBLASXT_DOUBLECOMPLEX)
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->cpu_routine[blasOp][type] = blasFunctor;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"

#define CUCPU_XT(X, T, R)                                                                                              \
  cublasStatus_t CUBLASWINAPI cublasXt##X##gemm(                                                                       \
      cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m, size_t n, size_t k,       \
      const T* alpha, const T* A, size_t lda, const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {               \
    return hybrid_gemm(handle, transa, transb, size(m), size(n), size(k), alpha, A, size(lda), B, size(ldb), beta, C,  \
                       size(ldc), cublas##X##gemm_v2_64);                                                              \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##syrkx(                                                                      \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, size_t n, size_t k, const T* alpha,     \
      const T* A, size_t lda, const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {                               \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##syrkx_64(h, uplo, trans, size(n), size(k), alpha, A, size(lda), B, size(ldb), beta, C,         \
                                 size(ldc));                                                                           \
    });                                                                                                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##X##spmm(cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                size_t m, size_t n, const T* alpha, const T* AP, const T* B,           \
                                                size_t ldb, const T* beta, T* C, size_t ldc) {                         \
    return spmm(handle, __func__, side, uplo, m, n, alpha, AP, B, ldb, beta, C, ldc);                                  \
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
  cublasStatus_t CUBLASWINAPI cublasXt##X##herkx(                                                                      \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, size_t n, size_t k, const T* alpha,     \
      const T* A, size_t lda, const T* B, size_t ldb, const R* beta, T* C, size_t ldc) {                               \
    return blocking(handle, [&](cublasHandle_t h) {                                                                    \
      return cublas##X##herkx_64(h, uplo, trans, size(n), size(k), alpha, A, size(lda), B, size(ldb), beta, C,         \
                                 size(ldc));                                                                           \
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
