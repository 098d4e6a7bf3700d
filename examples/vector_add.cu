// The CUDA Programming Guide's first kernel: C = A + B, one thread per element.
// Run on the CPU with cucpu:  nvcc -cudart shared vector_add.cu -o vector_add && cucpu run ./vector_add
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void VecAdd(const float* A, const float* B, float* C, int N) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < N) C[i] = A[i] + B[i];
}

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            std::printf("%s failed: %s\n", #call, cudaGetErrorString(err_));                \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

int main() {
    const int N = 100000;
    std::vector<float> h_A(N), h_B(N), h_C(N);
    for (int i = 0; i < N; ++i) {
        h_A[i] = 0.5f * i;
        h_B[i] = 1.0f / (i + 1);
    }
    float *d_A, *d_B, *d_C;
    CHECK(cudaMalloc(&d_A, N * sizeof(float)));
    CHECK(cudaMalloc(&d_B, N * sizeof(float)));
    CHECK(cudaMalloc(&d_C, N * sizeof(float)));
    CHECK(cudaMemcpy(d_A, h_A.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, h_B.data(), N * sizeof(float), cudaMemcpyHostToDevice));

    int threadsPerBlock = 256;
    int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
    VecAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_C.data(), d_C, N * sizeof(float), cudaMemcpyDeviceToHost));

    int wrong = 0;
    double sum = 0;
    for (int i = 0; i < N; ++i) {
        wrong += h_C[i] != h_A[i] + h_B[i];
        sum += h_C[i];
    }
    std::printf("vector_add: %d elements, %d blocks of %d threads\n", N, blocksPerGrid, threadsPerBlock);
    std::printf("C[0] = %.9g  C[1] = %.9g  C[%d] = %.9g\n", h_C[0], h_C[1], N - 1, h_C[N - 1]);
    std::printf("sum of C = %.6f, %d elements differ from the host\n", sum, wrong);
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    CHECK(cudaFree(d_C));
    std::printf(wrong == 0 ? "PASS\n" : "FAIL\n");
    return wrong == 0 ? 0 : 1;
}
