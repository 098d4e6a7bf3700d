// cuda_occupancy.h's cudaOccupancyMaxActiveBlocksPerMultiprocessor for the profile's
// compute capability: the smallest of the limits by warps, by blocks, by registers
// (allocated per warp in units of 256, within the profile's register sub-partitions) and
// by shared memory (allocated in the profile's unit, plus what the system reserves per
// block, in an SM whose shared memory is the smallest carveout step that holds the
// preference, or the block where the preference is smaller).
#include "core/occupancy.h"

#include <algorithm>
#include <climits>
#include <optional>

#include "core/device.h"

namespace cucpu::core {
namespace {

using A = DeviceAttribute;
constexpr int kRegisterAllocationUnit = 256;

size_t round_up(size_t value, size_t unit) { return (value + unit - 1) / unit * unit; }

// cudaOccAlignUpShmemSizeVoltaPlus: the smallest carveout step holding `bytes`; nullopt
// above the largest. Before Volta the SM's shared memory is fixed.
std::optional<size_t> carveout_step(const DeviceProfile& profile, size_t bytes) {
  if (profile.arch < 70) return static_cast<size_t>(device_attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  for (int kib : profile.carveout_kib)
    if (bytes <= static_cast<size_t>(kib) * 1024) return static_cast<size_t>(kib) * 1024;
  return std::nullopt;
}

int limit_by_warps(uint32_t block_threads) {
  const int warp_size = device_attribute(A::cudaDevAttrWarpSize);
  const int warps_per_block = static_cast<int>((block_threads + warp_size - 1) / warp_size);
  return device_attribute(A::cudaDevAttrMaxThreadsPerMultiProcessor) / warp_size / warps_per_block;
}

int limit_by_registers(const DeviceProfile& profile, uint32_t block_threads, int registers_per_thread) {
  const int warp_size = device_attribute(A::cudaDevAttrWarpSize);
  const int warps_per_block = static_cast<int>((block_threads + warp_size - 1) / warp_size);
  const int per_warp = static_cast<int>(round_up(registers_per_thread * warp_size, kRegisterAllocationUnit));
  const int sub_partitions = profile.register_sub_partitions;
  const int per_block = per_warp * warps_per_block;
  const int assumed_per_block = per_warp * static_cast<int>(round_up(warps_per_block, sub_partitions));
  const int registers_per_block = device_attribute(A::cudaDevAttrMaxRegistersPerBlock);
  if (registers_per_block < assumed_per_block || registers_per_block < per_block ||
      registers_per_thread > profile.max_registers_per_thread)
    return 0;
  if (per_warp == 0) return INT_MAX;
  const int warps_per_sub_partition =
      device_attribute(A::cudaDevAttrMaxRegistersPerMultiprocessor) / sub_partitions / per_warp;
  return warps_per_sub_partition * sub_partitions / warps_per_block;
}

int limit_by_shared_memory(const DeviceProfile& profile, size_t shared_bytes, int carveout_percent) {
  const size_t per_sm = static_cast<size_t>(device_attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  const size_t reserved = static_cast<size_t>(device_attribute(A::cudaDevAttrReservedSharedMemoryPerBlock));
  const size_t allocated = round_up(shared_bytes + reserved, profile.shared_allocation_unit);
  const size_t per_block_limit =
      static_cast<size_t>(device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlockOptin)) + reserved;
  if (allocated > per_block_limit) return 0;
  const size_t preference = carveout_percent < 0 ? per_sm : static_cast<size_t>(carveout_percent) * per_sm / 100;
  auto configured = carveout_step(profile, preference);
  if (!configured) return 0;
  size_t usable = *configured;
  if (usable < allocated) {
    // The preference is a hint: the SM is configured large enough for one block.
    auto step = carveout_step(profile, allocated);
    if (!step) return 0;
    usable = *step;
  }
  if (allocated == 0) return INT_MAX;
  return static_cast<int>(usable / allocated);
}

}  // namespace

int max_active_blocks_per_sm(uint32_t block_threads, size_t shared_bytes, int registers_per_thread,
                             int carveout_percent) {
  if (block_threads == 0 || block_threads > uint32_t(device_attribute(A::cudaDevAttrMaxThreadsPerBlock))) return 0;
  const DeviceProfile& profile = device_profile();
  int limit = std::min(limit_by_warps(block_threads), device_attribute(A::cudaDevAttrMaxBlocksPerMultiprocessor));
  limit = std::min(limit, limit_by_registers(profile, block_threads, std::max(registers_per_thread, 0)));
  limit = std::min(limit, limit_by_shared_memory(profile, shared_bytes, carveout_percent));
  return std::max(limit, 0);
}

uint32_t max_threads_per_block(uint32_t launch_bounds, int registers_per_thread) {
  const int warp_size = device_attribute(A::cudaDevAttrWarpSize);
  const int per_warp =
      static_cast<int>(round_up(std::max(registers_per_thread, 1) * warp_size, kRegisterAllocationUnit));
  const int warps = device_attribute(A::cudaDevAttrMaxRegistersPerBlock) / per_warp;
  return std::min(launch_bounds, static_cast<uint32_t>(warps * warp_size));
}

size_t max_dynamic_shared_bytes(int opted_in, size_t static_shared_bytes) {
  if (opted_in >= 0) return static_cast<size_t>(opted_in);
  const size_t everyone = static_cast<size_t>(device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlock));
  return everyone > static_shared_bytes ? everyone - static_shared_bytes : 0;
}

}  // namespace cucpu::core
