// CUDA arrays through the driver: cuArrayCreate, cuArray3DCreate, cuArrayDestroy, their
// descriptor getters, and the 1D copies into, out of and between arrays (cuMemcpyHtoA,
// AtoH, DtoA, AtoD, AtoA and the Async forms). A CUarray is the same object as a
// cudaArray_t (core/cuda_array.h); 2D and 3D copies with arrays are cuMemcpy2D/3D
// (pitched_memory_api.cpp). Mipmapped arrays are not implemented (generated stubs).
#include <cuda.h>

#include <tuple>

#include "api/driver/array_format.h"
#include "api/driver/copy_description.h"
#include "api/driver/driver_state.h"
#include "core/cuda_array.h"

using namespace cucpu;
using core::HostSync;
using core::NullStream;

namespace {

constexpr unsigned kKnownFlags = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
                                 CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING;

CUresult create(CUarray* handle, const CUDA_ARRAY3D_DESCRIPTOR& d) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (d.Flags & ~kKnownFlags) return CUDA_ERROR_INVALID_VALUE;
  if (d.Flags & (CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING)) return CUDA_ERROR_NOT_SUPPORTED;
  Result<exec::TexelFormat> format = driver::to_texel_format(d.Format, d.NumChannels);
  if (!format) return driver::to_cu_result(format.error());
  const bool layered = d.Flags & CUDA_ARRAY3D_LAYERED, cubemap = d.Flags & CUDA_ARRAY3D_CUBEMAP;
  if (!core::array_extent_fits(d.Width, d.Height, d.Depth, layered, cubemap)) return CUDA_ERROR_INVALID_VALUE;
  Result<core::CudaArray*> array = core::create_array(*format, d.Width, d.Height, d.Depth, d.Flags, layered, cubemap);
  if (!array) return driver::to_cu_result(array.error());
  *handle = reinterpret_cast<CUarray>(*array);
  return CUDA_SUCCESS;
}

// A 1D copy of `count` bytes: an array side starts `offset` bytes into the array's first
// row, and must end within it (H200: a count reaching into row 1 of a 2D or layered
// array, or an offset there, is CUDA_ERROR_INVALID_VALUE).
CUresult copy_bytes(CUarray dst_array, size_t dst_offset, void* dst, CUarray src_array, size_t src_offset,
                    const void* src, size_t count, CUstream stream, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  for (auto [handle, offset, pointer] : {std::tuple{dst_array, dst_offset, &dst},
                                         std::tuple{src_array, src_offset, const_cast<void**>(&src)}}) {
    if (!handle) continue;
    const core::CudaArray* array = core::find_array(handle);
    if (!array) return CUDA_ERROR_INVALID_VALUE;
    if (offset > array->row_bytes() || count > array->row_bytes() - offset) return CUDA_ERROR_INVALID_VALUE;
    *pointer = core::array_bytes(*array, offset, count);
  }
  return driver::submit_copy(core::describe_copy_2d(dst, count, src, count, count, 1), stream, null_stream, sync);
}

constexpr auto kSync = HostSync::Synchronous;
constexpr auto kAsync = HostSync::Asynchronous;
constexpr auto kLegacy = NullStream::Legacy;
constexpr auto kPerThread = NullStream::PerThread;

}  // namespace

