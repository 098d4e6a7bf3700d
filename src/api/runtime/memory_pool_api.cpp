// The stream-ordered allocator's entry points (CUDA Programming Guide "Stream Ordered
// Memory Allocator"): cudaMallocAsync/cudaMallocFromPoolAsync/cudaFreeAsync, the
// devices' default and current pools, cudaMemPoolCreate/Destroy, attributes and trim.
// The pools are core/memory_pool.h; here handles are checked and frees become stream
// commands, so a block returns to its pool when the stream reaches the free.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <vector>

#include "api/runtime/runtime_state.h"
#include "core/stream_capture.h"
#include "core/stream_handle.h"
#include "core/graph_memory.h"
#include "core/memory_pool.h"
#include "core/memory_pool_attributes.h"
#include "core/memory_registry.h"
#include "core/stream_engine.h"
#include "core/stream_ordered_memory.h"

using namespace cucpu;
using core::NullStream;

namespace {

cudaMemPool_t to_handle(const core::PoolRef& pool) { return reinterpret_cast<cudaMemPool_t>(pool.get()); }

cudaError_t allocate(void** pointer, size_t size, core::PoolRef pool, cudaStream_t handle,
                     NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  if (!pointer) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!pool) return runtime::record(cudaErrorInvalidValue);
  auto& engine = core::StreamEngine::instance();
  if (size == 0) {  // as on the GPU, capturing or not: success, a null pointer, no node
    *pointer = nullptr;
    return cudaSuccess;
  }
  if (engine.is_capturing(*stream)) {
    auto captured = core::capture_allocation(*stream, size, pool->device());
    if (!captured) return runtime::record(captured.error());
    *pointer = *captured;
    return cudaSuccess;
  }
  auto block = core::allocate_in_stream_order(*stream, *pool, size);
  if (!block) return runtime::record(block.error());
  *pointer = *block;
  return cudaSuccess;
}

cudaError_t free_async(void* pointer, cudaStream_t handle, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (!pointer) return cudaSuccess;
  auto& engine = core::StreamEngine::instance();
  // Captured, only a graph allocation can be freed (H200: other memory is
  // cudaErrorInvalidValue, and the capture goes on).
  if (engine.is_capturing(*stream)) {
    auto captured = core::capture_free(*stream, pointer);
    return captured ? cudaSuccess : runtime::record(captured.error());
  }
  auto freed = core::free_in_stream_order(*stream, pointer);
  return freed ? cudaSuccess : runtime::record(freed.error());
}

core::PoolRef pool_of_handle(cudaMemPool_t handle) { return core::find_pool(handle); }

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return allocate(devPtr, size, core::current_pool(runtime::current_device()), hStream,
                  NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t hStream) {
  return allocate(devPtr, size, core::current_pool(runtime::current_device()), hStream,
                  NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return allocate(ptr, size, pool_of_handle(memPool), stream, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void** ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream) {
  return allocate(ptr, size, pool_of_handle(memPool), stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  return free_async(devPtr, hStream, NullStream::Legacy);
}

cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void* devPtr, cudaStream_t hStream) {
  return free_async(devPtr, hStream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  if (!memPool) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  *memPool = to_handle(core::default_pool(device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  if (!memPool) return runtime::record(cudaErrorInvalidValue);
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  *memPool = to_handle(core::current_pool(device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  if (!runtime::valid_device(device)) return runtime::record(cudaErrorInvalidDevice);
  core::PoolRef pool = pool_of_handle(memPool);
  if (!pool || pool->device() != device) return runtime::record(cudaErrorInvalidValue);
  core::set_current_pool(device, pool);
  return cudaSuccess;
}

// Device memory pools only: pinned allocations located on a device, no IPC handle types.
cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  if (!memPool || !poolProps) return runtime::record(cudaErrorInvalidValue);
  if (poolProps->allocType != cudaMemAllocationTypePinned) return runtime::record(cudaErrorInvalidValue);
  if (poolProps->location.type != cudaMemLocationTypeDevice) {
    std::fprintf(stderr, "cucpu: cudaMemPoolCreate: only device-located pools are supported yet\n");
    return runtime::record(cudaErrorNotSupported);
  }
  if (!runtime::valid_device(poolProps->location.id)) return runtime::record(cudaErrorInvalidDevice);
  if (poolProps->handleTypes != cudaMemHandleTypeNone) {
    std::fprintf(stderr, "cucpu: cudaMemPoolCreate: shareable (IPC) pool handles are not supported yet\n");
    return runtime::record(cudaErrorNotSupported);
  }
  *memPool = to_handle(core::create_pool(poolProps->location.id));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t memPool) {
  auto destroyed = core::destroy_pool(memPool);
  return destroyed ? cudaSuccess : runtime::record(destroyed.error());
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  core::PoolRef pool = pool_of_handle(memPool);
  if (!pool) return runtime::record(cudaErrorInvalidValue);
  pool->trim_to(minBytesToKeep);
  return cudaSuccess;
}

// The attributes' values are core's to read and check (core/memory_pool_attributes.h).
cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  core::PoolRef pool = pool_of_handle(memPool);
  if (!pool || !value) return runtime::record(cudaErrorInvalidValue);
  auto set = core::set_pool_attribute(*pool, attr, value);
  return set ? cudaSuccess : runtime::record(set.error());
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  core::PoolRef pool = pool_of_handle(memPool);
  if (!pool || !value) return runtime::record(cudaErrorInvalidValue);
  auto got = core::get_pool_attribute(*pool, attr, value);
  return got ? cudaSuccess : runtime::record(got.error());
}

}  // extern "C"
