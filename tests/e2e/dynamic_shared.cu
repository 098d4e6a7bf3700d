// Dynamic shared memory sized at launch, alone and next to static shared memory; each
// block reverses its slice through shared memory with a barrier in between.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void reverse_dynamic(int* data) {
    extern __shared__ int tile[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    tile[t] = data[base + t];
    __syncthreads();
    data[base + t] = tile[blockDim.x - 1 - t];
}

__global__ void static_then_dynamic(float* out) {
    __shared__ float scale[4];
    extern __shared__ float values[];
    if (threadIdx.x < 4) scale[threadIdx.x] = 1.0f + threadIdx.x;
    values[threadIdx.x] = threadIdx.x * 0.5f;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = values[blockDim.x - 1 - threadIdx.x] * scale[threadIdx.x % 4];
}

int main() {
    const int blocks = 40, threads = 128, n = blocks * threads;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = i * 3;
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    reverse_dynamic<<<blocks, threads, threads * sizeof(int)>>>(d);
    std::printf("reverse_dynamic: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != 3 * ((i / threads) * threads + threads - 1 - i % threads);
    std::printf("h[0] = %d h[127] = %d h[128] = %d, %d wrong\n", h[0], h[127], h[128], wrong);

    float* f;
    cudaMalloc(&f, 3 * 64 * sizeof(float));
    static_then_dynamic<<<3, 64, 64 * sizeof(float)>>>(f);
    std::printf("static_then_dynamic: %s\n", cudaGetErrorName(cudaGetLastError()));
    std::vector<float> hf(3 * 64);
    cudaMemcpy(hf.data(), f, hf.size() * sizeof(float), cudaMemcpyDeviceToHost);
    std::printf("out[0] = %g out[1] = %g out[63] = %g out[191] = %g\n", hf[0], hf[1], hf[63], hf[191]);
    cudaFree(d);
    cudaFree(f);
    return 0;
}
