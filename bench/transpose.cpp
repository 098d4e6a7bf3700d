// transpose's OpenMP twin (transpose.cu): tiles of 32 x 32 in parallel, each copied row by
// row into a local tile[32][33], then written out transposed row by row.
#include "common.h"

constexpr int kTile = 32;

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 4096, kTile);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> in(elements), out(elements);
    for (long i = 0; i < elements; ++i) in[i] = bench::uniform(i, 10);
    const float* source = in.data();
    float* target = out.data();
    const int tiles = n / kTile;

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for collapse(2) schedule(static)
        for (int tile_y = 0; tile_y < tiles; ++tile_y) {
            for (int tile_x = 0; tile_x < tiles; ++tile_x) {
                float tile[kTile][kTile + 1];
                for (int row = 0; row < kTile; ++row)
                    for (int col = 0; col < kTile; ++col)
                        tile[row][col] = source[static_cast<long>(tile_y * kTile + row) * n + tile_x * kTile + col];
                for (int row = 0; row < kTile; ++row)
                    for (int col = 0; col < kTile; ++col)
                        target[static_cast<long>(tile_x * kTile + row) * n + tile_y * kTile + col] = tile[col][row];
            }
        }
    });

    bench::Check check;
    for (long i = 0; i < n; ++i)
        for (long j = 0; j < n; ++j) check.near("out", i * n + j, out[i * n + j], in[j * n + i], 0.0);
    return bench::report_ms("transpose", "openmp", n, ms, check);
}
