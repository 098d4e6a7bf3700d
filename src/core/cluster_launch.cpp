// Cluster shapes of launches and cluster occupancy. The occupancy model is an H100's
// (SXM, 132 SMs, driver 580): tests/e2e/cluster_occupancy.cu asked it for 205 configurations
// (expected/cluster_occupancy.out), and the simplest rules that give every one of them are:
//  - a cluster's blocks share one group of SMs, the profile's cluster_sm_groups (seven GPCs
//    of 18, 18, 16, 16, 16, 16, 16 SMs, then 8 SMs and four pairs; device_profiles.def);
//  - each of them on a different SM: a group of s SMs holds no cluster of more than s blocks
//    (clusters of 16 fit seven groups only);
//  - an SM holds at most 8 blocks of clusters, however many more the ordinary occupancy
//    allows (64-thread blocks, 32 to an SM: clusters of 1 give 1056 = 132 x 8);
//  - so a group of s SMs holds floor(s x min(blocks/SM, 8) / cluster blocks) clusters.
// Dynamic shared memory and the carveout preference enter only through blocks/SM, as
// cudaOccupancyMaxActiveBlocksPerMultiprocessor counts it; whether the kernel uses the
// cluster barrier changes nothing. Whether a launch's cluster fits at all uses the same rules.
#include "core/cluster_launch.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/device.h"
#include "core/function_attributes.h"
#include "core/occupancy.h"

