// Every cudaLimit on the GPU: its default, what a get returns after sets of odd, large and
// out-of-range values, and which sets fail once a kernel that prints or allocates has run.
// The values cucpu's limit_api.cpp takes where the header is vague come from this dump.
#include <cstdio>

#include <cuda_runtime.h>

const char* kNames[] = {"cudaLimitStackSize", "cudaLimitPrintfFifoSize", "cudaLimitMallocHeapSize",
                        "cudaLimitDevRuntimeSyncDepth", "cudaLimitDevRuntimePendingLaunchCount",
                        "cudaLimitMaxL2FetchGranularity", "cudaLimitPersistingL2CacheSize"};

void show(cudaLimit limit) {
    size_t value = 0;
    cudaError_t got = cudaDeviceGetLimit(&value, limit);
    cudaGetLastError();
    printf("  get %s: %s %zu\n", kNames[limit], cudaGetErrorName(got), value);
}

void set_and_show(cudaLimit limit, size_t value) {
    cudaError_t set = cudaDeviceSetLimit(limit, value);
    cudaGetLastError();
    printf("set %s %zu: %s\n", kNames[limit], value, cudaGetErrorName(set));
    show(limit);
}

__global__ void prints() { printf("%s", ""); }
__global__ void allocates(int* out) {
    void* p = malloc(16);
    *out = p != nullptr;
    free(p);
}

int main() {
    printf("defaults:\n");
    for (int limit = 0; limit <= cudaLimitPersistingL2CacheSize; ++limit) show(static_cast<cudaLimit>(limit));
    const size_t stacks[] = {0, 1, 1000, 1024, 4096, 65536, 300 * 1024, 512 * 1024, 513 * 1024, size_t{1} << 30};
    for (size_t bytes : stacks) set_and_show(cudaLimitStackSize, bytes);
    const size_t granularities[] = {0, 1, 32, 33, 64, 100, 128, 129, 4096};
    for (size_t bytes : granularities) set_and_show(cudaLimitMaxL2FetchGranularity, bytes);
    const size_t persisting[] = {0, 1000, 39321600, size_t{1} << 30};
    for (size_t bytes : persisting) set_and_show(cudaLimitPersistingL2CacheSize, bytes);
    set_and_show(cudaLimitDevRuntimeSyncDepth, 3);
    const size_t pending[] = {0, 1, 4096};
    for (size_t count : pending) set_and_show(cudaLimitDevRuntimePendingLaunchCount, count);
    set_and_show(cudaLimitPrintfFifoSize, 1000);
    set_and_show(cudaLimitMallocHeapSize, 1000);
    set_and_show(cudaLimitPrintfFifoSize, 4 << 20);
    set_and_show(cudaLimitMallocHeapSize, 16 << 20);
    set_and_show(static_cast<cudaLimit>(99), 1);

    prints<<<1, 1>>>();
    int* out = nullptr;
    cudaMalloc(&out, sizeof(int));
    allocates<<<1, 1>>>(out);
    printf("kernels that print and allocate: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    set_and_show(cudaLimitPrintfFifoSize, 2 << 20);
    set_and_show(cudaLimitMallocHeapSize, 32 << 20);
    set_and_show(cudaLimitStackSize, 2048);
    printf("after cudaDeviceReset (%s):\n", cudaGetErrorName(cudaDeviceReset()));
    for (int limit = 0; limit <= cudaLimitPersistingL2CacheSize; ++limit) show(static_cast<cudaLimit>(limit));
    return 0;
}
