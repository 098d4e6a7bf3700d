// Pitched memory, 2D and 3D copies (between linear memories and CUDA arrays), 2D sets,
// peer copies. The checks and row loops are core's (core/strided_copy.h, core/cuda_array.h).
#include <cuda.h>

#include "api/driver/copy_description.h"
#include "api/driver/driver_state.h"
#include "core/memory_registry.h"
#include "core/strided_copy.h"

using namespace cucpu;
using core::HostSync;
using core::NullStream;

namespace {

// cuMemcpy2D/3D and their forms: CUDA_MEMCPY2D or CUDA_MEMCPY3D (copy_description.h).
template <typename Params>
CUresult copy(const Params* p, CUstream stream, NullStream null_stream, HostSync sync) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  return driver::submit_copy(driver::describe_copy(*p), stream, null_stream, sync);
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

CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D* pCopy) { return copy(pCopy, nullptr, NullStream::Legacy, kSync); }
CUresult CUDAAPI cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D* pCopy) {
  return copy(pCopy, nullptr, NullStream::PerThread, kSync);
}
CUresult CUDAAPI cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* pCopy) {
  return copy(pCopy, nullptr, NullStream::Legacy, kSync);
}
CUresult CUDAAPI cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D* pCopy) {
  return copy(pCopy, nullptr, NullStream::PerThread, kSync);
}
CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return copy(pCopy, hStream, NullStream::Legacy, kAsync);
}
CUresult CUDAAPI cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return copy(pCopy, hStream, NullStream::PerThread, kAsync);
}
CUresult CUDAAPI cuMemcpy3D_v2(const CUDA_MEMCPY3D* pCopy) { return copy(pCopy, nullptr, NullStream::Legacy, kSync); }
CUresult CUDAAPI cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D* pCopy) {
  return copy(pCopy, nullptr, NullStream::PerThread, kSync);
}
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return copy(pCopy, hStream, NullStream::Legacy, kAsync);
}
CUresult CUDAAPI cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return copy(pCopy, hStream, NullStream::PerThread, kAsync);
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
