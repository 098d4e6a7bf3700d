// The runtime and the driver API in one program, as NVIDIA's simpleDrvRuntime mixes them:
// the runtime's primary context is the driver's, runtime streams and events are CUstream
// and CUevent, memory from either API is the other's, a kernel the runtime registered is
// launched through cuLaunchKernel (cudaGetFuncBySymbol), and a context the driver makes
// current is the one the runtime then works in.
// NVCC-FLAGS: -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void triple(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 3;
}

static int failures = 0;

#define CHECK(call)                                                             \
  do {                                                                          \
    long long result_ = static_cast<long long>(call);                           \
    if (result_ != 0) {                                                         \
      std::printf("FAILED %s: %lld\n", #call, result_);                         \
      ++failures;                                                               \
    }                                                                           \
  } while (0)

int main() {
  CHECK(cuInit(0));
  CUcontext current = reinterpret_cast<CUcontext>(1);
  CHECK(cuCtxGetCurrent(&current));
  std::printf("before the runtime: current %s\n", current ? "some" : "none");
  CUdevice device = 0;
  CHECK(cuDeviceGet(&device, 0));
  unsigned flags = 0;
  int active = 0;
  CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary active before the runtime: %d\n", active);

  const int n = 4096;
  int* data = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));  // the runtime's first call makes the primary current
  CHECK(cuCtxGetCurrent(&current));
  CUcontext primary = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&primary, device));
  std::printf("after cudaMalloc: current is the primary context: %s\n", current == primary ? "yes" : "no");
  CHECK(cuDevicePrimaryCtxGetState(device, &flags, &active));
  std::printf("primary active after the runtime: %d\n", active);

  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i;
  CHECK(cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(data), host.data(), n * sizeof(int)));  // runtime memory, driver copy

  // A runtime stream as a CUstream, a kernel of the program through the driver.
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaFunction_t function = nullptr;
  CHECK(cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(triple)));
  CUfunction kernel = reinterpret_cast<CUfunction>(function);
  int count = n;
  void* params[] = {&data, &count};
  CHECK(cuLaunchKernel(kernel, n / 256, 1, 1, 256, 1, 1, 0, reinterpret_cast<CUstream>(stream), params, nullptr));
  int attribute = 0;
  CHECK(cuFuncGetAttribute(&attribute, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel));
  std::printf("triple through the driver: max threads per block %d\n", attribute);
  cudaEvent_t done = nullptr;
  CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CHECK(cuEventRecord(reinterpret_cast<CUevent>(done), reinterpret_cast<CUstream>(stream)));
  CHECK(cudaEventSynchronize(done));
  CHECK(cudaMemcpy(host.data(), data, n * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != 3 * i;
  std::printf("after cuLaunchKernel on a runtime stream: %d wrong\n", wrong);

  // Driver memory, runtime launch and copy.
  CUdeviceptr driver_memory = 0;
  CHECK(cuMemAlloc(&driver_memory, n * sizeof(int)));
  CHECK(cudaMemcpy(reinterpret_cast<void*>(driver_memory), data, n * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaDeviceSynchronize());  // a device-to-device cudaMemcpy may return early; the stream does not wait for it
  triple<<<n / 256, 256, 0, stream>>>(reinterpret_cast<int*>(driver_memory), n);
  CHECK(cuStreamSynchronize(reinterpret_cast<CUstream>(stream)));
  CHECK(cuMemcpyDtoH(host.data(), driver_memory, n * sizeof(int)));
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != 9 * i;
  std::printf("after <<<>>> on driver memory: %d wrong\n", wrong);
  cudaPointerAttributes attributes{};
  CHECK(cudaPointerGetAttributes(&attributes, reinterpret_cast<void*>(driver_memory)));
  std::printf("cuMemAlloc memory is cudaMemoryTypeDevice: %s\n", attributes.type == cudaMemoryTypeDevice ? "yes" : "no");

  // A created context made current: the runtime works in it.
  CUcontext created = nullptr;
  CHECK(cuCtxCreate(&created, nullptr, 0, device));
  int runtime_device = -1;
  CHECK(cudaGetDevice(&runtime_device));
  int* more = nullptr;
  CHECK(cudaMalloc(&more, 64));
  CHECK(cudaMemset(more, 7, 64));
  unsigned char bytes[64] = {};
  CHECK(cudaMemcpy(bytes, more, 64, cudaMemcpyDeviceToHost));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("in a created context: device %d, current is it: %s, byte %d\n", runtime_device,
              current == created ? "yes" : "no", bytes[63]);
  CHECK(cudaFree(more));
  CHECK(cuCtxDestroy(created));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after destroying it: current is the primary: %s\n", current == primary ? "yes" : "no");
  CHECK(cudaSetDevice(0));
  CHECK(cuCtxGetCurrent(&current));
  std::printf("after cudaSetDevice(0): current is the primary: %s\n", current == primary ? "yes" : "no");

  CHECK(cuMemFree(driver_memory));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaFree(data));
  CHECK(cuDevicePrimaryCtxRelease(device));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
