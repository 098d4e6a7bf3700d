#include "libs/cublas/handle.h"

namespace cucpu::cublas {

cublasStatus_t to_status(const Error& error) {
  switch (error.code) {
    case ErrorCode::MemoryAllocation: return CUBLAS_STATUS_ALLOC_FAILED;
    case ErrorCode::InvalidValue: return CUBLAS_STATUS_INVALID_VALUE;
    case ErrorCode::NotSupported: return CUBLAS_STATUS_NOT_SUPPORTED;
    default: return CUBLAS_STATUS_EXECUTION_FAILED;  // a kernel launch that failed, as the GPU's would
  }
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
