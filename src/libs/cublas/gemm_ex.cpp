#include "libs/cublas/gemm_ex.h"

#include <string_view>

#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/element_types.h"
#include "libs/cublas/handle.h"
#include "libs/cublas/mixed_gemm.h"

namespace cucpu::cublas {

cublasComputeType_t single_precision_compute(cublasHandle_t handle) {
  switch (handle->math_mode & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION) {
    case CUBLAS_TF32_TENSOR_OP_MATH:
      return CUBLAS_COMPUTE_32F_FAST_TF32;
    case CUBLAS_TENSOR_OP_MATH:
      return CUBLAS_COMPUTE_32F_FAST_16F;
    default:
      return CUBLAS_COMPUTE_32F;
  }
}

cublasStatus_t gemm_ex(cublasHandle_t handle, const char* function, const GemmExArguments& g, BatchMatrices matrices) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // cublasGemmEx names its bad argument (lda is its parameter 9, ldb 12, ldc 16); what the
  // other Ex forms print is not known: they refuse quietly.
  if (int bad = gemm_broken_parameter(g.transa, g.transb, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, GemmPositions{9, 12, 16}))
    return std::string_view(function).starts_with("cublasGemmEx") ? invalid_parameter(function, bad)
                                                                  : CUBLAS_STATUS_INVALID_VALUE;
  if (g.count < 0 || !g.alpha || !g.beta) return CUBLAS_STATUS_INVALID_VALUE;
  // The fixed-point emulation's settings are checked even where the product is computed
  // natively (handle_api.cpp): the H200 refuses FIXED mantissa control with 1000 bits and takes
  // 40 (tests/e2e/cublas_remaining_routines); its exact bound is unknown, cucpu's is 79.
  if (g.compute == CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT &&
      handle->mantissa_control == CUDA_EMULATION_MANTISSA_CONTROL_FIXED && handle->max_mantissa_bits > 79)
    return CUBLAS_STATUS_INVALID_VALUE;
  const auto how = combination(g.compute, g.a_type, g.b_type, g.c_type);
  if (!how) return CUBLAS_STATUS_NOT_SUPPORTED;
  if ((how->work == Work::Int32 || g.a_type == CUDA_C_8I) && (g.transa == CUBLAS_OP_C || g.transb == CUBLAS_OP_C))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (g.m == 0 || g.n == 0 || g.count == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(g.m, g.n, g.k, g.lda, g.ldb, g.ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  const RawScalar alpha(handle, g.alpha, element_size(how->scale)), beta(handle, g.beta, element_size(how->scale));
  const auto pointer_array = [&](const void* array) {
    return DeviceRange{array, array ? sizeof(void*) * static_cast<size_t>(g.count) : 0};
  };
  const MixedGemm product{g.transa, g.transb, g.m, g.n, g.k, g.a_type, g.lda, g.b_type, g.ldb, g.c_type, g.ldc, *how};
  return run(
      handle, function,
      {alpha.range(), beta.range(), pointer_array(g.arrays[0]), pointer_array(g.arrays[1]), pointer_array(g.arrays[2])},
      [=] {
        const Shape<int64_t> a = operand(g.transa, g.m, g.k), b = operand(g.transb, g.k, g.n);
        for (int64_t i = 0; i < g.count; ++i) {
          auto [A, B, C] = matrices(i);
          if (!libs::require_device_memory(function,
                                           matrix_range(A, a.rows, a.columns, g.lda, element_size(g.a_type))) ||
              !libs::require_device_memory(function,
                                           matrix_range(B, b.rows, b.columns, g.ldb, element_size(g.b_type))) ||
              !libs::require_device_memory(function, matrix_range(C, g.m, g.n, g.ldc, element_size(g.c_type))))
            return;
          multiply(product, alpha.value(), beta.value(), A, B, C);
        }
      });
}

}  // namespace cucpu::cublas
