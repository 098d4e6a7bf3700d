// What a program asks about or sets on one kernel besides its attributes: the layout of
// its parameters (from the PTX .param list, the same layout the launch copies arguments
// into) and the cache/bank configuration hints, which a CPU records and otherwise ignores.
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"
#include "core/module_registry.h"

using namespace cucpu;

extern "C" {

cudaError_t CUDARTAPI cudaFuncGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                           size_t* paramSize) {
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  auto info = core::modules().load_kernel(*kernel);
  if (!info) return runtime::record(info.error());
  if (paramIndex >= (*info)->params.size() || !paramOffset || !paramSize) return runtime::record(cudaErrorInvalidValue);
  *paramOffset = (*info)->params[paramIndex].offset;
  *paramSize = (*info)->params[paramIndex].size;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache cacheConfig) {
  core::Kernel* kernel = core::modules().find_kernel(func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual)
    return runtime::record(cudaErrorInvalidValue);
  kernel->cache_config = cacheConfig;
  return cudaSuccess;
}

// Bank sizes are four bytes on every GPU since Volta whatever is asked; accepted as there.
cudaError_t CUDARTAPI cudaFuncSetSharedMemConfig(const void* func, enum cudaSharedMemConfig config) {
  if (!core::modules().find_kernel(func)) return runtime::record(cudaErrorInvalidDeviceFunction);
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte)
    return runtime::record(cudaErrorInvalidValue);
  return cudaSuccess;
}

}  // extern "C"
