// cuGetErrorName/cuGetErrorString: the names and messages NVIDIA's driver gives
// (support/driver_error_strings.def, taken on an H200). Neither needs cuInit.
#include <cuda.h>

#include "support/error_text.h"

extern "C" {

// An unknown code: CUDA_ERROR_INVALID_VALUE and a null string, as the driver answers.
CUresult CUDAAPI cuGetErrorName(CUresult error, const char** pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  const cucpu::ErrorText* entry = cucpu::find_driver_error_text(error);
  *pStr = entry ? entry->name : nullptr;
  return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char** pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  const cucpu::ErrorText* entry = cucpu::find_driver_error_text(error);
  *pStr = entry ? entry->text : nullptr;
  return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

}  // extern "C"
