// Atomic counters hammered by 1M threads (4096 blocks of 256) on every worker: no update may
// be lost. atom.add, atom.inc and compare-and-swap loops, 32- and 64-bit, on global memory
// and on shared memory (each block's shared totals then added to global ones).
#include <cstdio>

#include <cuda_runtime.h>

constexpr unsigned kBlocks = 4096, kThreads = 256;
constexpr unsigned long long kAllThreads = 1ull * kBlocks * kThreads;

struct Counters {
    unsigned add32;
    unsigned long long add64;
    unsigned inc32;  // atomicInc with a limit above the thread count: a plain counter
    unsigned cas32;
    unsigned long long cas64;
    unsigned shared_add32;
    unsigned long long shared_add64;
    unsigned shared_cas32;
    unsigned long long shared_cas64;
    unsigned long long weighted64;  // sum of all thread ids, in 64 bits
};

__device__ void cas_increment(unsigned* counter) {
    unsigned seen = *(volatile unsigned*)counter, old;
    while ((old = atomicCAS(counter, seen, seen + 1)) != seen) seen = old;
}

__device__ void cas_increment(unsigned long long* counter) {
    unsigned long long seen = *(volatile unsigned long long*)counter, old;
    while ((old = atomicCAS(counter, seen, seen + 1)) != seen) seen = old;
}

__global__ void hammer(Counters* c) {
    __shared__ unsigned add32;
    __shared__ unsigned long long add64;
    __shared__ unsigned cas32;
    __shared__ unsigned long long cas64;
    if (threadIdx.x == 0) add32 = 0, add64 = 0, cas32 = 0, cas64 = 0;
    __syncthreads();
    const unsigned long long id = 1ull * blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c->add32, 1u);
    atomicAdd(&c->add64, 1ull << 33);  // carries past 32 bits
    atomicInc(&c->inc32, 0xffffffffu);
    cas_increment(&c->cas32);
    cas_increment(&c->cas64);
    atomicAdd(&c->weighted64, id);
    atomicAdd(&add32, 1u);
    atomicAdd(&add64, 1ull << 33);
    cas_increment(&cas32);
    cas_increment(&cas64);
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(&c->shared_add32, add32);
        atomicAdd(&c->shared_add64, add64);
        atomicAdd(&c->shared_cas32, cas32);
        atomicAdd(&c->shared_cas64, cas64);
    }
}

int main() {
    Counters* d = nullptr;
    cudaMalloc(&d, sizeof(Counters));
    cudaMemset(d, 0, sizeof(Counters));
    hammer<<<kBlocks, kThreads>>>(d);
    cudaError_t status = cudaDeviceSynchronize();
    Counters c{};
    cudaMemcpy(&c, d, sizeof(c), cudaMemcpyDeviceToHost);
    printf("%llu threads: %s\n", kAllThreads, cudaGetErrorName(status));
    const unsigned long long ids = kAllThreads * (kAllThreads - 1) / 2;
    printf("global atom.add.u32 %u (lost %lld)\n", c.add32, (long long)kAllThreads - c.add32);
    printf("global atom.add.u64 %llu (lost %lld)\n", c.add64, (long long)(kAllThreads - (c.add64 >> 33)));
    printf("global atom.inc.u32 %u (lost %lld)\n", c.inc32, (long long)kAllThreads - c.inc32);
    printf("global cas loop 32 %u (lost %lld)\n", c.cas32, (long long)kAllThreads - c.cas32);
    printf("global cas loop 64 %llu (lost %lld)\n", c.cas64, (long long)(kAllThreads - c.cas64));
    printf("global atom.add.u64 of thread ids %llu (expected %llu)\n", c.weighted64, ids);
    printf("shared atom.add.u32 %u (lost %lld)\n", c.shared_add32, (long long)kAllThreads - c.shared_add32);
    printf("shared atom.add.u64 %llu (lost %lld)\n", c.shared_add64,
           (long long)(kAllThreads - (c.shared_add64 >> 33)));
    printf("shared cas loop 32 %u (lost %lld)\n", c.shared_cas32, (long long)kAllThreads - c.shared_cas32);
    printf("shared cas loop 64 %llu (lost %lld)\n", c.shared_cas64, (long long)(kAllThreads - c.shared_cas64));
    cudaFree(d);
    return 0;
}