extern "C" {

CUresult CUDAAPI cuArrayCreate_v2(CUarray* pHandle, const CUDA_ARRAY_DESCRIPTOR* pAllocateArray) {
  if (!pHandle || !pAllocateArray) return CUDA_ERROR_INVALID_VALUE;
  const CUDA_ARRAY_DESCRIPTOR& d = *pAllocateArray;
  return create(pHandle, CUDA_ARRAY3D_DESCRIPTOR{d.Width, d.Height, 0, d.Format, d.NumChannels, 0});
}

CUresult CUDAAPI cuArray3DCreate_v2(CUarray* pHandle, const CUDA_ARRAY3D_DESCRIPTOR* pAllocateArray) {
  if (!pHandle || !pAllocateArray) return CUDA_ERROR_INVALID_VALUE;
  return create(pHandle, *pAllocateArray);
}

CUresult CUDAAPI cuArrayDestroy(CUarray hArray) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!core::destroy_array(core::find_array(hArray))) return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR* pArrayDescriptor, CUarray hArray) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pArrayDescriptor) return CUDA_ERROR_INVALID_VALUE;
  const core::CudaArray* array = core::find_array(hArray);
  if (!array) return CUDA_ERROR_INVALID_HANDLE;
  *pArrayDescriptor = CUDA_ARRAY3D_DESCRIPTOR{array->width,   array->height,
                                              array->depth,   driver::to_array_format(array->format),
                                              array->format.channels, array->flags};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR* pArrayDescriptor, CUarray hArray) {
  if (!pArrayDescriptor) return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  if (CUresult error = cuArray3DGetDescriptor_v2(&d, hArray); error != CUDA_SUCCESS) return error;
  *pArrayDescriptor = CUDA_ARRAY_DESCRIPTOR{d.Width, d.Height, d.Format, d.NumChannels};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoA_v2(CUarray dstArray, size_t dstOffset, const void* srcHost, size_t ByteCount) {
  return copy_bytes(dstArray, dstOffset, nullptr, nullptr, 0, srcHost, ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyHtoA_v2_ptds(CUarray dstArray, size_t dstOffset, const void* srcHost, size_t ByteCount) {
  return copy_bytes(dstArray, dstOffset, nullptr, nullptr, 0, srcHost, ByteCount, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyHtoAAsync_v2(CUarray dstArray, size_t dstOffset, const void* srcHost, size_t ByteCount,
                                      CUstream hStream) {
  return copy_bytes(dstArray, dstOffset, nullptr, nullptr, 0, srcHost, ByteCount, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemcpyHtoAAsync_v2_ptsz(CUarray dstArray, size_t dstOffset, const void* srcHost,
                                           size_t ByteCount, CUstream hStream) {
  return copy_bytes(dstArray, dstOffset, nullptr, nullptr, 0, srcHost, ByteCount, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemcpyAtoH_v2(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return copy_bytes(nullptr, 0, dstHost, srcArray, srcOffset, nullptr, ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyAtoH_v2_ptds(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return copy_bytes(nullptr, 0, dstHost, srcArray, srcOffset, nullptr, ByteCount, nullptr, kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyAtoHAsync_v2(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                      CUstream hStream) {
  return copy_bytes(nullptr, 0, dstHost, srcArray, srcOffset, nullptr, ByteCount, hStream, kLegacy, kAsync);
}
CUresult CUDAAPI cuMemcpyAtoHAsync_v2_ptsz(void* dstHost, CUarray srcArray, size_t srcOffset, size_t ByteCount,
                                           CUstream hStream) {
  return copy_bytes(nullptr, 0, dstHost, srcArray, srcOffset, nullptr, ByteCount, hStream, kPerThread, kAsync);
}
CUresult CUDAAPI cuMemcpyDtoA_v2(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy_bytes(dstArray, dstOffset, nullptr, nullptr, 0, driver::to_pointer(srcDevice), ByteCount, nullptr,
                    kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyDtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUdeviceptr srcDevice, size_t ByteCount) {
  return copy_bytes(dstArray, dstOffset, nullptr, nullptr, 0, driver::to_pointer(srcDevice), ByteCount, nullptr,
                    kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyAtoD_v2(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return copy_bytes(nullptr, 0, driver::to_pointer(dstDevice), srcArray, srcOffset, nullptr, ByteCount, nullptr,
                    kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyAtoD_v2_ptds(CUdeviceptr dstDevice, CUarray srcArray, size_t srcOffset, size_t ByteCount) {
  return copy_bytes(nullptr, 0, driver::to_pointer(dstDevice), srcArray, srcOffset, nullptr, ByteCount, nullptr,
                    kPerThread, kSync);
}
CUresult CUDAAPI cuMemcpyAtoA_v2(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                 size_t ByteCount) {
  return copy_bytes(dstArray, dstOffset, nullptr, srcArray, srcOffset, nullptr, ByteCount, nullptr, kLegacy, kSync);
}
CUresult CUDAAPI cuMemcpyAtoA_v2_ptds(CUarray dstArray, size_t dstOffset, CUarray srcArray, size_t srcOffset,
                                      size_t ByteCount) {
  return copy_bytes(dstArray, dstOffset, nullptr, srcArray, srcOffset, nullptr, ByteCount, nullptr, kPerThread,
                    kSync);
}

}  // extern "C"
