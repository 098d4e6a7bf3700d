// softmax's OpenMP twin (softmax.cu): rows in parallel; per row the 32 lanes' partial
// maxima and sums (lane l takes elements l, l+32, ...), combined by the same xor butterfly
// the shuffles make, then exp(x - max) / sum written out.
#include <cmath>

#include "common.h"

constexpr int kCols = 1024, kRowsPerBlock = 8;

// The __shfl_xor_sync butterfly over 32 lanes: every lane ends with the same value.
template <class Combine>
static float butterfly(float* lanes, Combine combine) {
    for (int mask = 16; mask > 0; mask >>= 1) {
        float next[32];
        for (int lane = 0; lane < 32; ++lane) next[lane] = combine(lanes[lane], lanes[lane ^ mask]);
        for (int lane = 0; lane < 32; ++lane) lanes[lane] = next[lane];
    }
    return lanes[0];
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 32768, kRowsPerBlock);
    const long rows = options.size, elements = rows * kCols;
    std::vector<float> in(elements), out(elements);
    for (long i = 0; i < elements; ++i) in[i] = 8.0f * bench::uniform(i, 17) - 4.0f;
    const float* source = in.data();
    float* target = out.data();

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for schedule(static)
        for (long row = 0; row < rows; ++row) {
            const float* x = source + row * kCols;
            float* y = target + row * kCols;
            float lanes[32];
            for (int lane = 0; lane < 32; ++lane) lanes[lane] = -INFINITY;
            for (int c = 0; c < kCols; ++c) lanes[c % 32] = std::fmax(lanes[c % 32], x[c]);
            const float row_max = butterfly(lanes, [](float a, float b) { return std::fmax(a, b); });
            for (int lane = 0; lane < 32; ++lane) lanes[lane] = 0.0f;
            for (int c = 0; c < kCols; ++c) lanes[c % 32] += std::exp(x[c] - row_max);
            const float inverse = 1.0f / butterfly(lanes, [](float a, float b) { return a + b; });
            for (int c = 0; c < kCols; ++c) y[c] = std::exp(x[c] - row_max) * inverse;
        }
    });

    bench::Check check;
    for (long row = 0; row < rows; ++row) {
        const float* x = &in[row * kCols];
        const double row_max = *std::max_element(x, x + kCols);
        double sum = 0;
        for (int c = 0; c < kCols; ++c) sum += std::exp(x[c] - row_max);
        for (int c = 0; c < kCols; ++c)
            check.near("y", row * kCols + c, out[row * kCols + c], std::exp(x[c] - row_max) / sum, 1e-5, 0.0);
    }
    return bench::report_ms("softmax", "openmp", rows, ms, check);
}
