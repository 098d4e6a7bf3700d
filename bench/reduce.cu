// reduce: the sum of 2^25 floats by the classic shared-memory tree. Each 256-thread block
// loads its values, waits, then halves the stride level by level with a barrier after
// each; the last level (stride 1) is thread 0's own add, so a block waits at 8 barriers in
// all. A second launch, one block, sums the per-block partial sums the same way (each
// thread first adds up a strided share of them). Barrier-bound under cucpu today.
// OpenMP twin: reduce.cpp (the same tree per block, so the same rounding).
#include "common.h"
#include "cuda_check.h"

constexpr int kBlock = 256;

// The tree over sdata[0..blockDim.x): 7 levels with a barrier after each, then the last
// pair. The caller has filled sdata and passed a barrier.
__device__ float tree_sum(float* sdata, unsigned tid) {
    for (unsigned s = blockDim.x / 2; s > 1; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    return sdata[0] + sdata[1];
}

__global__ void block_sums(const float* in, float* partial, long n) {
    __shared__ float sdata[kBlock];
    const unsigned tid = threadIdx.x;
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + tid;
    sdata[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    const float sum = tree_sum(sdata, tid);
    if (tid == 0) partial[blockIdx.x] = sum;
}

__global__ void final_sum(const float* partial, long count, float* total) {
    __shared__ float sdata[kBlock];
    const unsigned tid = threadIdx.x;
    float sum = 0.0f;
    for (long j = tid; j < count; j += blockDim.x) sum += partial[j];
    sdata[tid] = sum;
    __syncthreads();
    sum = tree_sum(sdata, tid);
    if (tid == 0) *total = sum;
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, kBlock);
    const long n = options.size, blocks = n / kBlock;
    std::vector<float> in(n);
    for (long i = 0; i < n; ++i) in[i] = bench::uniform(i, 3);
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
    return bench::report_ms("reduce", "cuda", n, ms, check);
}
