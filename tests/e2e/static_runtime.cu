// A program built with nvcc's default static runtime, whose every runtime call goes through
// the driver (libcuda.so.1): launches with <<<>>> and cudaLaunchKernel, __device__,
// __constant__ and __managed__ variables, symbol copies, dynamic shared memory, streams and
// events, async copies and sets, pinned and managed memory, device printf, function
// attributes and occupancy, launch errors and the last error, a fault's sticky error.
// NVCC-FLAGS: -cudart static
#include <cstdio>
#include <cuda_runtime.h>

__device__ int device_total;
__constant__ int offsets[4];
__managed__ int managed_flag;

__global__ void add_offset(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] += offsets[i % 4];
    atomicAdd(&device_total, 1);
  }
}

__global__ void reverse_block(int* data) {
  extern __shared__ int tile[];
  int t = threadIdx.x;
  tile[t] = data[blockIdx.x * blockDim.x + t];
  __syncthreads();
  data[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

__global__ void say_hello(int value) {
  if (threadIdx.x == 0 && blockIdx.x == 1) printf("hello from block %d: %d\n", blockIdx.x, value);
  if (blockIdx.x == 0 && threadIdx.x == 0) managed_flag = value;
}

__global__ void fault(int* pointer) { *pointer = 1; }

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t error_ = (call);                                                           \
    if (error_ != cudaSuccess) std::printf("FAILED %s: %s\n", #call, cudaGetErrorName(error_)); \
  } while (0)

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  int major = 0;
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  std::printf("devices %d, compute capability major %d\n", count, major);

  const int n = 1 << 12;
  int* host = nullptr;
  CHECK(cudaMallocHost(&host, n * sizeof(int)));
  for (int i = 0; i < n; ++i) host[i] = i;
  int* data = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  const int values[4] = {10, 20, 30, 40};
  CHECK(cudaMemcpyToSymbol(offsets, values, sizeof values));
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(device_total, &zero, sizeof zero));

  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  CHECK(cudaMemcpyAsync(data, host, n * sizeof(int), cudaMemcpyHostToDevice, stream));
  add_offset<<<n / 128, 128, 0, stream>>>(data, n);
  reverse_block<<<n / 256, 256, 256 * sizeof(int), stream>>>(data);
  CHECK(cudaMemcpyAsync(host, data, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  int total = 0;
  CHECK(cudaMemcpyFromSymbol(&total, device_total, sizeof total));
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += host[i];
  std::printf("sum %lld, host[0] %d, host[255] %d, threads counted %d, time measured %s\n", sum, host[0], host[255],
              total, ms >= 0 ? "yes" : "no");

  void* args[] = {&data, const_cast<int*>(&n)};
  CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(add_offset), dim3(n / 256), dim3(256), args, 0, nullptr));
  CHECK(cudaMemset(data, 0, 16));
  CHECK(cudaMemcpy(host, data, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("after cudaLaunchKernel and cudaMemset: %d %d %d %d %d\n", host[0], host[3], host[4], host[5], host[7]);

  say_hello<<<2, 32>>>(7);
  CHECK(cudaDeviceSynchronize());
  std::printf("managed flag %d\n", managed_flag);

  int* managed = nullptr;
  CHECK(cudaMallocManaged(&managed, 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) managed[i] = i;
  reverse_block<<<1, 64, 64 * sizeof(int)>>>(managed);
  CHECK(cudaDeviceSynchronize());
  std::printf("managed after reverse: %d %d\n", managed[0], managed[63]);

  cudaFuncAttributes attributes{};
  CHECK(cudaFuncGetAttributes(&attributes, reverse_block));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reverse_block, 256, 256 * sizeof(int)));
  std::printf("reverse_block: max threads %d, static shared %zu, %d blocks of 256 per SM\n",
              attributes.maxThreadsPerBlock, attributes.sharedSizeBytes, blocks);

  reverse_block<<<1, 2048>>>(data);
  cudaError_t first = cudaGetLastError();
  cudaError_t second = cudaGetLastError();
  std::printf("launch of 2048 threads: %s, then %s\n", cudaGetErrorName(first), cudaGetErrorName(second));
  reverse_block<<<1, 64, 1 << 20>>>(data);
  std::printf("launch with 1 MiB of shared memory: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  cudaGetLastError();

  CHECK(cudaFree(managed));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFreeHost(host));

  fault<<<1, 1>>>(nullptr);
  cudaError_t synchronized = cudaDeviceSynchronize();
  std::printf("fault: synchronize %s, next call %s\n", cudaGetErrorName(synchronized),
              cudaGetErrorName(cudaMemset(data, 0, 4)));
  return 0;
}
