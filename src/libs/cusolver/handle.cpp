#include "libs/cusolver/handle.h"

namespace cucpu::cusolver {

cusolverStatus_t to_status(const Error& error) {
  switch (error.code) {
    case ErrorCode::MemoryAllocation: return CUSOLVER_STATUS_ALLOC_FAILED;
    case ErrorCode::InvalidValue: return CUSOLVER_STATUS_INVALID_VALUE;
    case ErrorCode::NotSupported: return CUSOLVER_STATUS_NOT_SUPPORTED;
    default: return CUSOLVER_STATUS_EXECUTION_FAILED;  // a kernel launch that failed, as the GPU's would
  }
}

cusolverStatus_t run(cusolverDnHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work) {
  auto queued = libs::enqueue(handle->stream, function, ranges, std::move(work));
  return queued ? CUSOLVER_STATUS_SUCCESS : to_status(queued.error());
}

cusolverStatus_t invalid_parameter(cusolverDnHandle_t handle, const char* function, int* info, int position) {
  if (info) (void)run(handle, function, {{info, sizeof(int)}}, [info, position] { *info = -position; });
  return CUSOLVER_STATUS_INVALID_VALUE;
}

}  // namespace cucpu::cusolver
