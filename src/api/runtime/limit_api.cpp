// Device limits: cudaDeviceSetLimit / cudaDeviceGetLimit (the rules are core's,
// core/device_limits.h, shared with cuCtxSetLimit/GetLimit).
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"
#include "core/device_limits.h"

using namespace cucpu;

extern "C" {

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  CUCPU_RETURN_IF_STICKY();
  Result<void> set = core::set_device_limit(static_cast<core::DeviceLimit>(limit), value, "cudaDeviceSetLimit");
  return set ? cudaSuccess : runtime::record(set.error());
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t* value, enum cudaLimit limit) {
  if (!value) return runtime::record(cudaErrorInvalidValue);
  Result<size_t> current = core::device_limit(static_cast<core::DeviceLimit>(limit), "cudaDeviceGetLimit");
  if (!current) return runtime::record(current.error());
  *value = *current;
  return cudaSuccess;
}

// Persisting L2 lines back to normal: there is no L2 to steer, so nothing to reset.
cudaError_t CUDARTAPI cudaCtxResetPersistingL2Cache(void) {
  CUCPU_RETURN_IF_STICKY();
  return cudaSuccess;
}

}  // extern "C"
