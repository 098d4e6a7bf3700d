// The device runtime's queries and pitched copies next to the host API's: device-side
// cudaGetDeviceCount, cudaDeviceGetAttribute, cudaDeviceGetCacheConfig,
// cudaDeviceGetSharedMemConfig, cudaFuncGetAttributes (after the host set attributes of the
// kernel), the occupancy calculator, cudaMemcpy2DAsync/cudaMemcpy3DAsync/cudaMemset2DAsync/
// cudaMemset3DAsync and a launch through cudaGetParameterBuffer/cudaLaunchDevice. Each line
// prints the device's answer and the host's; the last line counts where they agree.
// NVCC-FLAGS: -rdc=true -lcudadevrt
#include <cstdio>
#include <cstring>

// cudaDeviceGetSharedMemConfig is deprecated, and still part of both runtimes.
#pragma nv_diag_suppress 1215
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The attributes asked on both sides, each side from its own copy of the list.
#define ATTRIBUTES                                                                                            \
  X(MaxThreadsPerBlock) X(WarpSize) X(MaxSharedMemoryPerBlock) X(MaxSharedMemoryPerBlockOptin)               \
  X(MaxRegistersPerBlock) X(ComputeCapabilityMajor) X(ComputeCapabilityMinor) X(MaxBlockDimX) X(MaxGridDimX) \
  X(MaxThreadsPerMultiProcessor) X(MaxBlocksPerMultiprocessor) X(ReservedSharedMemoryPerBlock)
#define X(name) cudaDevAttr##name,
constexpr int kAttributes[] = {ATTRIBUTES};
__constant__ int kDeviceAttributes[] = {ATTRIBUTES};
#undef X
#define X(name) #name,
const char* const kAttributeNames[] = {ATTRIBUTES};
#undef X
constexpr int kAttributeCount = sizeof(kAttributes) / sizeof(kAttributes[0]);
#define BLOCK_SIZES 32, 128, 256, 512
#define DYNAMIC_SHARED 0, 32768
constexpr int kBlockSizes[] = {BLOCK_SIZES};
__constant__ int kDeviceBlockSizes[] = {BLOCK_SIZES};
constexpr size_t kDynamicShared[] = {DYNAMIC_SHARED};
__constant__ size_t kDeviceDynamicShared[] = {DYNAMIC_SHARED};

// Everything the device answers, in one struct the host reads back.
struct DeviceAnswers {
  int count_error, count;
  int attribute_errors[kAttributeCount], attributes[kAttributeCount];
  int multiprocessors;
  int bad_device_error, bad_attribute_error;
  int cache_error, cache_config, banks_error, banks;
  int func_error, bad_func_error;
  cudaFuncAttributes func;
  int occupancy_errors[4][2], occupancy[4][2];
  int copy_errors[4], pitch_error, direction_error;
  int buffer_launch_error, buffer_launch_result;
};

__device__ DeviceAnswers answers;

// The kernel the function queries ask about: 256 threads at most, 1000 bytes of static
// shared memory.
__global__ void __launch_bounds__(256) target(int* out) {
  __shared__ int staged[250];
  staged[threadIdx.x % 250] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = staged[(threadIdx.x + 1) % 250];
}

__global__ void store_sum(int a, int b, int* out) { *out = a + b; }

__device__ cudaPitchedPtr pitched(void* p, size_t pitch, size_t xsize, size_t ysize) {
  cudaPitchedPtr r;
  r.ptr = p;
  r.pitch = pitch;
  r.xsize = xsize;
  r.ysize = ysize;
  return r;
}

__device__ cudaExtent extent(size_t width, size_t height, size_t depth) {
  cudaExtent r;
  r.width = width;
  r.height = height;
  r.depth = depth;
  return r;
}

