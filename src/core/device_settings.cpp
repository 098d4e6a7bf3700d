// Per-device settings behind one mutex: they change rarely and are read rarely.
#include "core/device_settings.h"

#include <fmt/format.h>

#include <array>
#include <mutex>
#include <set>
#include <utility>

#include "core/device.h"

namespace cucpu::core {
namespace {

struct State {
  std::mutex mutex;
  std::array<DeviceSettings, kMaxDevices> devices{};
  std::set<std::pair<int, int>> peers;  // (device, peer) with access enabled
};

State& state() {
  static auto* s = new State;  // immortal: programs reset devices from static destructors
  return *s;
}

}  // namespace

bool valid_context_flags(unsigned flags) {
  constexpr unsigned kFlagsMask = 0xff, kScheduleMask = 0x07;
  if (flags & ~kFlagsMask) return false;
  switch (flags & kScheduleMask) {
    case 0:  // auto
    case 1:  // spin
    case 2:  // yield
    case 4:  // blocking sync
      return true;
    default: return false;
  }
}

DeviceSettings device_settings(int ordinal) {
  std::lock_guard lock(state().mutex);
  return state().devices.at(ordinal);
}

void set_device_flags(int ordinal, unsigned flags) {
  std::lock_guard lock(state().mutex);
  state().devices.at(ordinal).flags = flags;
}

void set_device_cache_config(int ordinal, int cache_config) {
  std::lock_guard lock(state().mutex);
  state().devices.at(ordinal).cache_config = cache_config;
}

void set_device_shared_mem_config(int ordinal, int config) {
  std::lock_guard lock(state().mutex);
  state().devices.at(ordinal).shared_mem_config = config;
}

Result<void> enable_peer_access(int ordinal, int peer) {
  std::lock_guard lock(state().mutex);
  if (!state().peers.insert({ordinal, peer}).second)
    return make_error(ErrorCode::PeerAccessAlreadyEnabled,
                      fmt::format("device {} already has access to device {}", ordinal, peer));
  return {};
}

Result<void> disable_peer_access(int ordinal, int peer) {
  std::lock_guard lock(state().mutex);
  if (state().peers.erase({ordinal, peer}) == 0)
    return make_error(ErrorCode::PeerAccessNotEnabled,
                      fmt::format("device {} has no access to device {} to disable", ordinal, peer));
  return {};
}

void reset_device_settings(int ordinal) {
  std::lock_guard lock(state().mutex);
  state().devices.at(ordinal) = DeviceSettings{};
  std::erase_if(state().peers, [ordinal](const std::pair<int, int>& p) { return p.first == ordinal; });
}

}  // namespace cucpu::core
