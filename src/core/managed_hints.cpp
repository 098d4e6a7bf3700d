// Unified memory hints for both APIs (managed_hints.h).
#include "core/managed_hints.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/device.h"
#include "core/memory_registry.h"

namespace cucpu::core {
namespace {

// cudaMemLocationType / CUmemLocationType.
constexpr int kDevice = 1, kHost = 2, kHostNuma = 3, kHostNumaCurrent = 4;
// cudaMemoryAdvise / CUmem_advise.
enum Advice { SetReadMostly = 1, UnsetReadMostly, SetPreferredLocation, UnsetPreferredLocation, SetAccessedBy,
              UnsetAccessedBy };
// cudaMemRangeAttribute / CUmem_range_attribute.
enum Attribute { ReadMostly = 1, PreferredLocation, AccessedBy, LastPrefetchLocation, PreferredLocationType,
                 PreferredLocationId, LastPrefetchLocationType, LastPrefetchLocationId };
// The legacy int form of a location: cudaCpuDeviceId / CU_DEVICE_CPU, cudaInvalidDeviceId / CU_DEVICE_INVALID.
constexpr int kCpuDeviceId = -1, kInvalidDeviceId = -2;

Error invalid(const char* what) { return Error{ErrorCode::InvalidValue, what}; }

// A location a range can live at or be accessed from.
Result<void> check_location(MemoryLocation location) {
  switch (location.type) {
    case kDevice:
      if (!is_valid_device(location.id)) return Error{ErrorCode::InvalidDevice, "no such device"};
      return {};
    case kHost:
    case kHostNumaCurrent: return {};
    case kHostNuma:
      if (location.id != 0) return invalid("the host is one NUMA node");
      return {};
    default: return invalid("unknown location type");
  }
}

MemoryLocation normalized(MemoryLocation location) {
  if (location.type == kHost || location.type == kHostNumaCurrent) location.id = 0;
  return location;
}

int device_id_of(const std::optional<MemoryLocation>& location) {
  if (!location) return kInvalidDeviceId;
  return location->type == kDevice ? location->id : kCpuDeviceId;
}

Result<void> put_int(void* data, size_t size, int value) {
  if (size != sizeof(int)) return invalid("an attribute of one int");
  std::memcpy(data, &value, sizeof value);
  return {};
}

}  // namespace

bool is_managed_range(const void* base, size_t count) {
  auto allocation = memory().find(base);
  return count > 0 && allocation && allocation->kind == MemoryKind::Managed && memory().contains_range(base, count);
}

Result<void> advise_range(const void* base, size_t count, int advice, MemoryLocation location) {
  if (!is_managed_range(base, count)) return invalid("not a managed range");
  if (advice == SetPreferredLocation || advice == SetAccessedBy || advice == UnsetAccessedBy)
    if (auto checked = check_location(location); !checked) return checked;
  location = normalized(location);
  switch (advice) {
    case SetReadMostly: advise_read_mostly(base, count, AdviceChange::Set); return {};
    case UnsetReadMostly: advise_read_mostly(base, count, AdviceChange::Unset); return {};
    case SetPreferredLocation: advise_preferred_location(base, count, AdviceChange::Set, location); return {};
    case UnsetPreferredLocation: advise_preferred_location(base, count, AdviceChange::Unset, {}); return {};
    case SetAccessedBy: advise_accessed_by(base, count, AdviceChange::Set, location); return {};
    case UnsetAccessedBy: advise_accessed_by(base, count, AdviceChange::Unset, location); return {};
    default: return invalid("unknown advice");
  }
}

Result<void> prefetch_range(const void* base, size_t count, MemoryLocation location, unsigned flags) {
  if (flags != 0 || !is_managed_range(base, count)) return invalid("not a managed range, or flags");
  if (auto checked = check_location(location); !checked) return checked;
  record_prefetch(base, count, normalized(location));
  return {};
}

Result<void> range_attribute(void* data, size_t size, int attribute, const void* base, size_t count) {
  switch (attribute) {
    case ReadMostly: return put_int(data, size, is_read_mostly(base, count) ? 1 : 0);
    case PreferredLocation: return put_int(data, size, device_id_of(preferred_location(base, count)));
    case LastPrefetchLocation: return put_int(data, size, device_id_of(last_prefetch_location(base, count)));
    case PreferredLocationType: return put_int(data, size, preferred_location(base, count).value_or(MemoryLocation{}).type);
    case PreferredLocationId: return put_int(data, size, preferred_location(base, count).value_or(MemoryLocation{}).id);
    case LastPrefetchLocationType:
      return put_int(data, size, last_prefetch_location(base, count).value_or(MemoryLocation{}).type);
    case LastPrefetchLocationId:
      return put_int(data, size, last_prefetch_location(base, count).value_or(MemoryLocation{}).id);
    case AccessedBy: {
      // As many ints as fit; the devices first, the invalid id after them.
      if (size == 0 || size % sizeof(int) != 0) return invalid("accessed-by wants whole ints");
      std::vector<int> ids(size / sizeof(int), kInvalidDeviceId);
      auto locations = accessed_by(base, count);
      for (size_t i = 0; i < std::min(ids.size(), locations.size()); ++i) ids[i] = device_id_of(locations[i]);
      std::memcpy(data, ids.data(), size);
      return {};
    }
  }
  return invalid("unknown range attribute");
}

}  // namespace cucpu::core
