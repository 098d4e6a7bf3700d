// Kernel parameters aligned to more than 16 bytes: where cudaFuncGetParamInfo says they are
// (the GPU aligns them in its constant bank, whose parameter area does not start on a
// 128-byte boundary) and that the kernel reads every one; and __shared__ variables aligned
// to 256 and 1024 bytes.
#include <cstdio>

#include <cuda_runtime.h>

struct alignas(128) Big {
  int v[4];
};
struct alignas(64) Mid {
  int v[2];
};

__global__ void params(char c, Big b, char d, Mid m, int* out) {
  out[0] = c;
  out[1] = b.v[0];
  out[2] = b.v[3];
  out[3] = d;
  out[4] = m.v[1];
}

__global__ void shared_align(int* out) {
  __shared__ char small[3];
  __shared__ alignas(1024) char big[2048];
  __shared__ alignas(256) char mid[100];
  small[threadIdx.x % 3] = 1;
  big[threadIdx.x] = 2;
  mid[threadIdx.x % 100] = 3;
  __syncthreads();
  out[0] = static_cast<int>(__cvta_generic_to_shared(big) % 1024);
  out[1] = static_cast<int>(__cvta_generic_to_shared(mid) % 256);
  out[2] = small[0] + big[0] + mid[0];
}

int main() {
  int* out;
  cudaMalloc(&out, 64);
  const Big b{{11, 12, 13, 14}};
  const Mid m{{21, 22}};
  params<<<1, 1>>>(5, b, 7, m, out);
  int h[8] = {};
  printf("launch %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(h, out, 20, cudaMemcpyDeviceToHost);
  printf("params: c %d b0 %d b3 %d d %d m1 %d\n", h[0], h[1], h[2], h[3], h[4]);
  for (int i = 0; i < 6; ++i) {
    size_t offset = 0, size = 0;
    cudaError_t e = cudaFuncGetParamInfo(reinterpret_cast<const void*>(params), i, &offset, &size);
    printf("param %d: %s offset %zu size %zu\n", i, cudaGetErrorName(e), offset, size);
  }
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(shared_align));
  printf("shared_align static shared memory %zu\n", a.sharedSizeBytes);
  shared_align<<<1, 128>>>(out);
  printf("launch %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(h, out, 12, cudaMemcpyDeviceToHost);
  printf("shared: big %% 1024 = %d, mid %% 256 = %d, sum %d\n", h[0], h[1], h[2]);
  cudaFree(out);
  return 0;
}
