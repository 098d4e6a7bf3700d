// shfl_reduce: the sum of 2^25 floats with warp shuffles. In each 256-thread block every
// warp sums its 32 values with a __shfl_down_sync tree (offsets 16, 8, 4, 2, 1), lane 0
// puts the warp's sum in shared memory, one __syncthreads, then warp 0 sums the 8 warp
// sums the same way. A second launch, one block, sums the per-block partial sums (each
// thread first adds up a strided share). Shuffle-bound under cucpu today.
// OpenMP twin: shfl_reduce.cpp (the same additions in the same order).
#include "common.h"
#include "cuda_check.h"

constexpr int kBlock = 256, kWarps = kBlock / 32;

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// The block's sum of each thread's v, valid in thread 0.
__device__ float block_sum(float v) {
    __shared__ float warp_sums[kWarps];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp != 0) return 0.0f;
    return warp_sum(lane < kWarps ? warp_sums[lane] : 0.0f);
}

__global__ void block_sums(const float* in, float* partial, long n) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const float sum = block_sum(i < n ? in[i] : 0.0f);
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
    std::vector<float> in(n);
    for (long i = 0; i < n; ++i) in[i] = bench::uniform(i, 7);
    DeviceBuffer<float> device_in(n), device_partial(blocks), device_total(1);
    device_in.upload(in.data());

    const double ms = bench::median_ms(options.runs, [&] {
        block_sums<<<blocks, kBlock>>>(device_in.get(), device_partial.get(), n);
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
        for (long i = b * kBlock; i < (b + 1) * kBlock; ++i) want += in[i];
        check.near("partial", b, partial[b], want, 1e-5);
        want_total += want;
    }
    check.near("total", 0, total, want_total, 1e-4);
    return bench::report_ms("shfl_reduce", "cuda", n, ms, check);
}
