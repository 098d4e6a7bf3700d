// Occupancy of the emulated device: how many blocks of a kernel one SM holds at once, by
// the formulas of CUDA's occupancy calculator (cuda_occupancy.h) with the numbers of the
// chosen compute-capability profile (core/device.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cucpu::core {

// The registers cucpu reports per thread (cudaFuncGetAttributes::numRegs): a CPU has no
// register file to size, so every kernel gets a typical, valid value.
constexpr int kRegistersPerThread = 32;

// Active blocks per SM for blocks of block_threads threads with `shared_bytes` of shared
// memory (static + dynamic), given the kernel's preferred shared memory carveout (percent
// of the SM's shared memory, -1 for the default); 0 where one block does not fit.
int max_active_blocks_per_sm(uint32_t block_threads, size_t shared_bytes, int registers_per_thread,
                             int carveout_percent = -1);

}  // namespace cucpu::core
