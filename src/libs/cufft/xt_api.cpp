// cufftXt's single-GPU plans: cufftXtMakePlanMany and cufftXtGetSizeMany, whose types are
// cudaDataTypes (cufftXtExec is in exec_api.cpp). FFTW has no half-precision transforms:
// CUDA_R_16F, CUDA_C_16F and their bfloat16 kin are CUFFT_NOT_SUPPORTED here, named on stderr.
#include <cufftXt.h>

#include "libs/common/missing_function.h"
#include "libs/cufft/plan.h"

using namespace cucpu::cufft;

namespace {

bool half_precision(cudaDataType type) {
  return type == CUDA_R_16F || type == CUDA_C_16F || type == CUDA_R_16BF || type == CUDA_C_16BF;
}

// The cuFFT type of an input, output and execution type: the execution type is the complex
// type of the transform's precision (the real one also passes for R2C and C2R, as on the
// H200). CUFFT_INVALID_TYPE for any other combination.
cufftResult read_types(cudaDataType input, cudaDataType output, cudaDataType execution, const char* function,
                       cufftType& type) {
  if (half_precision(input) || half_precision(output) || half_precision(execution)) {
    cucpu::libs::report_missing_function(function, "CUFFT_NOT_SUPPORTED for half-precision types");
    return CUFFT_NOT_SUPPORTED;
  }
  struct Combination {
    cudaDataType input, output, real_execution;
    cufftType type;
  };
  static constexpr Combination combinations[] = {
      {CUDA_C_32F, CUDA_C_32F, CUDA_C_32F, CUFFT_C2C}, {CUDA_R_32F, CUDA_C_32F, CUDA_R_32F, CUFFT_R2C},
      {CUDA_C_32F, CUDA_R_32F, CUDA_R_32F, CUFFT_C2R}, {CUDA_C_64F, CUDA_C_64F, CUDA_C_64F, CUFFT_Z2Z},
      {CUDA_R_64F, CUDA_C_64F, CUDA_R_64F, CUFFT_D2Z}, {CUDA_C_64F, CUDA_R_64F, CUDA_R_64F, CUFFT_Z2D},
  };
  for (const Combination& combination : combinations) {
    if (combination.input != input || combination.output != output) continue;
    cudaDataType complex =
        combination.type == CUFFT_C2C || combination.type == CUFFT_R2C || combination.type == CUFFT_C2R ? CUDA_C_32F
                                                                                                        : CUDA_C_64F;
    if (execution != complex && execution != combination.real_execution) return CUFFT_INVALID_TYPE;
    type = combination.type;
    return CUFFT_SUCCESS;
  }
  return CUFFT_INVALID_TYPE;
}

}  // namespace

extern "C" {

cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long* n, long long* inembed, long long istride,
                                long long idist, cudaDataType inputtype, long long* onembed, long long ostride,
                                long long odist, cudaDataType outputtype, long long batch, size_t* workSize,
                                cudaDataType executiontype) {
  auto found = find_plan(plan);
  if (!found || found->made) return CUFFT_INVALID_PLAN;
  cufftType type;
  if (cufftResult status = read_types(inputtype, outputtype, executiontype, "cufftXtMakePlanMany", type)) return status;
  return cufftMakePlanMany64(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long* n, long long* inembed, long long istride,
                               long long idist, cudaDataType inputtype, long long* onembed, long long ostride,
                               long long odist, cudaDataType outputtype, long long batch, size_t* workSize,
                               cudaDataType executiontype) {
  if (!find_plan(plan)) return CUFFT_INVALID_PLAN;
  cufftType type;
  if (cufftResult status = read_types(inputtype, outputtype, executiontype, "cufftXtGetSizeMany", type)) return status;
  return cufftGetSizeMany64(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

}  // extern "C"
