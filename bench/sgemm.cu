// sgemm, C = A * B for 1024 x 1024 floats: the CUDA Programming Guide's shared-memory
// matrix multiplication ("Shared Memory" section). Each 16 x 16 block computes one tile
// of C, walking k a tile at a time: load a tile of A and of B into As and Bs, barrier,
// 16 multiply-adds per thread, barrier (128 barriers per block at 1024).
// OpenMP twin: sgemm.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kTile = 16;

__global__ void sgemm(const float* A, const float* B, float* C, int n) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int row = threadIdx.y, col = threadIdx.x;
    const int c_row = blockIdx.y * kTile + row, c_col = blockIdx.x * kTile + col;
    float sum = 0.0f;
    for (int m = 0; m < n / kTile; ++m) {
        As[row][col] = A[c_row * n + m * kTile + col];
        Bs[row][col] = B[(m * kTile + row) * n + c_col];
        __syncthreads();  // the tiles are loaded before anyone uses them
        for (int e = 0; e < kTile; ++e) sum += As[row][e] * Bs[e][col];
        __syncthreads();  // everyone is done with the tiles before they are overwritten
    }
    C[c_row * n + c_col] = sum;
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1024, kTile);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> a(elements), b(elements), c(elements);
    for (long i = 0; i < elements; ++i) a[i] = bench::uniform(i, 4), b[i] = bench::uniform(i, 5);
    DeviceBuffer<float> device_a(elements), device_b(elements), device_c(elements);
    device_a.upload(a.data());
    device_b.upload(b.data());

    const double ms = bench::median_ms(options.runs, [&] {
        sgemm<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(device_a.get(), device_b.get(), device_c.get(), n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    device_c.download(c.data());
    bench::Check check;
    for (long index : bench::check_indices(elements, 4096, 6)) {
        const long i = index / n, j = index % n;
        double want = 0;
        for (long k = 0; k < n; ++k) want += static_cast<double>(a[i * n + k]) * b[k * n + j];
        check.near("C", index, c[index], want, 1e-5);
    }
    return bench::report_ms("sgemm", "cuda", n, ms, check);
}
