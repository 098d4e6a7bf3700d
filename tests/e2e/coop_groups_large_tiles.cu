// Cooperative-groups tiles larger than a warp (64, 128, 256 threads): on sm_80 and later
// they keep their barriers and exchange slots in the reserved shared memory at the start
// of the block's window (%reserved_smem_offset_1). Each tile syncs, reduces, exchanges a
// value through shared memory of its own, and reports its rank and size.
// A kernel with user shared memory beside it checks that the two do not overlap, and the
// reserved window's offsets are printed as the device reports them.
#include <cstdio>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <unsigned TileSize>
__global__ void tiles(const int* in, int* sums, int* ranks, int* neighbours) {
    __shared__ int scratch[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TileSize> tile = cg::tiled_partition<TileSize>(block);
    const unsigned t = block.thread_rank();
    const int value = in[blockIdx.x * blockDim.x + t];
    scratch[t] = value * 3;
    tile.sync();
    // A neighbour inside the same tile, visible after the tile's barrier.
    neighbours[blockIdx.x * blockDim.x + t] = scratch[tile.meta_group_rank() * TileSize + (tile.thread_rank() + 1) % TileSize];
    const int sum = cg::reduce(tile, value, cg::plus<int>());
    if (tile.thread_rank() == 0) sums[blockIdx.x * (blockDim.x / TileSize) + tile.meta_group_rank()] = sum;
    ranks[blockIdx.x * blockDim.x + t] = tile.thread_rank() + 1000 * tile.meta_group_rank() + 100000 * tile.num_threads();
}

__global__ void reserved_offsets(unsigned* out) {
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(out[0]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(out[1]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(out[2]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(out[3]));
}

template <unsigned TileSize>
int run(const int* d_in, const int* h_in, int blocks, int threads) {
    const int n = blocks * threads, tiles_per_block = threads / TileSize;
    int *d_sums, *d_ranks, *d_neighbours;
    cudaMalloc(&d_sums, blocks * tiles_per_block * sizeof(int));
    cudaMalloc(&d_ranks, n * sizeof(int));
    cudaMalloc(&d_neighbours, n * sizeof(int));
    tiles<TileSize><<<blocks, threads>>>(d_in, d_sums, d_ranks, d_neighbours);
    cudaError_t status = cudaDeviceSynchronize();
    int* sums = new int[blocks * tiles_per_block];
    int* ranks = new int[n];
    int* neighbours = new int[n];
    cudaMemcpy(sums, d_sums, blocks * tiles_per_block * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(ranks, d_ranks, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(neighbours, d_neighbours, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int b = 0; b < blocks; ++b)
        for (int k = 0; k < tiles_per_block; ++k) {
            int want = 0;
            for (unsigned i = 0; i < TileSize; ++i) want += h_in[b * threads + k * TileSize + i];
            wrong += sums[b * tiles_per_block + k] != want;
            for (unsigned i = 0; i < TileSize; ++i) {
                const int at = b * threads + k * TileSize + i;
                wrong += ranks[at] != static_cast<int>(i + 1000 * k + 100000 * TileSize);
                wrong += neighbours[at] != 3 * h_in[b * threads + k * TileSize + (i + 1) % TileSize];
            }
        }
    printf("tile %3u, %d blocks of %d: %s, block 1 tile 1 sum %d, wrong %d\n", TileSize, blocks, threads,
           cudaGetErrorName(status), sums[tiles_per_block + 1], wrong);
    cudaFree(d_sums);
    cudaFree(d_ranks);
    cudaFree(d_neighbours);
    delete[] sums;
    delete[] ranks;
    delete[] neighbours;
    return wrong;
}

int main() {
    const int blocks = 40, threads = 256, n = blocks * threads;
    int* h_in = new int[n];
    for (int i = 0; i < n; ++i) h_in[i] = (i * 7919) % 1000 - 500;
    int* d_in;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice);
    int wrong = run<64>(d_in, h_in, blocks, threads) + run<128>(d_in, h_in, blocks, threads) +
                run<256>(d_in, h_in, blocks, threads) + run<32>(d_in, h_in, blocks, threads);
    unsigned* d_offsets;
    unsigned offsets[4];
    cudaMalloc(&d_offsets, sizeof(offsets));
    reserved_offsets<<<1, 1>>>(d_offsets);
    cudaMemcpy(offsets, d_offsets, sizeof(offsets), cudaMemcpyDeviceToHost);
    printf("reserved shared memory: begin %u end %u cap %u offset_1 %u\n", offsets[0], offsets[1], offsets[2],
           offsets[3]);
    int reserved = -1;
    cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0);
    printf("cudaDevAttrReservedSharedMemoryPerBlock %d\n", reserved);
    printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
