// The entry points of cuBLAS's mixed-precision products (gemm_ex.h): cublasGemmEx, its
// batched, strided-batched and grouped forms, cublasSgemmEx, cublasCgemmEx (and its 3M form),
// cublasHgemm (+ batched), with int and int64_t sizes.
#include <cublas_api.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <tuple>

#include "libs/cublas/element_types.h"
#include "libs/cublas/gemm_ex.h"
#include "libs/cublas/handle.h"

using cucpu::cublas::gemm_ex;
using cucpu::cublas::GemmExArguments;
using cucpu::cublas::single;

namespace {

cucpu::cublas::BatchMatrices strided(const void* A, size_t a_stride, const void* B, size_t b_stride, void* C,
                                     size_t c_stride) {
  return [=](int64_t i) {
    return std::tuple<const void*, const void*, void*>{static_cast<const char*>(A) + i * a_stride,
                                                       static_cast<const char*>(B) + i * b_stride,
                                                       static_cast<char*>(C) + i * c_stride};
  };
}

cucpu::cublas::BatchMatrices arrays(const void* const* A, const void* const* B, void* const* C) {
  return [=](int64_t i) { return std::tuple{A[i], B[i], C[i]}; };
}

size_t bytes(cudaDataType type, long long stride) { return cucpu::cublas::element_size(type) * stride; }

// cublasGemmGroupedBatchedEx's table (CUDA 13): real operands of one type throughout, half and
// bfloat16 computed in float, float also on TF32 inputs; the pedantic compute types too (H200).
bool grouped_combination(cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t compute) {
  if (a != b || a != c) return false;
  const bool single = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC;
  switch (a) {
    case CUDA_R_16F:
    case CUDA_R_16BF:
      return single;
    case CUDA_R_32F:
      return single || compute == CUBLAS_COMPUTE_32F_FAST_TF32;
    case CUDA_R_64F:
      return compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC;
    default:
      return false;
  }
}

// Groups of batched products, each group with its own shapes and host scalars (alpha_array
// and beta_array hold one value of the scale type a group); the pointer arrays hold every
// group's matrices one group after another.
template <typename I>
cublasStatus_t gemm_grouped_ex(cublasHandle_t handle, const char* function, const cublasOperation_t transa[],
                               const cublasOperation_t transb[], const I m[], const I n[], const I k[],
                               const void* alpha, const void* const A[], cudaDataType a_type, const I lda[],
                               const void* const B[], cudaDataType b_type, const I ldb[], const void* beta,
                               void* const C[], cudaDataType c_type, const I ldc[], I groups, const I group_size[],
                               cublasComputeType_t compute) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (groups < 0 || handle->pointer_mode != CUBLAS_POINTER_MODE_HOST) return CUBLAS_STATUS_INVALID_VALUE;
  if (!grouped_combination(a_type, b_type, c_type, compute)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const size_t scale = a_type == CUDA_R_64F ? sizeof(double) : sizeof(float);
  int64_t first = 0;
  for (I g = 0; g < groups; ++g) {
    const int64_t size = group_size[g];
    const cublasStatus_t status =
        gemm_ex(handle, function,
                {transa[g],
                 transb[g],
                 m[g],
                 n[g],
                 k[g],
                 static_cast<const char*>(alpha) + g * scale,
                 a_type,
                 lda[g],
                 b_type,
                 ldb[g],
                 static_cast<const char*>(beta) + g * scale,
                 c_type,
                 ldc[g],
                 compute,
                 size,
                 {A + first, B + first, C + first}},
                [=](int64_t i) {
                  return std::tuple<const void*, const void*, void*>{A[first + i], B[first + i], C[first + i]};
                });
    if (status != CUBLAS_STATUS_SUCCESS) return status;
    first += size;
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace

#define CUCPU_GEMM_EX(I, suffix)                                                                                      \
  cublasStatus_t CUBLASWINAPI cublasGemmEx##suffix(                                                                   \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const void* alpha,    \
      const void* A, cudaDataType Atype, I lda, const void* B, cudaDataType Btype, I ldb, const void* beta, void* C,  \
      cudaDataType Ctype, I ldc, cublasComputeType_t computeType, cublasGemmAlgo_t) {                                 \
    return gemm_ex(handle, __func__,                                                                                  \
                   {transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, computeType, 1, {}},    \
                   single(A, B, C));                                                                                  \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGemmBatchedEx##suffix(                                                            \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const void* alpha,    \
      const void* const Aarray[], cudaDataType Atype, I lda, const void* const Barray[], cudaDataType Btype, I ldb,   \
      const void* beta, void* const Carray[], cudaDataType Ctype, I ldc, I batchCount,                                \
      cublasComputeType_t computeType, cublasGemmAlgo_t) {                                                            \
    return gemm_ex(handle, __func__,                                                                                  \
                   {transa,                                                                                           \
                    transb,                                                                                           \
                    m,                                                                                                \
                    n,                                                                                                \
                    k,                                                                                                \
                    alpha,                                                                                            \
                    Atype,                                                                                            \
                    lda,                                                                                              \
                    Btype,                                                                                            \
                    ldb,                                                                                              \
                    beta,                                                                                             \
                    Ctype,                                                                                            \
                    ldc,                                                                                              \
                    computeType,                                                                                      \
                    batchCount,                                                                                       \
                    {Aarray, Barray, Carray}},                                                                        \
                   arrays(Aarray, Barray, Carray));                                                                   \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGemmStridedBatchedEx##suffix(                                                     \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const void* alpha,    \
      const void* A, cudaDataType Atype, I lda, long long int strideA, const void* B, cudaDataType Btype, I ldb,      \
      long long int strideB, const void* beta, void* C, cudaDataType Ctype, I ldc, long long int strideC,             \
      I batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t) {                                              \
    return gemm_ex(                                                                                                   \
        handle, __func__,                                                                                             \
        {transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, computeType, batchCount, {}},      \
        strided(A, bytes(Atype, strideA), B, bytes(Btype, strideB), C, bytes(Ctype, strideC)));                       \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasSgemmEx##suffix(                                                                  \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const float* alpha,   \
      const void* A, cudaDataType Atype, I lda, const void* B, cudaDataType Btype, I ldb, const float* beta, void* C, \
      cudaDataType Ctype, I ldc) {                                                                                    \
    return gemm_ex(                                                                                                   \
        handle, __func__,                                                                                             \
        {transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, CUBLAS_COMPUTE_32F, 1, {}},        \
        single(A, B, C));                                                                                             \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasCgemmEx##suffix(                                                                  \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,                       \
      const cuComplex* alpha, const void* A, cudaDataType Atype, I lda, const void* B, cudaDataType Btype, I ldb,     \
      const cuComplex* beta, void* C, cudaDataType Ctype, I ldc) {                                                    \
    return gemm_ex(                                                                                                   \
        handle, __func__,                                                                                             \
        {transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, CUBLAS_COMPUTE_32F, 1, {}},        \
        single(A, B, C));                                                                                             \
  }                                                                                                                   \
  /* The 3M form computes CgemmEx's product: NVIDIA's 3M algorithm only changes the rounding. */                      \
  cublasStatus_t CUBLASWINAPI cublasCgemm3mEx##suffix(                                                                \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,                       \
      const cuComplex* alpha, const void* A, cudaDataType Atype, I lda, const void* B, cudaDataType Btype, I ldb,     \
      const cuComplex* beta, void* C, cudaDataType Ctype, I ldc) {                                                    \
    return gemm_ex(                                                                                                   \
        handle, __func__,                                                                                             \
        {transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc, CUBLAS_COMPUTE_32F, 1, {}},        \
        single(A, B, C));                                                                                             \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGemmGroupedBatchedEx##suffix(                                                     \
      cublasHandle_t handle, const cublasOperation_t transa_array[], const cublasOperation_t transb_array[],          \
      const I m_array[], const I n_array[], const I k_array[], const void* alpha_array, const void* const Aarray[],   \
      cudaDataType_t Atype, const I lda_array[], const void* const Barray[], cudaDataType_t Btype,                    \
      const I ldb_array[], const void* beta_array, void* const Carray[], cudaDataType_t Ctype, const I ldc_array[],   \
      I group_count, const I group_size[], cublasComputeType_t computeType) {                                         \
    return gemm_grouped_ex(handle, __func__, transa_array, transb_array, m_array, n_array, k_array, alpha_array,      \
                           Aarray, Atype, lda_array, Barray, Btype, ldb_array, beta_array, Carray, Ctype, ldc_array,  \
                           group_count, group_size, computeType);                                                     \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasHgemm##suffix(                                                                    \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const __half* alpha,  \
      const __half* A, I lda, const __half* B, I ldb, const __half* beta, __half* C, I ldc) {                         \
    return gemm_ex(handle, __func__,                                                                                  \
                   {transa,                                                                                           \
                    transb,                                                                                           \
                    m,                                                                                                \
                    n,                                                                                                \
                    k,                                                                                                \
                    alpha,                                                                                            \
                    CUDA_R_16F,                                                                                       \
                    lda,                                                                                              \
                    CUDA_R_16F,                                                                                       \
                    ldb,                                                                                              \
                    beta,                                                                                             \
                    CUDA_R_16F,                                                                                       \
                    ldc,                                                                                              \
                    CUBLAS_COMPUTE_16F,                                                                               \
                    1,                                                                                                \
                    {}},                                                                                              \
                   single(A, B, C));                                                                                  \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasHgemmBatched##suffix(                                                             \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const __half* alpha,  \
      const __half* const Aarray[], I lda, const __half* const Barray[], I ldb, const __half* beta,                   \
      __half* const Carray[], I ldc, I batchCount) {                                                                  \
    return gemm_ex(handle, __func__,                                                                                  \
                   {transa,                                                                                           \
                    transb,                                                                                           \
                    m,                                                                                                \
                    n,                                                                                                \
                    k,                                                                                                \
                    alpha,                                                                                            \
                    CUDA_R_16F,                                                                                       \
                    lda,                                                                                              \
                    CUDA_R_16F,                                                                                       \
                    ldb,                                                                                              \
                    beta,                                                                                             \
                    CUDA_R_16F,                                                                                       \
                    ldc,                                                                                              \
                    CUBLAS_COMPUTE_16F,                                                                               \
                    batchCount,                                                                                       \
                    {Aarray, Barray, Carray}},                                                                        \
                   arrays(reinterpret_cast<const void* const*>(Aarray), reinterpret_cast<const void* const*>(Barray), \
                          reinterpret_cast<void* const*>(Carray)));                                                   \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasHgemmStridedBatched##suffix(                                                      \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const __half* alpha,  \
      const __half* A, I lda, long long int strideA, const __half* B, I ldb, long long int strideB,                   \
      const __half* beta, __half* C, I ldc, long long int strideC, I batchCount) {                                    \
    return gemm_ex(handle, __func__,                                                                                  \
                   {transa,                                                                                           \
                    transb,                                                                                           \
                    m,                                                                                                \
                    n,                                                                                                \
                    k,                                                                                                \
                    alpha,                                                                                            \
                    CUDA_R_16F,                                                                                       \
                    lda,                                                                                              \
                    CUDA_R_16F,                                                                                       \
                    ldb,                                                                                              \
                    beta,                                                                                             \
                    CUDA_R_16F,                                                                                       \
                    ldc,                                                                                              \
                    CUBLAS_COMPUTE_16F,                                                                               \
                    batchCount,                                                                                       \
                    {}},                                                                                              \
                   strided(A, 2 * strideA, B, 2 * strideB, C, 2 * strideC));                                          \
  }

extern "C" {
CUCPU_GEMM_EX(int, )
CUCPU_GEMM_EX(int64_t, _64)
}
