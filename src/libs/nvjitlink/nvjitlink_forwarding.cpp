// cucpu's libnvJitLink.so.13: NVIDIA's nvJitLink links device code on any machine, but the
// cubin it hands back is machine code for one GPU, which no CPU runs. This library stands
// in front of NVIDIA's: every function is NVIDIA's (the generated trampolines), except
// that what the link makes is PTX, which cucpu's cuModuleLoadData/cuLibraryLoadData take,
// handed back as its "linked cubin": a link-time-optimised link (-lto: LTO-IR inputs, what
// Numba links) is asked for PTX output (-ptx); a link of one PTX module hands back that
// module. Other links get NVIDIA's cubin (and cucpu's loader then says it cannot run
// machine code).
// nvJitLink.h is not included: it defines the unversioned names as inline functions,
// which this library must export itself.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "libs/forwarding/nvidia_library.h"

namespace {

namespace libs = cucpu::libs;

using Handle = void*;  // nvJitLinkHandle
constexpr int kSuccess = 0, kInternalError = 6;       // nvJitLinkResult
constexpr int kInputPtx = 2, kInputAny = 10;          // nvJitLinkInputType

constexpr const char* kForwarded[] = {
#define FORWARDED(name) name,
#include CUCPU_FORWARDED_INC
};
constexpr size_t kSlots = sizeof kForwarded / sizeof kForwarded[0];

int missing_library() { return kInternalError; }

void* nvidia_nvjitlink() {
  static void* library = libs::open_nvidia_library("libnvJitLink.so.13", "CUCPU_NVJITLINK", "nvJitLinkVersion",
                                                   reinterpret_cast<const void*>(&missing_library));
  return library;
}

template <typename Function>
Function nvidia(const char* name) {
  void* library = nvidia_nvjitlink();
  return library ? reinterpret_cast<Function>(libs::nvidia_function(library, name)) : nullptr;
}

// What went into each link: its PTX modules, and whether anything else did; and whether
// it was made to emit PTX (-lto links).
struct Inputs {
  std::vector<std::string> ptx;
  bool other = false;
  bool emits_ptx = false;
};
std::mutex inputs_mutex;
std::map<Handle, Inputs>& inputs() {
  static auto* recorded = new std::map<Handle, Inputs>;
  return *recorded;
}

bool is_ptx(int type, const std::string& data) {
  if (type == kInputPtx) return true;
  return type == kInputAny && (data.rfind("//", 0) == 0 || data.rfind(".version", 0) == 0);
}

void record(Handle handle, int type, std::string data) {
  std::lock_guard lock(inputs_mutex);
  Inputs& link = inputs()[handle];
  while (!data.empty() && data.back() == '\0') data.pop_back();
  if (is_ptx(type, data)) {
    link.ptx.push_back(std::move(data));
  } else {
    link.other = true;
  }
}

// The one PTX module of a link made of just that, else nothing.
const std::string* only_ptx(Handle handle) {
  std::lock_guard lock(inputs_mutex);
  auto found = inputs().find(handle);
  if (found == inputs().end() || found->second.other || found->second.ptx.size() != 1) return nullptr;
  return &found->second.ptx.front();
}

int create(Handle* handle, uint32_t count, const char* const* options) {
  auto real = nvidia<int (*)(Handle*, uint32_t, const char* const*)>("__nvJitLinkCreate_13_0");
  if (!real) return kInternalError;
  std::vector<const char*> asked(options, options + (options ? count : 0));
  bool lto = false, ptx = false;
  for (const char* option : asked) {
    lto |= option && std::strcmp(option, "-lto") == 0;
    ptx |= option && std::strcmp(option, "-ptx") == 0;
  }
  if (lto && !ptx) asked.push_back("-ptx");
  const int result = real(handle, static_cast<uint32_t>(asked.size()), asked.data());
  if (result == kSuccess && handle) {
    std::lock_guard lock(inputs_mutex);
    inputs()[*handle].emits_ptx = lto;
  }
  return result;
}

bool emits_ptx(Handle handle) {
  std::lock_guard lock(inputs_mutex);
  auto found = inputs().find(handle);
  return found != inputs().end() && found->second.emits_ptx;
}

int add_data(Handle handle, int type, const void* data, size_t size, const char* name) {
  auto real = nvidia<int (*)(Handle, int, const void*, size_t, const char*)>("__nvJitLinkAddData_13_0");
  if (!real) return kInternalError;
  const int result = real(handle, type, data, size, name);
  if (result == kSuccess && data) record(handle, type, std::string(static_cast<const char*>(data), size));
  return result;
}

int add_file(Handle handle, int type, const char* file_name) {
  auto real = nvidia<int (*)(Handle, int, const char*)>("__nvJitLinkAddFile_13_0");
  if (!real) return kInternalError;
  const int result = real(handle, type, file_name);
  if (result == kSuccess && file_name) {
    std::ifstream file(file_name, std::ios::binary);
    record(handle, type, std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
  }
  return result;
}

int destroy(Handle* handle) {
  auto real = nvidia<int (*)(Handle*)>("__nvJitLinkDestroy_13_0");
  if (!real) return kInternalError;
  if (handle) {
    std::lock_guard lock(inputs_mutex);
    inputs().erase(*handle);
  }
  return real(handle);
}

int linked_cubin_size(Handle handle, size_t* size) {
  if (emits_ptx(handle)) {
    auto real = nvidia<int (*)(Handle, size_t*)>("__nvJitLinkGetLinkedPtxSize_13_0");
    return real ? real(handle, size) : kInternalError;
  }
  if (const std::string* ptx = only_ptx(handle); ptx && size) {
    *size = ptx->size() + 1;
    return kSuccess;
  }
  auto real = nvidia<int (*)(Handle, size_t*)>("__nvJitLinkGetLinkedCubinSize_13_0");
  return real ? real(handle, size) : kInternalError;
}

int linked_cubin(Handle handle, void* cubin) {
  if (emits_ptx(handle)) {
    auto real = nvidia<int (*)(Handle, char*)>("__nvJitLinkGetLinkedPtx_13_0");
    return real ? real(handle, static_cast<char*>(cubin)) : kInternalError;
  }
  if (const std::string* ptx = only_ptx(handle); ptx && cubin) {
    std::memcpy(cubin, ptx->c_str(), ptx->size() + 1);
    return kSuccess;
  }
  auto real = nvidia<int (*)(Handle, void*)>("__nvJitLinkGetLinkedCubin_13_0");
  return real ? real(handle, cubin) : kInternalError;
}

}  // namespace

// The trampolines' targets, filled before main (a constructor of this library).
extern "C" __attribute__((visibility("hidden"))) void* cucpu_nvjitlink_functions[kSlots];
void* cucpu_nvjitlink_functions[kSlots];

__attribute__((constructor)) static void resolve_nvidia_functions() {
  libs::fill_forwarding_table(cucpu_nvjitlink_functions, kForwarded, kSlots, nvidia_nvjitlink(),
                              reinterpret_cast<void*>(&missing_library));
}

// Both spellings of each watched function: the header's inline wrappers call the
// versioned ones, bindings that load the library by name call the plain ones.
extern "C" {

int __nvJitLinkCreate_13_0(Handle* h, uint32_t count, const char* const* options) { return create(h, count, options); }
int nvJitLinkCreate(Handle* h, uint32_t count, const char* const* options) { return create(h, count, options); }
int __nvJitLinkAddData_13_0(Handle h, int type, const void* data, size_t size, const char* name) {
  return add_data(h, type, data, size, name);
}
int nvJitLinkAddData(Handle h, int type, const void* data, size_t size, const char* name) {
  return add_data(h, type, data, size, name);
}
int __nvJitLinkAddFile_13_0(Handle h, int type, const char* file) { return add_file(h, type, file); }
int nvJitLinkAddFile(Handle h, int type, const char* file) { return add_file(h, type, file); }
int __nvJitLinkDestroy_13_0(Handle* h) { return destroy(h); }
int nvJitLinkDestroy(Handle* h) { return destroy(h); }
int __nvJitLinkGetLinkedCubinSize_13_0(Handle h, size_t* size) { return linked_cubin_size(h, size); }
int nvJitLinkGetLinkedCubinSize(Handle h, size_t* size) { return linked_cubin_size(h, size); }
int __nvJitLinkGetLinkedCubin_13_0(Handle h, void* cubin) { return linked_cubin(h, cubin); }
int nvJitLinkGetLinkedCubin(Handle h, void* cubin) { return linked_cubin(h, cubin); }

}  // extern "C"
