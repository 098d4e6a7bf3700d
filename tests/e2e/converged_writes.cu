// converged_writes: registers written where every lane of a warp runs the code (no divergent
// branch around it), but not by every lane: guarded instructions (`@p mov`, `@!p add`,
// `@p ld.shared`), whose lanes with a false guard keep their value, and a shared-memory
// access by one lane at the very end of shared memory. The compiled block strategy writes
// whole vectors in converged code; a guard must still keep the other lanes' values (cub's
// single-tile radix sort printed unsorted keys when it did not). Also that radix sort, and
// the onesweep one, on keys whose order is known.
#include <cub/cub.cuh>

#include <cstdio>
#include <vector>

constexpr int kThreads = 96;  // three warps

__global__ void guarded(unsigned* out) {
    __shared__ unsigned words[kThreads];
    const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    words[tid] = tid * 7 + 1;
    __syncthreads();
    unsigned x = tid * 3, y = tid + 100, z = 5;
    const unsigned limit = 8 + warp * 9;  // a different split in each warp
    asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %3, %4;\n\t@p mov.u32 %0, 77;\n\t@!p add.u32 %1, %1, %3;\n\t"
                 "@p ld.shared.u32 %2, [%5];\n\t}"
                 : "+r"(x), "+r"(y), "+r"(z)
                 : "r"(lane), "r"(limit), "r"(static_cast<unsigned>(__cvta_generic_to_shared(&words[kThreads - 1 - tid]))));
    out[tid * 3] = x;
    out[tid * 3 + 1] = y;
    out[tid * 3 + 2] = z;
}

// One lane reads and writes the last word of shared memory (whose neighbours are past its end).
__global__ void last_word(unsigned* out) {
    extern __shared__ unsigned tail[];
    const unsigned n = blockDim.x;
    tail[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0) tail[n - 1] += 1000;
    __syncthreads();
    if (threadIdx.x == 5) out[0] = tail[n - 1];
}

static void sort_keys(int count) {
    std::vector<int> keys(count);
    for (int i = 0; i < count; ++i) keys[i] = static_cast<int>((static_cast<long long>(i) * 7919) % count) - count / 2;
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&in, count * sizeof(int));
    cudaMalloc(&out, count * sizeof(int));
    cudaMemcpy(in, keys.data(), count * sizeof(int), cudaMemcpyHostToDevice);
    size_t bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, count);
    void* temp = nullptr;
    cudaMalloc(&temp, bytes);
    const cudaError_t sorted = cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, count);
    cudaMemcpy(keys.data(), out, count * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < count; ++i) wrong += keys[i] != i - count / 2;
    printf("radix sort of %d keys: %s, %d keys out of place, first %d, last %d\n", count, cudaGetErrorName(sorted),
           wrong, keys[0], keys[count - 1]);
    cudaFree(temp);
    cudaFree(in);
    cudaFree(out);
}

int main() {
    unsigned* out = nullptr;
    cudaMalloc(&out, kThreads * 3 * sizeof(unsigned));
    guarded<<<1, kThreads>>>(out);
    std::vector<unsigned> host(kThreads * 3);
    cudaMemcpy(host.data(), out, host.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (int t = 0; t < kThreads; ++t) printf("thread %2d: x %3u y %3u z %3u\n", t, host[t * 3], host[t * 3 + 1], host[t * 3 + 2]);

    for (int threads : {32, 100, 256}) {
        last_word<<<1, threads, threads * sizeof(unsigned)>>>(out);
        unsigned word = 0;
        cudaMemcpy(&word, out, sizeof word, cudaMemcpyDeviceToHost);
        printf("last word of %d: %u (%s)\n", threads, word, cudaGetErrorName(cudaGetLastError()));
    }

    for (int count : {4096, 1 << 16, 1 << 20}) sort_keys(count);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
