#include "libs/cusparse/handle.h"

namespace cucpu::cusparse {

namespace {

constexpr libs::StatusCodes<cusparseStatus_t> kStatuses{CUSPARSE_STATUS_SUCCESS, CUSPARSE_STATUS_ALLOC_FAILED,
                                                        CUSPARSE_STATUS_INVALID_VALUE, CUSPARSE_STATUS_NOT_SUPPORTED,
                                                        CUSPARSE_STATUS_EXECUTION_FAILED};

}  // namespace

cusparseStatus_t to_status(const Error& error) { return libs::to_status(error, kStatuses); }

cusparseStatus_t run(cusparseHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work) {
  return libs::run(handle->stream, function, ranges, std::move(work), kStatuses);
}

cusparseStatus_t finish(cusparseHandle_t handle) {
  auto done = libs::synchronize(handle->stream);
  return done ? CUSPARSE_STATUS_SUCCESS : to_status(done.error());
}

}  // namespace cucpu::cusparse
