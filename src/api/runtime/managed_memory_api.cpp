// Unified memory hints: cudaMemAdvise, cudaMemPrefetchAsync and the range attributes
// that read them back; checked and recorded by core (core/managed_hints.h), which the
// driver's cuMemAdvise family shares.
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"
#include "core/managed_hints.h"
#include "core/stream_handle.h"

using namespace cucpu;

namespace {

core::MemoryLocation to_core(cudaMemLocation location) { return core::MemoryLocation{location.type, location.id}; }

cudaError_t recorded(const Result<void>& result) { return result ? cudaSuccess : runtime::record(result.error()); }

cudaError_t prefetch(const void* devPtr, size_t count, cudaMemLocation location, unsigned flags, cudaStream_t stream,
                     core::NullStream null_stream) {
  if (!core::to_stream(stream, null_stream)) return runtime::record(cudaErrorInvalidResourceHandle);
  CUCPU_RETURN_IF_STICKY();
  return recorded(core::prefetch_range(devPtr, count, to_core(location), flags));
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMemAdvise(const void* devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location) {
  return recorded(core::advise_range(devPtr, count, advice, to_core(location)));
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
  if (!data || !core::is_managed_range(devPtr, count)) return runtime::record(cudaErrorInvalidValue);
  return recorded(core::range_attribute(data, dataSize, attribute, devPtr, count));
}

cudaError_t CUDARTAPI cudaMemRangeGetAttributes(void** data, size_t* dataSizes, enum cudaMemRangeAttribute* attributes,
                                                size_t numAttributes, const void* devPtr, size_t count) {
  if (!data || !dataSizes || !attributes || numAttributes == 0 || !core::is_managed_range(devPtr, count))
    return runtime::record(cudaErrorInvalidValue);
  for (size_t i = 0; i < numAttributes; ++i) {
    if (!data[i]) return runtime::record(cudaErrorInvalidValue);
    if (auto got = core::range_attribute(data[i], dataSizes[i], attributes[i], devPtr, count); !got)
      return runtime::record(got.error());
  }
  return cudaSuccess;
}

}  // extern "C"
