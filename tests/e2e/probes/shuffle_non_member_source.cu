// What a shuffle returns when its source lane is in range but outside the membermask (PTX:
// undefined). Even lanes shuffle with membermask 0x55555555 from lane + 1 (down 1), lane ^ 1
// (bfly 1) and lane 1 (idx), while the odd lanes (a) have exited, (b) are busy on the other
// side of a branch in a loop of global trip count, or (c) wait at a __syncwarp after it.
// And: a block of 48 threads, whose second warp has 16 lanes, shuffles down by 1 over the
// full mask: lane 15 reads lane 16, which does not exist.
#include <cstdio>

__global__ void partial_warp(unsigned* out) {
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, 0x100 * threadIdx.x + 7, 1);
}

__global__ void probe(const int* trips, unsigned* out) {
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const unsigned v = 0x100 * lane + 0x10 * warp + 7;
    unsigned* o = out + warp * 96;
    if (warp == 0 && (lane & 1)) return;  // (a)
    if (lane & 1) {
        if (warp == 1) {  // (b)
            unsigned acc = v;
            for (int k = 0; k < trips[lane]; ++k) acc = acc * 3 + k;
            o[lane] = acc;
        }
        // (c), (d): straight to the __syncwarp below
    } else {
        o[lane] = __shfl_down_sync(0x55555555u, v, 1);
        o[32 + lane] = __shfl_xor_sync(0x55555555u, v, 1);
        o[64 + lane] = __shfl_sync(0x55555555u, v, 1);
    }
    __syncwarp();
}

int main() {
    int* trips;
    unsigned* out;
    cudaMalloc(&trips, 32 * sizeof(int));
    cudaMalloc(&out, 3 * 96 * sizeof(unsigned));
    int host_trips[32];
    for (int i = 0; i < 32; ++i) host_trips[i] = 1000 + i;
    cudaMemcpy(trips, host_trips, sizeof host_trips, cudaMemcpyHostToDevice);
    cudaMemset(out, 0xee, 3 * 96 * sizeof(unsigned));
    probe<<<1, 96>>>(trips, out);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    unsigned host[3 * 96];
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    const char* names[3] = {"exited", "busy", "at syncwarp"};
    const char* ops[3] = {"down 1", "bfly 1", "idx 1"};
    for (int w = 0; w < 3; ++w)
        for (int op = 0; op < 3; ++op) {
            printf("odd lanes %s, %s:", names[w], ops[op]);
            for (int l = 0; l < 32; l += 2) printf(" %x", host[w * 96 + op * 32 + l]);
            printf("\n");
        }
    partial_warp<<<1, 48>>>(out);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(host, out, 48 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    printf("48-thread block, down 1, lanes 0-15 of warp 1:");
    for (int l = 32; l < 48; ++l) printf(" %x", host[l]);
    printf("\n");
}
