#include "libs/cusparse/handle.h"

namespace cucpu::cusparse {

cusparseStatus_t to_status(const Error& error) {
  switch (error.code) {
    case ErrorCode::MemoryAllocation: return CUSPARSE_STATUS_ALLOC_FAILED;
    case ErrorCode::InvalidValue: return CUSPARSE_STATUS_INVALID_VALUE;
    case ErrorCode::NotSupported: return CUSPARSE_STATUS_NOT_SUPPORTED;
    default: return CUSPARSE_STATUS_EXECUTION_FAILED;  // a kernel launch that failed, as the GPU's would
  }
}

cusparseStatus_t run(cusparseHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work) {
  auto queued = libs::enqueue(handle->stream, function, ranges, std::move(work));
  return queued ? CUSPARSE_STATUS_SUCCESS : to_status(queued.error());
}

cusparseStatus_t finish(cusparseHandle_t handle) {
  auto done = libs::synchronize(handle->stream);
  return done ? CUSPARSE_STATUS_SUCCESS : to_status(done.error());
}

}  // namespace cucpu::cusparse
