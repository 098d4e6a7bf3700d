#include "libs/cublas/handle.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

namespace cucpu::cublas {

cublasStatus_t to_status(const Error& error) {
  switch (error.code) {
    case ErrorCode::MemoryAllocation: return CUBLAS_STATUS_ALLOC_FAILED;
    case ErrorCode::InvalidValue: return CUBLAS_STATUS_INVALID_VALUE;
    case ErrorCode::NotSupported: return CUBLAS_STATUS_NOT_SUPPORTED;
    default: return CUBLAS_STATUS_EXECUTION_FAILED;  // a kernel launch that failed, as the GPU's would
  }
}

cublasStatus_t invalid_parameter(const char* function, int position) {
  // The routine as BLAS names it: cublasSgemm_v2_64 -> SGEMM; extensions keep their case
  // (cublasSgemmBatched -> SgemmBatched).
  std::string name = function;
  if (name.starts_with("cublas")) name.erase(0, 6);
  for (const char* suffix : {"_64", "_v2"})
    if (name.ends_with(suffix)) name.erase(name.size() - std::strlen(suffix));
  if (std::none_of(name.begin() + 1, name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }))
    std::transform(name.begin(), name.end(), name.begin(), [](char c) { return std::toupper(static_cast<unsigned char>(c)); });
  std::printf(" ** On entry to %-6s parameter number %d had an illegal value\n", name.c_str(), position);
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t run(cublasHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                   std::function<void()> work) {
  auto queued = libs::enqueue(handle->stream, function, ranges, std::move(work));
  return queued ? CUBLAS_STATUS_SUCCESS : to_status(queued.error());
}

cublasStatus_t finish(cublasHandle_t handle) {
  auto done = libs::synchronize(handle->stream);
  return done ? CUBLAS_STATUS_SUCCESS : to_status(done.error());
}

}  // namespace cucpu::cublas
