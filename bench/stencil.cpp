// stencil's OpenMP twin (stencil.cu): tiles of 16 x 16 in parallel, each copied with its
// one-cell halo (zero outside the grid) into a local tile[18][18], then the same 5-point
// formula computed from the local tile.
#include "common.h"

constexpr int kTile = 16;

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 4096, kTile);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> in(elements), out(elements);
    for (long i = 0; i < elements; ++i) in[i] = bench::uniform(i, 11);
    const float* source = in.data();
    float* target = out.data();
    const int tiles = n / kTile;

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for collapse(2) schedule(static)
        for (int tile_y = 0; tile_y < tiles; ++tile_y) {
            for (int tile_x = 0; tile_x < tiles; ++tile_x) {
                float tile[kTile + 2][kTile + 2];
                for (int ty = -1; ty <= kTile; ++ty)
                    for (int tx = -1; tx <= kTile; ++tx) {
                        const int y = tile_y * kTile + ty, x = tile_x * kTile + tx;
                        const bool inside = y >= 0 && y < n && x >= 0 && x < n;
                        tile[ty + 1][tx + 1] = inside ? source[static_cast<long>(y) * n + x] : 0.0f;
                    }
                for (int ty = 0; ty < kTile; ++ty)
                    for (int tx = 0; tx < kTile; ++tx)
                        target[static_cast<long>(tile_y * kTile + ty) * n + tile_x * kTile + tx] =
                            0.5f * tile[ty + 1][tx + 1] + 0.125f * (tile[ty][tx + 1] + tile[ty + 2][tx + 1] +
                                                                    tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
            }
        }
    });

    auto value = [&](long y, long x) { return y < 0 || y >= n || x < 0 || x >= n ? 0.0 : in[y * n + x]; };
    bench::Check check;
    for (long y = 0; y < n; ++y)
        for (long x = 0; x < n; ++x) {
            const double want =
                0.5 * value(y, x) + 0.125 * (value(y - 1, x) + value(y + 1, x) + value(y, x - 1) + value(y, x + 1));
            check.near("out", y * n + x, out[y * n + x], want, 1e-6);
        }
    return bench::report_ms("stencil", "openmp", n, ms, check);
}
