// Device limits, set and read (device_limits.h).
#include "core/device_limits.h"

#include <algorithm>
#include <cstdio>

#include "core/device.h"
#include "exec/device_heap.h"
#include "exec/device_limits.h"
#include "exec/device_printf.h"

namespace cucpu::core {
namespace {

using exec::KeptLimit;

Result<void> invalid() { return Error{ErrorCode::InvalidValue, "a limit value the device refuses"}; }

constexpr size_t kMaxPersistingL2Bytes = 39321600;  // cudaDevAttrMaxPersistingL2CacheSize (tests/data)

// Rounded up to a multiple of a power-of-two step, wrapping as the driver's size_t does.
size_t round_up(size_t value, size_t granule) { return (value + granule - 1) & ~(granule - 1); }

// A size raised to its minimum, rounded up, then capped (device_limits.h).
size_t sized(size_t value, size_t minimum, size_t granule, size_t maximum) {
  return std::min(round_up(std::max(value, minimum), granule), maximum);
}

// The sync depth limit: "only applicable to devices of compute capability < 9.0"
// (CUCPU_DEVICE picks one; the default is an H100's 9.0, which refuses it as the H100 does);
// a value that is no limit at all is InvalidValue on the GPU.
Error unsupported(const char* function, DeviceLimit limit) {
  if (limit != DeviceLimit::DevRuntimeSyncDepth) return Error{ErrorCode::InvalidValue, "no such limit"};
  std::fprintf(stderr,
               "cucpu: %s: the device runtime's sync depth limit does not apply to a compute capability 9.0 device "
               "(CUCPU_DEVICE selects an older one)\n",
               function);
  return Error{ErrorCode::UnsupportedLimit, "the sync depth limit needs compute capability < 9.0"};
}

bool has_sync_depth_limit() { return compute_capability_major() < 9; }

}  // namespace

Result<void> set_device_limit(DeviceLimit limit, size_t value, const char* function) {
  switch (limit) {
    case DeviceLimit::StackSize:
      if (value > exec::kMaxThreadStackBytes) return invalid();
      value = round_up(value, exec::kThreadStackGranule);
      exec::set_thread_stack_bytes(value);
      return {};
    case DeviceLimit::PrintfFifoSize:
      // Not after a kernel that prints has run (cuda_runtime_api.h).
      return exec::set_device_output_capacity(
                 sized(value, exec::kMinPrintfFifoBytes, exec::kPrintfFifoGranule, exec::kMaxPrintfFifoBytes))
                 ? Result<void>{}
                 : invalid();
    case DeviceLimit::MallocHeapSize:
      // Not after a kernel that allocates has run (cuda_runtime_api.h).
      return exec::set_device_heap_bytes(
                 sized(value, exec::kMinMallocHeapBytes, exec::kMallocHeapGranule, exec::kMaxMallocHeapBytes))
                 ? Result<void>{}
                 : invalid();
    case DeviceLimit::DevRuntimePendingLaunchCount:
      exec::set_kept_limit(KeptLimit::PendingLaunchCount,
                           std::clamp(value, exec::kMinPendingLaunchCount, exec::kMaxPendingLaunchCount));
      return {};
    case DeviceLimit::MaxL2FetchGranularity:
      if (value > exec::kMaxL2FetchGranularity) return invalid();
      exec::set_kept_limit(KeptLimit::L2FetchGranularity, value);
      return {};
    case DeviceLimit::PersistingL2CacheSize:
      // Up to the maximum the device reports, which is a whole number of steps.
      if (value > kMaxPersistingL2Bytes) return invalid();
      value = (value + exec::kPersistingL2Granule - 1) / exec::kPersistingL2Granule * exec::kPersistingL2Granule;
      exec::set_kept_limit(KeptLimit::PersistingL2Bytes, value);
      return {};
    case DeviceLimit::DevRuntimeSyncDepth:
      // "This limit can be set smaller than the default or up the maximum launch depth of 24"
      // (cuCtxSetLimit). cucpu reserves nothing for it, so it may change between launches.
      if (!has_sync_depth_limit()) return unsupported(function, limit);
      if (value > exec::kMaxNestingLevels) return invalid();
      exec::set_kept_limit(KeptLimit::DevRuntimeSyncDepth, value);
      return {};
    default:
      return unsupported(function, limit);
  }
}

Result<size_t> device_limit(DeviceLimit limit, const char* function) {
  if (limit == DeviceLimit::DevRuntimeSyncDepth && has_sync_depth_limit())
    return exec::kept_limit(KeptLimit::DevRuntimeSyncDepth);
  const std::optional<size_t> current = exec::device_limit_value(static_cast<uint32_t>(limit));
  if (!current) return unsupported(function, limit);
  return *current;
}

}  // namespace cucpu::core
