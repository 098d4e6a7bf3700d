// cuLink*: linking PTX (and the PTX of fatbins) at run time. Each PTX input is parsed when
// it is added (text that is no PTX: CUDA_ERROR_INVALID_IMAGE, as on the H200); completing
// the link checks that the inputs link (ptx/link.h) and hands back a link image that
// cuModuleLoadData takes (core/link_image.h): PTX, not machine code, as everywhere in cucpu
// (tests/e2e/cuda_link).
#include <cuda.h>

#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "api/driver/driver_state.h"
#include "api/driver/jit_options.h"
#include "core/device.h"
#include "core/link_image.h"
#include "fatbin/fatbin.h"

using namespace cucpu;

namespace {

struct LinkState {
  driver::JitOptions options;
  std::vector<std::string> units;
  std::string image;  // cuLinkComplete's, valid until cuLinkDestroy
};

std::mutex states_mutex;
std::set<const void*>& states() {
  static auto* live = new std::set<const void*>;
  return *live;
}

LinkState* to_state(CUlinkState handle) {
  std::lock_guard lock(states_mutex);
  return states().count(handle) ? reinterpret_cast<LinkState*>(handle) : nullptr;
}

CUresult add(CUlinkState handle, CUjitInputType type, const void* data, size_t size) {
  LinkState* state = to_state(handle);
  if (!state) return CUDA_ERROR_INVALID_HANDLE;
  if (!data || size == 0) return CUDA_ERROR_INVALID_VALUE;
  switch (type) {
    case CU_JIT_INPUT_PTX: {
      std::string text(static_cast<const char*>(data), size);
      while (!text.empty() && text.back() == '\0') text.pop_back();
      if (auto checked = core::check_link_input(text); !checked) return driver::to_cu_result(checked.error());
      state->units.push_back(std::move(text));
      return CUDA_SUCCESS;
    }
    case CU_JIT_INPUT_FATBINARY: {
      auto entries = fatbin::read_entries(data, size);
      if (!entries) return driver::to_cu_result(entries.error());
      auto ptx = fatbin::select_ptx(*entries, core::device_arch());
      if (!ptx) return driver::to_cu_result(ptx.error());
      state->units.push_back(std::move(*ptx));
      return CUDA_SUCCESS;
    }
    case CU_JIT_INPUT_CUBIN: return CUDA_ERROR_NO_BINARY_FOR_GPU;  // machine code: no CPU runs it
    default: return CUDA_ERROR_NOT_SUPPORTED;  // objects, libraries, NVVM IR
  }
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuLinkCreate_v2(unsigned int numOptions, CUjit_option* options, void** optionValues,
                                 CUlinkState* stateOut) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!stateOut) return CUDA_ERROR_INVALID_VALUE;
  driver::JitOptions jit(numOptions, options, optionValues);
  if (CUresult invalid = jit.check(); invalid != CUDA_SUCCESS) return invalid;
  auto* state = new LinkState{jit, {}, {}};
  std::lock_guard lock(states_mutex);
  states().insert(state);
  *stateOut = reinterpret_cast<CUlinkState>(state);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option* options, void** optionValues,
                              CUlinkState* stateOut) {
  return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

CUresult CUDAAPI cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void* data, size_t size, const char*,
                                  unsigned int, CUjit_option*, void**) {
  CUCPU_REQUIRE_INIT();
  return add(state, type, data, size);
}
CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size, const char* name,
                               unsigned int numOptions, CUjit_option* options, void** optionValues) {
  return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

CUresult CUDAAPI cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char* path, unsigned int,
                                  CUjit_option*, void**) {
  CUCPU_REQUIRE_INIT();
  if (!path) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream file(path, std::ios::binary);
  if (!file) return CUDA_ERROR_FILE_NOT_FOUND;
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return add(state, type, bytes.data(), bytes.size());
}
CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path, unsigned int numOptions,
                               CUjit_option* options, void** optionValues) {
  return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}

CUresult CUDAAPI cuLinkComplete(CUlinkState handle, void** cubinOut, size_t* sizeOut) {
  CUCPU_REQUIRE_INIT();
  LinkState* state = to_state(handle);
  if (!state) return CUDA_ERROR_INVALID_HANDLE;
  if (!cubinOut || !sizeOut) return CUDA_ERROR_INVALID_VALUE;
  auto image = core::make_link_image(state->units);
  if (!image) {
    state->options.report("", image.error().message, 0.0f);
    // The inputs parsed when they were added: what fails now is the link (an H200 answers
    // two definitions of one name so).
    return image.error().code == ErrorCode::InvalidPtx ? CUDA_ERROR_INVALID_SOURCE : driver::to_cu_result(image.error());
  }
  state->options.report("", "", 0.0f);
  state->image = std::move(*image);
  *cubinOut = state->image.data();
  *sizeOut = state->image.size();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState handle) {
  CUCPU_REQUIRE_INIT();
  LinkState* state = to_state(handle);
  if (!state) return CUDA_ERROR_INVALID_HANDLE;
  {
    std::lock_guard lock(states_mutex);
    states().erase(state);
  }
  delete state;
  return CUDA_SUCCESS;
}

}  // extern "C"
