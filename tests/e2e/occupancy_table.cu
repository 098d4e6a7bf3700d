// Register counts and occupancy of kernels of different register pressure and shared
// memory use: cudaFuncGetAttributes (numRegs, sharedSizeBytes) and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for several block sizes and dynamic shared
// sizes. Built with -arch=sm_90, so the program carries the sm_90 cubin whose register
// counts the GPU reports; cucpu reads them from the same cubin.
#include <cstdio>

__global__ void copy_one(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x]; }

// 48 values live across a loop: ptxas keeps them in registers (well over 64 per thread).
__global__ void many_live_values(float* data, int n) {
  float a[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) a[i] = data[i * n + threadIdx.x];
  for (int j = 0; j < n; ++j) {
#pragma unroll
    for (int i = 0; i < 48; ++i) a[i] = a[i] * a[(i + 7) % 48] + float(j);
  }
#pragma unroll
  for (int i = 0; i < 48; ++i) data[i * n + threadIdx.x] = a[i];
}

// The same work, but ptxas must fit 1024 threads per block: at most 64 registers.
__global__ void __launch_bounds__(1024) many_live_values_bounded(float* data, int n) {
  float a[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) a[i] = data[i * n + threadIdx.x];
  for (int j = 0; j < n; ++j) {
#pragma unroll
    for (int i = 0; i < 48; ++i) a[i] = a[i] * a[(i + 7) % 48] + float(j);
  }
#pragma unroll
  for (int i = 0; i < 48; ++i) data[i * n + threadIdx.x] = a[i];
}

// 12 KiB of static shared memory.
__global__ void static_shared(float* out) {
  __shared__ float tile[3072];
  for (int i = threadIdx.x; i < 3072; i += blockDim.x) tile[i] = float(i);
  __syncthreads();
  out[threadIdx.x] = tile[3071 - threadIdx.x % 3072];
}

// Dynamic shared memory plus 4 KiB static.
__global__ void dynamic_shared(float* out) {
  extern __shared__ float dynamic[];
  __shared__ float fixed[1024];
  fixed[threadIdx.x % 1024] = 1.0f;
  dynamic[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = fixed[threadIdx.x % 1024] + dynamic[threadIdx.x];
}

struct Kernel {
  const char* name;
  const void* function;
};

void show(const Kernel& kernel) {
  cudaFuncAttributes attributes;
  cudaError_t status = cudaFuncGetAttributes(&attributes, kernel.function);
  if (status != cudaSuccess) {
    std::printf("%s: cudaFuncGetAttributes %s\n", kernel.name, cudaGetErrorName(status));
    return;
  }
  std::printf("%s: numRegs %d sharedSizeBytes %zu maxThreadsPerBlock %d\n", kernel.name, attributes.numRegs,
              attributes.sharedSizeBytes, attributes.maxThreadsPerBlock);
  const int block_sizes[] = {32, 64, 128, 256, 512, 768, 1024};
  const size_t dynamic_sizes[] = {0, 1024, 16 * 1024, 40 * 1024};
  for (size_t dynamic : dynamic_sizes) {
    std::printf("  dynamic %6zu:", dynamic);
    for (int block : block_sizes) {
      int blocks = -1;
      status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel.function, block, dynamic);
      if (status != cudaSuccess)
        std::printf(" %d:%s", block, cudaGetErrorName(status));
      else
        std::printf(" %d:%d", block, blocks);
    }
    std::printf("\n");
  }
}

int main() {
  const Kernel kernels[] = {
      {"copy_one", reinterpret_cast<const void*>(copy_one)},
      {"many_live_values", reinterpret_cast<const void*>(many_live_values)},
      {"many_live_values_bounded", reinterpret_cast<const void*>(many_live_values_bounded)},
      {"static_shared", reinterpret_cast<const void*>(static_shared)},
      {"dynamic_shared", reinterpret_cast<const void*>(dynamic_shared)},
  };
  for (const Kernel& kernel : kernels) show(kernel);
  std::printf("last error %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
