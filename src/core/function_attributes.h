// What a kernel's attributes and occupancy are: one answer for the host's
// cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor (api/runtime) and
// for device code's (the device runtime, through core/device_model_queries.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/module_registry.h"
#include "exec/device_model_queries.h"

namespace cucpu::core {

// cudaFuncGetAttributes: the compiled kernel's sizes and what cudaFuncSetAttribute set.
exec::FunctionAttributes function_attributes(const Kernel& kernel, const jit::KernelInfo& info);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for a valid block size (> 0): 0 where the
// dynamic shared memory is more than the kernel may have, else the occupancy calculator's answer for the kernel's
// registers and carveout preference.
int kernel_max_active_blocks_per_sm(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                                    size_t dynamic_shared_bytes);

}  // namespace cucpu::core
