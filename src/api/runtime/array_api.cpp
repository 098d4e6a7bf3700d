// CUDA arrays: cudaMallocArray, cudaMalloc3DArray, cudaFreeArray, cudaArrayGetInfo,
// cudaGetChannelDesc, and the copies into, out of and between
// arrays (cudaMemcpy2DToArray/FromArray/ArrayToArray, the 1D cudaMemcpyToArray/FromArray/
// ArrayToArray, their Async and per-thread forms). CUDA's rules on formats, extents and
// flags are checked here (the attribute limits of core/device_attributes.def); the arrays
// and the copies' bounds are core's (core/cuda_array.h). Mipmapped arrays are not
// implemented: their entry points are the generated stubs (cudaErrorNotSupported).
#include <cuda_runtime_api.h>

#include "api/runtime/array_handle.h"
#include "api/runtime/channel_format.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/cuda_array.h"
#include "core/device.h"
#include "core/memory_commands.h"
#include "exec/device_printf.h"

using namespace cucpu;
using core::NullStream;
using runtime::to_array;

namespace {

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

constexpr unsigned kKnownFlags = cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap |
                                 cudaArrayTextureGather | cudaArraySparse | cudaArrayDeferredMapping;

cudaError_t allocate_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent,
                           unsigned flags) {
  if (!array || !desc) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  if (flags & ~kKnownFlags) return runtime::record(cudaErrorInvalidValue);
  if (flags & (cudaArraySparse | cudaArrayDeferredMapping)) return runtime::record(cudaErrorNotSupported);
  Result<exec::TexelFormat> format = runtime::to_texel_format(*desc);
  if (!format) {
    const bool unsupported = format.error().code == ErrorCode::NotSupported;
    return runtime::record(unsupported ? cudaErrorNotSupported : cudaErrorInvalidChannelDescriptor);
  }
  if (!core::array_extent_fits(extent.width, extent.height, extent.depth, flags & cudaArrayLayered,
                               flags & cudaArrayCubemap))
    return runtime::record(cudaErrorInvalidValue);
  Result<core::CudaArray*> created = core::create_array(*format, extent.width, extent.height, extent.depth, flags,
                                                        flags & cudaArrayLayered, flags & cudaArrayCubemap);
  if (!created) return runtime::record(created.error());
  *array = reinterpret_cast<cudaArray_t>(*created);
  return cudaSuccess;
}

// A copy with arrays, run on `stream`: a synchronous one returns when the guide's table
// says (core/memory_commands.h) and then shows pending device printf output and faults.
cudaError_t run_copy(const Result<core::StridedCopy>& copy, cudaStream_t handle, NullStream null_stream,
                     core::HostSync sync) {
  CUCPU_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!copy) return runtime::record(copy.error());
  if (core::is_empty(*copy)) return cudaSuccess;
  Result<void> submitted = core::submit_strided_copy(*stream, *copy, sync);
  if (!submitted) return runtime::record(submitted.error());
  if (sync == core::HostSync::Asynchronous) return cudaSuccess;
  exec::flush_device_output();
  return runtime::record(runtime::sticky());
}

core::CopySide array_side(core::CudaArray* array, size_t x, size_t y) {
  core::CopySide side;
  side.array = array;
  side.position = core::Position3D{x, y, 0};
  return side;
}

core::CopySide linear_side(const void* pointer, size_t pitch) {
  core::CopySide side;
  side.pointer = core::PitchedPointer{const_cast<void*>(pointer), pitch, 0, 0};
  return side;
}

// The 2D forms: arrays are checked first (a bad one is InvalidResourceHandle), then the
// direction, then the bounds.
cudaError_t copy_2d(cudaArray_const_t dst_array, const core::CopySide& dst, cudaArray_const_t src_array,
                    const core::CopySide& src, size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream,
                    NullStream null_stream, core::HostSync sync) {
  core::CopySide d = dst, s = src;
  if (dst_array) d.array = to_array(dst_array);
  if (src_array) s.array = to_array(src_array);
  if ((dst_array && !d.array) || (src_array && !s.array)) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  return run_copy(core::describe_array_copy_2d(d, s, width, height), stream, null_stream, sync);
}

