// Pitched memory, 2D and 3D copies (between linear memories and CUDA arrays), 2D sets,
// peer copies. The checks and row loops are core's (core/strided_copy.h, core/cuda_array.h).
#include <cuda.h>

#include "api/driver/copy_submission.h"
#include "api/driver/driver_state.h"
#include "core/cuda_array.h"
#include "core/memory_commands.h"
#include "core/memory_registry.h"
#include "core/stream_engine.h"
#include "core/strided_copy.h"
#include "core/stream_handle.h"
#include "exec/device_printf.h"

using namespace cucpu;
using core::HostSync;
using core::NullStream;

namespace {

// One side of a copy as its struct gives it: linear memory from its first byte with its
// pitch and slice height, or a CUDA array; x counts bytes either way.
struct Side {
  char* base = nullptr;
  core::CudaArray* array = nullptr;
  size_t pitch = 0, height = 0;
  size_t x = 0, y = 0, z = 0;

  char* corner() const { return base ? base + x + pitch * (y + height * z) : nullptr; }
  // As core's copies with arrays take it: an array's x in `element`s, linear memory at its corner.
  core::CopySide for_array_copy(uint64_t element, size_t width_bytes, size_t rows) const {
    core::CopySide side;
    side.array = array;
    if (array)
      side.position = core::Position3D{x / element, y, z};
    else
      side.pointer = core::PitchedPointer{corner(), pitch, width_bytes, height ? height : rows};
    return side;
  }
};

CUresult side_of(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array, size_t pitch, size_t height,
                 size_t x, size_t y, size_t z, Side* side) {
  *side = Side{nullptr, nullptr, pitch, height, x, y, z};
  switch (type) {
    case CU_MEMORYTYPE_HOST: side->base = static_cast<char*>(const_cast<void*>(host)); return CUDA_SUCCESS;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: side->base = reinterpret_cast<char*>(static_cast<uintptr_t>(device)); return CUDA_SUCCESS;
    case CU_MEMORYTYPE_ARRAY:
      side->array = core::find_array(array);
      return side->array ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

// The element size of the array(s) a copy touches, in whose units core counts; an offset
// or width that splits an element is CUDA_ERROR_INVALID_VALUE.
CUresult array_element(const Side& dst, const Side& src, size_t width_bytes, uint64_t* element) {
  *element = (dst.array ? dst.array : src.array)->format.bytes();
  const bool whole = width_bytes % *element == 0 && (!dst.array || dst.x % *element == 0) &&
                     (!src.array || src.x % *element == 0);
  return whole ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult copy_2d(const CUDA_MEMCPY2D* p, CUstream stream, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (CUresult bad = side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, 0,
                             p->srcXInBytes, p->srcY, 0, &src);
      bad != CUDA_SUCCESS)
    return bad;
  if (CUresult bad = side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, 0,
                             p->dstXInBytes, p->dstY, 0, &dst);
      bad != CUDA_SUCCESS)
    return bad;
  if (!src.array && !dst.array)
    return driver::submit_copy(
        core::describe_copy_2d(dst.corner(), dst.pitch, src.corner(), src.pitch, p->WidthInBytes, p->Height), stream,
        null_stream, sync);
  // Core's 2D copies with arrays count bytes on every side.
  return driver::submit_copy(core::describe_array_copy_2d(dst.for_array_copy(1, p->WidthInBytes, p->Height),
                                                          src.for_array_copy(1, p->WidthInBytes, p->Height),
                                                          p->WidthInBytes, p->Height),
                             stream, null_stream, sync);
}

CUresult copy_3d(const CUDA_MEMCPY3D* p, CUstream stream, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (CUresult bad = side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcHeight,
                             p->srcXInBytes, p->srcY, p->srcZ, &src);
      bad != CUDA_SUCCESS)
    return bad;
  if (CUresult bad = side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstHeight,
                             p->dstXInBytes, p->dstY, p->dstZ, &dst);
      bad != CUDA_SUCCESS)
    return bad;
  if (!src.array && !dst.array) {
    core::PitchedPointer to{dst.corner(), dst.pitch, p->WidthInBytes, p->dstHeight ? p->dstHeight : p->Height};
    core::PitchedPointer from{src.corner(), src.pitch, p->WidthInBytes, p->srcHeight ? p->srcHeight : p->Height};
    return driver::submit_copy(
        core::describe_copy_3d(to, {}, from, {}, core::Extent3D{p->WidthInBytes, p->Height, p->Depth}), stream,
        null_stream, sync);
  }
  uint64_t element = 1;
  if (CUresult split = array_element(dst, src, p->WidthInBytes, &element); split != CUDA_SUCCESS) return split;
  return driver::submit_copy(
      core::describe_array_copy_3d(dst.for_array_copy(element, p->WidthInBytes, p->Height),
                                   src.for_array_copy(element, p->WidthInBytes, p->Height),
                                   core::Extent3D{p->WidthInBytes / element, p->Height, p->Depth}),
      stream, null_stream, sync);
}

