// Kernels that call the device runtime, for device_runtime_library_test.cpp: there they are
// linked with the PTX of NVIDIA's libcudadevrt.a, whose functions then call cucpu's driver
// entry points (exec/device_runtime_driver.cpp) instead of cucpu's device runtime directly.
// Compiled for compute_90 they call the library's __cudaCDP2* functions (the cnpv2 entry
// points); for compute_80 with -DCUDA_FORCE_CDP1_IF_SUPPORTED its plain-named ones (cnp*).

#include "device_runtime_library_answers.h"

extern "C" __global__ void child(int* out, int base) { out[threadIdx.x] = base + static_cast<int>(threadIdx.x); }

extern "C" __global__ void query(Answers* a, int* child_out, int* copy_out) {
  a->device_count_error = cudaGetDeviceCount(&a->device_count);
  a->attribute_error = cudaDeviceGetAttribute(&a->max_threads_per_block, cudaDevAttrMaxThreadsPerBlock, 0);
  int unused = 0;
  a->bad_device_error = cudaDeviceGetAttribute(&unused, cudaDevAttrMaxThreadsPerBlock, 99);
  a->last_error = cudaGetLastError();
  a->cleared_error = cudaGetLastError();
  a->get_device_error = cudaGetDevice(&a->device);
  size_t stack = 0;
  a->limit_error = cudaDeviceGetLimit(&stack, cudaLimitStackSize);
  a->stack_bytes = stack;

  cudaStream_t stream;
  cudaEvent_t event;
  a->stream_create_error = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  a->event_create_error = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  child<<<1, 4, 0, stream>>>(child_out, 10);
  a->launch_error = cudaGetLastError();
  // The library copies with kernels of its own, launched into the stream after the child.
  a->memcpy_error = cudaMemcpyAsync(copy_out, child_out, 4 * sizeof(int), cudaMemcpyDeviceToDevice, stream);
  a->event_record_error = cudaEventRecord(event, stream);
  a->wait_event_error = cudaStreamWaitEvent(stream, event, 0);
  a->event_destroy_error = cudaEventDestroy(event);
  a->stream_destroy_error = cudaStreamDestroy(stream);
  a->bad_stream_destroy_error = cudaStreamDestroy(reinterpret_cast<cudaStream_t>(0x1230));
  cudaGetLastError();

  cudaFuncCache cache_config;
  a->cache_config_error = cudaDeviceGetCacheConfig(&cache_config);
  a->cache_config = cache_config;
  cudaFuncAttributes attributes;
  a->func_attributes_error = cudaFuncGetAttributes(&attributes, child);
  a->func_max_threads_per_block = attributes.maxThreadsPerBlock;
  a->func_local_bytes = static_cast<int>(attributes.localSizeBytes);
  a->occupancy_error = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a->occupancy_blocks, child, 128, 0);
}

// The library's grid group (cudaCG*): each thread writes its rank's slot with the grid's
// size, once every thread has counted itself in `arrived` and passed the grid barrier.
extern "C" __global__ void grid_group(unsigned* out, unsigned* arrived, int* errors) {
  const unsigned long long group = cudaCGGetIntrinsicHandle(cudaCGScopeGrid);
  unsigned threads = 0, grids = 0, rank = 0, grid_rank = 0;
  int error = cudaCGGetSize(&threads, &grids, group);
  error |= cudaCGGetRank(&rank, &grid_rank, group);
  atomicAdd(arrived, 1u);
  error |= cudaCGSynchronizeGrid(group, 0);
  const unsigned seen = atomicAdd(arrived, 0u);
  if (error != 0 || grids != 1 || grid_rank != 0) atomicAdd(errors, 1);
  if (rank < threads) out[rank] = seen == threads ? threads : 0;
}
