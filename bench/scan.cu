// scan: the inclusive prefix sum of 2^25 unsigned integers. Each 256-thread block scans
// its values in shared memory (Hillis-Steele, double-buffered: 8 steps, a barrier after
// each) and writes its total; the totals are scanned the same way (recursively, until one
// block holds them all), and a last pass adds each block's offset, the scanned total of
// the blocks before it. Integers, so the result is exact. OpenMP twin: scan.cpp.
#include <memory>

#include "common.h"
#include "cuda_check.h"

constexpr int kBlock = 256;

// In place is allowed (in == out): every thread reads its value before the first barrier.
__global__ void scan_blocks(const unsigned* in, unsigned* out, unsigned* block_totals, long n) {
    __shared__ unsigned buffer[2][kBlock];
    const unsigned tid = threadIdx.x;
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + tid;
    int current = 0;
    buffer[0][tid] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
        const unsigned value = buffer[current][tid];
        buffer[1 - current][tid] = tid >= offset ? value + buffer[current][tid - offset] : value;
        current = 1 - current;
        __syncthreads();
    }
    if (i < n) out[i] = buffer[current][tid];
    if (tid == blockDim.x - 1) block_totals[blockIdx.x] = buffer[current][tid];
}

__global__ void add_block_offsets(unsigned* out, const unsigned* scanned_totals, long n) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n) out[i] += scanned_totals[blockIdx.x - 1];
}

static long block_count(long n) { return (n + kBlock - 1) / kBlock; }

// totals[level] holds the block totals of the scan at that level of the recursion.
static void inclusive_scan(const unsigned* in, unsigned* out, long n, const std::vector<unsigned*>& totals,
                           int level) {
    const long blocks = block_count(n);
    scan_blocks<<<blocks, kBlock>>>(in, out, totals[level], n);
    CUDA_CHECK_LAUNCH();
    if (blocks == 1) return;
    inclusive_scan(totals[level], totals[level], blocks, totals, level + 1);
    add_block_offsets<<<blocks, kBlock>>>(out, totals[level], n);
    CUDA_CHECK_LAUNCH();
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25);
    const long n = options.size;
    std::vector<unsigned> in(n), out(n);
    for (long i = 0; i < n; ++i) in[i] = bench::hash(i, 8) % 8;
    DeviceBuffer<unsigned> device_in(n), device_out(n);
    device_in.upload(in.data());
    std::vector<std::unique_ptr<DeviceBuffer<unsigned>>> total_buffers;
    std::vector<unsigned*> totals;
    for (long count = n; ; count = block_count(count)) {
        total_buffers.push_back(std::make_unique<DeviceBuffer<unsigned>>(block_count(count)));
        totals.push_back(total_buffers.back()->get());
        if (block_count(count) == 1) break;
    }

    const double ms = bench::median_ms(options.runs, [&] {
        inclusive_scan(device_in.get(), device_out.get(), n, totals, 0);
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    device_out.download(out.data());
    bench::Check check;
    unsigned long long want = 0;
    for (long i = 0; i < n; ++i) {
        want += in[i];
        check.equal("scan", i, out[i], want);
    }
    return bench::report_ms("scan", "cuda", n, ms, check);
}
