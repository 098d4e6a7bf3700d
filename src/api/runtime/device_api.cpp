// The device as the runtime API shows it: one device, ordinal 0, whose properties and
// attributes come from the emulated profile (core/device.h).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/memory_registry.h"
#include "core/sticky_error.h"
#include "exec/device_printf.h"
#include "exec/grid.h"

using namespace cucpu;
using A = core::DeviceAttribute;

namespace {

thread_local int current_device = 0;

int attribute(A a) { return core::device_attribute(a); }

void fill_properties(cudaDeviceProp* p) {
  *p = cudaDeviceProp{};
  std::snprintf(p->name, sizeof(p->name), "%s", core::device_name().c_str());
  p->totalGlobalMem = core::total_memory_bytes();
  p->sharedMemPerBlock = attribute(A::cudaDevAttrMaxSharedMemoryPerBlock);
  p->regsPerBlock = attribute(A::cudaDevAttrMaxRegistersPerBlock);
  p->warpSize = attribute(A::cudaDevAttrWarpSize);
  p->memPitch = attribute(A::cudaDevAttrMaxPitch);
  p->maxThreadsPerBlock = attribute(A::cudaDevAttrMaxThreadsPerBlock);
  p->maxThreadsDim[0] = attribute(A::cudaDevAttrMaxBlockDimX);
  p->maxThreadsDim[1] = attribute(A::cudaDevAttrMaxBlockDimY);
  p->maxThreadsDim[2] = attribute(A::cudaDevAttrMaxBlockDimZ);
  p->maxGridSize[0] = attribute(A::cudaDevAttrMaxGridDimX);
  p->maxGridSize[1] = attribute(A::cudaDevAttrMaxGridDimY);
  p->maxGridSize[2] = attribute(A::cudaDevAttrMaxGridDimZ);
  p->totalConstMem = attribute(A::cudaDevAttrTotalConstantMemory);
  p->major = attribute(A::cudaDevAttrComputeCapabilityMajor);
  p->minor = attribute(A::cudaDevAttrComputeCapabilityMinor);
  p->textureAlignment = attribute(A::cudaDevAttrTextureAlignment);
  p->texturePitchAlignment = attribute(A::cudaDevAttrTexturePitchAlignment);
  p->multiProcessorCount = attribute(A::cudaDevAttrMultiProcessorCount);
  p->integrated = attribute(A::cudaDevAttrIntegrated);
  p->canMapHostMemory = attribute(A::cudaDevAttrCanMapHostMemory);
  p->concurrentKernels = attribute(A::cudaDevAttrConcurrentKernels);
  p->ECCEnabled = attribute(A::cudaDevAttrEccEnabled);
  p->asyncEngineCount = attribute(A::cudaDevAttrAsyncEngineCount);
  p->unifiedAddressing = attribute(A::cudaDevAttrUnifiedAddressing);
  p->memoryBusWidth = attribute(A::cudaDevAttrGlobalMemoryBusWidth);
  p->l2CacheSize = attribute(A::cudaDevAttrL2CacheSize);
  p->persistingL2CacheMaxSize = attribute(A::cudaDevAttrMaxPersistingL2CacheSize);
  p->maxThreadsPerMultiProcessor = attribute(A::cudaDevAttrMaxThreadsPerMultiProcessor);
  p->streamPrioritiesSupported = attribute(A::cudaDevAttrStreamPrioritiesSupported);
  p->globalL1CacheSupported = attribute(A::cudaDevAttrGlobalL1CacheSupported);
  p->localL1CacheSupported = attribute(A::cudaDevAttrLocalL1CacheSupported);
  p->sharedMemPerMultiprocessor = attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  p->regsPerMultiprocessor = attribute(A::cudaDevAttrMaxRegistersPerMultiprocessor);
  p->managedMemory = attribute(A::cudaDevAttrManagedMemory);
  p->isMultiGpuBoard = attribute(A::cudaDevAttrIsMultiGpuBoard);
  p->multiGpuBoardGroupID = attribute(A::cudaDevAttrMultiGpuBoardGroupID);
  p->hostNativeAtomicSupported = attribute(A::cudaDevAttrHostNativeAtomicSupported);
  p->pageableMemoryAccess = attribute(A::cudaDevAttrPageableMemoryAccess);
  p->concurrentManagedAccess = attribute(A::cudaDevAttrConcurrentManagedAccess);
  p->computePreemptionSupported = attribute(A::cudaDevAttrComputePreemptionSupported);
  p->canUseHostPointerForRegisteredMem = attribute(A::cudaDevAttrCanUseHostPointerForRegisteredMem);
  p->cooperativeLaunch = attribute(A::cudaDevAttrCooperativeLaunch);
  p->sharedMemPerBlockOptin = attribute(A::cudaDevAttrMaxSharedMemoryPerBlockOptin);
  p->pageableMemoryAccessUsesHostPageTables = attribute(A::cudaDevAttrPageableMemoryAccessUsesHostPageTables);
  p->directManagedMemAccessFromHost = attribute(A::cudaDevAttrDirectManagedMemAccessFromHost);
  p->maxBlocksPerMultiProcessor = attribute(A::cudaDevAttrMaxBlocksPerMultiprocessor);
  p->accessPolicyMaxWindowSize = attribute(A::cudaDevAttrMaxAccessPolicyWindowSize);
  p->reservedSharedMemPerBlock = attribute(A::cudaDevAttrReservedSharedMemoryPerBlock);
  p->hostRegisterSupported = attribute(A::cudaDevAttrHostRegisterSupported);
  p->memoryPoolsSupported = attribute(A::cudaDevAttrMemoryPoolsSupported);
  p->clusterLaunch = attribute(A::cudaDevAttrClusterLaunch);
  p->hostNumaId = -1;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceCount(int* count) {
  if (!count) return runtime::record(cudaErrorInvalidValue);
  *count = core::kDeviceCount;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int* device) {
  if (!device) return runtime::record(cudaErrorInvalidValue);
  *device = current_device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int device) {
  if (device < 0 || device >= core::kDeviceCount) return runtime::record(cudaErrorInvalidDevice);
  current_device = device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  if (!prop) return runtime::record(cudaErrorInvalidValue);
  if (device < 0 || device >= core::kDeviceCount) return runtime::record(cudaErrorInvalidDevice);
  fill_properties(prop);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device) {
  if (!value) return runtime::record(cudaErrorInvalidValue);
  if (device < 0 || device >= core::kDeviceCount) return runtime::record(cudaErrorInvalidDevice);
  auto found = core::device_attribute(static_cast<int>(attr));
  if (!found) return runtime::record(cudaErrorInvalidValue);
  *value = *found;
  return cudaSuccess;
}

// Every launch has finished when it returns, so there is nothing to wait for but the
// sticky error of a failed grid, and the device's printf output to show.
cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  exec::flush_device_output();
  return runtime::record(runtime::sticky());
}

// Destroys the device's state: every allocation, and the sticky error. Modules stay
// compiled; their variables keep their values (a known difference, see README).
cudaError_t CUDARTAPI cudaDeviceReset(void) {
  exec::flush_device_output();
  core::memory().release_all();
  core::clear_sticky_error();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int* runtimeVersion) {
  if (!runtimeVersion) return runtime::record(cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return runtime::record(cudaErrorInvalidValue);
  *driverVersion = CUDART_VERSION;  // cucpu's driver is as new as its runtime
  return cudaSuccess;
}

struct cudaChannelFormatDesc CUDARTAPI cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}

}  // extern "C"
