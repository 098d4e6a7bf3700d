// cublas_sgemm, C = A * B for n x n floats through cuBLAS (cublasSgemm, column-major, on the
// legacy stream): under cucpu the call runs OpenBLAS in stream order, so this measures what
// the library layer costs over the CPU BLAS called directly (cublas_sgemm.cpp, the same
// cblas_sgemm). The issue's target: 4096³ within 1.2x.
// NVCC-FLAGS: -lcublas
#include <cublas_v2.h>

#include "common.h"
#include "cuda_check.h"

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 4096);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> a(elements), b(elements), c(elements);
    for (long i = 0; i < elements; ++i) a[i] = bench::uniform(i, 4), b[i] = bench::uniform(i, 5);
    DeviceBuffer<float> device_a(elements), device_b(elements), device_c(elements);
    device_a.upload(a.data());
    device_b.upload(b.data());
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
    const float one = 1, zero = 0;

    const double ms = bench::median_ms(options.runs, [&] {
        if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, device_a.get(), n, device_b.get(), n, &zero,
                        device_c.get(), n) != CUBLAS_STATUS_SUCCESS)
            std::exit(1);
        CUDA_CHECK(cudaDeviceSynchronize());
    });
    device_c.download(c.data());
    cublasDestroy(handle);

    bench::Check check;
    for (long index : bench::check_indices(elements, 512, 6)) {
        const long i = index % n, j = index / n;  // column-major
        double want = 0;
        for (long k = 0; k < n; ++k) want += static_cast<double>(a[i + k * n]) * b[k + j * n];
        check.near("C", index, c[index], want, 1e-4);
    }
    return bench::report_ms("cublas_sgemm", "cuda", n, ms, check);
}
