// Stream-ordered allocator edges the conformance suite does not pin down: a block freed
// on one stream while its kernel still runs and allocated on another (reuse must wait
// for the free), cudaFree of a cudaMallocAsync pointer, cudaFreeAsync of cudaMalloc
// memory, zero-size requests, the reuse-policy attributes' defaults and round trips, the
// high watermarks (settable to 0 only), the current pool of a device, and the errors for
// bad pools and pointers. Only answers that do not depend on the allocator's choices are
// printed.
#include <cstdio>
#include <cstdint>

#include <cuda_runtime.h>

constexpr int kN = 1 << 16;

// One thread spins (the kernel, and the free queued behind it, stay pending a while: about
// 6 ms on an H100, a few on a CPU); the others just write.
__global__ void fill_slowly(int* p, int v, long long spin) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < spin) {}
    }
    p[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void count_wrong(const int* p, int v, int* wrong) {
    if (p[blockIdx.x * blockDim.x + threadIdx.x] != v) atomicAdd(wrong, 1);
}

static const char* name(cudaError_t e) { return cudaGetErrorName(e); }

int main() {
    cudaStream_t a, b;
    cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
    int* wrong;
    cudaMallocManaged(&wrong, sizeof(int));
    *wrong = 0;

    // Two streams, each allocating, filling, checking and freeing; b allocates while a's
    // free is still pending behind a slow kernel.
    for (int round = 0; round < 4; ++round) {
        int *p, *q;
        cudaMallocAsync(&p, kN * sizeof(int), a);
        fill_slowly<<<kN / 256, 256, 0, a>>>(p, 1, 10000000);
        count_wrong<<<kN / 256, 256, 0, a>>>(p, 1, wrong);
        cudaFreeAsync(p, a);
        cudaMallocAsync(&q, kN * sizeof(int), b);
        fill_slowly<<<kN / 256, 256, 0, b>>>(q, 2, 0);
        count_wrong<<<kN / 256, 256, 0, b>>>(q, 2, wrong);
        cudaFreeAsync(q, b);
    }
    cudaDeviceSynchronize();
    printf("cross-stream allocations: %d wrong elements, %s\n", *wrong, name(cudaGetLastError()));

    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    int flag = -1;
    for (auto attr : {cudaMemPoolReuseFollowEventDependencies, cudaMemPoolReuseAllowOpportunistic,
                      cudaMemPoolReuseAllowInternalDependencies}) {
        cudaMemPoolGetAttribute(pool, attr, &flag);
        printf("reuse attribute %d default: %d\n", (int)attr, flag);
    }
    flag = 0;
    cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag);
    flag = -1;
    cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag);
    printf("opportunistic reuse after setting 0: %d\n", flag);
    flag = 1;
    cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &flag);

    uint64_t value = 1;
    printf("set used high to 1: %s\n", name(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &value)));
    value = 0;
    printf("set used high to 0: %s\n", name(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &value)));
    printf("set used current: %s\n", name(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &value)));
    cudaGetLastError();

    // cudaFree of a stream-ordered allocation, cudaFreeAsync of cudaMalloc memory.
    void *r, *m;
    cudaMallocAsync(&r, 1000, a);
    cudaStreamSynchronize(a);
    printf("cudaFree of a cudaMallocAsync pointer: %s\n", name(cudaFree(r)));
    uint64_t used_after_free = 1;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_after_free);
    printf("used memory of the default pool after that cudaFree: %llu\n", (unsigned long long)used_after_free);
    cudaMalloc(&m, 1000);
    printf("cudaFreeAsync of a cudaMalloc pointer: %s\n", name(cudaFreeAsync(m, a)));
    cudaStreamSynchronize(a);
    uint64_t used = 1;
    cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
    printf("used memory of the default pool now: %llu\n", (unsigned long long)used);

    int local = 0;
    printf("cudaFreeAsync of a host stack address: %s\n", name(cudaFreeAsync(&local, a)));
    cudaGetLastError();
    printf("cudaFreeAsync(NULL): %s\n", name(cudaFreeAsync(nullptr, a)));
    printf("cudaMallocAsync(NULL pointer): %s\n", name(cudaMallocAsync(nullptr, 16, a)));
    cudaGetLastError();

    // Pools: destroy the default one, set a created one current, use it, destroy it.
    printf("destroy the default pool: %s\n", name(cudaMemPoolDestroy(pool)));
    cudaGetLastError();
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    printf("create: %s\n", name(cudaMemPoolCreate(&mine, &props)));
    printf("set current: %s\n", name(cudaDeviceSetMemPool(0, mine)));
    cudaMemPool_t current;
    cudaDeviceGetMemPool(&current, 0);
    printf("current is the created pool: %s\n", current == mine ? "yes" : "no");
    int* s;
    cudaMallocAsync(&s, kN * sizeof(int), b);
    *wrong = 0;
    fill_slowly<<<kN / 256, 256, 0, b>>>(s, 3, 0);
    count_wrong<<<kN / 256, 256, 0, b>>>(s, 3, wrong);
    cudaStreamSynchronize(b);
    cudaMemPoolGetAttribute(mine, cudaMemPoolAttrUsedMemCurrent, &used);
    printf("created pool in use: %s, %d wrong\n", used >= kN * sizeof(int) ? "yes" : "no", *wrong);
    cudaFreeAsync(s, b);
    cudaStreamSynchronize(b);
    cudaDeviceSetMemPool(0, pool);
    printf("destroy the created pool: %s\n", name(cudaMemPoolDestroy(mine)));
    cudaGetLastError();
    props.allocType = cudaMemAllocationTypeInvalid;
    printf("create with an invalid allocation type: %s\n", name(cudaMemPoolCreate(&mine, &props)));
    cudaGetLastError();

    cudaStreamDestroy(a);
    cudaStreamDestroy(b);
    printf("done: %s\n", name(cudaGetLastError()));
    return 0;
}
