// Relocatable device code (-rdc=true) across two translation units: a kernel here calls
// a __device__ function and uses __device__ and __constant__ variables defined in
// parts/rdc_link_part.cu; both units have a file-local function named `scale` and a
// file-local variable named `bias` of their own, which must stay apart after linking.
// NVCC-FLAGS: -rdc=true
// NVCC-ALSO: parts/rdc_link_part.cu
#include <cstdio>

extern __device__ int part_counter;            // defined in the other unit
extern __constant__ float part_table[4];       // defined (and initialised) there
__device__ float part_transform(float x, int i);  // defined there, calls its own `scale`
__device__ int part_twice(int x);              // a template instance's caller there

static __device__ float scale(float x) { return x * 10.0f; }  // same name as the other unit's
static __device__ int bias = 1000;

__global__ void combine(float* out, int* counts) {
  int i = threadIdx.x;
  out[i] = scale(part_transform(static_cast<float>(i), i)) + bias + part_table[i % 4];
  atomicAdd(&part_counter, part_twice(i));
  counts[i] = bias;
}

__global__ void read_counter(int* value) { *value = part_counter; }

int main() {
  const int n = 8;
  float* out;
  int* counts;
  int* counter;
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&counts, n * sizeof(int));
  cudaMallocManaged(&counter, sizeof(int));
  combine<<<1, n>>>(out, counts);
  read_counter<<<1, 1>>>(counter);
  cudaError_t error = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorName(error));
  for (int i = 0; i < n; ++i) printf("out[%d] = %a, counts[%d] = %d\n", i, out[i], i, counts[i]);
  printf("counter = %d\n", *counter);
  return error == cudaSuccess ? 0 : 1;
}
