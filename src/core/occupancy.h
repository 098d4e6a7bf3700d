// Occupancy of the emulated H200 (compute capability 9.0): how many blocks of a kernel
// one SM holds at once, by the formulas of CUDA's occupancy calculator (cuda_occupancy.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cucpu::core {

// The registers cucpu reports per thread (cudaFuncGetAttributes::numRegs): a CPU has no
// register file to size, so every kernel gets a typical, valid value.
constexpr int kRegistersPerThread = 32;

// Active blocks per SM for blocks of block_threads threads with `shared_bytes` of shared
// memory (static + dynamic); 0 where one block does not fit.
int max_active_blocks_per_sm(uint32_t block_threads, size_t shared_bytes, int registers_per_thread);

}  // namespace cucpu::core
