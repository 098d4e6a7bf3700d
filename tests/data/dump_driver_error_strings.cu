// Prints every CUresult code the driver knows (0..1099) with cuGetErrorName and
// cuGetErrorString, tab-separated: tests/data/driver_error_strings.tsv. Also what both
// answer for a code the driver does not know.
// NVCC-FLAGS: -lcuda
#include <cuda.h>

#include <cstdio>

int main() {
  for (int code = 0; code < 1100; ++code) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (cuGetErrorName(static_cast<CUresult>(code), &name) != CUDA_SUCCESS) continue;
    cuGetErrorString(static_cast<CUresult>(code), &text);
    std::printf("%d\t%s\t%s\n", code, name, text ? text : "(null)");
  }
  const char* name = reinterpret_cast<const char*>(1);
  const char* text = reinterpret_cast<const char*>(1);
  CUresult name_result = cuGetErrorName(static_cast<CUresult>(12345), &name);
  CUresult text_result = cuGetErrorString(static_cast<CUresult>(12345), &text);
  std::fprintf(stderr, "unknown code: name %d (%s), string %d (%s)\n", name_result, name ? "set" : "null",
               text_result, text ? "set" : "null");
  return 0;
}
