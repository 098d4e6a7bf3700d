// Occupancy of the emulated device: how many blocks of a kernel one SM holds at once, by
// the formulas of CUDA's occupancy calculator (cuda_occupancy.h) with the numbers of the
// chosen compute-capability profile (core/device.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cucpu::core {

// The registers cucpu reports per thread (cudaFuncGetAttributes::numRegs) of a kernel
// whose program carries no cubin for the emulated arch (FatbinModule::registers_per_thread
// reads ptxas's count from one): a CPU has no register file to size, so a typical, valid value.
constexpr int kRegistersPerThread = 32;

// Active blocks per SM for blocks of block_threads threads with `shared_bytes` of shared
// memory (static + dynamic), given the kernel's preferred shared memory carveout (percent
// of the SM's shared memory, -1 for the default); 0 where one block does not fit.
int max_active_blocks_per_sm(uint32_t block_threads, size_t shared_bytes, int registers_per_thread,
                             int carveout_percent = -1);

// The most threads a block of a kernel may have: its launch bounds, and as many warps as
// the registers of one block hold (an H100 reports 384 for a kernel of 154 registers:
// tests/e2e/occupancy_table). cudaFuncGetAttributes::maxThreadsPerBlock; more is
// cudaErrorLaunchOutOfResources.
uint32_t max_threads_per_block(uint32_t launch_bounds, int registers_per_thread);

// The most dynamic shared memory a launch of a kernel may ask for: what
// cudaFuncAttributeMaxDynamicSharedMemorySize set (`opted_in`, -1 if never), else the
// 48 KiB every kernel may use less its static shared memory (the H100's default
// cudaFuncAttributes::maxDynamicSharedSizeBytes).
size_t max_dynamic_shared_bytes(int opted_in, size_t static_shared_bytes);

}  // namespace cucpu::core
