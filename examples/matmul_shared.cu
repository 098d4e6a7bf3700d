// The CUDA Programming Guide's matrix multiplication with shared memory
// ("Shared Memory" section): BLOCK_SIZE x BLOCK_SIZE tiles of A and B are staged in
// __shared__ arrays, with __syncthreads() between loading and using them.
// Run on the CPU with cucpu:  nvcc -cudart shared matmul_shared.cu -o matmul_shared && cucpu run ./matmul_shared
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define BLOCK_SIZE 16

// Matrices are stored in row-major order: M(row, col) = *(M.elements + row * M.stride + col)
typedef struct {
    int width;
    int height;
    int stride;
    float* elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col) { return A.elements[row * A.stride + col]; }

__device__ void SetElement(Matrix A, int row, int col, float value) { A.elements[row * A.stride + col] = value; }

// The BLOCK_SIZExBLOCK_SIZE sub-matrix Asub of A that is located col sub-matrices to the
// right and row sub-matrices down from the upper-left corner of A.
__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
    Matrix Asub;
    Asub.width = BLOCK_SIZE;
    Asub.height = BLOCK_SIZE;
    Asub.stride = A.stride;
    Asub.elements = &A.elements[A.stride * BLOCK_SIZE * row + BLOCK_SIZE * col];
    return Asub;
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
    int blockRow = blockIdx.y;
    int blockCol = blockIdx.x;
    Matrix Csub = GetSubMatrix(C, blockRow, blockCol);
    float Cvalue = 0;
    int row = threadIdx.y;
    int col = threadIdx.x;
    for (int m = 0; m < (A.width / BLOCK_SIZE); ++m) {
        Matrix Asub = GetSubMatrix(A, blockRow, m);
        Matrix Bsub = GetSubMatrix(B, m, blockCol);
        __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
        As[row][col] = GetElement(Asub, row, col);
        Bs[row][col] = GetElement(Bsub, row, col);
        __syncthreads();  // the tiles are loaded before anyone uses them
        for (int e = 0; e < BLOCK_SIZE; ++e) Cvalue += As[row][e] * Bs[e][col];
        __syncthreads();  // everyone is done with the tiles before they are overwritten
    }
    SetElement(Csub, row, col, Cvalue);
}

// Host code: matrix dimensions are multiples of BLOCK_SIZE.
static cudaError_t MatMul(const Matrix A, const Matrix B, Matrix C) {
    Matrix d_A = A, d_B = B, d_C = C;
    size_t size_A = A.width * A.height * sizeof(float), size_B = B.width * B.height * sizeof(float),
           size_C = C.width * C.height * sizeof(float);
    cudaError_t err;
    if ((err = cudaMalloc(&d_A.elements, size_A)) != cudaSuccess) return err;
    if ((err = cudaMalloc(&d_B.elements, size_B)) != cudaSuccess) return err;
    if ((err = cudaMalloc(&d_C.elements, size_C)) != cudaSuccess) return err;
    cudaMemcpy(d_A.elements, A.elements, size_A, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B.elements, B.elements, size_B, cudaMemcpyHostToDevice);
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(B.width / dimBlock.x, A.height / dimBlock.y);
    MatMulKernel<<<dimGrid, dimBlock>>>(d_A, d_B, d_C);
    if ((err = cudaGetLastError()) != cudaSuccess) return err;
    err = cudaMemcpy(C.elements, d_C.elements, size_C, cudaMemcpyDeviceToHost);
    cudaFree(d_A.elements);
    cudaFree(d_B.elements);
    cudaFree(d_C.elements);
    return err;
}

int main() {
    const int M = 96, K = 64, N = 128;  // C (M x N) = A (M x K) * B (K x N)
    std::vector<float> a(M * K), b(K * N), c(M * N, -1.0f);
    for (int i = 0; i < M * K; ++i) a[i] = 0.25f * (i % 13) - 1.5f;
    for (int i = 0; i < K * N; ++i) b[i] = 0.125f * (i % 11) - 0.5f;
    Matrix A{K, M, K, a.data()}, B{N, K, N, b.data()}, C{N, M, N, c.data()};
    cudaError_t err = MatMul(A, B, C);
    if (err != cudaSuccess) {
        std::printf("MatMul failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    // The products are exact in float (multiples of 1/32, small sums): compare exactly.
    int wrong = 0;
    double trace = 0, total = 0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float ref = 0;
            for (int k = 0; k < K; ++k) ref += a[i * K + k] * b[k * N + j];
            wrong += c[i * N + j] != ref;
            total += c[i * N + j];
            if (i == j) trace += c[i * N + j];
        }
    std::printf("matmul_shared: C(%dx%d) = A(%dx%d) * B(%dx%d), %dx%d tiles in shared memory\n", M, N, M, K, K, N,
                BLOCK_SIZE, BLOCK_SIZE);
    std::printf("C[0][0] = %g  C[%d][%d] = %g  trace = %g  sum = %g\n", c[0], M - 1, N - 1, c[M * N - 1], trace, total);
    std::printf("%d elements differ from the host\n", wrong);
    std::printf(wrong == 0 ? "PASS\n" : "FAIL\n");
    return wrong == 0 ? 0 : 1;
}
