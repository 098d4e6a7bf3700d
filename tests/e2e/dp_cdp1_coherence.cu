// The CUDA Programming Guide's parent/child coherence example (Appendix D, "Global Memory",
// D.2.2.1.1), built for the guide's own dynamic-parallelism ABI (CDP1: nvcc 13 keeps it for
// sm < 90 with CUDA_FORCE_CDP1_IF_SUPPORTED): the parent's writes before the launch are
// visible to the child, and after the device-side cudaDeviceSynchronize the child's writes
// are visible to the parent, whose threads read them after the second __syncthreads().
// Then the same with 64 parent blocks, each waiting for its own child. Every line checks
// itself; the program exits 1 on a failed check. A device of compute capability 9.0 or later
// refuses the module (cudaErrorUnsupportedDevSideSync): the expected output is the H100's
// refusal, and ctest also runs the program with CUCPU_DEVICE=sm_80, where it must PASS.
// NVCC-FLAGS: -arch=sm_80 -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED -D__CDPRT_SUPPRESS_SYNC_DEPRECATION_WARNING -lcudadevrt
#include <cstdio>

constexpr int kThreads = 256;
constexpr int kBlocks = 64;

__device__ int sync_result = -1;  // what the parent's cudaDeviceSynchronize returned

// The guide's child_launch.
__global__ void child_launch(int* data) { data[threadIdx.x] = data[threadIdx.x] + 1; }

// The guide's parent_launch, with each thread recording what it reads after the second
// __syncthreads(): the child's writes.
__global__ void parent_launch(int* data, int* parent_view) {
  data[threadIdx.x] = threadIdx.x;

  __syncthreads();

  if (threadIdx.x == 0) {
    child_launch<<<1, kThreads>>>(data);
    sync_result = cudaDeviceSynchronize();
  }

  __syncthreads();
  parent_view[threadIdx.x] = data[threadIdx.x];
}

// Each block does what parent_launch does on its own slice of data, and counts the threads
// that see the child's writes.
__global__ void parent_per_block(int* data, int* seen, int* failed_syncs) {
  int* mine = data + blockIdx.x * blockDim.x;
  mine[threadIdx.x] = threadIdx.x + blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    child_launch<<<1, blockDim.x>>>(mine);
    if (cudaDeviceSynchronize() != cudaSuccess) atomicAdd(failed_syncs, 1);
  }
  __syncthreads();
  if (mine[threadIdx.x] == static_cast<int>(threadIdx.x + blockIdx.x) + 1) atomicAdd(seen, 1);
}

static bool check(bool ok, const char* what) {
  printf("%s: %s\n", what, ok ? "yes" : "NO");
  return ok;
}

int main() {
  int *data, *parent_view, *counters;
  if (cudaMalloc(&data, sizeof(int) * kThreads * kBlocks) != cudaSuccess ||
      cudaMalloc(&parent_view, sizeof(int) * kThreads) != cudaSuccess ||
      cudaMalloc(&counters, sizeof(int) * 2) != cudaSuccess) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  bool ok = true;

  // The guide's host_launch.
  parent_launch<<<1, kThreads>>>(data, parent_view);
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t finished = cudaDeviceSynchronize();
  printf("parent_launch<<<1, %d>>>: launch %s, synchronize %s\n", kThreads, cudaGetErrorName(launched),
         cudaGetErrorName(finished));
  if (launched == cudaErrorUnsupportedDevSideSync) {
    // What a GPU of compute capability 9.0 or later does (an H100: the module does not load,
    // the error is not sticky); ctest runs this program on an emulated sm_80 as well.
    printf("%s; after it: %s\n", cudaGetErrorString(launched), cudaGetErrorName(cudaGetLastError()));
    return 0;
  }
  ok &= launched == cudaSuccess && finished == cudaSuccess;
  int device_sync = -1, host_data[kThreads], view[kThreads];
  cudaMemcpyFromSymbol(&device_sync, sync_result, sizeof(int));
  cudaMemcpy(host_data, data, sizeof(host_data), cudaMemcpyDeviceToHost);
  cudaMemcpy(view, parent_view, sizeof(view), cudaMemcpyDeviceToHost);
  printf("device-side cudaDeviceSynchronize returned %s\n", cudaGetErrorName(static_cast<cudaError_t>(device_sync)));
  ok &= device_sync == cudaSuccess;
  int host_sees = 0, parent_sees = 0;
  for (int i = 0; i < kThreads; ++i) {
    host_sees += host_data[i] == i + 1;
    parent_sees += view[i] == i + 1;
  }
  ok &= check(host_sees == kThreads, "the host sees data[i] == i + 1 for every i (the child's writes)");
  ok &= check(parent_sees == kThreads, "every parent thread saw the child's write after the sync");

  // 64 parent blocks, each waiting for its child.
  cudaMemset(counters, 0, sizeof(int) * 2);
  parent_per_block<<<kBlocks, kThreads>>>(data, counters, counters + 1);
  const cudaError_t blocks_finished = cudaDeviceSynchronize();
  int host_counters[2] = {-1, -1};
  cudaMemcpy(host_counters, counters, sizeof(host_counters), cudaMemcpyDeviceToHost);
  printf("parent_per_block<<<%d, %d>>>: synchronize %s\n", kBlocks, kThreads, cudaGetErrorName(blocks_finished));
  ok &= blocks_finished == cudaSuccess;
  ok &= check(host_counters[1] == 0, "every block's cudaDeviceSynchronize succeeded");
  ok &= check(host_counters[0] == kBlocks * kThreads, "every thread of every block saw its child's write");

  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
