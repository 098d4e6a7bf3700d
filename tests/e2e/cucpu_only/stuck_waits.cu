// Waits that can never complete. A GPU hangs on these (there is no expected output to take
// from one); cucpu reports each as an error naming the kernel, the block and the barrier or
// the collective with its missing lanes, and the process goes on (cudaDeviceReset between).
#include <cstdio>

#include <cuda_runtime.h>

// Warp 1 waits at barrier 1 for the whole block; warp 0 waits at barrier 2 for it.
__global__ void stuck_at_two_barriers() {
    if (threadIdx.x < 32)
        asm volatile("bar.sync 2, 64;");
    else
        asm volatile("bar.sync 1, 64;");
}

// Lane 5 waits at a block barrier while the rest of its warp shuffles over the full warp.
__global__ void lane_missing_from_shuffle(int* out) {
    if (threadIdx.x == 5) {
        asm volatile("bar.sync 1, 32;");
        return;
    }
    out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
}

// Lanes that exited take no part in a warp collective (PTX ISA: "all non-exited threads in
// membermask"): this one completes, on a GPU too.
__global__ void exited_lanes_left_out(int* out) {
    if (threadIdx.x >= 16) return;
    out[threadIdx.x] = __reduce_add_sync(0xffffffffu, 1);
}

template <typename Launch>
void run_round(const char* name, Launch launch) {
    launch();
    cudaError_t synced = cudaDeviceSynchronize();
    cudaError_t next = cudaDeviceSynchronize();
    printf("%s: synchronize %s, next call %s\n", name, cudaGetErrorName(synced), cudaGetErrorName(next));
    cudaDeviceReset();
}

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0);  // in order with cucpu's messages on stderr
    int* out = nullptr;
    run_round("stuck barrier", [] { stuck_at_two_barriers<<<2, 64>>>(); });
    run_round("lane missing from a shuffle", [&] {
        cudaMalloc(&out, 32 * sizeof(int));
        lane_missing_from_shuffle<<<1, 32>>>(out);
    });
    cudaMalloc(&out, 32 * sizeof(int));
    exited_lanes_left_out<<<1, 32>>>(out);
    int host[16];
    cudaError_t synced = cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
    printf("exited lanes left out: %s, lane 0 counts %d lanes\n", cudaGetErrorName(synced), host[0]);
    return 0;
}
