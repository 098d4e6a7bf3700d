// Atomics from many threads of many blocks on global and shared memory: the totals are
// exact whatever the interleaving.
#include <cstdio>

#include <cuda_runtime.h>

struct Totals {
    int sum;
    unsigned umax;
    int imin;
    unsigned long long sum64;
    float fsum;
    int exch_seen;
    int cas_count;
    unsigned inc_wrap;
    unsigned bits_or;
    unsigned bits_and;
    int block_sums[64];
};

__global__ void hammer(Totals* t) {
    __shared__ int block_sum;
    if (threadIdx.x == 0) block_sum = 0;
    __syncthreads();
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&t->sum, id % 7 - 3);
    atomicMax(&t->umax, (unsigned)(id * 2654435761u));
    atomicMin(&t->imin, 1000 - id);
    atomicAdd(&t->sum64, (unsigned long long)id << 20);
    atomicAdd(&t->fsum, 0.5f);
    atomicExch(&t->exch_seen, 1);
    int old;
    do { old = t->cas_count; } while (atomicCAS(&t->cas_count, old, old + 1) != old);
    atomicInc(&t->inc_wrap, 99);
    atomicOr(&t->bits_or, 1u << (id % 32));
    atomicAnd(&t->bits_and, ~(1u << (id % 31)));
    atomicAdd(&block_sum, threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) t->block_sums[blockIdx.x] = block_sum;
}

int main() {
    Totals init = {};
    init.imin = 1 << 30;
    init.bits_and = 0xffffffffu;
    Totals* d;
    cudaMalloc(&d, sizeof(Totals));
    cudaMemcpy(d, &init, sizeof(init), cudaMemcpyHostToDevice);
    hammer<<<64, 256>>>(d);
    std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    Totals t;
    cudaMemcpy(&t, d, sizeof(t), cudaMemcpyDeviceToHost);
    std::printf("sum %d, umax %u, imin %d, sum64 %llu\n", t.sum, t.umax, t.imin, t.sum64);
    std::printf("fsum %g, exch %d, cas %d, inc(99) %u, or %#x, and %#x\n", t.fsum, t.exch_seen, t.cas_count,
                t.inc_wrap, t.bits_or, t.bits_and);
    int wrong = 0;
    for (int b = 0; b < 64; ++b) wrong += t.block_sums[b] != 255 * 256 / 2;
    std::printf("shared-memory block sums: %d wrong\n", wrong);
    return 0;
}
