// The Async forms of the pitched copies and sets: cudaMemcpy2DAsync, cudaMemcpy3DAsync,
// cudaMemcpy3DPeerAsync, cudaMemset2DAsync, cudaMemset3DAsync (and their _ptsz twins).
// The checks are core/strided_copy.h's, as for the synchronous forms
// (pitched_memory_api.cpp); the descriptions are queued on the stream
// (core/memory_commands.h decides when the call returns).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

#include "api/runtime/array_handle.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/memory_commands.h"
#include "core/strided_copy.h"
#include "exec/device_runtime_model_calls.h"

using namespace cucpu;
using core::NullStream;

// The device runtime reads device code's cudaMemcpy3DParms through its own mirror of it.
static_assert(sizeof(exec::devrt::Memcpy3DParms) == sizeof(cudaMemcpy3DParms));
static_assert(offsetof(exec::devrt::Memcpy3DParms, src_ptr) == offsetof(cudaMemcpy3DParms, srcPtr));
static_assert(offsetof(exec::devrt::Memcpy3DParms, dst_array) == offsetof(cudaMemcpy3DParms, dstArray));
static_assert(offsetof(exec::devrt::Memcpy3DParms, dst_pos) == offsetof(cudaMemcpy3DParms, dstPos));
static_assert(offsetof(exec::devrt::Memcpy3DParms, extent) == offsetof(cudaMemcpy3DParms, extent));
static_assert(offsetof(exec::devrt::Memcpy3DParms, kind) == offsetof(cudaMemcpy3DParms, kind));

namespace {

core::PitchedPointer to_core(const cudaPitchedPtr& p) { return core::PitchedPointer{p.ptr, p.pitch, p.xsize, p.ysize}; }
core::Position3D to_core(const cudaPos& p) { return core::Position3D{p.x, p.y, p.z}; }
core::Extent3D to_core(const cudaExtent& e) { return core::Extent3D{e.width, e.height, e.depth}; }

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

template <typename Description>
cudaError_t submit(const Result<Description>& description, cudaStream_t handle, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!description) return runtime::record(description.error());
  if (core::is_empty(*description)) return cudaSuccess;
  Result<void> submitted = [&] {
    if constexpr (std::is_same_v<Description, core::StridedCopy>)
      return core::submit_strided_copy(*stream, *description, core::HostSync::Asynchronous);
    else
      return core::submit_strided_set(*stream, *description, core::HostSync::Asynchronous);
  }();
  return submitted ? cudaSuccess : runtime::record(submitted.error());
}

cudaError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                    cudaMemcpyKind kind, cudaStream_t stream, NullStream null_stream) {
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  return submit(core::describe_copy_2d(dst, dpitch, src, spitch, width, height), stream, null_stream);
}

// Linear memory, or CUDA arrays (core/cuda_array.h: an array side's position and the
// extent in elements).
cudaError_t copy_3d(const cudaArray_t src_array, const cudaPitchedPtr& src_ptr,
                    const cudaPos& src_pos, const cudaArray_t dst_array, const cudaPitchedPtr& dst_ptr,
                    const cudaPos& dst_pos, const cudaExtent& extent, cudaStream_t stream, NullStream null_stream) {
  if ((src_array && src_ptr.ptr) || (dst_array && dst_ptr.ptr)) return runtime::record(cudaErrorInvalidValue);
  if (src_array || dst_array) {
    core::CopySide dst{runtime::to_array(dst_array), to_core(dst_ptr), to_core(dst_pos)};
    core::CopySide src{runtime::to_array(src_array), to_core(src_ptr), to_core(src_pos)};
    if ((dst_array && !dst.array) || (src_array && !src.array))
      return runtime::record(cudaErrorInvalidResourceHandle);
    return submit(core::describe_array_copy_3d(dst, src, to_core(extent)), stream, null_stream);
  }
  return submit(core::describe_copy_3d(to_core(dst_ptr), to_core(dst_pos), to_core(src_ptr), to_core(src_pos),
                                       to_core(extent)),
                stream, null_stream);
}

cudaError_t copy_3d_parms(const cudaMemcpy3DParms* p, cudaStream_t stream, NullStream null_stream) {
  if (!p) return runtime::record(cudaErrorInvalidValue);
  if (!valid_kind(p->kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  return copy_3d(p->srcArray, p->srcPtr, p->srcPos, p->dstArray,
                 p->dstPtr, p->dstPos, p->extent, stream, null_stream);
}

// Every device sees the same memory (core/device.h): a peer copy is a plain copy.
cudaError_t copy_3d_peer(const cudaMemcpy3DPeerParms* p, cudaStream_t stream, NullStream null_stream) {
  if (!p) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(p->srcDevice) || !runtime::valid_device(p->dstDevice))
    return runtime::record(cudaErrorInvalidDevice);
  return copy_3d(p->srcArray, p->srcPtr, p->srcPos, p->dstArray,
                 p->dstPtr, p->dstPos, p->extent, stream, null_stream);
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                             size_t height, enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemcpy3DAsync(const struct cudaMemcpy3DParms* p, cudaStream_t stream) {
  return copy_3d_parms(p, stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms* p, cudaStream_t stream) {
  return copy_3d_parms(p, stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  return copy_3d_peer(p, stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  return copy_3d_peer(p, stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                                        cudaStream_t stream) {
  return submit(core::describe_set_2d(devPtr, pitch, value, width, height), stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaMemset2DAsync_ptsz(void* devPtr, size_t pitch, int value, size_t width, size_t height,
                                             cudaStream_t stream) {
  return submit(core::describe_set_2d(devPtr, pitch, value, width, height), stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                        cudaStream_t stream) {
  return submit(core::describe_set_3d(to_core(pitchedDevPtr), value, to_core(extent)), stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                             cudaStream_t stream) {
  return submit(core::describe_set_3d(to_core(pitchedDevPtr), value, to_core(extent)), stream,
                NullStream::PerThread);
}

}  // extern "C"
