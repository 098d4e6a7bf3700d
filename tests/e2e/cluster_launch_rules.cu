// Thread block clusters as the H100 validates and reports them: launch errors
// (cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension), cudaFuncGetAttributes'
// cluster fields, cudaFuncSetAttribute's cluster attributes, cudaOccupancyMaxPotentialClusterSize
// and cudaOccupancyMaxActiveClusters' errors (its numbers: cluster_occupancy.cu), and the
// cluster special registers of a 3D cluster
// (CUDA Programming Guide "Thread Block Clusters"; PTX ISA 10.x %cluster_*).
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void plain(unsigned *out) {
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0 && out) {
        dim3 in_cluster = cluster.block_index(), shape = cluster.dim_blocks();
        out[block * 8 + 0] = cluster.block_rank();
        out[block * 8 + 1] = cluster.num_blocks();
        out[block * 8 + 2] = in_cluster.x + 10 * in_cluster.y + 100 * in_cluster.z;
        out[block * 8 + 3] = shape.x + 10 * shape.y + 100 * shape.z;
        dim3 id = __clusterIdx(), ids = __clusterGridDimInClusters();
        out[block * 8 + 4] = id.x + 10 * id.y + 100 * id.z;
        out[block * 8 + 5] = ids.x + 10 * ids.y + 100 * ids.z;
        out[block * 8 + 6] = __clusterDimIsSpecified();
        out[block * 8 + 7] = cluster.thread_rank() == threadIdx.x + blockDim.x * cluster.block_rank();
    }
    cluster.sync();
}

__global__ void __cluster_dims__(2, 1, 1) fixed_pair(unsigned *out) {
    if (threadIdx.x == 0 && out) out[blockIdx.x] = cg::this_cluster().block_rank();
}

static cudaError_t launch(const void *kernel, dim3 grid, dim3 block, dim3 cluster, bool with_cluster,
                          unsigned *out, size_t shared = 0) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = cluster.x;
    attribute[0].val.clusterDim.y = cluster.y;
    attribute[0].val.clusterDim.z = cluster.z;
    config.attrs = attribute;
    config.numAttrs = with_cluster ? 1 : 0;
    void *args[] = {&out};
    cudaError_t error = cudaLaunchKernelExC(&config, kernel, args);
    cudaError_t synced = cudaDeviceSynchronize();
    cudaGetLastError();
    return error != cudaSuccess ? error : synced;
}

static void report(const char *what, cudaError_t error) { printf("%-58s %s\n", what, cudaGetErrorName(error)); }