// The 1D forms (deprecated in CUDA): `count` bytes from (wOffset, hOffset) on, through
// as many rows as they fill (an array's rows follow each other without padding here).
cudaError_t copy_linear(cudaArray_const_t dst_array, size_t dst_w, size_t dst_h, void* dst,
                        cudaArray_const_t src_array, size_t src_w, size_t src_h, const void* src, size_t count,
                        cudaMemcpyKind kind, cudaStream_t stream, NullStream null_stream, core::HostSync sync) {
  core::CudaArray* d = dst_array ? to_array(dst_array) : nullptr;
  core::CudaArray* s = src_array ? to_array(src_array) : nullptr;
  if ((dst_array && !d) || (src_array && !s)) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  auto locate = [count](core::CudaArray* array, size_t w, size_t h) -> uint8_t* {
    return w > array->row_bytes() ? nullptr : core::array_bytes(*array, h * array->row_bytes() + w, count);
  };
  if (d && !(dst = locate(d, dst_w, dst_h))) return runtime::record(cudaErrorInvalidValue);
  if (s && !(src = locate(s, src_w, src_h))) return runtime::record(cudaErrorInvalidValue);
  return run_copy(core::describe_copy_2d(dst, count, src, count, count, 1), stream, null_stream, sync);
}

constexpr auto kSync = core::HostSync::Synchronous;
constexpr auto kAsync = core::HostSync::Asynchronous;

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc, size_t width,
                                      size_t height, unsigned int flags) {
  if (flags & (cudaArrayLayered | cudaArrayCubemap)) return runtime::record(cudaErrorInvalidValue);
  return allocate_array(array, desc, cudaExtent{width, height, 0}, flags);
}

cudaError_t CUDARTAPI cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                                        struct cudaExtent extent, unsigned int flags) {
  return allocate_array(array, desc, extent, flags);
}

