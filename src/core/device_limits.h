// Device limits (cudaDeviceSetLimit/GetLimit, cuCtxSetLimit/GetLimit), with the validation
// and rounding an H200 applies (tests/data/device_limits.out, taken with
// dump_device_limits.cu, and tests/e2e/setter_sweep.cu). Every value lives in exec
// (exec/device_limits.h), which sizes stacks, the printf FIFO and the malloc heap from
// them, reports them to the device runtime too, and resets them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "support/result.h"

namespace cucpu::core {

// cudaLimit's and CUlimit's numbers (the same in both APIs).
enum class DeviceLimit : uint32_t {
  StackSize = 0,
  PrintfFifoSize = 1,
  MallocHeapSize = 2,
  DevRuntimeSyncDepth = 3,
  DevRuntimePendingLaunchCount = 4,
  MaxL2FetchGranularity = 5,
  PersistingL2CacheSize = 6,
};

// InvalidValue for a value the device refuses or a number that is no limit;
// UnsupportedLimit for the sync depth on a 9.0 device (said on stderr, naming `function`).
Result<void> set_device_limit(DeviceLimit limit, size_t value, const char* function);
Result<size_t> device_limit(DeviceLimit limit, const char* function);

}  // namespace cucpu::core