// The pitched work of both sides, over `region` (2 KiB, the source in its first 256 bytes):
// a 2D copy of 8x4 bytes into [256) at pitch 32, a 2D set of 4x3 bytes into [512) at pitch
// 8, a 3D copy of a 3x2x2 box from (1, 1, 0) of the source seen as 16-byte rows, 4 to a
// slice, to (2, 1, 1) of [1024) (pitch 8, 4 rows to a slice), a 3D set of 5x2x2 bytes into
// [1536) (pitch 8, 3 rows to a slice). The 3D copy's description, for either side's region:
__host__ __device__ cudaMemcpy3DParms copy_3d_of(unsigned char* region) {
  cudaMemcpy3DParms p = {};
  p.srcPtr.ptr = region;
  p.srcPtr.pitch = 16;
  p.srcPtr.xsize = 16;
  p.srcPtr.ysize = 4;
  p.srcPos.x = 1;
  p.srcPos.y = 1;
  p.srcPos.z = 0;
  p.dstPtr.ptr = region + 1024;
  p.dstPtr.pitch = 8;
  p.dstPtr.xsize = 8;
  p.dstPtr.ysize = 4;
  p.dstPos.x = 2;
  p.dstPos.y = 1;
  p.dstPos.z = 1;
  p.extent.width = 3;
  p.extent.height = 2;
  p.extent.depth = 2;
  p.kind = cudaMemcpyDeviceToDevice;
  return p;
}

__global__ void ask(unsigned char* region, int* launched) {
  DeviceAnswers& a = answers;
  a.count_error = cudaGetDeviceCount(&a.count);
  for (int i = 0; i < kAttributeCount; ++i)
    a.attribute_errors[i] = cudaDeviceGetAttribute(&a.attributes[i], static_cast<cudaDeviceAttr>(kDeviceAttributes[i]), 0);
  cudaDeviceGetAttribute(&a.multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  int unused;
  a.bad_device_error = cudaDeviceGetAttribute(&unused, cudaDevAttrWarpSize, a.count);
  a.bad_attribute_error = cudaDeviceGetAttribute(&unused, static_cast<cudaDeviceAttr>(100000), 0);
  cudaFuncCache cache;
  a.cache_error = cudaDeviceGetCacheConfig(&cache);
  a.cache_config = cache;
  cudaSharedMemConfig banks;
  a.banks_error = cudaDeviceGetSharedMemConfig(&banks);
  a.banks = banks;
  a.func_error = cudaFuncGetAttributes(&a.func, (const void*)target);
  cudaFuncAttributes ignored;
  a.bad_func_error = cudaFuncGetAttributes(&ignored, (const void*)region);
  for (int b = 0; b < 4; ++b)
    for (int s = 0; s < 2; ++s)
      a.occupancy_errors[b][s] = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&a.occupancy[b][s], (const void*)target,
                                                                              kDeviceBlockSizes[b], kDeviceDynamicShared[s]);
  a.copy_errors[0] = cudaMemcpy2DAsync(region + 256, 32, region, 16, 8, 4, cudaMemcpyDeviceToDevice, 0);
  a.copy_errors[1] = cudaMemset2DAsync(region + 512, 8, 0xab, 4, 3, 0);
  cudaMemcpy3DParms copy = copy_3d_of(region);
  a.copy_errors[2] = cudaMemcpy3DAsync(&copy, 0);
  a.copy_errors[3] = cudaMemset3DAsync(pitched(region + 1536, 8, 8, 3), 0x5a, extent(5, 2, 2), 0);
  a.pitch_error = cudaMemcpy2DAsync(region + 256, 4, region, 16, 8, 4, cudaMemcpyDeviceToDevice, 0);
  a.direction_error = cudaMemcpy2DAsync(region + 256, 32, region, 16, 8, 4, cudaMemcpyHostToDevice, 0);
  cudaGetLastError();
  struct Parameters {
    int a, b;
    int* out;
  };
  auto* buffer = static_cast<Parameters*>(cudaGetParameterBuffer(64, sizeof(Parameters)));
  if (!buffer) {
    a.buffer_launch_error = cudaGetLastError();
    return;
  }
  *buffer = Parameters{20, 22, launched};
  a.buffer_launch_error = cudaLaunchDevice((void*)store_sum, buffer, dim3(1), dim3(1), 0, 0);
}

int agreed = 0, compared = 0;

void line(const char* what, long long device, long long host) {
  ++compared;
  if (device == host) ++agreed;
  std::printf("%-44s device %-10lld host %lld%s\n", what, device, host, device == host ? "" : "  DIFFERENT");
}

