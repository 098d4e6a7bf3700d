// histogram: 256 bins over 2^25 bytes. Each 256-thread block counts 4096 consecutive
// bytes into a private histogram in shared memory with shared-memory atomics (zeroed,
// barrier, count, barrier), then adds each of its bins to the global histogram with one
// global atomicAdd per bin. Counts are exact. OpenMP twin: histogram.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kBins = 256, kBlock = 256, kPerThread = 16;  // a thread per bin
constexpr long kPerBlock = kBlock * kPerThread;

__global__ void histogram(const unsigned char* data, unsigned* bins, long n) {
    __shared__ unsigned local[kBins];
    local[threadIdx.x] = 0;
    __syncthreads();
    const long start = static_cast<long>(blockIdx.x) * kPerBlock;
    for (int k = 0; k < kPerThread; ++k) {
        const long i = start + k * kBlock + threadIdx.x;
        if (i < n) atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25);
    const long n = options.size, blocks = (n + kPerBlock - 1) / kPerBlock;
    std::vector<unsigned char> data(n);
    for (long i = 0; i < n; ++i) data[i] = bench::hash(i, 9) >> 24;
    DeviceBuffer<unsigned char> device_data(n);
    DeviceBuffer<unsigned> device_bins(kBins);
    device_data.upload(data.data());

    const double ms = bench::median_ms(options.runs, [&] {
        CUDA_CHECK(cudaMemsetAsync(device_bins.get(), 0, kBins * sizeof(unsigned)));
        histogram<<<blocks, kBlock>>>(device_data.get(), device_bins.get(), n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    std::vector<unsigned> bins(kBins);
    device_bins.download(bins.data());
    std::vector<long> want(kBins);
    for (long i = 0; i < n; ++i) ++want[data[i]];
    bench::Check check;
    for (int bin = 0; bin < kBins; ++bin) check.equal("bins", bin, bins[bin], want[bin]);
    return bench::report_ms("histogram", "cuda", n, ms, check);
}
