// cg_dot's OpenMP twin (cg_dot.cu): per block of 256 products, per tile of 32 the xor
// butterfly cg::reduce makes, then the same butterfly over the 8 tile sums padded with
// zeros to 32; blocks in parallel, then the same final pass over the partial sums.
#include "common.h"

constexpr int kBlock = 256, kTiles = kBlock / 32;

// cg::reduce over a tile of 32 with plus: every lane ends with the same value.
static float tile_sum(const float* values) {
    float lanes[32];
    for (int lane = 0; lane < 32; ++lane) lanes[lane] = values[lane];
    for (int mask = 16; mask > 0; mask >>= 1) {
        float next[32];
        for (int lane = 0; lane < 32; ++lane) next[lane] = lanes[lane] + lanes[lane ^ mask];
        for (int lane = 0; lane < 32; ++lane) lanes[lane] = next[lane];
    }
    return lanes[0];
}

static float block_sum(const float* values) {
    float tile_sums[32] = {};
    for (int tile = 0; tile < kTiles; ++tile) tile_sums[tile] = tile_sum(values + tile * 32);
    return tile_sum(tile_sums);
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1L << 25, kBlock);
    const long n = options.size, blocks = n / kBlock;
    std::vector<float> x(n), y(n), partial(blocks);
    for (long i = 0; i < n; ++i) x[i] = bench::uniform(i, 18), y[i] = bench::uniform(i, 19);
    float total = 0;

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel
        {
#pragma omp for schedule(static)
            for (long b = 0; b < blocks; ++b) {
                float products[kBlock];
                for (int t = 0; t < kBlock; ++t) products[t] = x[b * kBlock + t] * y[b * kBlock + t];
                partial[b] = block_sum(products);
            }
#pragma omp single
            {
                float values[kBlock];
                for (int t = 0; t < kBlock; ++t) {
                    float sum = 0.0f;
                    for (long j = t; j < blocks; j += kBlock) sum += partial[j];
                    values[t] = sum;
                }
                total = block_sum(values);
            }
        }
    });

    bench::Check check;
    double want_total = 0;
    for (long b = 0; b < blocks; ++b) {
        double want = 0;
        for (long i = b * kBlock; i < (b + 1) * kBlock; ++i) want += static_cast<double>(x[i]) * y[i];
        check.near("partial", b, partial[b], want, 1e-5);
        want_total += want;
    }
    check.near("total", 0, total, want_total, 1e-4);
    return bench::report_ms("cg_dot", "openmp", n, ms, check);
}
