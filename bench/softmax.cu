// softmax of each row of a 32768 x 1024 float matrix, one warp per row (8 rows per
// 256-thread block): each lane takes every 32nd element, then the row's maximum and the
// sum of exp(x - max) are combined across the warp with __shfl_xor_sync butterflies (all
// lanes end with the same value), and each lane writes its elements' exp(x - max) / sum.
// No shared memory, no block barrier: only warp shuffles. OpenMP twin: softmax.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kCols = 1024, kBlock = 256, kRowsPerBlock = kBlock / 32;

__device__ float warp_max(float v) {
    for (int mask = 16; mask > 0; mask >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
}

__device__ float warp_sum(float v) {
    for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask);
    return v;
}

__global__ void softmax_rows(const float* in, float* out) {
    const int lane = threadIdx.x % 32;
    const long row = static_cast<long>(blockIdx.x) * kRowsPerBlock + threadIdx.x / 32;
    const float* x = in + row * kCols;
    float* y = out + row * kCols;
    float row_max = -INFINITY;
    for (int c = lane; c < kCols; c += 32) row_max = fmaxf(row_max, x[c]);
    row_max = warp_max(row_max);
    float sum = 0.0f;
    for (int c = lane; c < kCols; c += 32) sum += expf(x[c] - row_max);
    const float inverse = 1.0f / warp_sum(sum);
    for (int c = lane; c < kCols; c += 32) y[c] = expf(x[c] - row_max) * inverse;
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 32768, kRowsPerBlock);
    const long rows = options.size, elements = rows * kCols;
    std::vector<float> in(elements), out(elements);
    for (long i = 0; i < elements; ++i) in[i] = 8.0f * bench::uniform(i, 17) - 4.0f;
    DeviceBuffer<float> device_in(elements), device_out(elements);
    device_in.upload(in.data());

    const double ms = bench::median_ms(options.runs, [&] {
        softmax_rows<<<rows / kRowsPerBlock, kBlock>>>(device_in.get(), device_out.get());
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    device_out.download(out.data());
    bench::Check check;
    for (long row = 0; row < rows; ++row) {
        const float* x = &in[row * kCols];
        const double row_max = *std::max_element(x, x + kCols);
        double sum = 0;
        for (int c = 0; c < kCols; ++c) sum += std::exp(x[c] - row_max);
        for (int c = 0; c < kCols; ++c)
            check.near("y", row * kCols + c, out[row * kCols + c], std::exp(x[c] - row_max) / sum, 1e-5, 0.0);
    }
    return bench::report_ms("softmax", "cuda", rows, ms, check);
}