constexpr auto kSync = HostSync::Synchronous;
constexpr auto kAsync = HostSync::Asynchronous;

}  // namespace

extern "C" {

CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height,
                                    unsigned int ElementSizeBytes) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!dptr || !pPitch || WidthInBytes == 0 || Height == 0) return CUDA_ERROR_INVALID_VALUE;
  if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  const size_t pitch = core::pitch_for_width(WidthInBytes);
  size_t bytes = 0;
  if (__builtin_mul_overflow(pitch, Height, &bytes)) return CUDA_ERROR_OUT_OF_MEMORY;
  auto block = core::memory().allocate(bytes, core::MemoryKind::Device, context->device());
  if (!block) return driver::to_cu_result(block.error());
  *dptr = reinterpret_cast<CUdeviceptr>(*block);
  *pPitch = pitch;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D* pCopy) { return copy_2d(pCopy, nullptr, NullStream::Legacy, kSync); }
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D* pCopy) {
  return copy_2d(pCopy, nullptr, NullStream::PerThread, kSync);
}
CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* pCopy) {
  return copy_2d(pCopy, nullptr, NullStream::Legacy, kSync);
}
CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D* pCopy) {
  return copy_2d(pCopy, nullptr, NullStream::PerThread, kSync);
}
CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return copy_2d(pCopy, hStream, NullStream::Legacy, kAsync);
}
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return copy_2d(pCopy, hStream, NullStream::PerThread, kAsync);
}
CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D* pCopy) { return copy_3d(pCopy, nullptr, NullStream::Legacy, kSync); }
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D* pCopy) {
  return copy_3d(pCopy, nullptr, NullStream::PerThread, kSync);
}
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return copy_3d(pCopy, hStream, NullStream::Legacy, kAsync);
}
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return copy_3d(pCopy, hStream, NullStream::PerThread, kAsync);
}

CUresult CUDAAPI cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  auto set = core::describe_set_2d(reinterpret_cast<void*>(static_cast<uintptr_t>(dstDevice)), dstPitch, uc, Width,
                                   Height);
  if (!set) return driver::to_cu_result(set.error());
  if (core::is_empty(*set)) return CUDA_SUCCESS;
  auto submitted = core::submit_strided_set(core::StreamEngine::instance().legacy(), *set, kSync);
  return submitted ? CUDA_SUCCESS : driver::to_cu_result(submitted.error());
}

// Every context sees the same memory: a peer copy is a copy between valid contexts.
CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                   CUcontext srcContext, size_t ByteCount, CUstream hStream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!driver::to_context(dstContext) || !driver::to_context(srcContext)) return CUDA_ERROR_INVALID_CONTEXT;
  return cuMemcpyAsync(dstDevice, srcDevice, ByteCount, hStream);
}

CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
                              size_t ByteCount) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!driver::to_context(dstContext) || !driver::to_context(srcContext)) return CUDA_ERROR_INVALID_CONTEXT;
  return cuMemcpy(dstDevice, srcDevice, ByteCount);
}

// No profiler attaches to cucpu's device; without one CUDA's calls do nothing.
CUresult CUDAAPI cuProfilerStart(void) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuProfilerStop(void) { return CUDA_SUCCESS; }

}  // extern "C"
