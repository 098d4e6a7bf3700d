// stencil: one sweep of a 5-point stencil over a 4096 x 4096 float grid,
// out = 0.5 * centre + 0.125 * (north + south + west + east), zero outside the grid.
// Each 16 x 16 block loads its tile and a one-cell halo into shared memory (the edge
// threads load the halo), barrier, then computes from shared memory. OpenMP twin:
// stencil.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kTile = 16;

__global__ void stencil(const float* in, float* out, int n) {
    __shared__ float tile[kTile + 2][kTile + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
    const long at = static_cast<long>(y) * n + x;
    tile[ty + 1][tx + 1] = in[at];
    if (ty == 0) tile[0][tx + 1] = y > 0 ? in[at - n] : 0.0f;
    if (ty == kTile - 1) tile[kTile + 1][tx + 1] = y + 1 < n ? in[at + n] : 0.0f;
    if (tx == 0) tile[ty + 1][0] = x > 0 ? in[at - 1] : 0.0f;
    if (tx == kTile - 1) tile[ty + 1][kTile + 1] = x + 1 < n ? in[at + 1] : 0.0f;
    __syncthreads();
    out[at] = 0.5f * tile[ty + 1][tx + 1] +
              0.125f * (tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 4096, kTile);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> in(elements), out(elements);
    for (long i = 0; i < elements; ++i) in[i] = bench::uniform(i, 11);
    DeviceBuffer<float> device_in(elements), device_out(elements);
    device_in.upload(in.data());

    const double ms = bench::median_ms(options.runs, [&] {
        stencil<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(device_in.get(), device_out.get(), n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    device_out.download(out.data());
    auto value = [&](long y, long x) { return y < 0 || y >= n || x < 0 || x >= n ? 0.0 : in[y * n + x]; };
    bench::Check check;
    for (long y = 0; y < n; ++y)
        for (long x = 0; x < n; ++x) {
            const double want =
                0.5 * value(y, x) + 0.125 * (value(y - 1, x) + value(y + 1, x) + value(y, x - 1) + value(y, x + 1));
            check.near("out", y * n + x, out[y * n + x], want, 1e-6);
        }
    return bench::report_ms("stencil", "cuda", n, ms, check);
}
