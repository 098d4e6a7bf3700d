// Tiled matrix multiply: static __shared__ tiles, __syncthreads, a loop.
#define TILE 16
__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

extern __shared__ float dynamic_smem[];
__global__ void reverse_dynamic(float* data, int n) {
  int t = threadIdx.x;
  dynamic_smem[t] = data[t];
  __syncthreads();
  data[t] = dynamic_smem[n - t - 1];
}
