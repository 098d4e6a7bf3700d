// Kernels of device_runtime_queries_test.cpp, which compiles them with `nvcc -ptx -rdc=true`
// when it runs, both for compute_90 (the __cudaCDP2* names) and for compute_80 with
// CUDA_FORCE_CDP1_IF_SUPPORTED (the plain names of the guide's Appendix D), and runs the PTX.
// Each kernel stores the codes of its calls in order; the test checks them.
#include <cuda_runtime.h>

// cudaDeviceGetSharedMemConfig is deprecated, and still part of the device runtime.
#pragma nv_diag_suppress 1215

// make_cudaPitchedPtr and its kin are host functions.
__device__ cudaPitchedPtr pitched(void* p, size_t pitch, size_t xsize, size_t ysize) {
  cudaPitchedPtr r;
  r.ptr = p;
  r.pitch = pitch;
  r.xsize = xsize;
  r.ysize = ysize;
  return r;
}
__device__ cudaPos position(size_t x, size_t y, size_t z) {
  cudaPos r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__device__ cudaExtent extent(size_t width, size_t height, size_t depth) {
  cudaExtent r;
  r.width = width;
  r.height = height;
  r.depth = depth;
  return r;
}

// The kernel the function queries ask about: 256 threads at most, 1000 bytes of static
// shared memory.
extern "C" __global__ void __launch_bounds__(256) target(int* out) {
  __shared__ int staged[250];
  staged[threadIdx.x % 250] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = staged[(threadIdx.x + 1) % 250];
}

// Device and attribute queries: values[0..5] = count, max threads per block, SM count,
// cache config, shared memory config, warp size; codes of each call, then of a bad
// device, a bad attribute, a null output, and the last error after them.
extern "C" __global__ void device_queries(int* values, int* codes) {
  codes[0] = cudaGetDeviceCount(&values[0]);
  codes[1] = cudaDeviceGetAttribute(&values[1], cudaDevAttrMaxThreadsPerBlock, 0);
  codes[2] = cudaDeviceGetAttribute(&values[2], cudaDevAttrMultiProcessorCount, 0);
  cudaFuncCache cache;
  codes[3] = cudaDeviceGetCacheConfig(&cache);
  values[3] = cache;
#ifndef CUDA_FORCE_CDP1_IF_SUPPORTED
  cudaSharedMemConfig banks;
  codes[4] = cudaDeviceGetSharedMemConfig(&banks);
  values[4] = banks;
#endif
  codes[5] = cudaDeviceGetAttribute(&values[5], cudaDevAttrWarpSize, 0);
  int unused = -1;
  codes[6] = cudaDeviceGetAttribute(&unused, cudaDevAttrWarpSize, values[0]);  // one past the last device
  codes[7] = cudaDeviceGetAttribute(&unused, static_cast<cudaDeviceAttr>(100000), 0);
  codes[8] = cudaGetDeviceCount(nullptr);
  codes[9] = cudaGetLastError();
  codes[10] = cudaGetLastError();
}

// cudaFuncGetAttributes of `target`, and of a pointer that is no kernel.
extern "C" __global__ void function_queries(cudaFuncAttributes* attributes, int* codes) {
  codes[0] = cudaFuncGetAttributes(attributes, (const void*)target);
  codes[1] = cudaFuncGetAttributes(attributes + 1, (const void*)codes);
  codes[2] = cudaFuncGetAttributes(nullptr, (const void*)target);
}

// Occupancy of `target`: 128 threads, 128 threads with 32 KiB dynamic shared memory, with
// flags, 512 threads (beyond its bounds: 0), then bad calls.
extern "C" __global__ void occupancy_queries(int* blocks, int* codes) {
  codes[0] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks[0], (const void*)target, 128, 0);
  codes[1] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks[1], (const void*)target, 128, 32768);
  codes[2] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks[2], (const void*)target, 128, 0,
                                                                    cudaOccupancyDisableCachingOverride);
  codes[3] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks[3], (const void*)target, 512, 0);
  codes[4] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks[4], (const void*)target, 0, 0);
  codes[5] = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks[4], (const void*)target, 128, 0, 2);
  codes[6] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks[4], (const void*)codes, 128, 0);
}

