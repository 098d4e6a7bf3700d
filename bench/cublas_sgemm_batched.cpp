// cublas_sgemm_batched's twin (cublas_sgemm_batched.cu): the same 16 x 16 products with
// OpenBLAS's cblas_sgemm, one per batch entry, the batch spread over the cores by OpenMP.
// GXX-FLAGS: -lopenblas
#include <cblas.h>

#include "common.h"

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 65536);
    const int n = 16;
    const long count = options.size, per = static_cast<long>(n) * n, elements = count * per;
    std::vector<float> a(elements), b(elements), c(elements);
    for (long i = 0; i < elements; ++i) a[i] = bench::uniform(i, 4), b[i] = bench::uniform(i, 5);

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for
        for (long e = 0; e < count; ++e)
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data() + e * per, n,
                        b.data() + e * per, n, 0.0f, c.data() + e * per, n);
    });

    bench::Check check;
    for (long index : bench::check_indices(elements, 512, 6)) {
        const long base = index / per * per, i = index % per % n, j = index % per / n;
        double want = 0;
        for (long k = 0; k < n; ++k) want += static_cast<double>(a[base + i + k * n]) * b[base + k + j * n];
        check.near("C", index, c[index], want, 1e-4);
    }
    return bench::report_ms("cublas_sgemm_batched", "openmp", count, ms, check);
}