int main() {
    unsigned *d_out;
    cudaMalloc(&d_out, 64 * 8 * sizeof(unsigned));

    report("grid 8, cluster 2", launch((void *)plain, 8, 32, 2, true, nullptr));
    report("grid 6, cluster 4 (not a multiple)", launch((void *)plain, 6, 32, 4, true, nullptr));
    report("grid (4,3), cluster (2,2) (y not a multiple)", launch((void *)plain, dim3(4, 3), 32, dim3(2, 2), true, nullptr));
    report("cluster 0x1x1", launch((void *)plain, 8, 32, dim3(0, 1, 1), true, nullptr));
    report("cluster 8 (portable maximum)", launch((void *)plain, 16, 32, 8, true, nullptr));
    report("cluster 16 without non-portable", launch((void *)plain, 16, 32, 16, true, nullptr));
    report("cluster 32 without non-portable", launch((void *)plain, 32, 32, 32, true, nullptr));
    report("set NonPortableClusterSizeAllowed 1",
           cudaFuncSetAttribute((void *)plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    report("cluster 16 with non-portable", launch((void *)plain, 16, 32, 16, true, nullptr));
    report("cluster (4,4,1) with non-portable", launch((void *)plain, dim3(4, 4), 32, dim3(4, 4), true, nullptr));
    report("cluster 32 with non-portable", launch((void *)plain, 32, 32, 32, true, nullptr));
    report("set NonPortableClusterSizeAllowed 2",
           cudaFuncSetAttribute((void *)plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 2));
    cudaGetLastError();
    report("__cluster_dims__(2) kernel, no attribute, grid 8", launch((void *)fixed_pair, 8, 32, 1, false, nullptr));
    report("__cluster_dims__(2) kernel, no attribute, grid 7", launch((void *)fixed_pair, 7, 32, 1, false, nullptr));
    report("__cluster_dims__(2) kernel, attribute 2", launch((void *)fixed_pair, 8, 32, 2, true, nullptr));
    report("__cluster_dims__(2) kernel, attribute 4", launch((void *)fixed_pair, 8, 32, 4, true, nullptr));
    report("__cluster_dims__(2) kernel, <<<8, 32>>>", (fixed_pair<<<8, 32>>>(nullptr), cudaDeviceSynchronize()));
    report("set RequiredClusterWidth on __cluster_dims__ kernel",
           cudaFuncSetAttribute((void *)fixed_pair, cudaFuncAttributeRequiredClusterWidth, 4));
    cudaGetLastError();

    cudaFuncAttributes attributes;
    for (const void *kernel : {(const void *)plain, (const void *)fixed_pair}) {
        cudaFuncGetAttributes(&attributes, kernel);
        printf("attributes of %s: clusterDimMustBeSet %d required %dx%dx%d policy %d nonPortable %d\n",
               kernel == (const void *)plain ? "plain" : "fixed_pair", attributes.clusterDimMustBeSet,
               attributes.requiredClusterWidth, attributes.requiredClusterHeight, attributes.requiredClusterDepth,
               attributes.clusterSchedulingPolicyPreference, attributes.nonPortableClusterSizeAllowed);
    }

    cudaLaunchConfig_t config = {};
    config.gridDim = 16;
    config.blockDim = 128;
    int value = -1;
    cudaFuncSetAttribute((void *)plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 0);
    report("MaxPotentialClusterSize (plain, portable)", cudaOccupancyMaxPotentialClusterSize(&value, (void *)plain, &config));
    printf("  -> %d\n", value);
    cudaFuncSetAttribute((void *)plain, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    report("MaxPotentialClusterSize (plain, non-portable)", cudaOccupancyMaxPotentialClusterSize(&value, (void *)plain, &config));
    printf("  -> %d\n", value);
    report("MaxPotentialClusterSize (fixed_pair)", cudaOccupancyMaxPotentialClusterSize(&value, (void *)fixed_pair, &config));
    printf("  -> %d\n", value);
    report("MaxActiveClusters without a cluster shape", cudaOccupancyMaxActiveClusters(&value, (void *)plain, &config));
    cudaGetLastError();
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    config.attrs = attribute;
    config.numAttrs = 1;
    // How many clusters fit at once (cudaOccupancyMaxActiveClusters' numbers): cluster_occupancy.cu.
    attribute[0].val.clusterDim.x = 4;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    report("MaxActiveClusters (fixed_pair, shape 4)", cudaOccupancyMaxActiveClusters(&value, (void *)fixed_pair, &config));
    cudaGetLastError();

    // Special registers and cooperative_groups in 3D clusters of a 3D grid.
    const dim3 grid(4, 2, 2), cluster(2, 1, 2);
    report("grid (4,2,2), cluster (2,1,2)", launch((void *)plain, grid, 32, cluster, true, d_out));
    unsigned out[16 * 8];
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    for (unsigned block = 0; block < 16; ++block) {
        printf("block %2u: rank %u of %u, index %03u of %03u, cluster %03u of %03u, specified %u, thread rank ok %u\n", block,
               out[block * 8 + 0], out[block * 8 + 1], out[block * 8 + 2], out[block * 8 + 3], out[block * 8 + 4],
               out[block * 8 + 5], out[block * 8 + 6], out[block * 8 + 7]);
    }
    report("grid (3,1,1) without a cluster", launch((void *)plain, 3, 32, 1, false, d_out));
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    for (unsigned block = 0; block < 3; ++block) {
        printf("block %2u: rank %u of %u, index %03u of %03u, cluster %03u of %03u, specified %u, thread rank ok %u\n", block,
               out[block * 8 + 0], out[block * 8 + 1], out[block * 8 + 2], out[block * 8 + 3], out[block * 8 + 4],
               out[block * 8 + 5], out[block * 8 + 6], out[block * 8 + 7]);
    }
    cudaFree(d_out);
    return 0;
}