// Pitched copies and sets over `memory` (device memory of 4096 bytes, zeroed), all in the
// block's NULL stream so that each sees the ones before:
//   [0, 256): a 16x16 source, rows 16 apart, byte i = i;
//   a 2D copy of 8x4 bytes of it (pitch 16) into [256, 384) at pitch 32;
//   a 2D set of 4x3 bytes 0xab at [512) pitch 8;
//   a 3D copy: the source seen as 2 slices of 4 rows of 16 bytes, box 3x2x2 bytes from
//   (1, 1, 0) to [1024) (pitch 8, 4 rows a slice) at (2, 1, 1);
//   a 3D set of 5x2x2 bytes 0x5a at [2048) (pitch 8, 3 rows a slice).
// Then calls that must fail; their codes follow the successes' in `codes`.
extern "C" __global__ void pitched_memory(unsigned char* memory, int* codes) {
  for (int i = 0; i < 256; ++i) memory[i] = static_cast<unsigned char>(i);
  codes[0] = cudaMemcpy2DAsync(memory + 256, 32, memory, 16, 8, 4, cudaMemcpyDeviceToDevice, 0);
  codes[1] = cudaMemset2DAsync(memory + 512, 8, 0xab, 4, 3, 0);
  cudaMemcpy3DParms copy = {};
  copy.srcPtr = pitched(memory, 16, 16, 4);
  copy.srcPos = position(1, 1, 0);
  copy.dstPtr = pitched(memory + 1024, 8, 8, 4);
  copy.dstPos = position(2, 1, 1);
  copy.extent = extent(3, 2, 2);
  copy.kind = cudaMemcpyDefault;
  codes[2] = cudaMemcpy3DAsync(&copy, 0);
  codes[3] = cudaMemset3DAsync(pitched(memory + 2048, 8, 8, 3), 0x5a, extent(5, 2, 2), 0);
  // Failures: a width above the pitch, a host direction, no direction at all, a null
  // description, a box past its slice, a set outside device memory, a bad stream.
  codes[4] = cudaMemcpy2DAsync(memory + 256, 4, memory, 16, 8, 4, cudaMemcpyDeviceToDevice, 0);
  codes[5] = cudaMemcpy2DAsync(memory + 256, 32, memory, 16, 8, 4, cudaMemcpyHostToDevice, 0);
  codes[6] = cudaMemcpy2DAsync(memory + 256, 32, memory, 16, 8, 4, static_cast<cudaMemcpyKind>(7), 0);
  codes[7] = cudaMemcpy3DAsync(nullptr, 0);
  copy.extent = extent(3, 5, 1);
  codes[8] = cudaMemcpy3DAsync(&copy, 0);
  int local[4];
  codes[9] = cudaMemset2DAsync(local, 8, 0, 4, 2, 0);
  codes[10] = cudaMemset2DAsync(memory + 512, 8, 0, 4, 3, reinterpret_cast<cudaStream_t>(0x1234));
  codes[11] = cudaGetLastError();
}

extern "C" __global__ void store_sum(int a, int b, int* out) { *out = a + b; }

// A launch through a parameter buffer the kernel names only at launch (cudaGetParameterBuffer,
// cudaLaunchDevice): store_sum(20, 22, out) in the NULL stream, then, under CDP2, as a
// tail launch (which only CDP2 has) into out + 1; codes of each call.
extern "C" __global__ void launch_through_buffer(int* out, int* codes) {
  struct Parameters {
    int a, b;
    int* out;
  };
  auto* buffer = static_cast<Parameters*>(cudaGetParameterBuffer(64, sizeof(Parameters)));
  codes[0] = buffer != nullptr ? cudaSuccess : cudaGetLastError();
  if (!buffer) return;
  *buffer = Parameters{20, 22, out};
  codes[1] = cudaLaunchDevice((void*)store_sum, buffer, dim3(1), dim3(1), 0, 0);
#ifndef CUDA_FORCE_CDP1_IF_SUPPORTED
  buffer = static_cast<Parameters*>(cudaGetParameterBuffer(64, sizeof(Parameters)));
  *buffer = Parameters{1, 2, out + 1};
  codes[2] = cudaLaunchDevice((void*)store_sum, buffer, dim3(1), dim3(1), 0, cudaStreamTailLaunch);
#endif
  // Larger than any parameter buffer may be: null and cudaErrorInvalidValue.
  codes[3] = cudaGetParameterBuffer(64, 1 << 20) == nullptr ? cudaGetLastError() : cudaSuccess;
}
