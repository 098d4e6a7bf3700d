#include "libs/cusolver/handle.h"

namespace cucpu::cusolver {

namespace {

constexpr libs::StatusCodes<cusolverStatus_t> kStatuses{CUSOLVER_STATUS_SUCCESS, CUSOLVER_STATUS_ALLOC_FAILED,
                                          CUSOLVER_STATUS_INVALID_VALUE, CUSOLVER_STATUS_NOT_SUPPORTED,
                                          CUSOLVER_STATUS_EXECUTION_FAILED};

}  // namespace

cusolverStatus_t to_status(const Error& error) { return libs::to_status(error, kStatuses); }

cusolverStatus_t run(cudaStream_t stream, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work) {
  return libs::run(stream, function, ranges, std::move(work), kStatuses);
}

cusolverStatus_t invalid_parameter(cusolverDnHandle_t handle, const char* function, int* info, int position) {
  if (info) (void)run(handle, function, {{info, sizeof(int)}}, [info, position] { *info = -position; });
  return CUSOLVER_STATUS_INVALID_VALUE;
}

}  // namespace cucpu::cusolver
