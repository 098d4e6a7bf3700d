// What the driver API's entry points share: whether cuInit has run, the one place where
// cucpu's errors become CUresult, the sticky device error, and the current context.
#pragma once

#include <cuda.h>

#include "core/context.h"
#include "core/module_registry.h"
#include "support/result.h"

namespace cucpu::driver {

CUresult to_cu_result(const Error& error);

// A device pointer as the engine's address (one address space: unified addressing).
inline void* to_pointer(CUdeviceptr pointer) { return reinterpret_cast<void*>(static_cast<uintptr_t>(pointer)); }

// CUDA_ERROR_NOT_INITIALIZED until cuInit(0) has succeeded.
bool initialized();
void set_initialized();

// The sticky device error, if the device is broken (core/sticky_error.h); inside a
// stream's host function CUDA_ERROR_NOT_PERMITTED.
CUresult sticky();

// The calling thread's current context, or CUDA_ERROR_INVALID_CONTEXT (null `*context`)
// when it has none or it was destroyed.
CUresult current_context(core::Context** context);

// A context handle the program passed: known and alive, else null.
core::Context* to_context(CUcontext handle);
// The context `handle` names, or for NULL the current one; CUDA_ERROR_INVALID_CONTEXT if none.
CUresult given_or_current_context(CUcontext handle, core::Context** context);

// A kernel handle (CUfunction) of a loaded module or a registered kernel, else null.
core::Kernel* to_function(CUfunction handle);

// A name a module lacks (core's InvalidDeviceFunction) is CUDA_ERROR_NOT_FOUND; other errors map as usual.
CUresult not_found_or(const Error& error);

// cuModuleGetGlobal/cuLibraryGetGlobal/cuLibraryGetManaged: a variable of a loaded module
// (its address and size where asked), CUDA_ERROR_NOT_FOUND for a name it lacks.
CUresult module_global(core::FatbinModule* module, const char* name, bool managed, CUdeviceptr* dptr, size_t* bytes);

}  // namespace cucpu::driver

// Entry points that need cuInit start with this.
#define CUCPU_REQUIRE_INIT()                                                          \
  do {                                                                                \
    if (!::cucpu::driver::initialized()) return CUDA_ERROR_NOT_INITIALIZED;           \
  } while (0)

// ... and those that need a current context (memory, modules, launches) with this: it
// declares `context`.
#define CUCPU_REQUIRE_CONTEXT(context)                                                \
  CUCPU_REQUIRE_INIT();                                                               \
  ::cucpu::core::Context* context = nullptr;                                          \
  if (CUresult no_context_ = ::cucpu::driver::current_context(&context); no_context_) \
    return no_context_;                                                               \
  (void)context

// ... and those that touch the device with this.
#define CUCPU_DRIVER_RETURN_IF_STICKY()                                               \
  do {                                                                                \
    if (CUresult sticky_ = ::cucpu::driver::sticky(); sticky_ != CUDA_SUCCESS)        \
      return sticky_;                                                                 \
  } while (0)
