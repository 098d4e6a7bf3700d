// What a program has set on each device: the flags of cudaSetDeviceFlags/cudaInitDevice,
// the cache and shared-memory bank configurations, and which peers it has enabled. None
// of it changes how a CPU runs kernels; it is kept so that the getters answer what was
// set and the occupancy rules can read the cache preference, as on a GPU.
#pragma once

#include "support/result.h"

namespace cucpu::core {

struct DeviceSettings {
  unsigned flags = 0;        // cudaDeviceSchedule* | cudaDeviceLmemResizeToMax | cudaDeviceSyncMemops
  int cache_config = 0;      // cudaFuncCache
  int shared_mem_config = 0; // cudaSharedMemConfig
};

// cudaSetDeviceFlags' and cuCtxCreate's flags (the same numbers): one scheduling mode (auto
// 0, spin 1, yield 2, blocking sync 4) and the optional bits below 0x100 (map host, local
// memory resize to max, core dumps, sync memops).
bool valid_context_flags(unsigned flags);

// A copy of device `ordinal`'s settings (ordinal must be valid). The flags are its primary
// context's (cudaSetDeviceFlags and cuDevicePrimaryCtxSetFlags set the same thing).
DeviceSettings device_settings(int ordinal);
void set_device_flags(int ordinal, unsigned flags);
void set_device_cache_config(int ordinal, int cache_config);
void set_device_shared_mem_config(int ordinal, int config);

// Peer access from `ordinal` to `peer`: PeerAccessAlreadyEnabled / PeerAccessNotEnabled
// when the state is already what is asked.
Result<void> enable_peer_access(int ordinal, int peer);
Result<void> disable_peer_access(int ordinal, int peer);

// cudaDeviceReset: the device's settings and its peer access go back to the defaults.
void reset_device_settings(int ordinal);

}  // namespace cucpu::core
