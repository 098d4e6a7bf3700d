// Memory: device, pinned and managed allocations, copies, memset and symbol copies.
// Device memory is host memory (DESIGN.md), so every copy is a memmove; what the API
// checks is what CUDA checks: known allocations, valid directions, symbol bounds.
// Launches finish before they return, so every copy is already ordered after them.
#include <cuda_runtime_api.h>

#include <cstring>

#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/memory_registry.h"
#include "core/module_registry.h"
#include "exec/device_printf.h"

using namespace cucpu;

namespace {

cudaError_t allocate(void** pointer, size_t size, core::MemoryKind kind) {
  if (!pointer) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  auto block = core::memory().allocate(size, kind);
  if (!block) {
    *pointer = nullptr;
    return runtime::record(block.error());
  }
  *pointer = *block;
  return cudaSuccess;
}

cudaError_t release(void* pointer, std::initializer_list<core::MemoryKind> kinds) {
  CUCPU_RETURN_IF_STICKY();
  if (!pointer) return cudaSuccess;
  auto released = core::memory().release(pointer, kinds);
  return released ? cudaSuccess : runtime::record(released.error());
}

bool valid_kind(cudaMemcpyKind kind) { return kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDefault; }

cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  exec::flush_device_output();  // a blocking copy synchronises: device printf output appears
  CUCPU_RETURN_IF_STICKY();
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return runtime::record(cudaErrorInvalidValue);
  std::memmove(dst, src, count);
  return cudaSuccess;
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
                        cudaMemcpyKind kind) {
  exec::flush_device_output();
  CUCPU_RETURN_IF_STICKY();
  if (!valid_kind(kind)) return runtime::record(cudaErrorInvalidMemcpyDirection);
  void* address = nullptr;
  size_t size = 0;
  if (cudaError_t error = symbol_storage(symbol, &address, &size); error != cudaSuccess) return runtime::record(error);
  if (offset > size || count > size - offset) return runtime::record(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  auto* storage = static_cast<char*>(address) + offset;
  if (to_symbol)
    std::memmove(storage, host, count);
  else
    std::memmove(host, storage, count);
  return cudaSuccess;
}

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
  return allocate(pHost, size, core::MemoryKind::PinnedHost);
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  if (!pDevice || flags != 0) return runtime::record(cudaErrorInvalidValue);
  auto allocation = core::memory().find(pHost);
  if (!allocation || allocation->kind != core::MemoryKind::PinnedHost) return runtime::record(cudaErrorInvalidValue);
  *pDevice = pHost;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) return runtime::record(cudaErrorInvalidValue);
  return allocate(devPtr, size, core::MemoryKind::Managed);
}

cudaError_t CUDARTAPI cudaFree(void* devPtr) {
  return release(devPtr, {core::MemoryKind::Device, core::MemoryKind::Managed});
}

cudaError_t CUDARTAPI cudaFreeHost(void* ptr) { return release(ptr, {core::MemoryKind::PinnedHost}); }

cudaError_t CUDARTAPI cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return copy(dst, src, count, kind);
}

cudaError_t CUDARTAPI cudaMemcpy_ptds(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  return copy(dst, src, count, kind);
}

cudaError_t CUDARTAPI cudaMemset(void* devPtr, int value, size_t count) {
  CUCPU_RETURN_IF_STICKY();
  if (count == 0) return cudaSuccess;
  if (!core::memory().contains_range(devPtr, count)) return runtime::record(cudaErrorInvalidValue);
  std::memset(devPtr, value, count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset_ptds(void* devPtr, int value, size_t count) { return cudaMemset(devPtr, value, count); }

cudaError_t CUDARTAPI cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind) {
  return copy_symbol(symbol, count, offset, const_cast<void*>(src), true, kind);
}

cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind) {
  return copy_symbol(symbol, count, offset, dst, false, kind);
}

cudaError_t CUDARTAPI cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count, size_t offset,
                                                enum cudaMemcpyKind kind) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
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
