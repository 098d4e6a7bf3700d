// A tiled f16 GEMM with wmma, written the way tuned kernels are (cudaTensorCoreGemm's
// shape): each block of 8 warps computes a 64 x 128 tile of D = A * B + C, staging 64-wide
// slices of A and B through shared memory, the tensor-core loops unrolled, so that the kernel
// is a long straight line of tensor-core steps whose fragments live across barriers. The compiled
// strategy keeps such a kernel's registers in the warp's register file, and its warp steps
// take their operands from there by a table (src/jit/warp_collective_lowering.cpp); this
// checks that path, and the tensor cores' truncating block sums, against the GPU bit for
// bit. The inputs span several binades and both signs, so that the products of a block
// are truncated to the largest one's grid. Prints a hash of D's bits per 16-row band and a
// few elements.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int M = 128, N = 128, K = 256;
constexpr int kSlice = 64;          // k per stage through shared memory
constexpr int kSkew = 8;            // halves of padding per shared row
constexpr int kBlockRows = 64, kBlockCols = 128;

static void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    printf("%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

// A is M x K row-major, B is K x N column-major (B[n * K + k]), C and D are M x N row-major.
__global__ void gemm(const half* A, const half* B, const float* C, float* D) {
  __shared__ half sa[kBlockRows][kSlice + kSkew];
  __shared__ half sb[kBlockCols][kSlice + kSkew];
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * kBlockRows, col0 = blockIdx.x * kBlockCols;
  const int warp_row = (warp / 4) * 32, warp_col = (warp % 4) * 32;  // a 32 x 32 tile per warp
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(acc[i][j], C + (row0 + warp_row + 16 * i) * N + col0 + warp_col + 16 * j, N,
                             wmma::mem_row_major);
#pragma unroll
  for (int k0 = 0; k0 < K; k0 += kSlice) {
#pragma unroll 1
    for (int e = threadIdx.x; e < kBlockRows * kSlice; e += 256)
      sa[e / kSlice][e % kSlice] = A[(row0 + e / kSlice) * K + k0 + e % kSlice];
#pragma unroll 1
    for (int e = threadIdx.x; e < kBlockCols * kSlice; e += 256)
      sb[e / kSlice][e % kSlice] = B[(col0 + e / kSlice) * K + k0 + e % kSlice];
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kSlice; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &sa[warp_row + 16 * i][kk], kSlice + kSkew);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &sb[warp_col + 16 * j][kk], kSlice + kSkew);
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(D + (row0 + warp_row + 16 * i) * N + col0 + warp_col + 16 * j, acc[i][j], N,
                              wmma::mem_row_major);
}

// Values of several binades and both signs: (v mod 29 - 14) * 2^(v mod 7 - 3) / 16.
static float spread(int v) { return static_cast<float>(v % 29 - 14) * ldexpf(1.0f, v % 7 - 3) / 16.0f; }

int main() {
  half *A, *B;
  float *C, *D;
  check(cudaMallocManaged(&A, sizeof(half) * M * K), "A");
  check(cudaMallocManaged(&B, sizeof(half) * K * N), "B");
  check(cudaMallocManaged(&C, sizeof(float) * M * N), "C");
  check(cudaMallocManaged(&D, sizeof(float) * M * N), "D");
  for (int i = 0; i < M * K; ++i) A[i] = __float2half(spread(i * 13 + i / K));
  for (int i = 0; i < K * N; ++i) B[i] = __float2half(spread(i * 11 + 5 * (i / K)));
  for (int i = 0; i < M * N; ++i) C[i] = spread(i * 17 + 3) * 1024.0f + spread(i * 5) / 4096.0f;
  gemm<<<dim3(N / kBlockCols, M / kBlockRows), 256>>>(A, B, C, D);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "gemm");
  for (int band = 0; band < M / 16; ++band) {
    uint64_t hash = 14695981039346656037ull;  // FNV-1a over the bits of the band's elements
    for (int i = band * 16 * N; i < (band + 1) * 16 * N; ++i) {
      uint32_t bits;
      memcpy(&bits, &D[i], 4);
      hash = (hash ^ bits) * 1099511628211ull;
    }
    printf("rows %3d-%3d: %016llx\n", band * 16, band * 16 + 15, static_cast<unsigned long long>(hash));
  }
  const int samples[] = {0, 1, 17, 130, 4097, 8191, 12345, M * N - 1};
  for (int i : samples) {
    uint32_t bits;
    memcpy(&bits, &D[i], 4);
    printf("D[%5d] = %08x (%.9g)\n", i, bits, D[i]);
  }
  return 0;
}
