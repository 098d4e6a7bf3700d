// The error API: the thread's last error, and each code's name and message as a real
// GPU's runtime gives them (error_strings.def, taken on an H200).
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"

namespace {

struct ErrorText {
  int code;
  const char* name;
  const char* text;
};

constexpr ErrorText kErrorTexts[] = {
#define ERROR_STRING(code, name, text) {code, name, text},
#include "api/runtime/error_strings.def"
};

const ErrorText* find_text(cudaError_t error) {
  for (const ErrorText& entry : kErrorTexts)
    if (entry.code == static_cast<int>(error)) return &entry;
  return nullptr;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetLastError(void) { return cucpu::runtime::take_last_error(); }

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return cucpu::runtime::peek_last_error(); }

const char* CUDARTAPI cudaGetErrorName(cudaError_t error) {
  const ErrorText* entry = find_text(error);
  return entry ? entry->name : "unrecognized error code";
}

const char* CUDARTAPI cudaGetErrorString(cudaError_t error) {
  const ErrorText* entry = find_text(error);
  return entry ? entry->text : "unrecognized error code";
}

}  // extern "C"
