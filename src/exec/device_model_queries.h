// What the device runtime asks of the device model (device attributes, occupancy), which
// lives in core, a layer above exec: core hands exec its answers (core::provide_device_model_queries,
// before it compiles a module) and the device runtime's driver entry points read them here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "jit/compile.h"

namespace cucpu::exec {

struct DeviceModelQueries {
  int (*device_count)() = nullptr;
  // An attribute number's value on device `ordinal`; nullopt where a GPU rejects the number.
  std::optional<int> (*device_attribute)(int number, int ordinal) = nullptr;
  int (*cache_config)(int ordinal) = nullptr;  // the device's cudaFuncCache setting
  int registers_per_thread = 0;                // what cudaFuncGetAttributes reports
  // cudaFuncAttributes::maxThreadsPerBlock of a kernel.
  uint32_t (*max_threads_per_block)(const jit::KernelInfo& kernel) = nullptr;
  // cudaOccupancyMaxActiveBlocksPerMultiprocessor: 0 where such a block cannot launch.
  int (*max_active_blocks_per_sm)(const jit::KernelInfo& kernel, uint32_t block_threads,
                                  std::size_t dynamic_shared_bytes) = nullptr;
};

// `queries` must live as long as the process.
void set_device_model_queries(const DeviceModelQueries* queries);
// Null until core has provided them.
const DeviceModelQueries* device_model_queries();

}  // namespace cucpu::exec
