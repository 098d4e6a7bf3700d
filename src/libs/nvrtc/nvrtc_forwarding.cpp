// cucpu's libnvrtc.so.13: NVIDIA's NVRTC compiles CUDA C++ on any machine, but what a
// program asks it for to load (nvrtcGetCUBIN: machine code for one GPU) no CPU runs. So
// this library stands in front of NVIDIA's: every function is NVIDIA's (forwarded by the
// generated trampolines), except that the "cubin" it hands back is the program's PTX,
// which cucpu's cuModuleLoadData takes. The program does not change.
#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char* kForwarded[] = {
#define FORWARDED(name) name,
#include "nvrtc_forwarded.inc"
};
constexpr size_t kSlots = sizeof kForwarded / sizeof kForwarded[0];

nvrtcResult missing_library() { return NVRTC_ERROR_INTERNAL_ERROR; }

// NVIDIA's libnvrtc.so.13: CUCPU_NVRTC if set, else the toolkit's (CUDA_PATH, CUDA_HOME,
// /usr/local/cuda). Never this library itself.
void* open_nvidia_nvrtc() {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("CUCPU_NVRTC")) candidates.push_back(path);
  for (const char* variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(variable)) candidates.push_back(std::string(root) + "/lib64/libnvrtc.so.13");
  candidates.push_back("/usr/local/cuda/lib64/libnvrtc.so.13");
  candidates.push_back("/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13");
  Dl_info self{};
  dladdr(reinterpret_cast<void*>(&missing_library), &self);
  for (const std::string& candidate : candidates) {
    void* library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) continue;
    Dl_info found{};
    if (dladdr(dlsym(library, "nvrtcVersion"), &found) && found.dli_fbase != self.dli_fbase) return library;
    dlclose(library);
  }
  std::fprintf(stderr, "cucpu: NVIDIA's libnvrtc.so.13 was not found (set CUCPU_NVRTC to its path); "
                       "NVRTC calls return NVRTC_ERROR_INTERNAL_ERROR\n");
  return nullptr;
}

void* nvidia_nvrtc() {
  static void* library = open_nvidia_nvrtc();
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
  for (size_t slot = 0; slot < kSlots; ++slot) {
    void* function = nvidia<void*>(kForwarded[slot]);
    cucpu_nvrtc_functions[slot] = function ? function : reinterpret_cast<void*>(&missing_library);
  }
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
