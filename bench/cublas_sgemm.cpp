// cublas_sgemm's twin (cublas_sgemm.cu): the same product with OpenBLAS's cblas_sgemm called
// directly, column-major, on the same data.
// GXX-FLAGS: -lopenblas
#include <cblas.h>

#include "common.h"

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 4096);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> a(elements), b(elements), c(elements);
    for (long i = 0; i < elements; ++i) a[i] = bench::uniform(i, 4), b[i] = bench::uniform(i, 5);

    const double ms = bench::median_ms(options.runs, [&] {
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    });

    bench::Check check;
    for (long index : bench::check_indices(elements, 512, 6)) {
        const long i = index % n, j = index / n;
        double want = 0;
        for (long k = 0; k < n; ++k) want += static_cast<double>(a[i + k * n]) * b[k + j * n];
        check.near("C", index, c[index], want, 1e-4);
    }
    return bench::report_ms("cublas_sgemm", "openmp", n, ms, check);
}
