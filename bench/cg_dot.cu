// cg_dot: the dot product of two vectors of 2^25 floats with cooperative groups. Each
// 256-thread block is split into thread_block_tile<32> tiles; cg::reduce sums each tile's
// products (a shfl_xor butterfly inside), tile leaders put the sums in shared memory,
// block.sync(), and tile 0 reduces the 8 tile sums. A second launch, one block, sums the
// per-block partial sums the same way. OpenMP twin: cg_dot.cpp.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common.h"
#include "cuda_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 256, kTiles = kBlock / 32;

// The block's sum of each thread's v, valid in thread 0.
__device__ float block_sum(float v) {
    __shared__ float tile_sums[kTiles];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() != 0) return 0.0f;
    return cg::reduce(tile, tile.thread_rank() < kTiles ? tile_sums[tile.thread_rank()] : 0.0f, cg::plus<float>());
}

__global__ void block_dots(const float* x, const float* y, float* partial, long n) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const float sum = block_sum(i < n ? x[i] * y[i] : 0.0f);
    if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

__global__ void final_sum(const float* partial, long count, float* total) {
    float sum = 0.0f;
    for (long j = threadIdx.x; j < count; j += blockDim.x) sum += partial[j];
    sum = block_sum(sum);
    if (threadIdx.x == 0) *total = sum;
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, kBlock);
    const long n = options.size, blocks = n / kBlock;
    std::vector<float> x(n), y(n);
    for (long i = 0; i < n; ++i) x[i] = bench::uniform(i, 18), y[i] = bench::uniform(i, 19);
    DeviceBuffer<float> device_x(n), device_y(n), device_partial(blocks), device_total(1);
    device_x.upload(x.data());
    device_y.upload(y.data());

    const double ms = bench::median_ms(options.runs, [&] {
        block_dots<<<blocks, kBlock>>>(device_x.get(), device_y.get(), device_partial.get(), n);
        CUDA_CHECK_LAUNCH();
        final_sum<<<1, kBlock>>>(device_partial.get(), blocks, device_total.get());
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    std::vector<float> partial(blocks);
    float total = 0;
    device_partial.download(partial.data());
    device_total.download(&total);
    bench::Check check;
    double want_total = 0;
    for (long b = 0; b < blocks; ++b) {
        double want = 0;
        for (long i = b * kBlock; i < (b + 1) * kBlock; ++i) want += static_cast<double>(x[i]) * y[i];
        check.near("partial", b, partial[b], want, 1e-5);
        want_total += want;
    }
    check.near("total", 0, total, want_total, 1e-4);
    return bench::report_ms("cg_dot", "cuda", n, ms, check);
}
