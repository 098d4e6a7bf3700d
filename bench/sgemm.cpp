// sgemm's OpenMP twin (sgemm.cu): the same 16 x 16 tiling. Each tile of C is one loop
// iteration (tiles in parallel); for each step of k the tiles of A and B are copied to
// local arrays As and Bs, then every element of the C tile adds its 16 products in the
// order the CUDA thread does (e = 0..15). The loops run row, e, col so that the col loop
// vectorizes; each element's sum is still formed in the same order.
#include "common.h"

constexpr int kTile = 16;

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 1024, kTile);
    const int n = options.size;
    const long elements = static_cast<long>(n) * n;
    std::vector<float> a(elements), b(elements), c(elements);
    for (long i = 0; i < elements; ++i) a[i] = bench::uniform(i, 4), b[i] = bench::uniform(i, 5);
    const float* A = a.data();
    const float* B = b.data();
    float* C = c.data();
    const int tiles = n / kTile;

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for collapse(2) schedule(static)
        for (int tile_row = 0; tile_row < tiles; ++tile_row) {
            for (int tile_col = 0; tile_col < tiles; ++tile_col) {
                float As[kTile][kTile], Bs[kTile][kTile], sum[kTile][kTile] = {};
                for (int m = 0; m < tiles; ++m) {
                    for (int row = 0; row < kTile; ++row)
                        for (int col = 0; col < kTile; ++col) {
                            As[row][col] = A[(tile_row * kTile + row) * n + m * kTile + col];
                            Bs[row][col] = B[(m * kTile + row) * n + tile_col * kTile + col];
                        }
                    for (int row = 0; row < kTile; ++row)
                        for (int e = 0; e < kTile; ++e)
                            for (int col = 0; col < kTile; ++col) sum[row][col] += As[row][e] * Bs[e][col];
                }
                for (int row = 0; row < kTile; ++row)
                    for (int col = 0; col < kTile; ++col)
                        C[(tile_row * kTile + row) * n + tile_col * kTile + col] = sum[row][col];
            }
        }
    });

    bench::Check check;
    for (long index : bench::check_indices(elements, 4096, 6)) {
        const long i = index / n, j = index % n;
        double want = 0;
        for (long k = 0; k < n; ++k) want += static_cast<double>(a[i * n + k]) * b[k * n + j];
        check.near("C", index, c[index], want, 1e-5);
    }
    return bench::report_ms("sgemm", "openmp", n, ms, check);
}
