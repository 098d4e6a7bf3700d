// A butterfly sum inside 16-lane cooperative-groups tiles, as NVIDIA's dxtc sample computes
// the colour sums of a 4x4 block (colorSums in its CudaMath.h):
//     sums[idx] += sums[idx ^ 8]; sums[idx] += sums[idx ^ 4]; ... sums[idx ^ 1]
// dxtc syncs the tile between steps, but within a step lane idx loads sums[idx ^ d] while
// lane idx ^ d stores to it, with no barrier between: a data race under the CUDA memory
// model that an H100 resolves the same way every time, because the tile's converged lanes
// run each instruction together (all loads of the step before all its stores). Lockstep
// leaves the tile's total in all 16 lanes; a lane that loads after its partner's store adds
// the partner's value twice.
// Cases: dxtc's own shape (float3, a dynamic tiled_partition(cta, 16), only the first tile
// of a 64-thread block working, the rest of its warp idle), then all four tiles of the block
// with a static tiled_partition<16> and a dynamic one, each with dxtc's barriers between
// steps and with no barrier at all. The version that is correct under any scheduling is
// tile16_exchange_synced.cu.
#include <cstdio>

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 64, kBlocks = 2, kDxtcBlocks = 3;

__device__ void operator+=(float3& a, float3 b) {
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
}

// dxtc's colorSums: a tile barrier between the steps, none inside a step.
__device__ void color_sums(const float3* colors, float3* sums, cg::thread_group tile) {
    const int idx = threadIdx.x;
    sums[idx] = colors[idx];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 8];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 4];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 2];
    cg::sync(tile);
    sums[idx] += sums[idx ^ 1];
}

// As dxtc's loadColorBlock: the tile is made by the whole block, only threads 0-15 use it.
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
        cg::sync(tile);
        out[blockIdx.x * 16 + idx] = sums[idx];
    }
}

// Every tile of the block sums its own 16 values; Tile is thread_block_tile<16> (static) or
// thread_group (dynamic). SyncBetweenSteps: dxtc's barriers, or none after the first store.
template <bool Static, bool SyncBetweenSteps>
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
        sums[idx] += sums[idx ^ d];
        if (SyncBetweenSteps) tile.sync();
    }
    tile.sync();
    out[blockIdx.x * kThreads + idx] = sums[idx];
}

template <bool Static, bool SyncBetweenSteps>
void run_all_tiles(const char* title, const int* d_in, int* d_out, const int* in) {
    all_tiles<Static, SyncBetweenSteps><<<kBlocks, kThreads>>>(d_in, d_out);
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
    // Small whole numbers: every order of the float additions gives the same sums.
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
    printf("dxtc colorSums, first tile of %d blocks of %d (%s):\n", kDxtcBlocks, kThreads,
           cudaGetErrorName(cudaGetLastError()));
    int wrong = 0;
    for (int b = 0; b < kDxtcBlocks; ++b) {
        float3 total = make_float3(0, 0, 0);
        for (int i = 0; i < 16; ++i) {
            total.x += image[b * 16 + i].x;
            total.y += image[b * 16 + i].y;
            total.z += image[b * 16 + i].z;
        }
        printf("  block %d, totals %.0f %.0f %.0f\n", b, total.x, total.y, total.z);
        const char* axis[3] = {"x", "y", "z"};
        for (int c = 0; c < 3; ++c) {
            printf("    %s:", axis[c]);
            for (int i = 0; i < 16; ++i) {
                const float3 v = sums[b * 16 + i];
                const float got = c == 0 ? v.x : c == 1 ? v.y : v.z, want = c == 0 ? total.x : c == 1 ? total.y : total.z;
                printf(" %3.0f", got);
                wrong += got != want;
            }
            printf("\n");
        }
    }
    printf("  sums without their block's total: %d\n", wrong);

    int in[kBlocks * kThreads];
    for (int i = 0; i < kBlocks * kThreads; ++i) in[i] = (i * 37) % 23 + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof in);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    run_all_tiles<true, true>("tiled_partition<16>, tile.sync() between steps", d_in, d_out, in);
    run_all_tiles<true, false>("tiled_partition<16>, no barrier between steps", d_in, d_out, in);
    run_all_tiles<false, true>("tiled_partition(cta, 16), tile.sync() between steps", d_in, d_out, in);
    run_all_tiles<false, false>("tiled_partition(cta, 16), no barrier between steps", d_in, d_out, in);
    cudaFree(d_image);
    cudaFree(d_sums);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
