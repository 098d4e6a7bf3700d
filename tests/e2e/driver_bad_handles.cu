// The driver's answers to handles that are not valid for the call: the default streams
// where only created ones may be, a kernel of one context launched in another, pointers
// that are not allocations, an unknown export table. Using a destroyed stream, event,
// context or module is undefined on NVIDIA's driver, which crashes on some of them
// (cucpu_only/driver_destroyed_handles.cu has those). Each line is flushed, so that a
// crash would show where.
// NVCC-FLAGS: -lcuda
#include <cuda.h>

#include <cstdio>

static void say(const char* what, CUresult result) {
  const char* name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS) name = "(unknown)";
  std::printf("%s: %d %s\n", what, result, name);
  std::fflush(stdout);
}

static const char* kPtx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry noop(.param .u64 p) { ret; }\n";

int main() {
  cuInit(0);
  CUdevice device = 0;
  cuDeviceGet(&device, 0);
  CUcontext a = nullptr, b = nullptr;
  say("create A", cuCtxCreate(&a, nullptr, 0, device));
  CUmodule module = nullptr;
  say("load in A", cuModuleLoadData(&module, kPtx));
  CUfunction noop = nullptr;
  say("get noop", cuModuleGetFunction(&noop, module, "noop"));
  void* pointer = nullptr;
  void* params[] = {&pointer};
  say("launch noop in A", cuLaunchKernel(noop, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));

  CUstream stream = nullptr;
  say("create stream", cuStreamCreate(&stream, 0));
  say("destroy stream", cuStreamDestroy(stream));
  CUstream other = nullptr;
  say("create another stream", cuStreamCreate(&other, 0));
  say("synchronize the default stream", cuStreamSynchronize(nullptr));
  say("synchronize CU_STREAM_LEGACY", cuStreamSynchronize(CU_STREAM_LEGACY));
  say("synchronize CU_STREAM_PER_THREAD", cuStreamSynchronize(CU_STREAM_PER_THREAD));
  say("destroy CU_STREAM_LEGACY", cuStreamDestroy(CU_STREAM_LEGACY));
  say("destroy the NULL stream", cuStreamDestroy(nullptr));

  CUevent event = nullptr;
  say("create event", cuEventCreate(&event, 0));
  say("destroy event", cuEventDestroy(event));
  say("event flags 0x100", cuEventCreate(&event, 0x100));
  say("stream flags 7", cuStreamCreate(&other, 7));

  CUdeviceptr memory = 0;
  say("alloc", cuMemAlloc(&memory, 256));
  int local = 0;
  say("free a host address", cuMemFree(reinterpret_cast<CUdeviceptr>(&local)));
  say("free inside an allocation", cuMemFree(memory + 16));
  say("free 0", cuMemFree(0));
  say("memset past the end", cuMemsetD8(memory, 1, 4096));
  say("alloc 0 bytes", cuMemAlloc(&memory, 0));

  // A second context: modules are per context.
  say("create B", cuCtxCreate(&b, nullptr, 0, device));
  say("launch A's noop in B", cuLaunchKernel(noop, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  say("synchronize B", cuCtxSynchronize());
  say("destroy B", cuCtxDestroy(b));
  CUcontext current = nullptr;
  say("get current", cuCtxGetCurrent(&current));
  std::printf("current is A: %s\n", current == a ? "yes" : "no");
  say("unload module", cuModuleUnload(module));

  const CUuuid unknown = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
  const void* table = reinterpret_cast<const void*>(1);
  say("cuGetExportTable(unknown UUID)", cuGetExportTable(&table, &unknown));
  std::printf("table %s\n", table ? "set" : "null");
  say("cuGetExportTable(null UUID)", cuGetExportTable(&table, nullptr));
  say("destroy A", cuCtxDestroy(a));
  say("alloc with no context", cuMemAlloc(&memory, 16));
  std::printf("done\n");
  return 0;
}
