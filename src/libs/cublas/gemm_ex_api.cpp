// The entry points of cuBLAS's mixed-precision products (gemm_ex.h): cublasGemmEx, its
// batched and strided-batched forms, cublasSgemmEx, cublasCgemmEx, cublasHgemm (+ batched),
// with int and int64_t sizes.
#include <cublas_api.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <tuple>

#include "libs/cublas/element_types.h"
#include "libs/cublas/gemm_ex.h"

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
