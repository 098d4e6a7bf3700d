// Handles used after they were destroyed: undefined on NVIDIA's driver, which crashes on
// some (a destroyed stream: SIGSEGV; a destroyed event: abort) and takes others. cucpu
// answers each with the error of an invalid handle and goes on.
// NVCC-FLAGS: -lcuda
#include <cuda.h>

#include <cstdio>

static void say(const char* what, CUresult result) {
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::printf("%s: %s\n", what, name ? name : "?");
}

int main() {
  cuInit(0);
  CUdevice device = 0;
  cuDeviceGet(&device, 0);
  CUcontext a = nullptr, b = nullptr;
  cuCtxCreate(&a, nullptr, 0, device);
  CUstream stream = nullptr;
  cuStreamCreate(&stream, 0);
  cuStreamDestroy(stream);
  say("synchronize a destroyed stream", cuStreamSynchronize(stream));
  say("query a destroyed stream", cuStreamQuery(stream));
  CUevent event = nullptr;
  cuEventCreate(&event, 0);
  say("record on a destroyed stream", cuEventRecord(event, stream));
  cuEventDestroy(event);
  say("synchronize a destroyed event", cuEventSynchronize(event));
  say("destroy a destroyed stream", cuStreamDestroy(stream));
  CUmodule module = nullptr;
  cuModuleLoadData(&module, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n");
  cuModuleUnload(module);
  say("unload an unloaded module", cuModuleUnload(module));
  cuCtxCreate(&b, nullptr, 0, device);
  cuCtxDestroy(b);
  say("push a destroyed context", cuCtxPushCurrent(b));
  say("make a destroyed context current", cuCtxSetCurrent(b));
  unsigned version = 0;
  say("API version of a destroyed context", cuCtxGetApiVersion(b, &version));
  say("destroy a destroyed context", cuCtxDestroy(b));
  say("destroy the live one", cuCtxDestroy(a));
  return 0;
}
