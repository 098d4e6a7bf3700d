// The CUDA Programming Guide's dynamic-parallelism examples: hello world (a child prints
// "Hello ", a tail launch "World!") and the recursive permute, a kernel that relaunches
// itself on both halves of a byte array with n/2 bytes of dynamic shared memory per level.
// NVCC-FLAGS: -rdc=true -lcudadevrt
#include <cstdio>

__global__ void childKernel() { printf("Hello "); }
__global__ void tailKernel() { printf("World!\n"); }

__global__ void parentKernel() {
  childKernel<<<1, 1>>>();
  if (cudaGetLastError() != cudaSuccess) return;
  // Runs after the parent grid and all its work, so after "Hello ".
  tailKernel<<<1, 1, 0, cudaStreamTailLaunch>>>();
}

constexpr int kLevels = 16;
__device__ int level_grids[kLevels];
__device__ unsigned level_sums[kLevels];

// Reverses the segment in shared memory and rotates each byte by the level, so that every
// level leaves a mark the checksum sees.
__device__ void permute_data(unsigned char* smem, int n, int level) {
  for (int i = threadIdx.x; i < n / 2; i += blockDim.x) {
    unsigned char a = smem[i], b = smem[n - 1 - i];
    smem[i] = static_cast<unsigned char>(b + level);
    smem[n - 1 - i] = static_cast<unsigned char>(a + level);
  }
}

__global__ void permute(int n, unsigned char* data, int level) {
  extern __shared__ unsigned char smem[];  // n bytes: the segment this grid permutes
  if (threadIdx.x == 0) atomicAdd(&level_grids[level], 1);
  if (n <= 1) return;
  for (int i = threadIdx.x; i < n; i += blockDim.x) smem[i] = data[i];
  __syncthreads();
  permute_data(smem, n, level);
  __syncthreads();
  // Back to global memory: a child cannot see its parent's shared memory.
  unsigned sum = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    data[i] = smem[i];
    sum += smem[i] * static_cast<unsigned>(i + 1);
  }
  atomicAdd(&level_sums[level], sum);
  __syncthreads();
  if (threadIdx.x == 0) {
    // Depth-first in the block's NULL stream: each line below is printed after the whole
    // subtree launched before it, so the order is fixed.
    if (level < 3) printf("permute level %d n=%d first byte %d\n", level, n, data[0]);
    int half = n / 2, threads = half < 256 ? half : 256;
    permute<<<1, threads, half>>>(half, data, level + 1);
    permute<<<1, threads, half>>>(half, data + half, level + 1);
  }
}

// The same permutation on the host, to check the device's result against.
static void permute_on_host(int n, unsigned char* data, int level) {
  if (n <= 1) return;
  for (int i = 0; i < n / 2; ++i) {
    unsigned char a = data[i], b = data[n - 1 - i];
    data[i] = static_cast<unsigned char>(b + level);
    data[n - 1 - i] = static_cast<unsigned char>(a + level);
  }
  permute_on_host(n / 2, data, level + 1);
  permute_on_host(n / 2, data + n / 2, level + 1);
}

int main() {
  parentKernel<<<1, 1>>>();
  printf("hello world: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));

  const int n = 4096;
  unsigned char* data;
  static unsigned char reference[n];
  cudaMallocManaged(&data, n);
  for (int i = 0; i < n; ++i) data[i] = reference[i] = static_cast<unsigned char>(i * 7 + (i >> 8));
  permute_on_host(n, reference, 0);
  permute<<<1, 256, n>>>(n, data, 0);
  cudaError_t error = cudaDeviceSynchronize();
  printf("permute: %s\n", cudaGetErrorName(error));
  int grids[kLevels];
  unsigned sums[kLevels];
  cudaMemcpyFromSymbol(grids, level_grids, sizeof grids);
  cudaMemcpyFromSymbol(sums, level_sums, sizeof sums);
  for (int level = 0; level < kLevels; ++level)
    if (grids[level] != 0) printf("level %2d: %5d grids, sum %u\n", level, grids[level], sums[level]);
  unsigned checksum = 0;
  for (int i = 0; i < n; ++i) checksum = checksum * 31u + data[i];
  printf("data[0..7] = %d %d %d %d %d %d %d %d\n", data[0], data[1], data[2], data[3], data[4], data[5], data[6],
         data[7]);
  bool same = true;
  for (int i = 0; i < n; ++i) same = same && data[i] == reference[i];
  printf("checksum %u, same as the host's permutation: %s\n", checksum, same ? "yes" : "no");
  cudaFree(data);
  return error == cudaSuccess && same ? 0 : 1;
}
