// shfl_reduce's OpenMP twin (shfl_reduce.cu): per block of 256 values, per warp of 32 the
// additions lane 0 makes in the __shfl_down_sync tree (v[lane] += v[lane + offset] for
// offsets 16..1), then the same tree over the 8 warp sums padded with zeros to 32; blocks
// in parallel, then the same final pass over the partial sums.
#include "common.h"

constexpr int kBlock = 256, kWarps = kBlock / 32;

// Lane 0's result of the shuffle tree over v[0..32); v is overwritten.
static float warp_sum(float* v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        for (int lane = 0; lane < offset; ++lane) v[lane] += v[lane + offset];
    return v[0];
}

static float block_sum(float* values) {
    float warp_sums[32] = {};  // lanes 8..31 read zeros, as in the CUDA version
    for (int warp = 0; warp < kWarps; ++warp) warp_sums[warp] = warp_sum(values + warp * 32);
    return warp_sum(warp_sums);
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, kBlock);
    const long n = options.size, blocks = n / kBlock;
    std::vector<float> in(n), partial(blocks);
    for (long i = 0; i < n; ++i) in[i] = bench::uniform(i, 7);
    float total = 0;

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel
        {
#pragma omp for schedule(static)
            for (long b = 0; b < blocks; ++b) {
                float values[kBlock];
                for (int tid = 0; tid < kBlock; ++tid) values[tid] = in[b * kBlock + tid];
                partial[b] = block_sum(values);
            }
#pragma omp single
            {
                float values[kBlock];
                for (int tid = 0; tid < kBlock; ++tid) {
                    float sum = 0.0f;
                    for (long j = tid; j < blocks; j += kBlock) sum += partial[j];
                    values[tid] = sum;
                }
                total = block_sum(values);
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
    return bench::report_ms("shfl_reduce", "openmp", n, ms, check);
}
