// A cuSOLVER dense handle (cusolverDnCreate) and what every entry point does with it: the
// stream its work is queued on, the status an inner error becomes, the info it reports.
#pragma once

#include <cusolverDn.h>

#include <cstddef>
#include <functional>
#include <initializer_list>

#include "libs/common/arguments.h"
#include "libs/common/stream_work.h"

struct cusolverDnContext {
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
  cusolverDeterministicMode_t deterministic_mode = CUSOLVER_DETERMINISTIC_RESULTS;
};

namespace cucpu::cusolver {

using libs::DeviceRange;

cusolverStatus_t to_status(const Error& error);

// Queues `work` on the stream (libs::enqueue), returning the call's status.
cusolverStatus_t run(cudaStream_t stream, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work);
inline cusolverStatus_t run(cusolverDnHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                            std::function<void()> work) {
  return run(handle->stream, function, ranges, std::move(work));
}

// A bad argument: parameter `position` (the handle not counted), written to the device
// info as -position in stream order, as LAPACK's info reports it, and returned as
// CUSOLVER_STATUS_INVALID_VALUE.
cusolverStatus_t invalid_parameter(cusolverDnHandle_t handle, const char* function, int* info, int position);

using libs::array_range;
using libs::first_broken;
using libs::matrix_range;
using libs::Requirement;

}  // namespace cucpu::cusolver
