// SAXPY (y = a*x + y) with a grid-stride loop: a fixed-size grid covers any n, each
// thread striding by the total number of threads in the grid.
// Run on the CPU with cucpu:  nvcc -cudart shared saxpy.cu -o saxpy && cucpu run ./saxpy
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

int main() {
    const int n = 1 << 20;
    const float a = 2.5f;
    std::vector<float> x(n), y(n), expect(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (i % 1000) * 0.001f;
        y[i] = 1.0f - (i % 7) * 0.25f;
    }
    float *d_x, *d_y;
    cudaMalloc(&d_x, n * sizeof(float));
    cudaMalloc(&d_y, n * sizeof(float));
    cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    int blocks = 64, threads = 256;  // 16384 threads for 2^20 elements: 64 per thread
    saxpy<<<blocks, threads>>>(n, a, d_x, d_y);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        std::printf("saxpy failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    // The GPU contracts a*x+y into one fma: the host reference does the same.
    int wrong = 0;
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        float ref = __builtin_fmaf(a, x[i], 1.0f - (i % 7) * 0.25f);
        wrong += y[i] != ref;
        sum += y[i];
    }
    std::printf("saxpy: n = %d, a = %g, grid of %d x %d threads (grid-stride loop)\n", n, a, blocks, threads);
    std::printf("y[0] = %.9g  y[12345] = %.9g  y[n-1] = %.9g\n", y[0], y[12345], y[n - 1]);
    std::printf("sum of y = %.4f, %d elements differ from the host fma\n", sum, wrong);
    cudaFree(d_x);
    cudaFree(d_y);
    std::printf(wrong == 0 ? "PASS\n" : "FAIL\n");
    return wrong == 0 ? 0 : 1;
}
