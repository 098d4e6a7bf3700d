// How the math libraries run their work: in stream order with kernels, as NVIDIA's do (a
// cuBLAS call on a stream is ordered after the kernels queued there before it, and the
// next kernel waits for it). Each call queues one command of kernel kind on the stream
// the caller's handle names: a device broken by an earlier fault skips it, and a capture
// records it as a kernel node, as it would record the GPU library's kernels.
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>

#include "support/result.h"

namespace cucpu::libs {

// The memory a piece of work reads or writes, checked when it runs: device memory, as the
// GPU's kernels need it (cudaMalloc, managed, page-locked host memory, module variables).
struct DeviceRange {
  const void* base = nullptr;
  size_t bytes = 0;
};

// Whether a range lies in device memory (an empty one always does).
bool is_device_memory(DeviceRange range);

// Inside queued work, for memory known only then (the matrices a batched call's pointer
// array names): whether `range` is device memory; where it is not, the device breaks with
// an illegal-address error naming `function` (as enqueue does) and the work must stop.
bool require_device_memory(const char* function, DeviceRange range);

// Before a library call touches the device: makes the current device's primary context
// current where the thread has none (the runtime's first call does the same) and returns
// the device's sticky error, if an earlier fault broke it.
Result<void> prepare_device();

// Queues `work` on `stream` (a cudaStream_t or CUstream; NULL is the legacy stream). When
// it runs, each of `ranges` must lie in device memory: where one does not, the work does
// not run and the device breaks with an illegal-address error naming `function`, as the
// GPU's kernel would have faulted.
Result<void> enqueue(const void* stream, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work);

// A library's own status codes for what an inner error can be.
template <typename Status>
struct StatusCodes {
  Status success, alloc_failed, invalid_value, not_supported, execution_failed;
};

template <typename Status>
Status to_status(const Error& error, const StatusCodes<Status>& codes) {
  switch (error.code) {
    case ErrorCode::MemoryAllocation:
      return codes.alloc_failed;
    case ErrorCode::InvalidValue:
      return codes.invalid_value;
    case ErrorCode::NotSupported:
      return codes.not_supported;
    default:
      return codes.execution_failed;  // a kernel launch that failed, as the GPU's would
  }
}

// enqueue, answered in a library's status codes.
template <typename Status>
Status run(const void* stream, const char* function, std::initializer_list<DeviceRange> ranges,
           std::function<void()> work, const StatusCodes<Status>& codes) {
  auto queued = enqueue(stream, function, ranges, std::move(work));
  return queued ? codes.success : to_status(queued.error(), codes);
}

// Waits for everything queued on `stream` so far (a result returned through a host
// pointer), then returns the device's sticky error if the work faulted.
Result<void> synchronize(const void* stream);

}  // namespace cucpu::libs
