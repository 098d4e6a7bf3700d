// Run-time compilation: CUDA C++ compiled with NVRTC for the device's own architecture
// (sm_XX from its compute capability, as NVIDIA's nvrtc samples do), the cubin loaded with
// cuModuleLoadData (cucpu's libnvrtc.so.13 hands back PTX as the cubin), a kernel found by
// its lowered name expression, launched, checked; a source with an error gives NVRTC's
// compile error and a log.
// NVCC-FLAGS: -lcuda -lnvrtc
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <string>
#include <vector>

static const char* kSource = R"CUDA(
template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__device__ int total;
extern "C" __global__ void count(const int* values, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&total, values[i]);
}
)CUDA";

int main() {
  cuInit(0);
  CUdevice device = 0;
  cuDeviceGet(&device, 0);
  CUcontext context = nullptr;
  cuCtxCreate(&context, nullptr, 0, device);
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);

  nvrtcProgram program = nullptr;
  std::printf("create: %s\n", nvrtcGetErrorString(nvrtcCreateProgram(&program, kSource, "axpy.cu", 0, nullptr, nullptr)));
  nvrtcAddNameExpression(program, "axpy<float>");
  const char* options[] = {arch.c_str(), "--std=c++17"};
  std::printf("compile: %s\n", nvrtcGetErrorString(nvrtcCompileProgram(program, 2, options)));
  size_t size = 0;
  nvrtcGetCUBINSize(program, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(program, cubin.data());
  const char* lowered = nullptr;
  nvrtcGetLoweredName(program, "axpy<float>", &lowered);
  std::string axpy_name = lowered;
  CUmodule module = nullptr;
  CUresult loaded = cuModuleLoadData(&module, cubin.data());
  nvrtcDestroyProgram(&program);
  const char* name = nullptr;
  cuGetErrorName(loaded, &name);
  std::printf("load: %s, cubin of %s\n", name, size > 0 ? "some bytes" : "no bytes");

  CUfunction axpy = nullptr, count = nullptr;
  cuModuleGetFunction(&axpy, module, axpy_name.c_str());
  cuModuleGetFunction(&count, module, "count");
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f;
  }
  CUdeviceptr dx = 0, dy = 0, dv = 0;
  cuMemAlloc(&dx, n * sizeof(float));
  cuMemAlloc(&dy, n * sizeof(float));
  cuMemcpyHtoD(dx, x.data(), n * sizeof(float));
  cuMemcpyHtoD(dy, y.data(), n * sizeof(float));
  float a = 2.0f;
  int count_n = n;
  void* axpy_params[] = {&a, &dx, &dy, &count_n};
  cuLaunchKernel(axpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, axpy_params, nullptr);
  cuMemcpyDtoH(y.data(), dy, n * sizeof(float));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != 2.0f * i + 0.5f;
  std::printf("axpy<float>: %d wrong, y[999] = %.1f\n", wrong, y[999]);

  std::vector<int> values(n, 3);
  cuMemAlloc(&dv, n * sizeof(int));
  cuMemcpyHtoD(dv, values.data(), n * sizeof(int));
  void* count_params[] = {&dv, &count_n};
  cuLaunchKernel(count, 1, 1, 1, 128, 1, 1, 0, nullptr, count_params, nullptr);
  CUdeviceptr total = 0;
  cuModuleGetGlobal(&total, nullptr, module, "total");
  int counted = 0;
  cuMemcpyDtoH(&counted, total, sizeof counted);
  std::printf("count: total %d\n", counted);

  // A source with an error: NVRTC says so, with a log.
  nvrtcCreateProgram(&program, "__global__ void broken() { undeclared = 1; }", "broken.cu", 0, nullptr, nullptr);
  std::printf("compile broken: %s\n", nvrtcGetErrorString(nvrtcCompileProgram(program, 1, options)));
  size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  std::printf("log: %s\n", log_size > 1 ? "says something" : "empty");
  nvrtcDestroyProgram(&program);
  cuCtxDestroy(context);
  return 0;
}
