// transpose of a 4096 x 4096 float matrix through a padded shared tile: 32 x 8 threads
// copy a 32 x 32 tile (4 rows each) into tile[32][33] (the extra column keeps the column
// reads free of bank conflicts on a GPU), barrier, then write it out transposed, so both
// the reads and the writes of global memory run along rows. OpenMP twin: transpose.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kTile = 32, kRows = 8;

__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[kTile][kTile + 1];
    int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<long>(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows) out[static_cast<long>(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 4096, kTile);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> in(elements), out(elements);
    for (long i = 0; i < elements; ++i) in[i] = bench::uniform(i, 10);
    DeviceBuffer<float> device_in(elements), device_out(elements);
    device_in.upload(in.data());

    const double ms = bench::median_ms(options.runs, [&] {
        transpose<<<dim3(n / kTile, n / kTile), dim3(kTile, kRows)>>>(device_in.get(), device_out.get(), n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    device_out.download(out.data());
    bench::Check check;
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) check.near("out", i * n + j, out[i * n + j], in[j * n + i], 0.0);
    return bench::report_ms("transpose", "cuda", n, ms, check);
}
