// Module variables: __device__ arrays with initializers, __constant__ tables, copies to
// and from symbols (with offsets), symbol address and size, and a __managed__ variable
// the host reads and writes directly.
#include <cstdio>

#include <cuda_runtime.h>

__device__ int counters[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__constant__ float weights[4] = {0.5f, 1.5f, 2.5f, 3.5f};
__device__ double scale = 2.0;
__managed__ int managed_total = 100;
__device__ int* pointer_to_counters = counters;

__global__ void apply(float* out) {
    int t = threadIdx.x;
    out[t] = counters[t] * weights[t % 4] * (float)scale + pointer_to_counters[7 - t];
    atomicAdd(&managed_total, counters[t]);
}

int main() {
    size_t size = 0;
    void* address = nullptr;
    cudaError_t err = cudaGetSymbolSize(&size, counters);
    std::printf("cudaGetSymbolSize(counters): %s, %zu bytes\n", cudaGetErrorName(err), size);
    err = cudaGetSymbolAddress(&address, weights);
    std::printf("cudaGetSymbolAddress(weights): %s, %s\n", cudaGetErrorName(err), address ? "non-null" : "null");
    int replacement[2] = {40, 50};
    std::printf("cudaMemcpyToSymbol(counters, offset 8): %s\n",
                cudaGetErrorName(cudaMemcpyToSymbol(counters, replacement, sizeof(replacement), 2 * sizeof(int))));
    double new_scale = 3.0;
    cudaMemcpyToSymbol(scale, &new_scale, sizeof(new_scale));
    std::printf("copy past the end: %s\n",
                cudaGetErrorName(cudaMemcpyToSymbol(counters, replacement, sizeof(replacement), 7 * sizeof(int))));
    cudaGetLastError();
    float* d_out;
    cudaMalloc(&d_out, 8 * sizeof(float));
    apply<<<1, 8>>>(d_out);
    cudaDeviceSynchronize();
    float out[8];
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 8; ++t) std::printf("out[%d] = %g\n", t, out[t]);
    int back[8];
    cudaMemcpyFromSymbol(back, counters, sizeof(back));
    std::printf("counters: %d %d %d %d %d %d %d %d\n", back[0], back[1], back[2], back[3], back[4], back[5], back[6],
                back[7]);
    std::printf("managed_total after the kernel: %d\n", managed_total);
    managed_total = 7;
    apply<<<1, 8>>>(d_out);
    cudaDeviceSynchronize();
    std::printf("managed_total after the host set it to 7 and the kernel ran again: %d\n", managed_total);
    return 0;
}
