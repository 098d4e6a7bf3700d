// Thread block clusters as the API sees them (CUDA Programming Guide "Thread Block
// Clusters"): which cluster shape a launch gets and whether it may have it, and the
// occupancy questions (cudaOccupancyMaxPotentialClusterSize, cudaOccupancyMaxActiveClusters)
// answered with an H100's numbers.
#pragma once

#include <cstdint>
#include <optional>

#include "core/launch.h"
#include "core/module_registry.h"
#include "jit/compile.h"
#include "support/result.h"

namespace cucpu::core {

// The portable cluster size limit (8 blocks on compute capability 9.0) and the most an
// H100 allows with cudaFuncAttributeNonPortableClusterSizeAllowed (16).
constexpr uint32_t kPortableClusterBlocks = 8;
constexpr uint32_t kNonPortableClusterBlocks = 16;

// The most blocks a cluster of this kernel may have: the portable limit, or the
// non-portable one when the kernel allows it.
inline uint32_t max_cluster_blocks(const Kernel& kernel) {
  return kernel.non_portable_cluster_size_allowed ? kNonPortableClusterBlocks : kPortableClusterBlocks;
}

// The cluster shape the kernel requires: compile-time (__cluster_dims__, .reqnctapercluster)
// or set with cudaFuncAttributeRequiredCluster{Width,Height,Depth}; 0x0x0 when none.
exec::Dim3 required_cluster_dims(const jit::KernelInfo& info, const Kernel& kernel);

// Checks a launch's cluster shape as an H100 does and returns the shape the grid runs with
// (1x1x1 without clusters): the grid a multiple of it, at most 8 blocks (16 when the kernel
// allows non-portable sizes), a launch-time shape on a kernel with a required one (compile-
// time or set) equal to it, a shape where the kernel demands one, and a cluster whose blocks
// fit one GPC at once.
// Errors are ErrorCode::InvalidClusterSize (cudaErrorInvalidClusterSize).
Result<exec::Dim3> resolve_cluster_dims(const jit::KernelInfo& info, const Kernel& kernel, const LaunchRequest& request);

// How many clusters of `cluster_blocks` blocks, `blocks_per_sm` to an SM by the ordinary
// occupancy, the device holds at once, as an H100 counts them: a cluster's blocks share one
// GPC (graphics processing cluster), each on its own SM, at most 8 of them to an SM
// (cluster_launch.cpp states the model and its data). 0 where the profile has no GPCs.
int max_active_clusters(uint32_t cluster_blocks, int blocks_per_sm);

// The largest cluster the device can hold at once for `blocks_per_sm` blocks to an SM, up
// to `limit` blocks.
int max_potential_cluster_size(int blocks_per_sm, uint32_t limit);

// cudaOccupancyMaxPotentialClusterSize / cuOccupancyMaxPotentialClusterSize for blocks of
// `block_threads` threads and `dynamic_shared_bytes`: the configuration's cluster shape is
// ignored, and so is a required one (an H100 answers 8 for a __cluster_dims__(2) kernel:
// e2e cluster_launch_rules).
int potential_cluster_size(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                           size_t dynamic_shared_bytes);
// cudaOccupancyMaxActiveClusters / cuOccupancyMaxActiveClusters: clusters of the kernel's
// required shape or the configuration's (`given`, which must then agree), 0 where neither
// names one (H100: success with 0, e2e cluster_occupancy); InvalidClusterSize for a shape
// the kernel cannot have.
Result<int> active_clusters(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                            size_t dynamic_shared_bytes, std::optional<exec::Dim3> given);

}  // namespace cucpu::core
