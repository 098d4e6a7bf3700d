// Modules: device code loaded from a file or from memory (PTX text, a fatbin, the
// wrapper nvcc puts around one), compiled when it is loaded (core/module_registry.h),
// and the kernels and variables found in it.
#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "api/driver/driver_state.h"
#include "api/driver/jit_options.h"
#include "core/module_registry.h"
#include "core/stream_engine.h"

using namespace cucpu;

namespace {

core::ModuleRegistry& modules() { return core::modules(); }

core::FatbinModule* to_module(CUmodule handle) {
  return handle && modules().is_loaded(handle) ? reinterpret_cast<core::FatbinModule*>(handle) : nullptr;
}

// Loads an image and reports to the JIT options' logs.
CUresult load(CUmodule* module, const void* image, const std::string& name, const driver::JitOptions& options) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!module) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult invalid = options.check(); invalid != CUDA_SUCCESS) return invalid;
  auto started = std::chrono::steady_clock::now();
  auto loaded = modules().load_image(image, name, context);
  const float ms = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - started).count();
  if (!loaded) {
    options.report("", loaded.error().message, ms);
    return driver::to_cu_result(loaded.error());
  }
  options.report("", "", ms);
  *module = reinterpret_cast<CUmodule>(*loaded);
  return CUDA_SUCCESS;
}

// A file's bytes with a NUL after them (PTX is text), or nothing if it cannot be read.
bool read_file(const char* path, std::vector<char>* bytes) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  bytes->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  bytes->push_back('\0');
  return true;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions, CUjit_option* options,
                                    void** optionValues) {
  if (!image) return CUDA_ERROR_INVALID_VALUE;
  return load(module, image, "the image", driver::JitOptions(numOptions, options, optionValues));
}

CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  return cuModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin) {
  return cuModuleLoadDataEx(module, fatCubin, 0, nullptr, nullptr);
}

CUresult CUDAAPI cuModuleLoad(CUmodule* module, const char* fname) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!module || !fname) return CUDA_ERROR_INVALID_VALUE;
  std::vector<char> bytes;
  if (!read_file(fname, &bytes)) return CUDA_ERROR_FILE_NOT_FOUND;
  if (bytes.size() < 5) return CUDA_ERROR_INVALID_IMAGE;
  return load(module, bytes.data(), fname, driver::JitOptions(0, nullptr, nullptr));
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod) {
  CUCPU_REQUIRE_INIT();
  core::FatbinModule* module = to_module(hmod);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  auto unloaded = modules().unload(module);
  return unloaded ? CUDA_SUCCESS : driver::to_cu_result(unloaded.error());
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_module(hmod);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  auto kernel = modules().loaded_function(module, name);
  if (!kernel) return driver::not_found_or(kernel.error());
  *hfunc = reinterpret_cast<CUfunction>(*kernel);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_module(hmod);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  return driver::module_global(module, name, false, dptr, bytes);
}

// The CUDA 3.1 ABI: 32-bit pointer and size.
CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr_v1* dptr, unsigned int* bytes, CUmodule hmod, const char* name) {
  CUdeviceptr address = 0;
  size_t size = 0;
  CUresult result = cuModuleGetGlobal_v2(&address, &size, hmod, name);
  if (result != CUDA_SUCCESS) return result;
  if (dptr) *dptr = static_cast<CUdeviceptr_v1>(address);
  if (bytes) *bytes = static_cast<unsigned>(size);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  CUCPU_REQUIRE_INIT();
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_LAZY_LOADING;  // the program's own modules compile on first use
  return CUDA_SUCCESS;
}

}  // extern "C"
