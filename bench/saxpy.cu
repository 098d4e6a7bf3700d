// saxpy, y = a*x + y over 2^25 floats: one element per thread in 256-thread blocks and no
// barrier, the kind of kernel cucpu runs without fibers. OpenMP twin: saxpy.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kBlock = 256;

__global__ void saxpy(long n, float a, const float* x, float* y) {
    const long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, kBlock);
    const long n = options.size;
    const float a = 0.5f;
    std::vector<float> x(n), y(n);
    for (long i = 0; i < n; ++i) x[i] = bench::uniform(i, 1), y[i] = bench::uniform(i, 2);
    DeviceBuffer<float> device_x(n), device_y(n);
    device_x.upload(x.data());
    device_y.upload(y.data());

    const double ms = bench::median_ms(options.runs, [&] {
        saxpy<<<n / kBlock, kBlock>>>(n, a, device_x.get(), device_y.get());
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    std::vector<float> result(n);
    device_y.download(result.data());
    // Every run (the warm-up too) updated y in place: the reference applies saxpy as often.
    bench::Check check;
    for (long i = 0; i < n; ++i) {
        double want = y[i];
        for (int run = 0; run <= options.runs; ++run) want = a * x[i] + want;
        check.near("y", i, result[i], want, 1e-5);
    }
    return bench::report_ms("saxpy", "cuda", n, ms, check);
}
