// Choosing and configuring devices: count, current device per host thread, device flags,
// cache and shared-memory configurations, PCI bus ids. There are CUCPU_DEVICE_COUNT
// identical devices sharing the host's memory (core/device.h); the settings are recorded
// (core/device_settings.h) and read back as set, as on a GPU where none of them changes
// a program's results.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/device_settings.h"

using namespace cucpu;

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  if (!count) return runtime::record(cudaErrorInvalidValue);
  *count = core::device_count();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  if (!device) return runtime::record(cudaErrorInvalidValue);
  *device = runtime::current_device();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int device) {
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  runtime::set_current_device(device);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  if (flags & ~unsigned{cudaInitDeviceFlagsAreValid}) return runtime::record(cudaErrorInvalidValue);
  if (flags & cudaInitDeviceFlagsAreValid) {
    if (!core::valid_context_flags(deviceFlags)) return runtime::record(cudaErrorInvalidValue);
    core::set_device_flags(device, deviceFlags & ~unsigned{cudaDeviceMapHost});
  }
  return cudaSuccess;
}

// The list only matters where the runtime picks a device itself, and with identical
// devices that choice makes no difference: it is checked, not kept.
cudaError_t CUDARTAPI cudaSetValidDevices(int* device_arr, int len) {
  if (len < 0 || (len > 0 && !device_arr)) return runtime::record(cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i)
    if (!runtime::valid_device(device_arr[i])) return runtime::record(cudaErrorInvalidDevice);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int flags) {
  if (!core::valid_context_flags(flags)) return runtime::record(cudaErrorInvalidValue);
  // MapHost is implicit in the runtime (cudaGetDeviceFlags always reports it).
  core::set_device_flags(runtime::current_device(), flags & ~unsigned{cudaDeviceMapHost});
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int* flags) {
  if (!flags) return runtime::record(cudaErrorInvalidValue);
  *flags = core::device_settings(runtime::current_device()).flags | cudaDeviceMapHost;
  return cudaSuccess;
}

// Every device is the same, so the first one matches as well as any.
cudaError_t CUDARTAPI cudaChooseDevice(int* device, const struct cudaDeviceProp* prop) {
  if (!device || !prop) return runtime::record(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  if (!pciBusId || len <= 0) return runtime::record(cudaErrorInvalidValue);
  std::snprintf(pciBusId, static_cast<size_t>(len), "%s", core::device_pci_bus_id(device).c_str());
  return cudaSuccess;
}

// Accepts the forms the reference names: domain:bus:device.function, domain:bus:device
// and bus:device.function (hexadecimal).
cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (!device || !pciBusId) return runtime::record(cudaErrorInvalidValue);
  std::optional<int> found = core::device_by_pci_bus_id(pciBusId);
  if (!found) return runtime::record(cudaErrorInvalidValue);
  if (*found < 0) return runtime::record(cudaErrorInvalidDevice);
  *device = *found;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
  if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual)
    return runtime::record(cudaErrorInvalidValue);
  core::set_device_cache_config(runtime::current_device(), cacheConfig);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache* pCacheConfig) {
  if (!pCacheConfig) return runtime::record(cudaErrorInvalidValue);
  *pCacheConfig = static_cast<cudaFuncCache>(core::device_settings(runtime::current_device()).cache_config);
  return cudaSuccess;
}

// Bank size configuration ended with Kepler: the setting is accepted and banks stay four
// bytes wide, which is what cudaDeviceGetSharedMemConfig reports on every later GPU.
cudaError_t CUDARTAPI cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte)
    return runtime::record(cudaErrorInvalidValue);
  core::set_device_shared_mem_config(runtime::current_device(), config);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig* pConfig) {
  if (!pConfig) return runtime::record(cudaErrorInvalidValue);
  *pConfig = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

}  // extern "C"
