// nbody: the gravitational acceleration of each of 16384 bodies from all the others (one
// all-pairs step, as in GPU Gems 3, chapter 31). One thread per body; a 256-thread block
// walks the bodies a tile at a time: each thread loads one body of the tile into shared
// memory, barrier, every thread adds the 256 interactions, barrier. Softened, so a body's
// interaction with itself is zero. OpenMP twin: nbody.cpp.
#include "common.h"
#include "cuda_check.h"

constexpr int kBlock = 256;
constexpr float kSoftening2 = 0.01f;

__device__ float3 interact(float4 me, float4 other, float3 acceleration) {
    const float3 r = {other.x - me.x, other.y - me.y, other.z - me.z};
    const float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + kSoftening2;
    const float inv_dist = rsqrtf(dist2);
    const float s = other.w * inv_dist * inv_dist * inv_dist;
    acceleration.x += r.x * s;
    acceleration.y += r.y * s;
    acceleration.z += r.z * s;
    return acceleration;
}

__global__ void accelerations(const float4* bodies, float4* out, int n) {
    __shared__ float4 tile[kBlock];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 me = bodies[i];
    float3 acceleration = {0.0f, 0.0f, 0.0f};
    for (int base = 0; base < n; base += kBlock) {
        tile[threadIdx.x] = bodies[base + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < kBlock; ++j) acceleration = interact(me, tile[j], acceleration);
        __syncthreads();
    }
    out[i] = make_float4(acceleration.x, acceleration.y, acceleration.z, 0.0f);
}

int main(int argc, char** argv) {
    const bench::Options options = bench::parse_options(argc, argv, 16384, kBlock);
    const int n = options.size;
    std::vector<float4> bodies(n), out(n);
    for (int i = 0; i < n; ++i)
        bodies[i] = make_float4(bench::uniform(i, 12), bench::uniform(i, 13), bench::uniform(i, 14),
                                0.5f + bench::uniform(i, 15));
    DeviceBuffer<float4> device_bodies(n), device_out(n);
    device_bodies.upload(bodies.data());

    const double ms = bench::median_ms(options.runs, [&] {
        accelerations<<<n / kBlock, kBlock>>>(device_bodies.get(), device_out.get(), n);
        CUDA_CHECK_LAUNCH();
        CUDA_CHECK(cudaDeviceSynchronize());
    });

    device_out.download(out.data());
    // Each component within 1e-4 of the sum of the magnitudes that made it.
    bench::Check check;
    for (long i : bench::check_indices(n, 512, 16)) {
        double want[3] = {}, scale = 0;
        for (int j = 0; j < n; ++j) {
            const double r[3] = {bodies[j].x - bodies[i].x, bodies[j].y - bodies[i].y, bodies[j].z - bodies[i].z};
            const double dist2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + kSoftening2;
            const double s = bodies[j].w / (dist2 * std::sqrt(dist2));
            for (int d = 0; d < 3; ++d) want[d] += r[d] * s;
            scale += bodies[j].w / dist2;
        }
        check.near("ax", i, out[i].x, want[0], 1e-4, scale);
        check.near("ay", i, out[i].y, want[1], 1e-4, scale);
        check.near("az", i, out[i].z, want[2], 1e-4, scale);
    }
    return bench::report_ms("nbody", "cuda", n, ms, check);
}