cudaError_t CUDARTAPI cudaFreeArray(cudaArray_t array) {
  if (!array) return cudaSuccess;  // as cudaFree(nullptr)
  CUCPU_RETURN_IF_STICKY();
  if (!core::destroy_array(reinterpret_cast<core::CudaArray*>(array)))
    return runtime::record(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaArrayGetInfo(struct cudaChannelFormatDesc* desc, struct cudaExtent* extent,
                                       unsigned int* flags, cudaArray_t array) {
  const core::CudaArray* a = to_array(array);
  if (!a) return runtime::record(cudaErrorInvalidResourceHandle);
  if (desc) *desc = runtime::to_channel_desc(a->format);
  if (extent) *extent = cudaExtent{a->width, a->height, a->depth};
  if (flags) *flags = a->flags;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetChannelDesc(struct cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (!desc) return runtime::record(cudaErrorInvalidValue);
  const core::CudaArray* a = to_array(array);
  if (!a) return runtime::record(cudaErrorInvalidResourceHandle);
  *desc = runtime::to_channel_desc(a->format);
  return cudaSuccess;
}

// --- 2D copies

cudaError_t CUDARTAPI cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                          size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d(dst, array_side(nullptr, wOffset, hOffset), nullptr, linear_side(src, spitch), width, height, kind,
                 nullptr, NullStream::Legacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d(dst, array_side(nullptr, wOffset, hOffset), nullptr, linear_side(src, spitch), width, height, kind,
                 nullptr, NullStream::PerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                            size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d(nullptr, linear_side(dst, dpitch), src, array_side(nullptr, wOffset, hOffset), width, height, kind,
                 nullptr, NullStream::Legacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArray_ptds(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height,
                                                 enum cudaMemcpyKind kind) {
  return copy_2d(nullptr, linear_side(dst, dpitch), src, array_side(nullptr, wOffset, hOffset), width, height, kind,
                 nullptr, NullStream::PerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                               cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                               size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d(dst, array_side(nullptr, wOffsetDst, hOffsetDst), src, array_side(nullptr, wOffsetSrc, hOffsetSrc),
                 width, height, kind, nullptr, NullStream::Legacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                    size_t width, size_t height, enum cudaMemcpyKind kind) {
  return copy_2d(dst, array_side(nullptr, wOffsetDst, hOffsetDst), src, array_side(nullptr, wOffsetSrc, hOffsetSrc),
                 width, height, kind, nullptr, NullStream::PerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                               size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
  return copy_2d(dst, array_side(nullptr, wOffset, hOffset), nullptr, linear_side(src, spitch), width, height, kind,
                 stream, NullStream::Legacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                    const void* src, size_t spitch, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_2d(dst, array_side(nullptr, wOffset, hOffset), nullptr, linear_side(src, spitch), width, height, kind,
                 stream, NullStream::PerThread, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                 size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind,
                                                 cudaStream_t stream) {
  return copy_2d(nullptr, linear_side(dst, dpitch), src, array_side(nullptr, wOffset, hOffset), width, height, kind,
                 stream, NullStream::Legacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpy2DFromArrayAsync_ptsz(void* dst, size_t dpitch, cudaArray_const_t src,
                                                      size_t wOffset, size_t hOffset, size_t width, size_t height,
                                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_2d(nullptr, linear_side(dst, dpitch), src, array_side(nullptr, wOffset, hOffset), width, height, kind,
                 stream, NullStream::PerThread, kAsync);
}

// --- 1D copies (deprecated in CUDA, still exported)

cudaError_t CUDARTAPI cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                        size_t count, enum cudaMemcpyKind kind) {
  return copy_linear(dst, wOffset, hOffset, nullptr, nullptr, 0, 0, src, count, kind, nullptr, NullStream::Legacy,
                     kSync);
}

cudaError_t CUDARTAPI cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                             size_t count, enum cudaMemcpyKind kind) {
  return copy_linear(dst, wOffset, hOffset, nullptr, nullptr, 0, 0, src, count, kind, nullptr,
                     NullStream::PerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                          size_t count, enum cudaMemcpyKind kind) {
  return copy_linear(nullptr, 0, 0, dst, src, wOffset, hOffset, nullptr, count, kind, nullptr, NullStream::Legacy,
                     kSync);
}

cudaError_t CUDARTAPI cudaMemcpyFromArray_ptds(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind) {
  return copy_linear(nullptr, 0, 0, dst, src, wOffset, hOffset, nullptr, count, kind, nullptr,
                     NullStream::PerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                             cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                             size_t count, enum cudaMemcpyKind kind) {
  return copy_linear(dst, wOffsetDst, hOffsetDst, nullptr, src, wOffsetSrc, hOffsetSrc, nullptr, count, kind,
                     nullptr, NullStream::Legacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t count, enum cudaMemcpyKind kind) {
  return copy_linear(dst, wOffsetDst, hOffsetDst, nullptr, src, wOffsetSrc, hOffsetSrc, nullptr, count, kind,
                     nullptr, NullStream::PerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                             size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_linear(dst, wOffset, hOffset, nullptr, nullptr, 0, 0, src, count, kind, stream, NullStream::Legacy,
                     kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                                  size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_linear(dst, wOffset, hOffset, nullptr, nullptr, 0, 0, src, count, kind, stream,
                     NullStream::PerThread, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                               size_t count, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_linear(nullptr, 0, 0, dst, src, wOffset, hOffset, nullptr, count, kind, stream, NullStream::Legacy,
                     kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyFromArrayAsync_ptsz(void* dst, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                                    cudaStream_t stream) {
  return copy_linear(nullptr, 0, 0, dst, src, wOffset, hOffset, nullptr, count, kind, stream,
                     NullStream::PerThread, kAsync);
}

}  // extern "C"
