// The basic memory API: cudaMemset byte patterns, device-to-device copies, cudaMemcpyDefault,
// pinned host memory, managed memory written by a kernel and read by the host.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fill(int* p, int n, int base) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = base + i;
}

int main() {
    const int n = 1000;
    int *a, *b;
    cudaMalloc(&a, n * sizeof(int));
    cudaMalloc(&b, n * sizeof(int));
    cudaMemset(a, 0x5a, n * sizeof(int));
    cudaMemset(a + 10, 0, 5 * sizeof(int));
    int h[n];
    cudaMemcpy(h, a, sizeof(h), cudaMemcpyDeviceToHost);
    std::printf("memset: h[0] = %#x h[10] = %#x h[14] = %#x h[15] = %#x\n", h[0], h[10], h[14], h[15]);

    fill<<<(n + 127) / 128, 128>>>(a, n, 7);
    cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice);
    cudaMemcpy(h, b, sizeof(h), cudaMemcpyDefault);
    long long sum = 0;
    for (int v : h) sum += v;
    std::printf("device-to-device copy: h[0] = %d h[999] = %d sum = %lld\n", h[0], h[n - 1], sum);

    int* pinned;
    std::printf("cudaMallocHost: %s\n", cudaGetErrorName(cudaMallocHost(&pinned, n * sizeof(int))));
    cudaMemcpy(pinned, a, n * sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("pinned[500] = %d\n", pinned[500]);
    std::printf("cudaFreeHost: %s\n", cudaGetErrorName(cudaFreeHost(pinned)));

    int* managed;
    std::printf("cudaMallocManaged: %s\n", cudaGetErrorName(cudaMallocManaged(&managed, n * sizeof(int))));
    fill<<<8, 128>>>(managed, n, -500);
    std::printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    std::printf("managed[0] = %d managed[999] = %d\n", managed[0], managed[n - 1]);
    cudaFree(managed);
    cudaFree(a);
    cudaFree(b);
    std::printf("cudaDeviceReset: %s\n", cudaGetErrorName(cudaDeviceReset()));
    return 0;
}
