// cucpu's libnvrtc.so.13: NVIDIA's NVRTC compiles CUDA C++ on any machine, but what a
// program asks it for to load (nvrtcGetCUBIN: machine code for one GPU) no CPU runs. So
// this library stands in front of NVIDIA's: every function is NVIDIA's (forwarded by the
// generated trampolines), except that the "cubin" it hands back is the program's PTX,
// which cucpu's cuModuleLoadData takes. The program does not change.
#include <dlfcn.h>
#include <nvrtc.h>

#include "libs/forwarding/nvidia_library.h"

namespace {

namespace libs = cucpu::libs;

constexpr const char* kForwarded[] = {
#define FORWARDED(name) name,
#include CUCPU_FORWARDED_INC
};
constexpr size_t kSlots = sizeof kForwarded / sizeof kForwarded[0];

nvrtcResult missing_library() { return NVRTC_ERROR_INTERNAL_ERROR; }

void* nvidia_nvrtc() {
  static void* library = libs::open_nvidia_library("libnvrtc.so.13", "CUCPU_NVRTC", "nvrtcVersion",
                                                   reinterpret_cast<const void*>(&missing_library));
  return library;
}

template <typename Function>
Function nvidia(const char* name) {
  void* library = nvidia_nvrtc();
  return library ? reinterpret_cast<Function>(dlsym(library, name)) : nullptr;
}

}  // namespace

// The trampolines' targets, filled before main (a constructor of this library).
extern "C" __attribute__((visibility("hidden"))) void* cucpu_nvrtc_functions[kSlots];
void* cucpu_nvrtc_functions[kSlots];

__attribute__((constructor)) static void resolve_nvidia_functions() {
  libs::fill_forwarding_table(cucpu_nvrtc_functions, kForwarded, kSlots, nvidia_nvrtc(),
                              reinterpret_cast<void*>(&missing_library));
}

extern "C" {

// The "cubin" is the PTX (with its terminating NUL). A program compiled to something that
// has no PTX (LTO IR) gets NVIDIA's answer.
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t* cubinSizeRet) {
  auto ptx_size = nvidia<nvrtcResult (*)(nvrtcProgram, size_t*)>("nvrtcGetPTXSize");
  auto cubin_size = nvidia<nvrtcResult (*)(nvrtcProgram, size_t*)>("nvrtcGetCUBINSize");
  if (!ptx_size || !cubin_size) return NVRTC_ERROR_INTERNAL_ERROR;
  nvrtcResult result = ptx_size(prog, cubinSizeRet);
  return result == NVRTC_SUCCESS && cubinSizeRet && *cubinSizeRet > 1 ? result : cubin_size(prog, cubinSizeRet);
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char* cubin) {
  auto ptx_size = nvidia<nvrtcResult (*)(nvrtcProgram, size_t*)>("nvrtcGetPTXSize");
  auto ptx = nvidia<nvrtcResult (*)(nvrtcProgram, char*)>("nvrtcGetPTX");
  auto machine_code = nvidia<nvrtcResult (*)(nvrtcProgram, char*)>("nvrtcGetCUBIN");
  if (!ptx_size || !ptx || !machine_code) return NVRTC_ERROR_INTERNAL_ERROR;
  size_t size = 0;
  if (ptx_size(prog, &size) == NVRTC_SUCCESS && size > 1) return ptx(prog, cubin);
  return machine_code(prog, cubin);
}

}  // extern "C"
