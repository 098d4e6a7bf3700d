// Contexts: primary contexts, created contexts and each host thread's context stack
// (core/context.h). The runtime API's current device is the device of the thread's
// current context, so driver and runtime calls can be mixed.
#include <cuda.h>

#include <algorithm>

#include "api/driver/driver_state.h"
#include "core/device.h"
#include "core/device_limits.h"
#include "core/device_settings.h"
#include "core/stream_engine.h"
#include "exec/device_printf.h"

using namespace cucpu;

namespace {

core::Contexts& contexts() { return core::Contexts::instance(); }

CUresult create(CUcontext* pctx, unsigned flags, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!pctx || !core::valid_context_flags(flags)) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  core::Context& context = contexts().create(dev, flags);
  core::push_context(context);  // a created context becomes current (cuCtxCreate's reference)
  *pctx = reinterpret_cast<CUcontext>(&context);
  return CUDA_SUCCESS;
}

// Waits for the work of every stream (all contexts share one engine), then shows the
// device's printf output and reports the sticky error of a failed grid.
CUresult synchronize() {
  if (core::in_host_function()) return CUDA_ERROR_NOT_PERMITTED;
  if (auto allowed = core::StreamEngine::instance().check_unsafe_call("cuCtxSynchronize"); !allowed)
    return driver::to_cu_result(allowed.error());
  core::StreamEngine::instance().synchronize_all();
  exec::flush_device_output();
  return driver::sticky();
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  core::Context& primary = contexts().primary(dev);
  contexts().retain(primary);
  *pctx = reinterpret_cast<CUcontext>(&primary);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  return contexts().release(contexts().primary(dev)) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  if (core::in_host_function()) return CUDA_ERROR_NOT_PERMITTED;
  core::reset_device(dev);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  CUCPU_REQUIRE_INIT();
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  const core::Context& primary = contexts().primary(dev);
  *flags = primary.flags();
  *active = contexts().retained(primary) > 0 ? 1 : 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  CUCPU_REQUIRE_INIT();
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  if (!core::valid_context_flags(flags)) return CUDA_ERROR_INVALID_VALUE;
  contexts().primary(dev).set_flags(flags);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

CUresult CUDAAPI cuCtxCreate(CUcontext* pctx, unsigned int flags, CUdevice dev) { return create(pctx, flags, dev); }
CUresult CUDAAPI cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev) { return create(pctx, flags, dev); }
// Execution affinity (a share of the SMs) is a property of MPS on a GPU: not emulated.
CUresult CUDAAPI cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam* paramsArray, int numParams, unsigned int flags,
                                CUdevice dev) {
  if (numParams < 0 || (numParams > 0 && !paramsArray)) return CUDA_ERROR_INVALID_VALUE;
  if (numParams > 0) return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
  return create(pctx, flags, dev);
}
CUresult CUDAAPI cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* params, unsigned int flags, CUdevice dev) {
  if (params && (params->numExecAffinityParams > 0 || params->cigParams)) return CUDA_ERROR_NOT_SUPPORTED;
  return create(pctx, flags, dev);
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = driver::to_context(ctx);
  if (!context || context->primary()) return CUDA_ERROR_INVALID_CONTEXT;
  core::StreamEngine::instance().synchronize_all();  // its work finishes first
  core::forget_context(*context);
  contexts().destroy(*context);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }

CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = driver::to_context(ctx);
  if (!context) return CUDA_ERROR_INVALID_CONTEXT;
  core::push_context(*context);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }

CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext* pctx) {
  CUCPU_REQUIRE_INIT();
  core::Context* popped = core::pop_context();
  if (!popped) return CUDA_ERROR_INVALID_CONTEXT;
  if (pctx) *pctx = reinterpret_cast<CUcontext>(popped);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxPopCurrent(CUcontext* pctx) { return cuCtxPopCurrent_v2(pctx); }

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = nullptr;
  if (ctx && !(context = driver::to_context(ctx))) return CUDA_ERROR_INVALID_CONTEXT;
  core::set_current_context(context);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext* pctx) {
  CUCPU_REQUIRE_INIT();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = reinterpret_cast<CUcontext>(core::current_context());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice* device) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = context->device();
  return CUDA_SUCCESS;
}

