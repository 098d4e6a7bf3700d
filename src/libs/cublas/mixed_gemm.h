// A matrix product whose inputs, output and arithmetic may each have another type: the
// computation behind cublasGemmEx and its relatives (gemm_ex.h) and cublasLt's matmul. Which
// combinations exist is cuBLAS's table ("cublasGemmEx", CUDA 13); the products run on the
// CPU BLAS in the working type, inputs widened exactly (or rounded to TF32 where a fast
// compute type asks), the result narrowed to nearest even.
#pragma once

#include <cublas_api.h>
#include <library_types.h>

#include <cstdint>
#include <optional>

#include "libs/cublas/element_types.h"

namespace cucpu::cublas {

enum class Work { Float, Double, ComplexFloat, ComplexDouble, Int32 };

// How a supported combination computes: the working type, the scalars' type, the rounding
// of the inputs.
struct Combination {
  Work work;
  cudaDataType scale;
  InputRounding rounding = InputRounding::None;
};

// The working arithmetic of a combination cuBLAS accepts, or nothing.
std::optional<Combination> combination(cublasComputeType_t compute, cudaDataType a, cudaDataType b, cudaDataType c);

// One product C = alpha op(A) op(B) + beta C (column-major, leading dimensions in elements).
struct MixedGemm {
  cublasOperation_t transa, transb;
  int64_t m, n, k;
  cudaDataType a_type;
  int64_t lda;
  cudaDataType b_type;
  int64_t ldb;
  cudaDataType c_type;
  int64_t ldc;
  Combination how;
};

// Computes it; alpha and beta point at values of how.scale. C is not read where beta is zero.
void multiply(const MixedGemm& product, const void* alpha, const void* beta, const void* A, const void* B, void* C);

}  // namespace cucpu::cublas
