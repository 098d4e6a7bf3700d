// Unified memory hints through the driver: cuMemAdvise (the CUDA 12 form with a location
// and the older one with a device), cuMemPrefetchAsync (both forms), cuMemRangeGetAttribute(s);
// checked and recorded by core (core/managed_hints.h), shared with the runtime's.
#include <cuda.h>

#include "api/driver/driver_state.h"
#include "core/managed_hints.h"
#include "core/stream_handle.h"

using namespace cucpu;
using core::NullStream;

namespace {

core::MemoryLocation to_core(CUmemLocation location) { return core::MemoryLocation{location.type, location.id}; }

// The older forms name a device, or CU_DEVICE_CPU for the host.
CUmemLocation location_of(CUdevice device) {
  return device == CU_DEVICE_CPU ? CUmemLocation{CU_MEM_LOCATION_TYPE_HOST, 0}
                                 : CUmemLocation{CU_MEM_LOCATION_TYPE_DEVICE, device};
}

CUresult result_of(const Result<void>& result) { return result ? CUDA_SUCCESS : driver::to_cu_result(result.error()); }

CUresult prefetch(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned flags, CUstream stream,
                  NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!core::to_stream(stream, null_stream)) return CUDA_ERROR_INVALID_HANDLE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  return result_of(core::prefetch_range(driver::to_pointer(devPtr), count, to_core(location), flags));
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location) {
  CUCPU_REQUIRE_CONTEXT(context);
  return result_of(core::advise_range(driver::to_pointer(devPtr), count, advice, to_core(location)));
}
CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device) {
  return cuMemAdvise_v2(devPtr, count, advice, location_of(device));
}

CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                       CUstream hStream) {
  return prefetch(devPtr, count, location, flags, hStream, NullStream::Legacy);
}
CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                            unsigned int flags, CUstream hStream) {
  return prefetch(devPtr, count, location, flags, hStream, NullStream::PerThread);
}
CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream) {
  return prefetch(devPtr, count, location_of(dstDevice), 0, hStream, NullStream::Legacy);
}
CUresult CUDAAPI cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream) {
  return prefetch(devPtr, count, location_of(dstDevice), 0, hStream, NullStream::PerThread);
}

CUresult CUDAAPI cuMemRangeGetAttribute(void* data, size_t dataSize, CUmem_range_attribute attribute,
                                        CUdeviceptr devPtr, size_t count) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!data || !core::is_managed_range(driver::to_pointer(devPtr), count)) return CUDA_ERROR_INVALID_VALUE;
  return result_of(core::range_attribute(data, dataSize, attribute, driver::to_pointer(devPtr), count));
}

CUresult CUDAAPI cuMemRangeGetAttributes(void** data, size_t* dataSizes, CUmem_range_attribute* attributes,
                                         size_t numAttributes, CUdeviceptr devPtr, size_t count) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!data || !dataSizes || !attributes || numAttributes == 0 ||
      !core::is_managed_range(driver::to_pointer(devPtr), count))
    return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < numAttributes; ++i) {
    if (!data[i]) return CUDA_ERROR_INVALID_VALUE;
    if (auto got = core::range_attribute(data[i], dataSizes[i], attributes[i], driver::to_pointer(devPtr), count); !got)
      return driver::to_cu_result(got.error());
  }
  return CUDA_SUCCESS;
}

}  // extern "C"
