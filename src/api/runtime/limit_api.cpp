// Device limits (cudaDeviceSetLimit / cudaDeviceGetLimit), with the validation and rounding
// an H200 applies (tests/data/device_limits.out, taken with dump_device_limits.cu, and
// tests/e2e/setter_sweep.cu). Every
// value lives in exec (device_limits.h), which sizes stacks, the printf FIFO and the malloc
// heap from them, reports them to the device runtime too, and resets them.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>

#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "exec/device_heap.h"
#include "exec/device_limits.h"
#include "exec/device_printf.h"

using namespace cucpu;

namespace {

using exec::KeptLimit;

constexpr size_t kMaxPersistingL2Bytes = 39321600;  // cudaDevAttrMaxPersistingL2CacheSize (tests/data)

// Rounded up to a multiple of a power-of-two step, wrapping as the driver's size_t does.
size_t round_up(size_t value, size_t granule) { return (value + granule - 1) & ~(granule - 1); }

// A size raised to its minimum, rounded up, then capped (device_limits.h).
size_t sized(size_t value, size_t minimum, size_t granule, size_t maximum) {
  return std::min(round_up(std::max(value, minimum), granule), maximum);
}

// cudaLimitDevRuntimeSyncDepth: "only applicable to devices of compute capability < 9.0"
// (CUCPU_DEVICE picks one; the default is an H100's 9.0, which refuses it as the H100 does);
// a value that is no cudaLimit at all is cudaErrorInvalidValue on the GPU.
cudaError_t unsupported(const char* function, cudaLimit limit) {
  if (limit != cudaLimitDevRuntimeSyncDepth) return runtime::record(cudaErrorInvalidValue);
  std::fprintf(stderr,
               "cucpu: %s: cudaLimitDevRuntimeSyncDepth does not apply to a compute capability 9.0 device "
               "(CUCPU_DEVICE selects an older one)\n",
               function);
  return runtime::record(cudaErrorUnsupportedLimit);
}

bool has_sync_depth_limit() { return core::compute_capability_major() < 9; }

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  CUCPU_RETURN_IF_STICKY();
  switch (limit) {
    case cudaLimitStackSize:
      if (value > exec::kMaxThreadStackBytes) return runtime::record(cudaErrorInvalidValue);
      value = round_up(value, exec::kThreadStackGranule);
      exec::set_thread_stack_bytes(value);
      return cudaSuccess;
    case cudaLimitPrintfFifoSize:
      // Not after a kernel that prints has run (cuda_runtime_api.h).
      return exec::set_device_output_capacity(
                 sized(value, exec::kMinPrintfFifoBytes, exec::kPrintfFifoGranule, exec::kMaxPrintfFifoBytes))
                 ? cudaSuccess
                 : runtime::record(cudaErrorInvalidValue);
    case cudaLimitMallocHeapSize:
      // Not after a kernel that allocates has run (cuda_runtime_api.h).
      return exec::set_device_heap_bytes(
                 sized(value, exec::kMinMallocHeapBytes, exec::kMallocHeapGranule, exec::kMaxMallocHeapBytes))
                 ? cudaSuccess
                 : runtime::record(cudaErrorInvalidValue);
    case cudaLimitDevRuntimePendingLaunchCount:
      exec::set_kept_limit(KeptLimit::PendingLaunchCount,
                           std::clamp(value, exec::kMinPendingLaunchCount, exec::kMaxPendingLaunchCount));
      return cudaSuccess;
    case cudaLimitMaxL2FetchGranularity:
      if (value > exec::kMaxL2FetchGranularity) return runtime::record(cudaErrorInvalidValue);
      exec::set_kept_limit(KeptLimit::L2FetchGranularity, value);
      return cudaSuccess;
    case cudaLimitPersistingL2CacheSize:
      // Up to the maximum the device reports, which is a whole number of steps.
      if (value > kMaxPersistingL2Bytes) return runtime::record(cudaErrorInvalidValue);
      value = (value + exec::kPersistingL2Granule - 1) / exec::kPersistingL2Granule * exec::kPersistingL2Granule;
      exec::set_kept_limit(KeptLimit::PersistingL2Bytes, value);
      return cudaSuccess;
    case cudaLimitDevRuntimeSyncDepth:
      // "This limit can be set smaller than the default or up the maximum launch depth of 24"
      // (cuCtxSetLimit). cucpu reserves nothing for it, so it may change between launches.
      if (!has_sync_depth_limit()) return unsupported("cudaDeviceSetLimit", limit);
      if (value > exec::kMaxNestingLevels) return runtime::record(cudaErrorInvalidValue);
      exec::set_kept_limit(KeptLimit::DevRuntimeSyncDepth, value);
      return cudaSuccess;
    default:
      return unsupported("cudaDeviceSetLimit", limit);
  }
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t* value, enum cudaLimit limit) {
  if (!value) return runtime::record(cudaErrorInvalidValue);
  if (limit == cudaLimitDevRuntimeSyncDepth && has_sync_depth_limit()) {
    *value = exec::kept_limit(KeptLimit::DevRuntimeSyncDepth);
    return cudaSuccess;
  }
  const std::optional<size_t> current = exec::device_limit_value(static_cast<uint32_t>(limit));
  if (!current) return unsupported("cudaDeviceGetLimit", limit);
  *value = *current;
  return cudaSuccess;
}

// Persisting L2 lines back to normal: there is no L2 to steer, so nothing to reset.
cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void) {
  CUCPU_RETURN_IF_STICKY();
  return cudaSuccess;
}

}  // extern "C"
