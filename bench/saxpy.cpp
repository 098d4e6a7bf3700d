// saxpy's OpenMP twin (saxpy.cu): y = a*x + y over 2^25 floats, the elements split
// statically over the threads.
#include "common.h"

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, 256);
    const long n = options.size;
    const float a = 0.5f;
    std::vector<float> x(n), y(n);
    for (long i = 0; i < n; ++i) x[i] = bench::uniform(i, 1), y[i] = bench::uniform(i, 2);
    std::vector<float> result = y;
    float* out = result.data();
    const float* in = x.data();

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; ++i) out[i] = a * in[i] + out[i];
    });

    bench::Check check;
    for (long i = 0; i < n; ++i) {
        double want = y[i];
        for (int run = 0; run <= options.runs; ++run) want = a * x[i] + want;
        check.near("y", i, result[i], want, 1e-5);
    }
    return bench::report_ms("saxpy", "openmp", n, ms, check);
}
