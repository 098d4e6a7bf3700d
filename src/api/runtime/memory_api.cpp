// Memory: device, pinned and managed allocations, copies, memset and symbol copies.
// Device memory is host memory (DESIGN.md), so every copy is a memmove; what the API
// checks is what CUDA checks: known allocations, valid directions, symbol bounds.
// Copies and sets are stream commands (core/memory_commands.h), ordered with launches.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/device.h"
#include "core/managed_advice.h"
#include "core/memory_commands.h"
#include "core/memory_pool.h"
#include "core/memory_release.h"
#include "core/memory_registry.h"
#include "core/module_registry.h"
#include "core/graph_memory.h"
#include "core/stream_engine.h"
#include "exec/device_printf.h"

using namespace cucpu;

namespace {

cudaError_t allocate(void** pointer, size_t size, core::MemoryKind kind, unsigned flags = 0) {
  if (!pointer) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  // An allocation may synchronise the device: unsafe during a global capture.
  if (auto allowed = core::StreamEngine::instance().check_unsafe_call("a memory allocation"); !allowed)
    return runtime::record(allowed.error());
  auto block = core::memory().allocate(size, kind, runtime::current_device(), flags);
  if (!block) {
    *pointer = nullptr;
    return runtime::record(block.error());
  }
  *pointer = *block;
  return cudaSuccess;
}

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

// A copy on a stream; when it returns is core/memory_commands.h's business (the
// guide's synchronisation table).
cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream_handle,
                 core::NullStream null_stream, core::HostSync sync) {
  CUCPU_RETURN_IF_STICKY();
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  core::Stream* stream = core::to_stream(stream_handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return runtime::record(cudaErrorInvalidValue);
  if (auto submitted = core::submit_copy(*stream, dst, src, count, sync); !submitted)
    return runtime::record(submitted.error());
  if (sync == core::HostSync::Asynchronous) return cudaSuccess;
  exec::flush_device_output();  // a blocking copy synchronises: device printf output appears
  return runtime::record(runtime::sticky());  // a fault in the work it waited for
}

cudaError_t set(void* pointer, int value, size_t count, cudaStream_t stream_handle, core::NullStream null_stream,
                core::HostSync sync) {
  CUCPU_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(stream_handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  if (count == 0) return cudaSuccess;
  if (!core::memory().contains_range(pointer, count)) return runtime::record(cudaErrorInvalidValue);
  auto submitted = core::submit_set(*stream, pointer, value, count, sync);
  return submitted ? cudaSuccess : runtime::record(submitted.error());
}

// The device storage of a registered variable (compiling its module on first use).
cudaError_t symbol_storage(const void* symbol, void** address, size_t* size) {
  core::Variable* variable = core::modules().find_variable(symbol);
  if (!variable) return cudaErrorInvalidSymbol;
  auto info = core::modules().load_variable(*variable);
  if (!info) return runtime::to_cuda_error(info.error());
  *address = info->address;
  *size = info->size;
  return cudaSuccess;
}

cudaError_t copy_symbol(const void* symbol, size_t count, size_t offset, void* host, bool to_symbol,
                        cudaMemcpyKind kind, cudaStream_t stream, core::NullStream null_stream, core::HostSync sync) {
  CUCPU_RETURN_IF_STICKY();
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  void* address = nullptr;
  size_t size = 0;
  if (cudaError_t error = symbol_storage(symbol, &address, &size); error != cudaSuccess) return runtime::record(error);
  if (offset > size || count > size - offset) return runtime::record(cudaErrorInvalidValue);
  auto* storage = static_cast<char*>(address) + offset;
  return to_symbol ? copy(storage, host, count, kind, stream, null_stream, sync)
                   : copy(host, storage, count, kind, stream, null_stream, sync);
}

// The synchronous copies and sets run on the default stream (the thread's own for the
// _ptds forms that --default-stream per-thread compiles to); the Async ones on theirs.
constexpr auto kSync = core::HostSync::Synchronous;
constexpr auto kAsync = core::HostSync::Asynchronous;
constexpr auto kLegacy = core::NullStream::Legacy;
constexpr auto kPerThread = core::NullStream::PerThread;

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMalloc(void** devPtr, size_t size) { return allocate(devPtr, size, core::MemoryKind::Device); }

cudaError_t CUDARTAPI cudaMallocHost(void** ptr, size_t size) {
  return allocate(ptr, size, core::MemoryKind::PinnedHost);
}

// Host memory is device-visible already: every flag (portable, mapped, write-combined) is
// met by ordinary memory, and the mapped device pointer is the host pointer.
cudaError_t CUDARTAPI cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  constexpr unsigned kKnownFlags = cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if (flags & ~kKnownFlags) return runtime::record(cudaErrorInvalidValue);
  return allocate(pHost, size, core::MemoryKind::PinnedHost, flags);
}

// Managed memory needs no migration: host and device share it (cudaMemAttachHost and
// cudaMemAttachGlobal differ only in which streams may touch it on a GPU without
// concurrent managed access). A zero size succeeds with a null pointer on the GPU,
// whatever the reference says (tests/e2e/memory_model_edges).
cudaError_t CUDARTAPI cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return runtime::record(cudaErrorInvalidValue);
  if (size == 0 && devPtr) {
    *devPtr = nullptr;
    return cudaSuccess;
  }
  return allocate(devPtr, size, core::MemoryKind::Managed, flags);
}

