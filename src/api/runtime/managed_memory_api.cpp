// Unified memory hints: cudaMemAdvise, cudaMemPrefetchAsync and the range attributes
// that read them back. Host and device share one memory, so a hint moves nothing; it is
// checked as CUDA checks it (a range inside one managed allocation, a valid location)
// and recorded (core/managed_advice.h).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/managed_advice.h"
#include "core/memory_registry.h"

using namespace cucpu;

namespace {

bool is_managed_range(const void* base, size_t count) {
  auto allocation = core::memory().find(base);
  return count > 0 && allocation && allocation->kind == core::MemoryKind::Managed &&
         core::memory().contains_range(base, count);
}

// A location a range can live at or be accessed from; InvalidDevice for a bad ordinal.
cudaError_t check_location(cudaMemLocation location) {
  switch (location.type) {
    case cudaMemLocationTypeDevice:
      return runtime::valid_device(location.id) ? cudaSuccess : cudaErrorInvalidDevice;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNumaCurrent:
      return cudaSuccess;
    case cudaMemLocationTypeHostNuma:
      return location.id == 0 ? cudaSuccess : cudaErrorInvalidValue;  // the host is one NUMA node
    default:
      return cudaErrorInvalidValue;
  }
}

core::MemoryLocation to_core(cudaMemLocation location) {
  if (location.type == cudaMemLocationTypeHost || location.type == cudaMemLocationTypeHostNumaCurrent)
    location.id = 0;
  return core::MemoryLocation{location.type, location.id};
}

// The legacy int form of a location: a device ordinal, cudaCpuDeviceId for the host,
// cudaInvalidDeviceId for none or a mixed range.
int device_id_of(const std::optional<core::MemoryLocation>& location) {
  if (!location) return cudaInvalidDeviceId;
  return location->type == cudaMemLocationTypeDevice ? location->id : cudaCpuDeviceId;
}

cudaError_t put_int(void* data, size_t size, int value) {
  if (size != sizeof(int)) return cudaErrorInvalidValue;
  std::memcpy(data, &value, sizeof value);
  return cudaSuccess;
}

cudaError_t range_attribute(void* data, size_t size, cudaMemRangeAttribute attribute, const void* base,
                            size_t count) {
  switch (attribute) {
    case cudaMemRangeAttributeReadMostly: return put_int(data, size, core::is_read_mostly(base, count) ? 1 : 0);
    case cudaMemRangeAttributePreferredLocation:
      return put_int(data, size, device_id_of(core::preferred_location(base, count)));
    case cudaMemRangeAttributeLastPrefetchLocation:
      return put_int(data, size, device_id_of(core::last_prefetch_location(base, count)));
    case cudaMemRangeAttributePreferredLocationType:
      return put_int(data, size, core::preferred_location(base, count).value_or(core::MemoryLocation{}).type);
    case cudaMemRangeAttributePreferredLocationId:
      return put_int(data, size, core::preferred_location(base, count).value_or(core::MemoryLocation{}).id);
    case cudaMemRangeAttributeLastPrefetchLocationType:
      return put_int(data, size, core::last_prefetch_location(base, count).value_or(core::MemoryLocation{}).type);
    case cudaMemRangeAttributeLastPrefetchLocationId:
      return put_int(data, size, core::last_prefetch_location(base, count).value_or(core::MemoryLocation{}).id);
    case cudaMemRangeAttributeAccessedBy: {
      // As many ints as fit; the devices first, cudaInvalidDeviceId after them.
      if (size == 0 || size % sizeof(int) != 0) return cudaErrorInvalidValue;
      std::vector<int> ids(size / sizeof(int), cudaInvalidDeviceId);
      auto locations = core::accessed_by(base, count);
      for (size_t i = 0; i < std::min(ids.size(), locations.size()); ++i) ids[i] = device_id_of(locations[i]);
      std::memcpy(data, ids.data(), size);
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidValue;
}

// Recorded at once: with one memory there is nothing for the stream to wait for.
cudaError_t prefetch(const void* devPtr, size_t count, cudaMemLocation location, unsigned flags, cudaStream_t stream,
                     core::NullStream null_stream) {
  if (!core::to_stream(stream, null_stream)) return runtime::record(cudaErrorInvalidResourceHandle);
  if (flags != 0 || !is_managed_range(devPtr, count)) return runtime::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_location(location); error != cudaSuccess) return runtime::record(error);
  CUCPU_RETURN_IF_STICKY();
  core::record_prefetch(devPtr, count, to_core(location));
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location) {
  if (!is_managed_range(devPtr, count)) return runtime::record(cudaErrorInvalidValue);
  const bool uses_location = advice == cudaMemAdviseSetPreferredLocation || advice == cudaMemAdviseSetAccessedBy ||
                             advice == cudaMemAdviseUnsetAccessedBy;
  if (uses_location)
    if (cudaError_t error = check_location(location); error != cudaSuccess) return runtime::record(error);
  const auto set = core::AdviceChange::Set, unset = core::AdviceChange::Unset;
  switch (advice) {
    case cudaMemAdviseSetReadMostly: core::advise_read_mostly(devPtr, count, set); break;
    case cudaMemAdviseUnsetReadMostly: core::advise_read_mostly(devPtr, count, unset); break;
    case cudaMemAdviseSetPreferredLocation: core::advise_preferred_location(devPtr, count, set, to_core(location)); break;
    case cudaMemAdviseUnsetPreferredLocation: core::advise_preferred_location(devPtr, count, unset, {}); break;
    case cudaMemAdviseSetAccessedBy: core::advise_accessed_by(devPtr, count, set, to_core(location)); break;
    case cudaMemAdviseUnsetAccessedBy: core::advise_accessed_by(devPtr, count, unset, to_core(location)); break;
    default: return runtime::record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void* devPtr, size_t count, struct cudaMemLocation location,
                                           unsigned int flags, cudaStream_t stream) {
  return prefetch(devPtr, count, location, flags, stream, core::NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMemPrefetchAsync_ptsz(const void* devPtr, size_t count, struct cudaMemLocation location,
                                                unsigned int flags, cudaStream_t stream) {
  return prefetch(devPtr, count, location, flags, stream, core::NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemRangeGetAttribute(void* data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                               const void* devPtr, size_t count) {
  if (!data || !is_managed_range(devPtr, count)) return runtime::record(cudaErrorInvalidValue);
  return runtime::record(range_attribute(data, dataSize, attribute, devPtr, count));
}

cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void** data, size_t* dataSizes, enum cudaMemRangeAttribute* attributes,
                                                size_t numAttributes, const void* devPtr, size_t count) {
  if (!data || !dataSizes || !attributes || numAttributes == 0 || !is_managed_range(devPtr, count))
    return runtime::record(cudaErrorInvalidValue);
  for (size_t i = 0; i < numAttributes; ++i) {
    if (!data[i]) return runtime::record(cudaErrorInvalidValue);
    if (cudaError_t error = range_attribute(data[i], dataSizes[i], attributes[i], devPtr, count); error != cudaSuccess)
      return runtime::record(error);
  }
  return cudaSuccess;
}

}  // extern "C"