// The CUDA 13 form: a given context, or the current one for NULL.
CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice* device, CUcontext ctx) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = nullptr;
  if (CUresult invalid = driver::given_or_current_context(ctx, &context); invalid != CUDA_SUCCESS) return invalid;
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  *device = context->device();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetFlags(unsigned int* flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  // A primary context reports CU_CTX_MAP_HOST (mapping is always on since CUDA 11) where a
  // created one and cuDevicePrimaryCtxGetState do not: the H200's answers, which the static
  // runtime's cudaGetDeviceFlags passes on (e2e memory_model_edges built -cudart static).
  *flags = context->flags() | (context->primary() ? unsigned{CU_CTX_MAP_HOST} : 0u);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetFlags(unsigned int flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!core::valid_context_flags(flags)) return CUDA_ERROR_INVALID_VALUE;
  context->set_flags(flags);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long* ctxId) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = nullptr;
  if (CUresult invalid = driver::given_or_current_context(ctx, &context); invalid != CUDA_SUCCESS) return invalid;
  if (!ctxId) return CUDA_ERROR_INVALID_VALUE;
  *ctxId = context->id();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void) {
  CUCPU_REQUIRE_CONTEXT(context);
  return synchronize();
}

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = nullptr;
  if (CUresult invalid = driver::given_or_current_context(ctx, &context); invalid != CUDA_SUCCESS) return invalid;
  return synchronize();
}

// The driver API version a context was made with: 3020 (the CUDA 3.2 API), as every
// context of today's driver reports.
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int* version) {
  CUCPU_REQUIRE_INIT();
  core::Context* context = nullptr;
  if (CUresult invalid = driver::given_or_current_context(ctx, &context); invalid != CUDA_SUCCESS) return invalid;
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = 3020;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  CUCPU_REQUIRE_INIT();
  if (leastPriority) *leastPriority = core::kLeastStreamPriority;
  if (greatestPriority) *greatestPriority = core::kGreatestStreamPriority;
  return CUDA_SUCCESS;
}

// The device's limits (core/device_limits.h): every context of a device shares them.
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  Result<void> set = core::set_device_limit(static_cast<core::DeviceLimit>(limit), value, "cuCtxSetLimit");
  return set ? CUDA_SUCCESS : driver::to_cu_result(set.error());
}

CUresult CUDAAPI cuCtxGetLimit(size_t* pvalue, CUlimit limit) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pvalue) return CUDA_ERROR_INVALID_VALUE;
  Result<size_t> current = core::device_limit(static_cast<core::DeviceLimit>(limit), "cuCtxGetLimit");
  if (!current) return driver::to_cu_result(current.error());
  *pvalue = *current;
  return CUDA_SUCCESS;
}

// Persisting L2 lines back to normal: there is no L2 to steer, so nothing to reset.
CUresult CUDAAPI cuCtxResetPersistingL2Cache(void) {
  CUCPU_REQUIRE_CONTEXT(context);
  return driver::sticky();
}

// The L1/shared split preference of the context's device (core/device_settings.h), as
// cudaDeviceSetCacheConfig keeps it.
CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL) return CUDA_ERROR_INVALID_VALUE;
  core::set_device_cache_config(context->device(), config);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache* pconfig) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pconfig) return CUDA_ERROR_INVALID_VALUE;
  *pconfig = static_cast<CUfunc_cache>(core::device_settings(context->device()).cache_config);
  return CUDA_SUCCESS;
}

// Bank size configuration ended with Kepler: accepted, and banks stay four bytes wide.
CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig config) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE || config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
    return CUDA_ERROR_INVALID_VALUE;
  core::set_device_shared_mem_config(context->device(), config);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig* pConfig) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pConfig) return CUDA_ERROR_INVALID_VALUE;
  *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
  return CUDA_SUCCESS;
}

}  // extern "C"
