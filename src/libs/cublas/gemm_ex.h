// cuBLAS's mixed-precision matrix products (cublasGemmEx and its batched, Sgemm/Cgemm/Hgemm
// forms): inputs of one cudaDataType, a compute type, an output of another. Which
// combinations exist is cuBLAS's table ("cublasGemmEx", CUDA 13); anything else is
// CUBLAS_STATUS_NOT_SUPPORTED.
#pragma once

#include <cublas_api.h>

#include <cstdint>
#include <functional>
#include <tuple>

namespace cucpu::cublas {

// The matrices of batch entry i (A, B, C).
using BatchMatrices = std::function<std::tuple<const void*, const void*, void*>(int64_t)>;

struct GemmExArguments {
  cublasOperation_t transa, transb;
  int64_t m, n, k;
  const void* alpha;
  cudaDataType a_type;
  int64_t lda;
  cudaDataType b_type;
  int64_t ldb;
  const void* beta;
  cudaDataType c_type;
  int64_t ldc;
  cublasComputeType_t compute;
  int64_t count;          // batch entries
  const void* arrays[3];  // the pointer arrays of a batched call (device memory), or null
};

// One matrix (count 1) at fixed addresses.
inline BatchMatrices single(const void* A, const void* B, void* C) {
  return [=](int64_t) { return std::tuple{A, B, C}; };
}

// The compute type a single-precision routine (cublasSgemm, cublasCgemm) runs in under the
// handle's math mode: TF32 or half tensor-core inputs where the mode allows them.
cublasComputeType_t single_precision_compute(cublasHandle_t handle);

cublasStatus_t gemm_ex(cublasHandle_t handle, const char* function, const GemmExArguments& arguments,
                       BatchMatrices matrices);

}  // namespace cucpu::cublas
