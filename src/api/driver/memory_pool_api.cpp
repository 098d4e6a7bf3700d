// The stream-ordered allocator through the driver: the devices' default and current pools,
// created pools, their attributes and trimming, cuMemAllocAsync/cuMemAllocFromPoolAsync/
// cuMemFreeAsync (the pools are core/memory_pool.h, the stream order
// core/stream_ordered_memory.h, captured ones become graph memory nodes:
// core/stream_capture.h; a CUmemoryPool is a cudaMemPool_t).
#include <cuda.h>

#include <cstdio>

#include "api/driver/driver_state.h"
#include "core/device.h"
#include "core/memory_pool_attributes.h"
#include "core/stream_capture.h"
#include "core/stream_engine.h"
#include "core/stream_handle.h"
#include "core/stream_ordered_memory.h"

using namespace cucpu;
using core::NullStream;

namespace {

CUmemoryPool to_handle(const core::PoolRef& pool) { return reinterpret_cast<CUmemoryPool>(pool.get()); }

CUresult allocate(CUdeviceptr* dptr, size_t size, core::PoolRef pool, CUstream handle, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  if (!dptr || !pool) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (size == 0) {
    *dptr = 0;
    return CUDA_SUCCESS;
  }
  if (core::StreamEngine::instance().is_capturing(*stream)) {
    auto captured = core::capture_allocation(*stream, size, pool->device());
    if (!captured) return driver::to_cu_result(captured.error());
    *dptr = reinterpret_cast<CUdeviceptr>(*captured);
    return CUDA_SUCCESS;
  }
  auto block = core::allocate_in_stream_order(*stream, *pool, size);
  if (!block) return driver::to_cu_result(block.error());
  *dptr = reinterpret_cast<CUdeviceptr>(*block);
  return CUDA_SUCCESS;
}

CUresult free_async(CUdeviceptr dptr, CUstream handle, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (!dptr) return CUDA_SUCCESS;
  void* pointer = driver::to_pointer(dptr);
  if (core::StreamEngine::instance().is_capturing(*stream)) {
    auto captured = core::capture_free(*stream, pointer);
    return captured ? CUDA_SUCCESS : driver::to_cu_result(captured.error());
  }
  auto freed = core::free_in_stream_order(*stream, pointer);
  return freed ? CUDA_SUCCESS : driver::to_cu_result(freed.error());
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool* pool_out, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!pool_out) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *pool_out = to_handle(core::default_pool(dev));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!pool) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *pool = to_handle(core::current_pool(dev));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  CUCPU_REQUIRE_INIT();
  if (!core::is_valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  core::PoolRef found = core::find_pool(pool);
  if (!found || found->device() != dev) return CUDA_ERROR_INVALID_VALUE;
  core::set_current_pool(dev, found);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  CUCPU_REQUIRE_INIT();
  core::PoolRef found = core::find_pool(pool);
  if (!found || !value) return CUDA_ERROR_INVALID_VALUE;
  auto set = core::set_pool_attribute(*found, attr, value);
  return set ? CUDA_SUCCESS : driver::to_cu_result(set.error());
}

CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  CUCPU_REQUIRE_INIT();
  core::PoolRef found = core::find_pool(pool);
  if (!found || !value) return CUDA_ERROR_INVALID_VALUE;
  auto got = core::get_pool_attribute(*found, attr, value);
  return got ? CUDA_SUCCESS : driver::to_cu_result(got.error());
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  core::Context* context = core::current_context();
  return allocate(dptr, bytesize, core::current_pool(context ? context->device() : 0), hStream, NullStream::Legacy);
}
CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  core::Context* context = core::current_context();
  return allocate(dptr, bytesize, core::current_pool(context ? context->device() : 0), hStream, NullStream::PerThread);
}
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream) {
  return allocate(dptr, bytesize, core::find_pool(pool), hStream, NullStream::Legacy);
}
CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool,
                                              CUstream hStream) {
  return allocate(dptr, bytesize, core::find_pool(pool), hStream, NullStream::PerThread);
}
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) { return free_async(dptr, hStream, NullStream::Legacy); }
CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) {
  return free_async(dptr, hStream, NullStream::PerThread);
}

// Device memory pools only: pinned allocations located on a device, no IPC handle types.
CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* poolProps) {
  CUCPU_REQUIRE_INIT();
  if (!pool || !poolProps || poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED) return CUDA_ERROR_INVALID_VALUE;
  if (poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
    std::fprintf(stderr, "cucpu: cuMemPoolCreate: only device-located pools are supported yet\n");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (!core::is_valid_device(poolProps->location.id)) return CUDA_ERROR_INVALID_DEVICE;
  if (poolProps->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
    std::fprintf(stderr, "cucpu: cuMemPoolCreate: shareable (IPC) pool handles are not supported yet\n");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  *pool = to_handle(core::create_pool(poolProps->location.id));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  CUCPU_REQUIRE_INIT();
  auto destroyed = core::destroy_pool(pool);
  return destroyed ? CUDA_SUCCESS : driver::to_cu_result(destroyed.error());
}

CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  CUCPU_REQUIRE_INIT();
  core::PoolRef found = core::find_pool(pool);
  if (!found) return CUDA_ERROR_INVALID_VALUE;
  found->trim_to(minBytesToKeep);
  return CUDA_SUCCESS;
}

}  // extern "C"
