// A cuSOLVER dense handle (cusolverDnCreate) and what every entry point does with it: the
// stream its work is queued on, the status an inner error becomes, the info it reports.
#pragma once

#include <cusolverDn.h>

#include <cstddef>
#include <functional>
#include <initializer_list>

#include "libs/common/stream_work.h"

struct cusolverDnContext {
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
  cusolverDeterministicMode_t deterministic_mode = CUSOLVER_DETERMINISTIC_RESULTS;
};

namespace cucpu::cusolver {

using libs::DeviceRange;

cusolverStatus_t to_status(const Error& error);

// Queues `work` on the handle's stream (libs::enqueue), returning the call's status.
cusolverStatus_t run(cusolverDnHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work);

// A bad argument: parameter `position` (the handle not counted), written to the device
// info as -position in stream order, as LAPACK's info reports it, and returned as
// CUSOLVER_STATUS_INVALID_VALUE.
cusolverStatus_t invalid_parameter(cusolverDnHandle_t handle, const char* function, int* info, int position);

// The bytes a column-major rows x columns matrix with leading dimension ld spans.
inline DeviceRange matrix_range(const void* base, long rows, long columns, long ld, size_t element) {
  if (rows <= 0 || columns <= 0) return {base, 0};
  return {base, static_cast<size_t>((columns - 1) * ld + rows) * element};
}

inline DeviceRange array_range(const void* base, long count, size_t element) {
  return {base, count > 0 ? static_cast<size_t>(count) * element : 0};
}

}  // namespace cucpu::cusolver
