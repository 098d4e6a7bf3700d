// Peer access between contexts of different devices: cucpu's devices share one memory
// (core/device.h), so each can reach every other; enabling and disabling are recorded so
// that their errors are CUDA's (core/device_settings.h, shared with the runtime).
#include <cuda.h>

#include "api/driver/driver_state.h"
#include "core/device.h"
#include "core/device_settings.h"

using namespace cucpu;

extern "C" {

CUresult CUDAAPI cuDeviceCanAccessPeer(int* canAccessPeer, CUdevice dev, CUdevice peerDev) {
  CUCPU_REQUIRE_INIT();
  if (!canAccessPeer) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(dev) || !core::is_valid_device(peerDev)) return CUDA_ERROR_INVALID_DEVICE;
  *canAccessPeer = dev != peerDev ? 1 : 0;  // a device is not its own peer
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                         CUdevice dstDevice) {
  CUCPU_REQUIRE_INIT();
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(srcDevice) || !core::is_valid_device(dstDevice) || srcDevice == dstDevice)
    return CUDA_ERROR_INVALID_DEVICE;
  switch (attrib) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: *value = 0; return CUDA_SUCCESS;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = 1; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  core::Context* peer = driver::to_context(peerContext);
  if (!peer) return CUDA_ERROR_INVALID_HANDLE;
  if (peer->device() == context->device()) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
  auto enabled = core::enable_peer_access(context->device(), peer->device());
  return enabled ? CUDA_SUCCESS : driver::to_cu_result(enabled.error());
}

CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Context* peer = driver::to_context(peerContext);
  if (!peer) return CUDA_ERROR_INVALID_HANDLE;
  auto disabled = core::disable_peer_access(context->device(), peer->device());
  return disabled ? CUDA_SUCCESS : driver::to_cu_result(disabled.error());
}

}  // extern "C"
