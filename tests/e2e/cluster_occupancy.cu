// How many thread block clusters an H100 holds at once (cudaOccupancyMaxActiveClusters), for
// the data to model its GPCs on: cluster sizes 1 to 16 with blocks of 128 to 1024 threads,
// and the conditions that may explain why 128-thread blocks of a kernel that uses no shared
// memory count only 8 to an SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor says 16): the
// shared memory carveout preference, dynamic shared memory, the cluster barrier.
// The H100's output (expected/cluster_occupancy.out) is what core/cluster_launch.cpp's
// model was fitted to; cucpu must print it byte for byte.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void with_cluster_sync(unsigned *out) {
    if (out) out[blockIdx.x] = cg::this_cluster().block_rank();
    cg::this_cluster().sync();
}

__global__ void without_cluster_sync(unsigned *out) {
    if (out) out[blockIdx.x] = blockIdx.x;
}

static const char *name_of(const void *kernel) {
    return kernel == (const void *)with_cluster_sync ? "with_cluster_sync" : "without_cluster_sync";
}

// cudaOccupancyMaxActiveClusters for a cluster of `size` blocks (0: no cluster attribute).
static void active_clusters(const void *kernel, unsigned size, unsigned threads, size_t shared) {
    cudaLaunchConfig_t config = {};
    config.gridDim = 16 * (size ? size : 1);  // a multiple of the cluster
    config.blockDim = threads;
    config.dynamicSmemBytes = shared;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = size;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = size ? 1 : 0;
    int value = -1;
    cudaError_t error = cudaOccupancyMaxActiveClusters(&value, kernel, &config);
    cudaGetLastError();
    int blocks = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared);
    printf("%s cluster %2u, %4u threads, dynamic %5zu: %s %4d (blocks/SM %d)\n", name_of(kernel), size, threads, shared,
           cudaGetErrorName(error), value, blocks);
}

int main() {
    cudaFuncSetAttribute((void *)with_cluster_sync, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaFuncSetAttribute((void *)without_cluster_sync, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    active_clusters((void *)with_cluster_sync, 0, 128, 0);  // no cluster shape
    active_clusters((void *)with_cluster_sync, 0, 1024, 0);
    for (const void *kernel : {(const void *)with_cluster_sync, (const void *)without_cluster_sync})
        for (unsigned size = 1; size <= 16; ++size)
            for (unsigned threads : {1024u, 512u, 256u, 128u, 64u}) active_clusters(kernel, size, threads, 0);
    for (size_t shared : {1024u, 3072u, 7168u, 15360u, 31744u})
        for (unsigned size : {1u, 2u, 4u, 8u, 16u}) active_clusters((void *)with_cluster_sync, size, 128, shared);
    for (int carveout : {100, 50, 0}) {
        cudaFuncSetAttribute((void *)with_cluster_sync, cudaFuncAttributePreferredSharedMemoryCarveout, carveout);
        printf("carveout preference %d%%\n", carveout);
        for (unsigned size : {1u, 2u, 4u, 8u, 16u}) active_clusters((void *)with_cluster_sync, size, 128, 0);
    }
    return 0;
}