void error_line(const char* what, int device, cudaError_t host) {
  ++compared;
  if (device == host) ++agreed;
  std::printf("%-44s device %-32s host %s%s\n", what, cudaGetErrorName(static_cast<cudaError_t>(device)),
              cudaGetErrorName(host), device == static_cast<int>(host) ? "" : "  DIFFERENT");
}

// A short fingerprint of the pitched region: the bytes each copy wrote. What the sets wrote
// is not printed: the H100's device-side sets write zeros (as its cudaMemsetAsync does, see
// the conformance suite's dp_device_memcpy), cucpu the value asked for.
void print_region(const char* side, const unsigned char* r) {
  std::printf("%s 2D copy row 3:", side);
  for (int i = 0; i < 8; ++i) std::printf(" %02x", r[256 + 3 * 32 + i]);
  std::printf("\n%s 3D copy box:", side);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) std::printf(" %02x", r[1024 + (1 + z) * 32 + (1 + y) * 8 + 2 + x]);
  std::printf("\n");
}

int main() {
  // Attributes the host sets before the device asks: they belong to the kernel.
  cudaFuncSetAttribute(target, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  cudaFuncSetAttribute(target, cudaFuncAttributePreferredSharedMemoryCarveout, 50);

  constexpr size_t kRegion = 2048;
  unsigned char source[256];
  for (int i = 0; i < 256; ++i) source[i] = static_cast<unsigned char>(i * 7 + 3);
  unsigned char *device_region, *host_region;
  int* launched;
  cudaMalloc(&device_region, kRegion);
  cudaMalloc(&host_region, kRegion);
  cudaMalloc(&launched, sizeof(int));
  for (unsigned char* r : {device_region, host_region}) {
    cudaMemset(r, 0, kRegion);
    cudaMemcpy(r, source, sizeof(source), cudaMemcpyHostToDevice);
  }
  cudaMemset(launched, 0, sizeof(int));

  ask<<<1, 1>>>(device_region, launched);
  std::printf("ask: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  DeviceAnswers a;
  cudaMemcpyFromSymbol(&a, answers, sizeof(a));

  int count = 0;
  error_line("cudaGetDeviceCount", a.count_error, cudaGetDeviceCount(&count));
  line("device count", a.count, count);
  for (int i = 0; i < kAttributeCount; ++i) {
    int value = 0;
    cudaError_t e = cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(kAttributes[i]), 0);
    char what[64];
    std::snprintf(what, sizeof(what), "attribute %s", kAttributeNames[i]);
    if (a.attribute_errors[i] != e) error_line(what, a.attribute_errors[i], e);
    line(what, a.attributes[i], value);
  }
  int multiprocessors = 0;
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  std::printf("%-44s %s\n", "attribute MultiProcessorCount",
              a.multiprocessors == multiprocessors ? "same on both sides" : "DIFFERENT");
  int unused;
  error_line("attribute of device count", a.bad_device_error, cudaDeviceGetAttribute(&unused, cudaDevAttrWarpSize, count));
  error_line("attribute 100000", a.bad_attribute_error,
             cudaDeviceGetAttribute(&unused, static_cast<cudaDeviceAttr>(100000), 0));
  cudaFuncCache cache;
  error_line("cudaDeviceGetCacheConfig", a.cache_error, cudaDeviceGetCacheConfig(&cache));
  line("cache config", a.cache_config, cache);
  cudaSharedMemConfig banks;
  error_line("cudaDeviceGetSharedMemConfig", a.banks_error, cudaDeviceGetSharedMemConfig(&banks));
  line("shared memory config", a.banks, banks);

  cudaFuncAttributes f;
  error_line("cudaFuncGetAttributes", a.func_error, cudaFuncGetAttributes(&f, target));
  // The host side is not asked: the real libcudart takes any pointer for a kernel handle and
  // crashes in cuKernelGetFunction on a data address (H100, driver 580).
  std::printf("%-44s device %s\n", "cudaFuncGetAttributes of no kernel",
              cudaGetErrorName(static_cast<cudaError_t>(a.bad_func_error)));
  cudaFuncGetAttributes(&f, target);
  line("func sharedSizeBytes", a.func.sharedSizeBytes, f.sharedSizeBytes);
  line("func constSizeBytes", a.func.constSizeBytes, f.constSizeBytes);
  line("func localSizeBytes", a.func.localSizeBytes, f.localSizeBytes);
  line("func maxThreadsPerBlock", a.func.maxThreadsPerBlock, f.maxThreadsPerBlock);
  line("func numRegs", a.func.numRegs, f.numRegs);
  line("func ptxVersion", a.func.ptxVersion, f.ptxVersion);
  line("func binaryVersion", a.func.binaryVersion, f.binaryVersion);
  line("func cacheModeCA", a.func.cacheModeCA, f.cacheModeCA);
  line("func maxDynamicSharedSizeBytes", a.func.maxDynamicSharedSizeBytes, f.maxDynamicSharedSizeBytes);
  line("func preferredShmemCarveout", a.func.preferredShmemCarveout, f.preferredShmemCarveout);
  line("func clusterDimMustBeSet", a.func.clusterDimMustBeSet, f.clusterDimMustBeSet);
  line("func requiredClusterWidth", a.func.requiredClusterWidth, f.requiredClusterWidth);
  line("func clusterSchedulingPolicyPreference", a.func.clusterSchedulingPolicyPreference,
       f.clusterSchedulingPolicyPreference);
  line("func nonPortableClusterSizeAllowed", a.func.nonPortableClusterSizeAllowed, f.nonPortableClusterSizeAllowed);

  for (int b = 0; b < 4; ++b)
    for (int s = 0; s < 2; ++s) {
      int blocks = -1;
      cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, target, kBlockSizes[b], kDynamicShared[s]);
      char what[64];
      std::snprintf(what, sizeof(what), "occupancy %d threads, %zu dynamic bytes", kBlockSizes[b], kDynamicShared[s]);
      if (a.occupancy_errors[b][s] != e) error_line(what, a.occupancy_errors[b][s], e);
      line(what, a.occupancy[b][s], blocks);
    }

  // The host does the same pitched work on its own region.
  error_line("cudaMemcpy2DAsync", a.copy_errors[0],
             cudaMemcpy2DAsync(host_region + 256, 32, host_region, 16, 8, 4, cudaMemcpyDeviceToDevice, 0));
  error_line("cudaMemset2DAsync", a.copy_errors[1], cudaMemset2DAsync(host_region + 512, 8, 0xab, 4, 3, 0));
  cudaMemcpy3DParms copy = copy_3d_of(host_region);
  error_line("cudaMemcpy3DAsync", a.copy_errors[2], cudaMemcpy3DAsync(&copy, 0));
  error_line("cudaMemset3DAsync", a.copy_errors[3],
             cudaMemset3DAsync(make_cudaPitchedPtr(host_region + 1536, 8, 8, 3), 0x5a, make_cudaExtent(5, 2, 2), 0));
  error_line("cudaMemcpy2DAsync width above pitch", a.pitch_error,
             cudaMemcpy2DAsync(host_region + 256, 4, host_region, 16, 8, 4, cudaMemcpyDeviceToDevice, 0));
  cudaGetLastError();
  std::printf("%-44s device %s\n", "cudaMemcpy2DAsync host to device",
              cudaGetErrorName(static_cast<cudaError_t>(a.direction_error)));
  cudaDeviceSynchronize();
  unsigned char device_bytes[kRegion], host_bytes[kRegion];
  cudaMemcpy(device_bytes, device_region, kRegion, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_bytes, host_region, kRegion, cudaMemcpyDeviceToHost);
  print_region("device", device_bytes);
  print_region("host  ", host_bytes);
  const bool copies_equal = std::memcmp(device_bytes, host_bytes, 512) == 0 &&
                            std::memcmp(device_bytes + 1024, host_bytes + 1024, 512) == 0;
  line("copied regions equal", copies_equal, 1);

  int sum = 0;
  cudaMemcpy(&sum, launched, sizeof(sum), cudaMemcpyDeviceToHost);
  std::printf("%-44s %s, store_sum(20, 22) wrote %d\n", "cudaLaunchDevice through a parameter buffer",
              cudaGetErrorName(static_cast<cudaError_t>(a.buffer_launch_error)), sum);
  std::printf("device and host agree on %d of %d\n", agreed, compared);
  cudaFree(device_region);
  cudaFree(host_region);
  cudaFree(launched);
  return 0;
}
