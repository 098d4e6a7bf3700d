// Occupancy of a kernel (CUfunction): resident blocks per SM and the block size that
// maximises them, by the rules of cuda_occupancy.h (core/function_attributes.h), and
// cluster occupancy (core/cluster_launch.h).
#include <cuda.h>

#include <optional>

#include "api/driver/driver_state.h"
#include "core/cluster_launch.h"
#include "core/function_attributes.h"

using namespace cucpu;

namespace {

// The kernel and its compiled code, or the driver's error.
CUresult kernel_of(CUfunction func, core::Kernel** kernel, const jit::KernelInfo** info) {
  CUCPU_REQUIRE_INIT();
  *kernel = driver::to_function(func);
  if (!*kernel) return CUDA_ERROR_INVALID_HANDLE;
  auto loaded = core::modules().load_kernel(**kernel);
  if (!loaded) return driver::to_cu_result(loaded.error());
  *info = *loaded;
  return CUDA_SUCCESS;
}

uint32_t block_threads(const CUlaunchConfig& config) {
  return config.blockDimX * config.blockDimY * config.blockDimZ;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, CUfunction func, int blockSize,
                                                                      size_t dynamicSMemSize, unsigned int flags) {
  if (!numBlocks || blockSize <= 0 || (flags & ~unsigned{CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE}))
    return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = nullptr;
  const jit::KernelInfo* info = nullptr;
  if (CUresult bad = kernel_of(func, &kernel, &info); bad != CUDA_SUCCESS) return bad;
  *numBlocks = core::kernel_max_active_blocks_per_sm(*kernel, *info, static_cast<uint32_t>(blockSize), dynamicSMemSize);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func, int blockSize,
                                                             size_t dynamicSMemSize) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                              CU_OCCUPANCY_DEFAULT);
}

// blockSizeToDynamicSMemSize, when given, says the dynamic shared memory of each block
// size; otherwise every size has dynamicSMemSize.
CUresult CUDAAPI cuOccupancyMaxPotentialBlockSizeWithFlags(int* minGridSize, int* blockSize, CUfunction func,
                                                           CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                           size_t dynamicSMemSize, int blockSizeLimit,
                                                           unsigned int flags) {
  if (!minGridSize || !blockSize || blockSizeLimit < 0 || (flags & ~unsigned{CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE}))
    return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = nullptr;
  const jit::KernelInfo* info = nullptr;
  if (CUresult bad = kernel_of(func, &kernel, &info); bad != CUDA_SUCCESS) return bad;
  auto dynamic_shared = [&](int size) {
    return blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
  };
  const core::PotentialBlockSize best = core::max_potential_block_size(*kernel, *info, dynamic_shared, blockSizeLimit);
  *minGridSize = best.min_grid_size;
  *blockSize = best.block_size;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                   dynamicSMemSize, blockSizeLimit, CU_OCCUPANCY_DEFAULT);
}

// Cluster occupancy (core/cluster_launch.h), as the runtime's cudaOccupancyMax*Cluster*.
CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int* clusterSize, CUfunction func, const CUlaunchConfig* config) {
  if (!clusterSize || !config || block_threads(*config) == 0)
    return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = nullptr;
  const jit::KernelInfo* info = nullptr;
  if (CUresult bad = kernel_of(func, &kernel, &info); bad != CUDA_SUCCESS) return bad;
  *clusterSize = core::potential_cluster_size(*kernel, *info, block_threads(*config), config->sharedMemBytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuOccupancyMaxActiveClusters(int* numClusters, CUfunction func, const CUlaunchConfig* config) {
  if (!numClusters || !config || (config->numAttrs > 0 && !config->attrs) || block_threads(*config) == 0)
    return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* kernel = nullptr;
  const jit::KernelInfo* info = nullptr;
  if (CUresult bad = kernel_of(func, &kernel, &info); bad != CUDA_SUCCESS) return bad;
  std::optional<exec::Dim3> given;
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      const auto& c = config->attrs[i].value.clusterDim;
      given = exec::Dim3{c.x, c.y, c.z};
    }
  Result<int> clusters = core::active_clusters(*kernel, *info, block_threads(*config), config->sharedMemBytes, given);
  if (!clusters) return driver::to_cu_result(clusters.error());
  *numClusters = *clusters;
  return CUDA_SUCCESS;
}

}  // extern "C"
