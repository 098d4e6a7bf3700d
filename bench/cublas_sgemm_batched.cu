// cublas_sgemm_batched, C_i = A_i * B_i for SIZE products of 16 x 16 floats through
// cublasSgemmStridedBatched (column-major, on the legacy stream): many small products, each too
// small for the CPU BLAS to split, so cucpu's library layer must spread the batch over the cores
// itself. Its twin (cublas_sgemm_batched.cpp) runs the same cblas_sgemm calls under an OpenMP
// loop over the batch.
// NVCC-FLAGS: -lcublas
#include <cublas_v2.h>

#include "common.h"
#include "cuda_check.h"

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 65536);
    const int n = 16;
    const long count = options.size, per = static_cast<long>(n) * n, elements = count * per;
    std::vector<float> a(elements), b(elements), c(elements);
    for (long i = 0; i < elements; ++i) a[i] = bench::uniform(i, 4), b[i] = bench::uniform(i, 5);
    DeviceBuffer<float> device_a(elements), device_b(elements), device_c(elements);
    device_a.upload(a.data());
    device_b.upload(b.data());
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    const float one = 1, zero = 0;

    const double ms = bench::median_ms(options.runs, [&] {
        if (cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, device_a.get(), n, per,
                                      device_b.get(), n, per, &zero, device_c.get(), n, per,
                                      static_cast<int>(count)) != CUBLAS_STATUS_SUCCESS)
            std::exit(1);
        CUDA_CHECK(cudaDeviceSynchronize());
    });
    device_c.download(c.data());
    cublasDestroy(handle);

    bench::Check check;
    for (long index : bench::check_indices(elements, 512, 6)) {
        const long base = index / per * per, i = index % per % n, j = index % per / n;
        double want = 0;
        for (long k = 0; k < n; ++k) want += static_cast<double>(a[base + i + k * n]) * b[base + k + j * n];
        check.near("C", index, c[index], want, 1e-4);
    }
    return bench::report_ms("cublas_sgemm_batched", "cuda", count, ms, check);
}
