// Memory: device, page-locked and managed allocations, copies and sets. A CUdeviceptr is
// a host address (DESIGN.md); what is checked is what the driver checks. Copies and sets
// are stream commands (core/memory_commands.h), ordered with launches; the synchronous
// forms run on the default stream (the thread's own for the _ptds forms).
#include <cuda.h>

#include "api/driver/driver_state.h"
#include "core/device.h"
#include "core/memory_commands.h"
#include "core/memory_registry.h"
#include "core/memory_release.h"
#include "core/stream_engine.h"
#include "core/stream_handle.h"
#include "exec/device_printf.h"

using namespace cucpu;
using core::HostSync;
using core::NullStream;

namespace {

CUresult result_of(const Result<void>& result) { return result ? CUDA_SUCCESS : driver::to_cu_result(result.error()); }

CUresult allocate(void** pointer, size_t size, core::MemoryKind kind, unsigned flags = 0) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pointer || size == 0) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (auto allowed = core::StreamEngine::instance().check_unsafe_call("a memory allocation"); !allowed)
    return driver::to_cu_result(allowed.error());
  auto block = core::memory().allocate(size, kind, context->device(), flags);
  if (!block) return driver::to_cu_result(block.error());
  *pointer = *block;
  return CUDA_SUCCESS;
}

CUresult copy(void* dst, const void* src, size_t bytes, CUstream handle, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (bytes == 0) return CUDA_SUCCESS;
  if (!dst || !src) return CUDA_ERROR_INVALID_VALUE;
  if (auto submitted = core::submit_copy(*stream, dst, src, bytes, sync); !submitted)
    return driver::to_cu_result(submitted.error());
  if (sync == HostSync::Asynchronous) return CUDA_SUCCESS;
  exec::flush_device_output();  // a blocking copy synchronises: device printf output appears
  return driver::sticky();      // a fault in the work it waited for
}

CUresult fill(CUdeviceptr dst, uint32_t value, size_t element_bytes, size_t count, CUstream handle,
              NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (count == 0) return CUDA_SUCCESS;
  if (dst % element_bytes != 0 || !core::memory().contains_range(driver::to_pointer(dst), count * element_bytes))
    return CUDA_ERROR_INVALID_VALUE;
  return result_of(core::submit_fill(*stream, driver::to_pointer(dst), value, element_bytes, count, sync));
}

// cuMemsetD2D8/16/32: `height` rows of `width` elements, `pitch` bytes apart, inside memory
// cucpu allocated (core/memory_commands.h).
CUresult fill_2d(CUdeviceptr dst, size_t pitch, uint32_t value, size_t element_bytes, size_t width, size_t height,
                 CUstream handle, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (width == 0 || height == 0) return CUDA_SUCCESS;
  const size_t row_bytes = width * element_bytes;
  if (dst % element_bytes != 0 || (height > 1 && (pitch < row_bytes || pitch % element_bytes != 0)) ||
      !core::memory().contains_range(driver::to_pointer(dst), pitch * (height - 1) + row_bytes))
    return CUDA_ERROR_INVALID_VALUE;
  return result_of(
      core::submit_fill_2d(*stream, driver::to_pointer(dst), pitch, value, element_bytes, width, height, sync));
}

constexpr auto kSync = HostSync::Synchronous;
constexpr auto kAsync = HostSync::Asynchronous;
constexpr auto kLegacy = NullStream::Legacy;
constexpr auto kPerThread = NullStream::PerThread;

}  // namespace

extern "C" {

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize) {
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  void* pointer = nullptr;
  CUresult result = allocate(&pointer, bytesize, core::MemoryKind::Device);
  if (result == CUDA_SUCCESS) *dptr = reinterpret_cast<CUdeviceptr>(pointer);
  return result;
}

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  if (!dptr || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)) return CUDA_ERROR_INVALID_VALUE;
  void* pointer = nullptr;
  CUresult result = allocate(&pointer, bytesize, core::MemoryKind::Managed, flags);
  if (result == CUDA_SUCCESS) *dptr = reinterpret_cast<CUdeviceptr>(pointer);
  return result;
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  return result_of(core::free_device_memory(driver::to_pointer(dptr)));
}

CUresult CUDAAPI cuMemAllocHost_v2(void** pp, size_t bytesize) {
  return allocate(pp, bytesize, core::MemoryKind::PinnedHost);
}

// Host memory is device-visible already: every flag is met by ordinary memory.
CUresult CUDAAPI cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags) {
  constexpr unsigned kKnownFlags = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
  if (Flags & ~kKnownFlags) return CUDA_ERROR_INVALID_VALUE;
  return allocate(pp, bytesize, core::MemoryKind::PinnedHost, Flags);
}

CUresult CUDAAPI cuMemFreeHost(void* p) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  return result_of(core::free_host_memory(p));
}

CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pdptr || !p || Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  auto allocation = core::memory().find(p);
  if (!allocation || !allocation->page_locked()) return CUDA_ERROR_INVALID_VALUE;
  *pdptr = reinterpret_cast<CUdeviceptr>(p);  // the host address is the device's too
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemHostRegister_v2(void* p, size_t bytesize, unsigned int Flags) {
  constexpr unsigned kKnownFlags = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                                   CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
  CUCPU_REQUIRE_CONTEXT(context);
  if (!p || bytesize == 0 || (Flags & ~kKnownFlags)) return CUDA_ERROR_INVALID_VALUE;
  if (Flags & CU_MEMHOSTREGISTER_IOMEMORY) return CUDA_ERROR_NOT_SUPPORTED;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  return result_of(core::memory().register_host(p, bytesize, Flags, context->device()));
}

CUresult CUDAAPI cuMemHostUnregister(void* p) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  return result_of(core::memory().unregister_host(p));
}

CUresult CUDAAPI cuMemGetInfo_v2(size_t* free, size_t* total) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!free || !total) return CUDA_ERROR_INVALID_VALUE;
  *free = core::free_memory_bytes();
  *total = core::total_memory_bytes();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr) {
  CUCPU_REQUIRE_CONTEXT(context);
  auto allocation = core::memory().find(driver::to_pointer(dptr));
  if (!allocation) return CUDA_ERROR_NOT_FOUND;
  if (pbase) *pbase = static_cast<CUdeviceptr>(allocation->base);
  if (psize) *psize = allocation->size;
  return CUDA_SUCCESS;
}

// Copies. Unified addressing: every direction is one copy between two addresses.
CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return copy(driver::to_pointer(dst), driver::to_pointer(src), ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return copy(driver::to_pointer(dst), driver::to_pointer(src), ByteCount, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return copy(driver::to_pointer(dst), driver::to_pointer(src), ByteCount, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return copy(driver::to_pointer(dst), driver::to_pointer(src), ByteCount, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
  return copy(driver::to_pointer(dstDevice), srcHost, ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
  return copy(driver::to_pointer(dstDevice), srcHost, ByteCount, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy(dstHost, driver::to_pointer(srcDevice), ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy(dstHost, driver::to_pointer(srcDevice), ByteCount, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy(driver::to_pointer(dstDevice), driver::to_pointer(srcDevice), ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy(driver::to_pointer(dstDevice), driver::to_pointer(srcDevice), ByteCount, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount, CUstream hStream) {
  return copy(driver::to_pointer(dstDevice), srcHost, ByteCount, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount,
                                           CUstream hStream) {
  return copy(driver::to_pointer(dstDevice), srcHost, ByteCount, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return copy(dstHost, driver::to_pointer(srcDevice), ByteCount, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemcpyDtoHAsync_v2_ptsz(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return copy(dstHost, driver::to_pointer(srcDevice), ByteCount, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                      CUstream hStream) {
  return copy(driver::to_pointer(dstDevice), driver::to_pointer(srcDevice), ByteCount, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                           CUstream hStream) {
  return copy(driver::to_pointer(dstDevice), driver::to_pointer(srcDevice), ByteCount, hStream, kPerThread, kAsync);
}

// Sets of 8-, 16- and 32-bit values.
CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return fill(dstDevice, uc, 1, N, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return fill(dstDevice, uc, 1, N, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N) {
  return fill(dstDevice, us, 2, N, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N) {
  return fill(dstDevice, us, 2, N, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return fill(dstDevice, ui, 4, N, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return fill(dstDevice, ui, 4, N, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return fill(dstDevice, uc, 1, N, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return fill(dstDevice, uc, 1, N, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
  return fill(dstDevice, us, 2, N, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
  return fill(dstDevice, us, 2, N, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
  return fill(dstDevice, ui, 4, N, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
  return fill(dstDevice, ui, 4, N, hStream, kPerThread, kAsync);
}

CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height) {
  return fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                  size_t Height) {
  return fill_2d(dstDevice, dstPitch, us, 2, Width, Height, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemsetD2D16_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                       size_t Height) {
  return fill_2d(dstDevice, dstPitch, us, 2, Width, Height, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                  size_t Height) {
  return fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemsetD2D32_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                       size_t Height) {
  return fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemsetD2D8_v2_ptds(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                      size_t Height) {
  return fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                   size_t Height, CUstream hStream) {
  return fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemsetD2D8Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                        size_t Height, CUstream hStream) {
  return fill_2d(dstDevice, dstPitch, uc, 1, Width, Height, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                    size_t Height, CUstream hStream) {
  return fill_2d(dstDevice, dstPitch, us, 2, Width, Height, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemsetD2D16Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                         size_t Height, CUstream hStream) {
  return fill_2d(dstDevice, dstPitch, us, 2, Width, Height, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                    size_t Height, CUstream hStream) {
  return fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemsetD2D32Async_ptsz(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                         size_t Height, CUstream hStream) {
  return fill_2d(dstDevice, dstPitch, ui, 4, Width, Height, hStream, kPerThread, kAsync);
}

}  // extern "C"
