// same_address_stores: the lanes of one warp storing to one address (a shared or global
// variable, a pointer the same in every lane), with every lane, odd lanes, the lowest few,
// one lane, and 8-, 16-, 32- and 64-bit values; then the lanes reading it back; and lanes
// storing in groups of four to one element each (`s[lane / 4] = lane`), or both halves of the
// warp to the same 16 elements (`s[lane % 16] = lane`). The GPU keeps one
// lane's value per address (on the H100: the lowest lane storing it, and for 64-bit values
// the lowest of lanes 16-31 where any of them stores it: the warp's two halves are written one
// after the other). Only lockstep execution can keep the same one: the fiber strategy runs the
// lanes in whatever order they reach the store. One warp per block: other warps' stores to
// the same address would race.
#include <cstdint>
#include <cstdio>

__device__ unsigned global_word;
__device__ unsigned long long global_wide;

__global__ void stores(unsigned* out, unsigned long long* wide_out, unsigned char* byte_out, unsigned* pointer,
                       unsigned* half_out) {
    __shared__ unsigned word;
    __shared__ unsigned long long wide;
    __shared__ unsigned char byte;
    __shared__ unsigned short half;
    __shared__ float real;
    __shared__ unsigned groups[8];
    __shared__ unsigned long long wide_groups[8];
    __shared__ unsigned halves[16];
    __shared__ unsigned long long wide_halves[16];
    const unsigned lane = threadIdx.x;
    const unsigned masks[] = {0xffffffffu, 0xaaaaaaaau, 0x0000000fu, 0x00010000u, 0x80000001u, 0x7ffffffeu};
    for (int m = 0; m < 6; ++m) {
        const bool on = (masks[m] >> lane) & 1;
        if (lane == 0) {
            word = 0xdeadu;
            wide = 0;
            byte = 0;
            half = 0;
            real = -1.0f;
        }
        if (lane < 8) {
            groups[lane] = 0;
            wide_groups[lane] = 0;
        }
        if (lane < 16) {
            halves[lane] = 0;
            wide_halves[lane] = 0;
        }
        __syncwarp();
        if (on) {
            word = lane * 3 + 1;
            wide = (static_cast<unsigned long long>(lane) << 40) | (lane + 7);
            byte = static_cast<unsigned char>(lane + 100);
            half = static_cast<unsigned short>(lane + 300);
            groups[lane / 4] = lane;
            wide_groups[lane / 4] = 0x100000000ull * lane + lane;
            halves[lane % 16] = lane;
            wide_halves[lane % 16] = 0x100000000ull * lane + lane;
            real = lane * 0.5f;
            global_word = lane + 1000;
            global_wide = 0x100000000ull * lane + 5;
            pointer[blockIdx.x] = lane + 2000;
        }
        __syncwarp();
        // Every lane reads the survivors back (one address for all).
        const unsigned seen = word + static_cast<unsigned>(real * 2.0f) + byte + global_word + pointer[blockIdx.x];
        if (lane == 31) {
            out[m * 8 + 0] = word;
            out[m * 8 + 1] = static_cast<unsigned>(real * 2.0f);
            out[m * 8 + 2] = global_word;
            out[m * 8 + 3] = pointer[blockIdx.x];
            out[m * 8 + 4] = seen;
            out[m * 8 + 5] = half;
            unsigned g = 0, w = 0;
            for (int k = 0; k < 8; ++k) {
                g = g * 33 + groups[k];
                w = w * 33 + static_cast<unsigned>(wide_groups[k] >> 32);
            }
            out[m * 8 + 6] = g;
            out[m * 8 + 7] = w;
            unsigned h = 0, v = 0;
            for (int k = 0; k < 16; ++k) {
                h = h * 33 + halves[k];
                v = v * 33 + static_cast<unsigned>(wide_halves[k] >> 32);
            }
            half_out[m * 2] = h;
            half_out[m * 2 + 1] = v;
            wide_out[m * 2 + 0] = wide;
            wide_out[m * 2 + 1] = global_wide;
            byte_out[m] = byte;
        }
        __syncwarp();
    }
}

int main() {
    unsigned *out, *pointer, *half_out;
    unsigned long long* wide_out;
    unsigned char* byte_out;
    cudaMalloc(&out, 6 * 8 * sizeof(unsigned));
    cudaMalloc(&wide_out, 6 * 2 * sizeof(unsigned long long));
    cudaMalloc(&byte_out, 6);
    cudaMalloc(&pointer, sizeof(unsigned));
    cudaMalloc(&half_out, 6 * 2 * sizeof(unsigned));
    stores<<<1, 32>>>(out, wide_out, byte_out, pointer, half_out);
    unsigned host[6 * 8];
    unsigned long long wide[6 * 2];
    unsigned char bytes[6];
    unsigned halves[6 * 2];
    cudaMemcpy(halves, half_out, sizeof halves, cudaMemcpyDeviceToHost);
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    cudaMemcpy(wide, wide_out, sizeof wide, cudaMemcpyDeviceToHost);
    if (cudaMemcpy(bytes, byte_out, sizeof bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
        std::printf("error: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    for (int m = 0; m < 6; ++m)
        std::printf("mask %d: word=%u real*2=%u global=%u pointer=%u seen=%u wide=%016llx global_wide=%016llx byte=%u "
                    "half=%u groups=%u wide_groups=%u halves=%u wide_halves=%u\n",
                    m, host[m * 8], host[m * 8 + 1], host[m * 8 + 2], host[m * 8 + 3], host[m * 8 + 4], wide[m * 2],
                    wide[m * 2 + 1], bytes[m], host[m * 8 + 5], host[m * 8 + 6], host[m * 8 + 7], halves[m * 2],
                    halves[m * 2 + 1]);
    return 0;
}
