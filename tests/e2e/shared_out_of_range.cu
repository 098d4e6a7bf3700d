// Shared memory accesses outside the block's shared memory (static + dynamic), each in its
// own round: the launch, the synchronisation that reports the fault, the sticky error
// (cudaGetLastError twice, then an unrelated call), and cudaDeviceReset. As in
// misbehaving_kernels.cu, each round runs in a child process of its own, forked before it
// touches CUDA, since a GPU is unusable for the rest of a process after such a fault.
// Sizes are multiples of 64 bytes and every bad access is at least one whole element past
// the end. The first round is in range: the control. A write just below the start does not
// fault on the H100: it lands in the 1 KiB of shared memory the GPU reserves per block
// (cudaDevAttrReservedSharedMemoryPerBlock) before the block's own; two rounds show that.
#include <cstdio>

#include <cuda_runtime.h>

#include "fault_rounds.h"

// The offset `past` is volatile so that the compiler can neither prove the access out of
// range nor fold it away.
__global__ void static_shared_at(int* out, int index) {
    __shared__ int tile[256];  // 1 KiB
    volatile int at = index;
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 5) tile[at] = 42;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void static_shared_read_at(int* out, int index) {
    __shared__ int tile[256];
    volatile int at = index;
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = threadIdx.x == 9 ? tile[at] : tile[threadIdx.x];
}

__global__ void dynamic_shared_at(int* out, int index) {
    extern __shared__ int dynamic[];
    volatile int at = index;
    dynamic[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 2) dynamic[at] = 42;
    __syncthreads();
    out[threadIdx.x] = dynamic[threadIdx.x];
}

// Through a generic pointer to shared memory (cvta.shared), which the compiler cannot see
// is shared: a plain ld/st of a generic address.
__device__ __noinline__ void store_through(int* p, int index, int value) {
    volatile int at = index;
    p[at] = value;
}
__global__ void generic_shared_at(int* out, int index) {
    __shared__ int tile[256];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 3 && blockIdx.x == 1) store_through(tile, index, 42);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

int* g_ints;

template <typename Launch>
void run_round_in_child(const char* name, Launch launch) {
    run_fault_round(
        name, [] { cudaMalloc(&g_ints, 1024 * sizeof(int)); }, launch,
        [] {
            int host[256];
            cudaMemcpy(host, g_ints, sizeof host, cudaMemcpyDeviceToHost);
            printf("  out[5] %d out[255] %d\n", host[5], host[255]);
        });
}

int main() {
    run_round_in_child("static, last element (in range)", [] { static_shared_at<<<1, 256>>>(g_ints, 255); });
    run_round_in_child("static, one element past the end", [] { static_shared_at<<<1, 256>>>(g_ints, 256); });
    run_round_in_child("static, one element below the start (reserved shared memory)",
                       [] { static_shared_at<<<1, 256>>>(g_ints, -1); });
    run_round_in_child("generic, 1 KiB below the start (reserved shared memory)",
                       [] { generic_shared_at<<<2, 256>>>(g_ints, -256); });
    run_round_in_child("static, 4 KiB past the end", [] { static_shared_at<<<1, 256>>>(g_ints, 256 + 1024); });
    run_round_in_child("static, 1 MiB past the end", [] { static_shared_at<<<1, 256>>>(g_ints, 256 * 1024); });
    run_round_in_child("static read, one element past the end",
                       [] { static_shared_read_at<<<1, 256>>>(g_ints, 256); });
    run_round_in_child("dynamic 1 KiB, last element (in range)",
                       [] { dynamic_shared_at<<<1, 256, 1024>>>(g_ints, 255); });
    run_round_in_child("dynamic 1 KiB, one element past the end",
                       [] { dynamic_shared_at<<<1, 256, 1024>>>(g_ints, 256); });
    run_round_in_child("dynamic 2 KiB, 4 KiB past the end",
                       [] { dynamic_shared_at<<<1, 256, 2048>>>(g_ints, 512 + 1024); });
    run_round_in_child("generic, last element (in range)", [] { generic_shared_at<<<2, 256>>>(g_ints, 255); });
    run_round_in_child("generic, one element past the end", [] { generic_shared_at<<<2, 256>>>(g_ints, 256); });
    run_round_in_child("generic, 64 KiB past the end", [] { generic_shared_at<<<2, 256>>>(g_ints, 256 + 16384); });
    return 0;
}
