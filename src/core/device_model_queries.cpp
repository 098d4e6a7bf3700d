// core's answers to the device runtime's questions about the device model: the same
// functions the runtime API's cudaDeviceGetAttribute, cudaGetDeviceCount,
// cudaDeviceGetCacheConfig, cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor
// answer with (api/runtime), for kernels known only by their compiled KernelInfo: such a
// kernel has no cubin to read a register count from, so it has core's typical one.
#include "core/device_model_queries.h"

#include "core/device.h"
#include "core/device_settings.h"
#include "core/occupancy.h"
#include "exec/device_model_queries.h"

namespace cucpu::core {
namespace {

uint32_t kernel_max_threads_per_block(const jit::KernelInfo& kernel) {
  return max_threads_per_block(kernel.max_threads_per_block, kRegistersPerThread);
}

int kernel_max_active_blocks_per_sm(const jit::KernelInfo& kernel, uint32_t block_threads,
                                    std::size_t dynamic_shared_bytes) {
  // As the host's cudaOccupancyMaxActiveBlocksPerMultiprocessor: a block that cannot launch fits 0 times.
  if (block_threads > kernel_max_threads_per_block(kernel) ||
      dynamic_shared_bytes > max_dynamic_shared_bytes(-1, kernel.static_shared_bytes))
    return 0;
  return max_active_blocks_per_sm(block_threads, kernel.dynamic_shared_offset + dynamic_shared_bytes,
                                  kRegistersPerThread);
}

}  // namespace

void provide_device_model_queries() {
  static const exec::DeviceModelQueries queries{
      .device_count = [] { return device_count(); },
      .device_attribute = [](int number, int ordinal) { return device_attribute(number, ordinal); },
      .cache_config = [](int ordinal) { return device_settings(ordinal).cache_config; },
      .registers_per_thread = kRegistersPerThread,
      .max_threads_per_block = kernel_max_threads_per_block,
      .max_active_blocks_per_sm = kernel_max_active_blocks_per_sm,
  };
  exec::set_device_model_queries(&queries);
}

}  // namespace cucpu::core
