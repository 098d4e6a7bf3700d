// The error API: the thread's last error, and each code's name and message as a real
// GPU's runtime gives them (support/error_text.h, taken on an H200).
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"
#include "support/error_text.h"

using cucpu::ErrorText;

extern "C" {

cudaError_t CUDARTAPI cudaGetLastError(void) { return cucpu::runtime::take_last_error(); }

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return cucpu::runtime::peek_last_error(); }

const char* CUDARTAPI cudaGetErrorName(cudaError_t error) {
  const ErrorText* entry = cucpu::find_error_text(static_cast<int>(error));
  return entry ? entry->name : cucpu::kUnrecognizedError;
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  const ErrorText* entry = cucpu::find_error_text(static_cast<int>(error));
  return entry ? entry->text : cucpu::kUnrecognizedError;
}

}  // extern "C"
