// Peer access between the emulated devices. They share the host's memory, so every
// device can reach every other one (cudaDeviceCanAccessPeer is 1 between distinct
// devices); enabling and disabling are recorded so that their errors are CUDA's, and a
// peer copy is a plain copy between valid devices.
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/memory_commands.h"
#include "core/device_settings.h"
#include "exec/device_printf.h"

using namespace cucpu;

extern "C" {

cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (!canAccessPeer) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(device) || !runtime::valid_device(peerDevice))
    return runtime::record(cudaErrorInvalidDevice);
  *canAccessPeer = device != peerDevice ? 1 : 0;  // a device is not its own peer
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  if (flags != 0) return runtime::record(cudaErrorInvalidValue);
  const int device = runtime::current_device();
  if (!runtime::valid_device(peerDevice)) return runtime::record(cudaErrorInvalidDevice);
  // A device is not its own peer: what a GPU answers (tests/e2e/memory_model_edges).
  if (peerDevice == device) return runtime::record(cudaErrorPeerAccessUnsupported);
  auto enabled = core::enable_peer_access(device, peerDevice);
  return enabled ? cudaSuccess : runtime::record(enabled.error());
}

cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int peerDevice) {
  const int device = runtime::current_device();
  if (!runtime::valid_device(peerDevice)) return runtime::record(cudaErrorInvalidDevice);
  auto disabled = core::disable_peer_access(device, peerDevice);
  return disabled ? cudaSuccess : runtime::record(disabled.error());
}

// A synchronous copy on the legacy stream, as cudaMemcpy with cudaMemcpyDefault.
cudaError_t CUDARTAPI cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count) {
  CUCPU_RETURN_IF_STICKY();
  if (!runtime::valid_device(dstDevice) || !runtime::valid_device(srcDevice))
    return runtime::record(cudaErrorInvalidDevice);
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return runtime::record(cudaErrorInvalidValue);
  auto submitted = core::submit_copy(*core::to_stream(nullptr, core::NullStream::Legacy), dst, src, count,
                                     core::HostSync::Synchronous);
  if (!submitted) return runtime::record(submitted.error());
  exec::flush_device_output();  // a blocking copy synchronises: device printf output appears
  return runtime::record(runtime::sticky());
}

}  // extern "C"
