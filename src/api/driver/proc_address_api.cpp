// cuGetProcAddress: a driver function by name, in the ABI variant a CUDA version expects
// (cuCtxCreate is cuCtxCreate_v2 to a 3.2 program, _v3 from 11.4, _v4 from 12.5) and the
// default-stream variant the flags ask for (_ptds/_ptsz for per-thread default streams).
// The answers are NVIDIA's driver's own, probed for every name at each CUDA version
// (proc_address_table.def, tests/data/proc_address.tsv); the functions handed out are
// libcuda.so.1's exports of those names, ours.
#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <tuple>

#include "api/driver/driver_state.h"
#include "support/log.h"

namespace {

struct Row {
  std::string_view name;
  int version;  // the answer holds from this version up to the next row's
  int flags;
  std::string_view symbol;  // empty: the name is newer than the version
};

constexpr Row kRows[] = {
#define PROC_ADDRESS(name, version, flags, symbol) {name, version, flags, symbol},
#include "api/driver/proc_address_table.def"
};

// This library's own export of `symbol` (never an interposed one).
void* own_export(std::string_view symbol) {
  static void* self = [] {
    Dl_info info{};
    dladdr(reinterpret_cast<void*>(&cuGetProcAddress_v2), &info);
    return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  }();
  return self ? dlsym(self, std::string(symbol).c_str()) : nullptr;
}

enum class Found { Yes, NotFound, VersionNotSufficient };

// The answer for (name, version, flags); flags 0 and 1 (legacy stream) answer alike.
Found look_up(const char* symbol, int version, int flags, void** function) {
  const std::string_view name(symbol);
  auto key = [](const Row& row) { return std::tie(row.name, row.flags); };
  auto [first, last] = std::equal_range(std::begin(kRows), std::end(kRows), Row{name, 0, flags, {}},
                                        [&](const Row& a, const Row& b) { return key(a) < key(b); });
  if (first == last) return Found::NotFound;
  const Row* answer = nullptr;
  for (const Row* row = first; row != last && row->version <= version; ++row) answer = row;
  if (!answer || answer->symbol.empty()) return Found::VersionNotSufficient;
  *function = own_export(answer->symbol);
  return *function ? Found::Yes : Found::NotFound;
}

// What both entry points check: the flags are known bits, and the version is not newer
// than the driver (then nothing is written).
CUresult check(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  constexpr cuuint64_t kKnownFlags = CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  if (!symbol || !pfn || (flags & ~kKnownFlags) || version > CUDA_VERSION) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

// A name the driver lacks, or asks for a version before the name existed: success, with
// a null pointer and the reason in symbolStatus.
CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* symbolStatus) {
  if (CUresult bad = check(symbol, pfn, cudaVersion, flags); bad != CUDA_SUCCESS) return bad;
  *pfn = nullptr;
  const Found found = look_up(symbol, cudaVersion, static_cast<int>(flags), pfn);
  cucpu::log::debug(cucpu::log::Category::Api, "cuGetProcAddress_v2({}, {}, {}): {}", symbol, cudaVersion, flags,
                    found == Found::Yes ? "found" : found == Found::NotFound ? "not found" : "version not sufficient");
  if (symbolStatus) {
    *symbolStatus = found == Found::Yes                    ? CU_GET_PROC_ADDRESS_SUCCESS
                    : found == Found::VersionNotSufficient ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                                                           : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  }
  return CUDA_SUCCESS;
}

// The CUDA 11.3 form: no status; a name it cannot give is CUDA_ERROR_NOT_FOUND and the
// pointer is left as it was.
CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags) {
  if (CUresult bad = check(symbol, pfn, cudaVersion, flags); bad != CUDA_SUCCESS) return bad;
  void* function = nullptr;
  if (look_up(symbol, cudaVersion, static_cast<int>(flags), &function) != Found::Yes) return CUDA_ERROR_NOT_FOUND;
  *pfn = function;
  return CUDA_SUCCESS;
}

}  // extern "C"
