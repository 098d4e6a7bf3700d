// launch_latency: what a launch costs when the kernel does (next to) nothing. The kernel
// is one thread adding 1 to a counter, so the check can count the launches that ran.
//   launch_sync:  SIZE launches, each followed by cudaDeviceSynchronize: microseconds per
//                 launch + synchronize.
//   launch_async: SIZE launches in a row, one cudaDeviceSynchronize at the end: launches
//                 per second.
// OpenMP reference: launch_latency.cpp (an empty parallel region).
#include "common.h"
#include "cuda_check.h"

__global__ void count_launch(unsigned long long* counter) { *counter += 1; }

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 20000);
    const long launches = options.size;
    DeviceBuffer<unsigned long long> counter(1);
    CUDA_CHECK(cudaMemset(counter.get(), 0, sizeof(unsigned long long)));

    const double sync_ms = bench::median_ms(options.runs, [&] {
        for (long k = 0; k < launches; ++k) {
            count_launch<<<1, 1>>>(counter.get());
            CUDA_CHECK_LAUNCH();
            CUDA_CHECK(cudaDeviceSynchronize());
        }
    });
    const double async_ms = bench::median_ms(options.runs, [&] {
        for (long k = 0; k < launches; ++k) count_launch<<<1, 1>>>(counter.get());
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    unsigned long long counted = 0;
    counter.download(&counted);
    bench::Check check;
    check.equal("launches", 0, counted, 2LL * (options.runs + 1) * launches);
    const int status = bench::report("launch_sync", "cuda", launches, "us", sync_ms * 1000.0 / launches, check);
    return status | bench::report("launch_async", "cuda", launches, "per_s", launches / (async_ms / 1000.0), check);
}
