// Pitched and 3D memory: cudaMallocPitch, cudaMalloc3D, cudaMemcpy2D/3D(Peer) and
// cudaMemset2D/3D. The checks and the row loops are core's (core/strided_copy.h, shared
// with the Async forms); these synchronous forms submit the description to the default
// stream (the thread's own for the _ptds forms), which returns when the guide's
// synchronisation table says (core/memory_commands.h).
#include <cuda_runtime_api.h>

#include "api/runtime/array_handle.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/memory_commands.h"
#include "core/memory_registry.h"
#include "core/strided_copy.h"
#include "exec/device_printf.h"

using namespace cucpu;

namespace {

core::PitchedPointer to_core(const cudaPitchedPtr& p) { return core::PitchedPointer{p.ptr, p.pitch, p.xsize, p.ysize}; }
core::Position3D to_core(const cudaPos& p) { return core::Position3D{p.x, p.y, p.z}; }
core::Extent3D to_core(const cudaExtent& e) { return core::Extent3D{e.width, e.height, e.depth}; }

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

using core::NullStream;

core::Stream& default_stream(NullStream null_stream) { return *core::to_stream(nullptr, null_stream); }

// A blocking copy synchronises: pending device printf output appears, and a fault in the
// work it waited for is reported.
cudaError_t run_copy(const Result<core::StridedCopy>& copy, NullStream null_stream) {
  if (!copy) return runtime::record(copy.error());
  if (core::is_empty(*copy)) return cudaSuccess;
  auto submitted = core::submit_strided_copy(default_stream(null_stream), *copy, core::HostSync::Synchronous);
  if (!submitted) return runtime::record(submitted.error());
  exec::flush_device_output();
  return runtime::record(runtime::sticky());
}

cudaError_t run_set(const Result<core::StridedSet>& set, NullStream null_stream) {
  if (!set) return runtime::record(set.error());
  if (core::is_empty(*set)) return cudaSuccess;
  auto submitted = core::submit_strided_set(default_stream(null_stream), *set, core::HostSync::Synchronous);
  return submitted ? cudaSuccess : runtime::record(submitted.error());
}

cudaError_t allocate_pitched(void** pointer, size_t* pitch, size_t width, size_t height, size_t depth) {
  const size_t row = core::pitch_for_width(width);
  size_t bytes = 0;
  if (__builtin_mul_overflow(row, height, &bytes) || __builtin_mul_overflow(bytes, depth, &bytes))
    return runtime::record(cudaErrorMemoryAllocation);
  if (bytes == 0) {  // nothing to hold: a null pointer, as on the GPU (tests/e2e/memory_model_edges)
    *pointer = nullptr;
    *pitch = row;
    return cudaSuccess;
  }
  auto block = core::memory().allocate(bytes, core::MemoryKind::Device, runtime::current_device());
  if (!block) return runtime::record(block.error());
  *pointer = *block;
  *pitch = row;
  return cudaSuccess;
}

// cudaMemcpy3D and cudaMemcpy3DPeer: linear memory, or CUDA arrays (core/cuda_array.h:
// an array side's position and the extent in elements).
cudaError_t copy_3d(const cudaArray_t src_array, const cudaPitchedPtr& src_ptr,
                    const cudaPos& src_pos, const cudaArray_t dst_array, const cudaPitchedPtr& dst_ptr,
                    const cudaPos& dst_pos, const cudaExtent& extent, NullStream null_stream) {
  if ((src_array && src_ptr.ptr) || (dst_array && dst_ptr.ptr)) return runtime::record(cudaErrorInvalidValue);
  if (src_array || dst_array) {
    core::CopySide dst{runtime::to_array(dst_array), to_core(dst_ptr), to_core(dst_pos)};
    core::CopySide src{runtime::to_array(src_array), to_core(src_ptr), to_core(src_pos)};
    if ((dst_array && !dst.array) || (src_array && !src.array))
      return runtime::record(cudaErrorInvalidResourceHandle);
    return run_copy(core::describe_array_copy_3d(dst, src, to_core(extent)), null_stream);
  }
  return run_copy(core::describe_copy_3d(to_core(dst_ptr), to_core(dst_pos), to_core(src_ptr), to_core(src_pos),
                                         to_core(extent)),
                  null_stream);
}

cudaError_t memcpy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                      cudaMemcpyKind kind, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  return run_copy(core::describe_copy_2d(dst, dpitch, src, spitch, width, height), null_stream);
}

cudaError_t memcpy_3d(const cudaMemcpy3DParms* p, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  if (!p) return runtime::record(cudaErrorInvalidValue);
  if (!valid_kind(p->kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  return copy_3d(p->srcArray, p->srcPtr, p->srcPos, p->dstArray, p->dstPtr,
                 p->dstPos, p->extent, null_stream);
}

// Every device sees the same memory (core/device.h), so a peer copy is a plain copy
// between valid devices.
cudaError_t memcpy_3d_peer(const cudaMemcpy3DPeerParms* p, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  if (!p) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(p->srcDevice) || !runtime::valid_device(p->dstDevice))
    return runtime::record(cudaErrorInvalidDevice);
  return copy_3d(p->srcArray, p->srcPtr, p->srcPos, p->dstArray, p->dstPtr,
                 p->dstPos, p->extent, null_stream);
}

cudaError_t memset_2d(void* devPtr, size_t pitch, int value, size_t width, size_t height, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  return run_set(core::describe_set_2d(devPtr, pitch, value, width, height), null_stream);
}

cudaError_t memset_3d(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  return run_set(core::describe_set_3d(to_core(pitchedDevPtr), value, to_core(extent)), null_stream);
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (!devPtr || !pitch) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  return allocate_pitched(devPtr, pitch, width, height, 1);
}

cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr* pitchedDevPtr, struct cudaExtent extent) {
  if (!pitchedDevPtr) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  void* pointer = nullptr;
  size_t pitch = 0;
  if (cudaError_t error = allocate_pitched(&pointer, &pitch, extent.width, extent.height, extent.depth);
      error != cudaSuccess)
    return error;
  *pitchedDevPtr = cudaPitchedPtr{pointer, pitch, extent.width, extent.height};
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                   size_t height, enum cudaMemcpyKind kind) {
  return memcpy_2d(dst, dpitch, src, spitch, width, height, kind, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                        size_t height, enum cudaMemcpyKind kind) {
  return memcpy_2d(dst, dpitch, src, spitch, width, height, kind, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemcpy3D(const struct cudaMemcpy3DParms* p) { return memcpy_3d(p, NullStream::Legacy); }

cudaError_t CUDARTAPI cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms* p) {
  return memcpy_3d(p, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms* p) {
  return memcpy_3d_peer(p, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms* p) {
  return memcpy_3d_peer(p, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  return memset_2d(devPtr, pitch, value, width, height, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMemset2D_ptds(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  return memset_2d(devPtr, pitch, value, width, height, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
  return memset_3d(pitchedDevPtr, value, extent, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent) {
  return memset_3d(pitchedDevPtr, value, extent, NullStream::PerThread);
}

}  // extern "C"