namespace cucpu::core {
namespace {

// The most blocks of clusters an H100 SM holds (see the top of this file).
constexpr int kMaxClusterBlocksPerSm = 8;

Error invalid_cluster(std::string why) { return make_error(ErrorCode::InvalidClusterSize, std::move(why)); }

}  // namespace

exec::Dim3 required_cluster_dims(const jit::KernelInfo& info, const Kernel& kernel) {
  if (info.cluster_dims[0] != 0)
    return exec::Dim3{info.cluster_dims[0], std::max(info.cluster_dims[1], 1u), std::max(info.cluster_dims[2], 1u)};
  return exec::Dim3{kernel.required_cluster[0], kernel.required_cluster[1], kernel.required_cluster[2]};
}

int max_active_clusters(uint32_t cluster_blocks, int blocks_per_sm) {
  if (cluster_blocks == 0 || blocks_per_sm <= 0) return 0;
  const int per_sm = std::min(blocks_per_sm, kMaxClusterBlocksPerSm);
  int clusters = 0;
  for (int sms : device_profile().cluster_sm_groups)
    if (cluster_blocks <= static_cast<uint32_t>(sms)) clusters += sms * per_sm / static_cast<int>(cluster_blocks);
  return clusters;
}

int max_potential_cluster_size(int blocks_per_sm, uint32_t limit) {
  for (uint32_t size = limit; size > 0; --size)
    if (max_active_clusters(size, blocks_per_sm) > 0) return static_cast<int>(size);
  return 0;
}

Result<exec::Dim3> resolve_cluster_dims(const jit::KernelInfo& info, const Kernel& kernel,
                                        const LaunchRequest& request) {
  const exec::Dim3 required = required_cluster_dims(info, kernel);
  const bool has_required = required.count() != 0;
  const bool clusters_possible = device_profile().max_cluster_size > 0;
  exec::Dim3 dims;  // 1x1x1
  if (request.explicit_cluster) {
    const exec::Dim3& c = request.cluster;
    if (!clusters_possible)
      return make_error(ErrorCode::NotSupported, "thread block clusters need a compute capability 9.0 device");
    if (c.count() == 0) return invalid_cluster(fmt::format("a cluster of {}x{}x{} blocks", c.x, c.y, c.z));
    // "If a kernel uses compile-time cluster size, the cluster size cannot be modified when
    // launching the kernel" (CUDA Programming Guide, "Thread Block Clusters"): an H100 takes
    // a launch-time shape equal to the compile-time one and refuses a different one, as it
    // does with a shape required through cudaFuncSetAttribute (e2e cluster_launch_rules).
    if (has_required && (c.x != required.x || c.y != required.y || c.z != required.z))
      return invalid_cluster(fmt::format("cluster {}x{}x{} differs from the kernel's required {}x{}x{}", c.x, c.y,
                                         c.z, required.x, required.y, required.z));
    dims = c;
  } else if (has_required) {
    dims = required;
  } else if (info.explicit_cluster) {
    return invalid_cluster(fmt::format("kernel {} must be launched with a cluster shape", kernel.device_name));
  }
  if (dims.count() == 1 && !request.explicit_cluster && !has_required) return dims;
  if (!clusters_possible)  // a shape required through cudaFuncSetAttribute on an older profile
    return make_error(ErrorCode::NotSupported, "thread block clusters need a compute capability 9.0 device");

  const uint32_t limit = max_cluster_blocks(kernel);
  if (dims.count() > limit)
    return invalid_cluster(fmt::format("a cluster of {} blocks (at most {}{})", dims.count(), limit,
                                       kernel.non_portable_cluster_size_allowed
                                           ? ""
                                           : " without cudaFuncAttributeNonPortableClusterSizeAllowed"));
  if (info.max_cluster_rank != 0 && dims.count() > info.max_cluster_rank)
    return invalid_cluster(fmt::format("a cluster of {} blocks exceeds the kernel's .maxclusterrank {}", dims.count(),
                                       info.max_cluster_rank));
  const exec::Dim3& g = request.grid;
  if (g.x % dims.x != 0 || g.y % dims.y != 0 || g.z % dims.z != 0)
    return invalid_cluster(fmt::format("grid ({}, {}, {}) is not a multiple of the cluster shape {}x{}x{}", g.x, g.y,
                                       g.z, dims.x, dims.y, dims.z));
  const int blocks_per_sm = max_active_blocks_per_sm(
      static_cast<uint32_t>(request.block.count()), info.dynamic_shared_offset + request.dynamic_shared_bytes,
      kernel.module->registers_per_thread(kernel.device_name), kernel.preferred_shared_carveout);
  if (max_active_clusters(static_cast<uint32_t>(dims.count()), blocks_per_sm) == 0)
    return invalid_cluster(fmt::format("a cluster of {} blocks does not fit one GPC at once", dims.count()));
  if (request.cooperative)
    return make_error(ErrorCode::NotSupported, "cooperative launches with thread block clusters");
  return dims;
}

int potential_cluster_size(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                           size_t dynamic_shared_bytes) {
  const int blocks_per_sm = kernel_max_active_blocks_per_sm(kernel, info, block_threads, dynamic_shared_bytes);
  uint32_t limit = max_cluster_blocks(kernel);
  if (info.max_cluster_rank != 0) limit = std::min(limit, info.max_cluster_rank);
  return device_profile().max_cluster_size > 0 ? max_potential_cluster_size(blocks_per_sm, limit) : 0;
}

Result<int> active_clusters(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                            size_t dynamic_shared_bytes, std::optional<exec::Dim3> given) {
  const exec::Dim3 required = required_cluster_dims(info, kernel);
  exec::Dim3 cluster = required;  // 0x0x0 when the kernel requires none
  if (given) {
    // With a required shape, the configuration's must be absent or the same.
    if (required.count() != 0 && (given->x != required.x || given->y != required.y || given->z != required.z))
      return Error{ErrorCode::InvalidClusterSize, "a cluster shape other than the kernel's required one"};
    cluster = *given;
  }
  const bool has_shape = required.count() != 0 || given;
  if (!has_shape && device_profile().max_cluster_size > 0) return 0;
  if (cluster.count() == 0 || cluster.count() > max_cluster_blocks(kernel) || device_profile().max_cluster_size == 0)
    return Error{ErrorCode::InvalidClusterSize, "a cluster shape the kernel cannot have"};
  const int blocks_per_sm = kernel_max_active_blocks_per_sm(kernel, info, block_threads, dynamic_shared_bytes);
  return max_active_clusters(static_cast<uint32_t>(cluster.count()), blocks_per_sm);
}

}  // namespace cucpu::core
