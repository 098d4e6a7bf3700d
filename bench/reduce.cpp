// reduce's OpenMP twin (reduce.cu): per block of 256 values the same tree on a local
// array (7 halving levels, then the last pair), blocks in parallel; then the same final
// pass over the partial sums (256 strided shares, then the tree). The rounding is the
// CUDA version's, value for value.
#include "common.h"

constexpr int kBlock = 256;

static float tree_sum(float* sdata) {
    for (int s = kBlock / 2; s > 1; s >>= 1)
        for (int tid = 0; tid < s; ++tid) sdata[tid] += sdata[tid + s];
    return sdata[0] + sdata[1];
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, kBlock);
    const long n = options.size, blocks = n / kBlock;
    std::vector<float> in(n), partial(blocks);
    for (long i = 0; i < n; ++i) in[i] = bench::uniform(i, 3);
    float total = 0;

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel
        {
#pragma omp for schedule(static)
            for (long b = 0; b < blocks; ++b) {
                float sdata[kBlock];
                for (int tid = 0; tid < kBlock; ++tid) sdata[tid] = in[b * kBlock + tid];
                partial[b] = tree_sum(sdata);
            }
            // The final pass is one block: one thread does it, as one worker does under cucpu.
#pragma omp single
            {
                float sdata[kBlock];
                for (int tid = 0; tid < kBlock; ++tid) {
                    float sum = 0.0f;
                    for (long j = tid; j < blocks; j += kBlock) sum += partial[j];
                    sdata[tid] = sum;
                }
                total = tree_sum(sdata);
            }
        }
    });

    bench::Check check;
    double want_total = 0;
    for (long b = 0; b < blocks; ++b) {
        double want = 0;
        for (long i = b * kBlock; i < (b + 1) * kBlock; ++i) want += in[i];
        check.near("partial", b, partial[b], want, 1e-5);
        want_total += want;
    }
    check.near("total", 0, total, want_total, 1e-4);
    return bench::report_ms("reduce", "openmp", n, ms, check);
}
