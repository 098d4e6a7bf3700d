// CUB device-wide and block-wide primitives: cub::DeviceReduce::Sum, cub::BlockReduce
// and cub::BlockScan instantiate CUB's kernels (warp shuffles, shared-memory staging).
#include <cub/cub.cuh>

__global__ void block_sum_and_scan(const int* in, int* block_sums, int* prefix) {
  using BlockReduce = cub::BlockReduce<int, 128>;
  using BlockScan = cub::BlockScan<int, 128>;
  __shared__ typename BlockReduce::TempStorage reduce_storage;
  __shared__ typename BlockScan::TempStorage scan_storage;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = in[i];
  const int sum = BlockReduce(reduce_storage).Sum(value);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
  int scanned = 0;
  BlockScan(scan_storage).ExclusiveSum(value, scanned);
  prefix[i] = scanned;
}

// Host side: instantiates the DeviceReduce kernels for float (their PTX is what matters).
void device_sum(const float* in, float* out, int n, cudaStream_t stream) {
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream);
  cudaMallocAsync(&temp, temp_bytes, stream);
  cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, stream);
  cudaFreeAsync(temp, stream);
}
