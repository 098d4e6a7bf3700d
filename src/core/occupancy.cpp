// cuda_occupancy.h's cudaOccupancyMaxActiveBlocksPerMultiprocessor for compute capability
// 9.0: the smallest of the limits by warps, by blocks, by registers (allocated per warp in
// units of 256, within 4 sub-partitions of 16K registers) and by shared memory (allocated
// in units of 128 bytes, plus the 1 KiB the system reserves per block).
#include "core/occupancy.h"

#include <algorithm>

#include "core/device.h"

namespace cucpu::core {

int max_active_blocks_per_sm(uint32_t block_threads, size_t shared_bytes, int registers_per_thread) {
  using A = DeviceAttribute;
  constexpr int kWarpSize = 32;
  constexpr int kRegisterAllocationUnit = 256;
  constexpr int kSubPartitions = 4;
  constexpr size_t kSharedAllocationUnit = 128;
  if (block_threads == 0) return 0;
  const int warps_per_block = static_cast<int>((block_threads + kWarpSize - 1) / kWarpSize);
  const int max_warps = device_attribute(A::cudaDevAttrMaxThreadsPerMultiProcessor) / kWarpSize;
  int limit = std::min(max_warps / warps_per_block, device_attribute(A::cudaDevAttrMaxBlocksPerMultiprocessor));

  if (registers_per_thread > 255) return 0;
  if (registers_per_thread > 0) {
    const int registers_per_warp = (registers_per_thread * kWarpSize + kRegisterAllocationUnit - 1) /
                                   kRegisterAllocationUnit * kRegisterAllocationUnit;
    const int per_sub_partition = device_attribute(A::cudaDevAttrMaxRegistersPerMultiprocessor) / kSubPartitions;
    const int warps = per_sub_partition / registers_per_warp * kSubPartitions;
    limit = std::min(limit, warps / warps_per_block);
  }

  const size_t shared_per_sm = static_cast<size_t>(device_attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  const size_t shared = (shared_bytes + static_cast<size_t>(device_attribute(A::cudaDevAttrReservedSharedMemoryPerBlock)) +
                         kSharedAllocationUnit - 1) / kSharedAllocationUnit * kSharedAllocationUnit;
  limit = std::min<size_t>(limit, shared_per_sm / shared);
  return std::max(limit, 0);
}

}  // namespace cucpu::core
