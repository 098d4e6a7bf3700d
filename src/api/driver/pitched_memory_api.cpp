// Pitched memory, 2D and 3D copies between linear memories, 2D sets, peer copies. The
// checks and row loops are core's (core/strided_copy.h); CUDA arrays as a copy's side are
// not supported through the driver yet (CUDA_ERROR_NOT_SUPPORTED, said on stderr).
#include <cuda.h>

#include <cstdio>

#include "api/driver/driver_state.h"
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

// One side of a copy: its first byte (the box's corner) and its pitch; null for an array.
struct Side {
  char* corner = nullptr;
  size_t pitch = 0;
};

CUresult side_of(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array, size_t pitch, size_t x,
                 size_t y, size_t z, size_t height, Side* side) {
  char* base = nullptr;
  switch (type) {
    case CU_MEMORYTYPE_HOST: base = static_cast<char*>(const_cast<void*>(host)); break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: base = reinterpret_cast<char*>(static_cast<uintptr_t>(device)); break;
    case CU_MEMORYTYPE_ARRAY:
      (void)array;
      std::fprintf(stderr, "cucpu: copies with CUDA arrays through the driver API are not implemented yet: "
                           "CUDA_ERROR_NOT_SUPPORTED\n");
      return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  side->corner = base ? base + x + pitch * (y + height * z) : nullptr;
  side->pitch = pitch;
  return CUDA_SUCCESS;
}

CUresult run(const Result<core::StridedCopy>& copy, CUstream handle, NullStream null_stream, HostSync sync) {
  if (!copy) return driver::to_cu_result(copy.error());
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (core::is_empty(*copy)) return CUDA_SUCCESS;
  if (auto submitted = core::submit_strided_copy(*stream, *copy, sync); !submitted)
    return driver::to_cu_result(submitted.error());
  if (sync == HostSync::Asynchronous) return CUDA_SUCCESS;
  exec::flush_device_output();
  return driver::sticky();
}

CUresult copy_2d(const CUDA_MEMCPY2D* p, CUstream stream, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (CUresult bad = side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcXInBytes,
                             p->srcY, 0, 0, &src);
      bad != CUDA_SUCCESS)
    return bad;
  if (CUresult bad = side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstXInBytes,
                             p->dstY, 0, 0, &dst);
      bad != CUDA_SUCCESS)
    return bad;
  return run(core::describe_copy_2d(dst.corner, dst.pitch, src.corner, src.pitch, p->WidthInBytes, p->Height), stream,
             null_stream, sync);
}

CUresult copy_3d(const CUDA_MEMCPY3D* p, CUstream stream, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (CUresult bad = side_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcPitch, p->srcXInBytes,
                             p->srcY, p->srcZ, p->srcHeight, &src);
      bad != CUDA_SUCCESS)
    return bad;
  if (CUresult bad = side_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstPitch, p->dstXInBytes,
                             p->dstY, p->dstZ, p->dstHeight, &dst);
      bad != CUDA_SUCCESS)
    return bad;
  core::PitchedPointer to{dst.corner, dst.pitch, p->WidthInBytes, p->dstHeight ? p->dstHeight : p->Height};
  core::PitchedPointer from{src.corner, src.pitch, p->WidthInBytes, p->srcHeight ? p->srcHeight : p->Height};
  return run(core::describe_copy_3d(to, {}, from, {}, core::Extent3D{p->WidthInBytes, p->Height, p->Depth}), stream,
             null_stream, sync);
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
