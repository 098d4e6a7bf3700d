// The butterfly sum of NVIDIA's dxtc sample inside 16-lane cooperative-groups tiles, written
// so that it is correct under any scheduling of the tile's threads: each step loads the
// partner's value, syncs the tile, then stores, and syncs again before the next step reads.
// (dxtc's own version, with no barrier between a lane's load and its partner's store, needs
// lockstep execution: lockstep/tile16_exchange.cu.) Every lane must end with its tile's total.
// Cases: dxtc's shape (float3, a dynamic tiled_partition(cta, 16), only the first tile of a
// 64-thread block working), then all four tiles of the block with a static
// tiled_partition<16> and a dynamic tiled_partition(cta, 16).
#include <cstdio>

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 64, kBlocks = 2, kDxtcBlocks = 3;

__device__ void operator+=(float3& a, float3 b) {
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
}

__device__ void color_sums(const float3* colors, float3* sums, cg::thread_group tile) {
    const int idx = threadIdx.x;
    sums[idx] = colors[idx];
    cg::sync(tile);
    for (int d = 8; d > 0; d >>= 1) {
        const float3 partner = sums[idx ^ d];
        cg::sync(tile);  // every lane has loaded before any lane stores
        sums[idx] += partner;
        cg::sync(tile);  // every lane has stored before the next step loads
    }
}

__global__ void dxtc_first_tile(const float3* image, float3* out) {
    __shared__ float3 colors[16];
    __shared__ float3 sums[16];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(cta, 16);
    const int idx = threadIdx.x;
    if (idx < 16) {
        colors[idx] = image[blockIdx.x * 16 + idx];
        cg::sync(tile);
        color_sums(colors, sums, tile);
        out[blockIdx.x * 16 + idx] = sums[idx];
    }
}

template <bool Static>
__global__ void all_tiles(const int* in, int* out) {
    __shared__ int sums[kThreads];
    cg::thread_block cta = cg::this_thread_block();
    auto tile = [&] {
        if constexpr (Static)
            return cg::tiled_partition<16>(cta);
        else
            return cg::tiled_partition(cta, 16);
    }();
    const int idx = threadIdx.x;
    sums[idx] = in[blockIdx.x * kThreads + idx];
    tile.sync();
    for (int d = 8; d > 0; d >>= 1) {
        const int partner = sums[idx ^ d];
        tile.sync();
        sums[idx] += partner;
        tile.sync();
    }
    out[blockIdx.x * kThreads + idx] = sums[idx];
}

template <bool Static>
void run_all_tiles(const char* title, const int* d_in, int* d_out, const int* in) {
    all_tiles<Static><<<kBlocks, kThreads>>>(d_in, d_out);
    int out[kBlocks * kThreads];
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    printf("%s (%s):\n", title, cudaGetErrorName(cudaGetLastError()));
    int wrong = 0;
    for (int t = 0; t < kBlocks * kThreads / 16; ++t) {
        int total = 0;
        for (int i = 0; i < 16; ++i) total += in[t * 16 + i];
        printf("  block %d tile %d, total %4d:", t / (kThreads / 16), t % (kThreads / 16), total);
        for (int i = 0; i < 16; ++i) {
            printf(" %4d", out[t * 16 + i]);
            wrong += out[t * 16 + i] != total;
        }
        printf("\n");
    }
    printf("  lanes without their tile's total: %d\n", wrong);
}

int main() {
    float3 image[kDxtcBlocks * 16];
    for (int i = 0; i < kDxtcBlocks * 16; ++i)
        image[i] = make_float3(static_cast<float>(i % 7), static_cast<float>((i * 5) % 9), static_cast<float>(i / 4));
    float3 *d_image, *d_sums;
    cudaMalloc(&d_image, sizeof image);
    cudaMalloc(&d_sums, sizeof image);
    cudaMemcpy(d_image, image, sizeof image, cudaMemcpyHostToDevice);
    dxtc_first_tile<<<kDxtcBlocks, kThreads>>>(d_image, d_sums);
    float3 sums[kDxtcBlocks * 16];
    cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost);
    printf("dxtc colorSums with a barrier between load and store, first tile of %d blocks of %d (%s):\n",
           kDxtcBlocks, kThreads, cudaGetErrorName(cudaGetLastError()));
    int wrong = 0;
    for (int b = 0; b < kDxtcBlocks; ++b) {
        float3 total = make_float3(0, 0, 0);
        for (int i = 0; i < 16; ++i) {
            total.x += image[b * 16 + i].x;
            total.y += image[b * 16 + i].y;
            total.z += image[b * 16 + i].z;
        }
        for (int i = 0; i < 16; ++i) {
            const float3 v = sums[b * 16 + i];
            wrong += v.x != total.x || v.y != total.y || v.z != total.z;
        }
        printf("  block %d, totals %.0f %.0f %.0f, lane 15 has %.0f %.0f %.0f\n", b, total.x, total.y, total.z,
               sums[b * 16 + 15].x, sums[b * 16 + 15].y, sums[b * 16 + 15].z);
    }
    printf("  lanes without their block's totals: %d\n", wrong);

    int in[kBlocks * kThreads];
    for (int i = 0; i < kBlocks * kThreads; ++i) in[i] = (i * 37) % 23 + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof in);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    run_all_tiles<true>("tiled_partition<16>, load; tile.sync(); store; tile.sync()", d_in, d_out, in);
    run_all_tiles<false>("tiled_partition(cta, 16), load; tile.sync(); store; tile.sync()", d_in, d_out, in);
    cudaFree(d_image);
    cudaFree(d_sums);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