cudaError_t CUDARTAPI cudaFree(void* devPtr) {
  CUCPU_RETURN_IF_STICKY();
  auto freed = core::free_device_memory(devPtr);
  return freed ? cudaSuccess : runtime::record(freed.error());
}

cudaError_t CUDARTAPI cudaFreeHost(void* ptr) {
  CUCPU_RETURN_IF_STICKY();
  auto freed = core::free_host_memory(ptr);
  return freed ? cudaSuccess : runtime::record(freed.error());
}

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return copy(dst, src, count, kind, nullptr, kLegacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpy_ptds(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return copy(dst, src, count, kind, nullptr, kPerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  return copy(dst, src, count, kind, stream, kLegacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                                           cudaStream_t stream) {
  return copy(dst, src, count, kind, stream, kPerThread, kAsync);
}

// Every device sees the same memory (core/device.h): a peer copy is a copy between valid devices.
cudaError_t CUDARTAPI cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice, size_t count,
                                          cudaStream_t stream) {
  if (!runtime::valid_device(dstDevice) || !runtime::valid_device(srcDevice))
    return runtime::record(cudaErrorInvalidDevice);
  return copy(dst, src, count, cudaMemcpyDefault, stream, kLegacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemset(void* devPtr, int value, size_t count) {
  return set(devPtr, value, count, nullptr, kLegacy, kSync);
}

cudaError_t CUDARTAPI cudaMemset_ptds(void* devPtr, int value, size_t count) {
  return set(devPtr, value, count, nullptr, kPerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return set(devPtr, value, count, stream, kLegacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return set(devPtr, value, count, stream, kPerThread, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind) {
  return copy_symbol(symbol, count, offset, const_cast<void*>(src), true, kind, nullptr, kLegacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind) {
  return copy_symbol(symbol, count, offset, const_cast<void*>(src), true, kind, nullptr, kPerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_symbol(symbol, count, offset, const_cast<void*>(src), true, kind, stream, kLegacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_symbol(symbol, count, offset, const_cast<void*>(src), true, kind, stream, kPerThread, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind) {
  return copy_symbol(symbol, count, offset, dst, false, kind, nullptr, kLegacy, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind) {
  return copy_symbol(symbol, count, offset, dst, false, kind, nullptr, kPerThread, kSync);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_symbol(symbol, count, offset, dst, false, kind, stream, kLegacy, kAsync);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind, cudaStream_t stream) {
  return copy_symbol(symbol, count, offset, dst, false, kind, stream, kPerThread, kAsync);
}

cudaError_t CUDARTAPI cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  if (!devPtr) return runtime::record(cudaErrorInvalidValue);
  size_t size = 0;
  return runtime::record(symbol_storage(symbol, devPtr, &size));
}

cudaError_t CUDARTAPI cudaGetSymbolSize(size_t* size, const void* symbol) {
  if (!size) return runtime::record(cudaErrorInvalidValue);
  void* address = nullptr;
  return runtime::record(symbol_storage(symbol, &address, size));
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t* free, size_t* total) {
  if (!free || !total) return runtime::record(cudaErrorInvalidValue);
  *free = core::free_memory_bytes();
  *total = core::total_memory_bytes();
  return cudaSuccess;
}

}  // extern "C"
