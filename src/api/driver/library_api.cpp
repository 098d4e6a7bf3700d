// Libraries and kernels (CUDA 12's context-independent modules): what NVIDIA's runtime,
// statically linked, loads the program's fatbins with. A CUlibrary is the same object as
// its CUmodule, a CUkernel the same as its CUfunction (core::FatbinModule, core::Kernel);
// a library is compiled at its first use, as CUDA's lazy loading does.
#include <cuda.h>

#include <string>

#include "api/driver/driver_state.h"
#include "api/driver/jit_options.h"
#include "core/device.h"
#include "core/function_attributes.h"
#include "core/module_registry.h"

using namespace cucpu;

namespace {

core::ModuleRegistry& modules() { return core::modules(); }

core::FatbinModule* to_library(CUlibrary handle) {
  return handle && modules().is_loaded(handle) ? reinterpret_cast<core::FatbinModule*>(handle) : nullptr;
}

}  // namespace

extern "C" {

// No context is needed: a library belongs to every context.
CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions,
                                   void** jitOptionsValues, unsigned int numJitOptions, CUlibraryOption* libraryOptions,
                                   void** libraryOptionValues, unsigned int numLibraryOptions) {
  CUCPU_REQUIRE_INIT();
  if (!library || !code) return CUDA_ERROR_INVALID_VALUE;
  if (numLibraryOptions > 0 && (!libraryOptions || !libraryOptionValues)) return CUDA_ERROR_INVALID_VALUE;
  driver::JitOptions options(numJitOptions, jitOptions, jitOptionsValues);
  if (CUresult invalid = options.check(); invalid != CUDA_SUCCESS) return invalid;
  auto loaded = modules().load_image(code, "the library's image", nullptr, core::Loading::Lazy);
  if (!loaded) return driver::to_cu_result(loaded.error());
  options.report("", "", 0.0f);
  *library = reinterpret_cast<CUlibrary>(*loaded);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  CUCPU_REQUIRE_INIT();
  core::FatbinModule* module = to_library(library);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  auto unloaded = modules().unload(module);
  return unloaded ? CUDA_SUCCESS : driver::to_cu_result(unloaded.error());
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  CUCPU_REQUIRE_INIT();
  if (!pKernel || !name) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_library(library);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  auto kernel = modules().loaded_function(module, name);
  if (!kernel) return driver::not_found_or(kernel.error());
  *pKernel = reinterpret_cast<CUkernel>(*kernel);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int* count, CUlibrary lib) {
  CUCPU_REQUIRE_INIT();
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_library(lib);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  auto names = modules().loaded_kernel_names(module);
  if (!names) return driver::to_cu_result(names.error());
  *count = static_cast<unsigned>(names->size());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel* kernels, unsigned int numKernels, CUlibrary lib) {
  CUCPU_REQUIRE_INIT();
  if (!kernels) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_library(lib);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  auto names = modules().loaded_kernel_names(module);
  if (!names) return driver::to_cu_result(names.error());
  for (unsigned i = 0; i < numKernels && i < names->size(); ++i) {
    auto kernel = modules().loaded_function(module, (*names)[i]);
    if (!kernel) return driver::to_cu_result(kernel.error());
    kernels[i] = reinterpret_cast<CUkernel>(*kernel);
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule* pMod, CUlibrary library) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pMod) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_library(library);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  *pMod = reinterpret_cast<CUmodule>(module);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pFunc) return CUDA_ERROR_INVALID_VALUE;
  if (!driver::to_function(reinterpret_cast<CUfunction>(kernel))) return CUDA_ERROR_INVALID_HANDLE;
  *pFunc = reinterpret_cast<CUfunction>(kernel);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary* pLib, CUkernel kernel) {
  CUCPU_REQUIRE_INIT();
  if (!pLib) return CUDA_ERROR_INVALID_VALUE;
  core::Kernel* found = driver::to_function(reinterpret_cast<CUfunction>(kernel));
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  *pLib = reinterpret_cast<CUlibrary>(found->module);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_library(library);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  return driver::module_global(module, name, false, dptr, bytes);
}

CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name) {
  CUCPU_REQUIRE_INIT();
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  core::FatbinModule* module = to_library(library);
  if (!module) return CUDA_ERROR_INVALID_HANDLE;
  return driver::module_global(module, name, true, dptr, bytes);
}

// Kernel attributes are the same for every device (they are one engine).
CUresult CUDAAPI cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncGetAttribute(pi, attrib, reinterpret_cast<CUfunction>(kernel));
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev) {
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncSetAttribute(reinterpret_cast<CUfunction>(kernel), attrib, val);
}

CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncSetCacheConfig(reinterpret_cast<CUfunction>(kernel), config);
}

CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel hfunc) {
  return cuFuncGetName(name, reinterpret_cast<CUfunction>(hfunc));
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  CUCPU_REQUIRE_INIT();
  core::Kernel* kernel = driver::to_function(func);
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;
  auto info = modules().load_kernel(*kernel);
  if (!info) return driver::to_cu_result(info.error());
  if (paramIndex >= (*info)->params.size()) return CUDA_ERROR_INVALID_VALUE;
  if (paramOffset) *paramOffset = (*info)->params[paramIndex].offset;
  if (paramSize) *paramSize = (*info)->params[paramIndex].size;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(kernel), paramIndex, paramOffset, paramSize);
}

}  // extern "C"
