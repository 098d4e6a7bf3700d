// nbody's OpenMP twin (nbody.cu): blocks of 256 bodies in parallel; for each tile of 256
// bodies (copied to local arrays) every body of the block adds the tile's interactions in
// order. The loops run tile body j outside, block body i inside, so the i loop vectorizes;
// each body's sum is still formed in the CUDA thread's order. 1/sqrt stands for rsqrtf.
#include <cmath>

#include "common.h"

constexpr int kBlock = 256;
constexpr float kSoftening2 = 0.01f;

struct Body {
    float x, y, z, mass;
};

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 16384, kBlock);
    const int n = options.size;
    std::vector<Body> bodies(n);
    std::vector<float> out_x(n), out_y(n), out_z(n);
    for (int i = 0; i < n; ++i)
        bodies[i] = {bench::uniform(i, 12), bench::uniform(i, 13), bench::uniform(i, 14), 0.5f + bench::uniform(i, 15)};
    const Body* all = bodies.data();

    const double ms = bench::median_ms(options.runs, [&] {
#pragma omp parallel for schedule(static)
        for (int block = 0; block < n / kBlock; ++block) {
            float me_x[kBlock], me_y[kBlock], me_z[kBlock], ax[kBlock] = {}, ay[kBlock] = {}, az[kBlock] = {};
            float tile_x[kBlock], tile_y[kBlock], tile_z[kBlock], tile_mass[kBlock];
            for (int t = 0; t < kBlock; ++t) {
                const Body& me = all[block * kBlock + t];
                me_x[t] = me.x, me_y[t] = me.y, me_z[t] = me.z;
            }
            for (int base = 0; base < n; base += kBlock) {
                for (int t = 0; t < kBlock; ++t) {
                    const Body& other = all[base + t];
                    tile_x[t] = other.x, tile_y[t] = other.y, tile_z[t] = other.z, tile_mass[t] = other.mass;
                }
                for (int j = 0; j < kBlock; ++j) {
                    for (int t = 0; t < kBlock; ++t) {
                        const float rx = tile_x[j] - me_x[t], ry = tile_y[j] - me_y[t], rz = tile_z[j] - me_z[t];
                        const float dist2 = rx * rx + ry * ry + rz * rz + kSoftening2;
                        const float inv_dist = 1.0f / std::sqrt(dist2);
                        const float s = tile_mass[j] * inv_dist * inv_dist * inv_dist;
                        ax[t] += rx * s;
                        ay[t] += ry * s;
                        az[t] += rz * s;
                    }
                }
            }
            for (int t = 0; t < kBlock; ++t)
                out_x[block * kBlock + t] = ax[t], out_y[block * kBlock + t] = ay[t], out_z[block * kBlock + t] = az[t];
        }
    });

    bench::Check check;
    for (long i : bench::check_indices(n, 512, 16)) {
        double want[3] = {}, scale = 0;
        for (int j = 0; j < n; ++j) {
            const double r[3] = {bodies[j].x - bodies[i].x, bodies[j].y - bodies[i].y, bodies[j].z - bodies[i].z};
            const double dist2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + kSoftening2;
            const double s = bodies[j].mass / (dist2 * std::sqrt(dist2));
            for (int d = 0; d < 3; ++d) want[d] += r[d] * s;
            scale += bodies[j].mass / dist2;
        }
        check.near("ax", i, out_x[i], want[0], 1e-4, scale);
        check.near("ay", i, out_y[i], want[1], 1e-4, scale);
        check.near("az", i, out_z[i], want[2], 1e-4, scale);
    }
    return bench::report_ms("nbody", "openmp", n, ms, check);
}
