// Device limits the executor applies, as process-wide values: there is one device.
#include "exec/device_limits.h"

#include <atomic>

#include "exec/device_heap.h"
#include "exec/device_printf.h"

namespace cucpu::exec {
namespace {

std::atomic<std::size_t> stack_bytes{kDefaultThreadStackBytes};
std::atomic<std::size_t> pending_launch_count{kDefaultPendingLaunchCount};
std::atomic<std::size_t> l2_fetch_granularity{kDefaultL2FetchGranularity};
std::atomic<std::size_t> persisting_l2_bytes{kDefaultPersistingL2Bytes};
std::atomic<std::size_t> dev_runtime_sync_depth{kDefaultDevRuntimeSyncDepth};

std::atomic<std::size_t>& kept(KeptLimit limit) {
  switch (limit) {
    case KeptLimit::PendingLaunchCount:
      return pending_launch_count;
    case KeptLimit::L2FetchGranularity:
      return l2_fetch_granularity;
    case KeptLimit::DevRuntimeSyncDepth:
      return dev_runtime_sync_depth;
    default:
      return persisting_l2_bytes;
  }
}

}  // namespace

void set_thread_stack_bytes(std::size_t bytes) { stack_bytes.store(bytes, std::memory_order_relaxed); }

std::size_t thread_stack_bytes() { return stack_bytes.load(std::memory_order_relaxed); }

void set_kept_limit(KeptLimit limit, std::size_t value) { kept(limit).store(value, std::memory_order_relaxed); }

std::size_t kept_limit(KeptLimit limit) { return kept(limit).load(std::memory_order_relaxed); }

std::optional<std::size_t> device_limit_value(uint32_t limit) {
  switch (limit) {
    case 0:  // cudaLimitStackSize
      return thread_stack_bytes();
    case 1:  // cudaLimitPrintfFifoSize
      return device_output_capacity();
    case 2:  // cudaLimitMallocHeapSize
      return device_heap_bytes();
    case 4:  // cudaLimitDevRuntimePendingLaunchCount
      return kept_limit(KeptLimit::PendingLaunchCount);
    case 5:  // cudaLimitMaxL2FetchGranularity
      return kept_limit(KeptLimit::L2FetchGranularity);
    case 6:  // cudaLimitPersistingL2CacheSize
      return kept_limit(KeptLimit::PersistingL2Bytes);
    default:
      return std::nullopt;
  }
}

void reset_device_limits() {
  set_thread_stack_bytes(kDefaultThreadStackBytes);
  set_kept_limit(KeptLimit::PendingLaunchCount, kDefaultPendingLaunchCount);
  set_kept_limit(KeptLimit::L2FetchGranularity, kDefaultL2FetchGranularity);
  set_kept_limit(KeptLimit::PersistingL2Bytes, kDefaultPersistingL2Bytes);
  set_kept_limit(KeptLimit::DevRuntimeSyncDepth, kDefaultDevRuntimeSyncDepth);
  reset_device_output();
  reset_device_heap();
}

}  // namespace cucpu::exec
