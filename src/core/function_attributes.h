// What a kernel's attributes and occupancy are: one answer for the host's
// cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor (api/runtime) and
// for device code's (the device runtime, through core/device_model_queries.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/module_registry.h"
#include "exec/device_model_queries.h"
#include "support/result.h"

namespace cucpu::core {

// cudaFuncGetAttributes: the compiled kernel's sizes and what cudaFuncSetAttribute set.
exec::FunctionAttributes function_attributes(const Kernel& kernel, const jit::KernelInfo& info);

// cudaFuncSetAttribute/cuFuncSetAttribute: `attribute` is a number both enums share
// (cudaFuncAttribute 8..15 = CUfunction_attribute 8..15; the others are read-only).
Result<void> set_function_attribute(Kernel& kernel, int attribute, int value);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for a valid block size (> 0): 0 where the
// dynamic shared memory is more than the kernel may have, else the occupancy calculator's answer for the kernel's
// registers and carveout preference.
int kernel_max_active_blocks_per_sm(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                                    size_t dynamic_shared_bytes);

// cuOccupancyMaxPotentialBlockSize: the block size (up to `block_size_limit`, 0: the
// device's and the kernel's limits) with the most resident threads per SM, trying sizes
// from the largest down in warp steps, as cuda_runtime.h's
// cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags does; and the grid that fills
// the device with it.
struct PotentialBlockSize {
  int min_grid_size = 0;
  int block_size = 0;
};
PotentialBlockSize max_potential_block_size(const Kernel& kernel, const jit::KernelInfo& info,
                                            const std::function<size_t(int)>& dynamic_shared_bytes,
                                            int block_size_limit);

}  // namespace cucpu::core
