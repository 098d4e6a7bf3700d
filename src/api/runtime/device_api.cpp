// The device as the runtime API shows it: properties and attributes from the emulated
// profile (core/device.h), synchronisation, reset, versions. Choosing a device is
// device_selection_api.cpp.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#include "api/runtime/runtime_state.h"
#include "core/context.h"
#include "core/device.h"
#include "core/device_settings.h"
#include "core/memory_pool.h"
#include "core/memory_registry.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"
#include "exec/device_limits.h"
#include "exec/device_printf.h"
#include "exec/grid.h"

using namespace cucpu;
using A = core::DeviceAttribute;

namespace {

int attribute(A a) { return core::device_attribute(a); }

void fill_properties(cudaDeviceProp* p, int device) {
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
  auto uuid = core::device_uuid(device);
  std::memcpy(p->uuid.bytes, uuid.data(), sizeof p->uuid.bytes);
  p->pciBusID = core::device_attribute(static_cast<int>(A::cudaDevAttrPciBusId), device).value_or(0);
  p->pciDeviceID = attribute(A::cudaDevAttrPciDeviceId);
  p->pciDomainID = attribute(A::cudaDevAttrPciDomainId);
  p->surfaceAlignment = attribute(A::cudaDevAttrSurfaceAlignment);
  p->maxTexture1D = attribute(A::cudaDevAttrMaxTexture1DWidth);
  p->maxTexture1DMipmap = attribute(A::cudaDevAttrMaxTexture1DMipmappedWidth);
  p->maxTexture2D[0] = attribute(A::cudaDevAttrMaxTexture2DWidth);
  p->maxTexture2D[1] = attribute(A::cudaDevAttrMaxTexture2DHeight);
  p->maxTexture2DMipmap[0] = attribute(A::cudaDevAttrMaxTexture2DMipmappedWidth);
  p->maxTexture2DMipmap[1] = attribute(A::cudaDevAttrMaxTexture2DMipmappedHeight);
  p->maxTexture2DLinear[0] = attribute(A::cudaDevAttrMaxTexture2DLinearWidth);
  p->maxTexture2DLinear[1] = attribute(A::cudaDevAttrMaxTexture2DLinearHeight);
  p->maxTexture2DLinear[2] = attribute(A::cudaDevAttrMaxTexture2DLinearPitch);
  p->maxTexture2DGather[0] = attribute(A::cudaDevAttrMaxTexture2DGatherWidth);
  p->maxTexture2DGather[1] = attribute(A::cudaDevAttrMaxTexture2DGatherHeight);
  p->maxTexture3D[0] = attribute(A::cudaDevAttrMaxTexture3DWidth);
  p->maxTexture3D[1] = attribute(A::cudaDevAttrMaxTexture3DHeight);
  p->maxTexture3D[2] = attribute(A::cudaDevAttrMaxTexture3DDepth);
  p->maxTexture3DAlt[0] = attribute(A::cudaDevAttrMaxTexture3DWidthAlt);
  p->maxTexture3DAlt[1] = attribute(A::cudaDevAttrMaxTexture3DHeightAlt);
  p->maxTexture3DAlt[2] = attribute(A::cudaDevAttrMaxTexture3DDepthAlt);
  p->maxTextureCubemap = attribute(A::cudaDevAttrMaxTextureCubemapWidth);
  p->maxTexture1DLayered[0] = attribute(A::cudaDevAttrMaxTexture1DLayeredWidth);
  p->maxTexture1DLayered[1] = attribute(A::cudaDevAttrMaxTexture1DLayeredLayers);
  p->maxTexture2DLayered[0] = attribute(A::cudaDevAttrMaxTexture2DLayeredWidth);
  p->maxTexture2DLayered[1] = attribute(A::cudaDevAttrMaxTexture2DLayeredHeight);
  p->maxTexture2DLayered[2] = attribute(A::cudaDevAttrMaxTexture2DLayeredLayers);
  p->maxTextureCubemapLayered[0] = attribute(A::cudaDevAttrMaxTextureCubemapLayeredWidth);
  p->maxTextureCubemapLayered[1] = attribute(A::cudaDevAttrMaxTextureCubemapLayeredLayers);
  p->maxSurface1D = attribute(A::cudaDevAttrMaxSurface1DWidth);
  p->maxSurface2D[0] = attribute(A::cudaDevAttrMaxSurface2DWidth);
  p->maxSurface2D[1] = attribute(A::cudaDevAttrMaxSurface2DHeight);
  p->maxSurface3D[0] = attribute(A::cudaDevAttrMaxSurface3DWidth);
  p->maxSurface3D[1] = attribute(A::cudaDevAttrMaxSurface3DHeight);
  p->maxSurface3D[2] = attribute(A::cudaDevAttrMaxSurface3DDepth);
  p->maxSurface1DLayered[0] = attribute(A::cudaDevAttrMaxSurface1DLayeredWidth);
  p->maxSurface1DLayered[1] = attribute(A::cudaDevAttrMaxSurface1DLayeredLayers);
  p->maxSurface2DLayered[0] = attribute(A::cudaDevAttrMaxSurface2DLayeredWidth);
  p->maxSurface2DLayered[1] = attribute(A::cudaDevAttrMaxSurface2DLayeredHeight);
  p->maxSurface2DLayered[2] = attribute(A::cudaDevAttrMaxSurface2DLayeredLayers);
  p->maxSurfaceCubemap = attribute(A::cudaDevAttrMaxSurfaceCubemapWidth);
  p->maxSurfaceCubemapLayered[0] = attribute(A::cudaDevAttrMaxSurfaceCubemapLayeredWidth);
  p->maxSurfaceCubemapLayered[1] = attribute(A::cudaDevAttrMaxSurfaceCubemapLayeredLayers);
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  if (!prop) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  fill_properties(prop, device);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device) {
  if (!value) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  auto found = core::device_attribute(static_cast<int>(attr), device);
  if (!found) return runtime::record(cudaErrorInvalidValue);
  *value = *found;
  return cudaSuccess;
}

// Waits for the work of every stream of every host thread, then shows the device's
// printf output and reports the sticky error of a failed grid.
cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  if (core::in_host_function()) return runtime::record(cudaErrorNotPermitted);
  if (auto allowed = core::StreamEngine::instance().check_unsafe_call("cudaDeviceSynchronize"); !allowed)
    return runtime::record(allowed.error());
  core::StreamEngine::instance().synchronize_all();
  exec::flush_device_output();
  return runtime::record(runtime::sticky());
}

// Destroys the device's state (core::reset_device).
cudaError_t CUDARTAPI cudaDeviceReset(void) {
  if (core::in_host_function()) return runtime::record(cudaErrorNotPermitted);
  core::reset_device(runtime::current_device());
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
