// CUDA_LAUNCH_BLOCKING=1 (set before the first CUDA call) makes every launch synchronous:
// right after a slow kernel's launch returns, its stream is idle.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

__global__ void slow(int* out) {
    long long start = clock64();
    while (clock64() - start < 100000000LL) {
    }
    *out = 1;
}

int main() {
    setenv("CUDA_LAUNCH_BLOCKING", "1", 1);
    int* out;
    cudaMalloc(&out, sizeof(int));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    slow<<<1, 1, 0, s>>>(out);
    std::printf("stream right after the launch: %s\n", cudaGetErrorName(cudaStreamQuery(s)));
    slow<<<1, 1>>>(out);
    std::printf("legacy stream right after the launch: %s\n", cudaGetErrorName(cudaStreamQuery(0)));
    int h = 0;
    cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("result %d\n", h);
    cudaStreamDestroy(s);
    cudaFree(out);
    return 0;
}
