// What the runtime knows about an address: cudaPointerGetAttributes, page-locked host
// memory (cudaHostRegister/Unregister, cudaHostGetDevicePointer, cudaHostGetFlags).
// Device memory is host memory (DESIGN.md), so registering pins nothing: it records the
// range, and every device pointer alias of host memory is the host address itself, as
// on a GPU with canUseHostPointerForRegisteredMem.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "api/runtime/runtime_state.h"
#include "core/memory_registry.h"

using namespace cucpu;

extern "C" {

cudaError_t CUDARTAPI cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  constexpr unsigned kKnownFlags =
      cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
  if (!ptr || size == 0 || (flags & ~kKnownFlags)) return runtime::record(cudaErrorInvalidValue);
  if (flags & cudaHostRegisterIoMemory) {
    std::fprintf(stderr, "cucpu: cudaHostRegister: cudaHostRegisterIoMemory (I/O memory) is not supported\n");
    return runtime::record(cudaErrorNotSupported);
  }
  CUCPU_RETURN_IF_STICKY();
  auto registered = core::memory().register_host(ptr, size, flags, runtime::current_device());
  return registered ? cudaSuccess : runtime::record(registered.error());
}

cudaError_t CUDARTAPI cudaHostUnregister(void* ptr) {
  if (!ptr) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  auto unregistered = core::memory().unregister_host(ptr);
  return unregistered ? cudaSuccess : runtime::record(unregistered.error());
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  if (!pDevice || flags != 0) return runtime::record(cudaErrorInvalidValue);
  auto allocation = core::memory().find(pHost);
  if (!allocation || !allocation->page_locked()) return runtime::record(cudaErrorInvalidValue);
  *pDevice = pHost;
  return cudaSuccess;
}

// The flags cudaHostAlloc or cudaHostRegister was given (cudaMallocHost: cudaHostAllocDefault).
cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  if (!pFlags) return runtime::record(cudaErrorInvalidValue);
  auto allocation = core::memory().find(pHost);
  if (!allocation || !allocation->page_locked()) return runtime::record(cudaErrorInvalidValue);
  *pFlags = allocation->reported_host_flags();
  return cudaSuccess;
}

// Memory the runtime does not know is cudaMemoryTypeUnregistered (CUDA 11 and later:
// a success, not an error), reachable from the host only.
cudaError_t CUDARTAPI cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr) {
  if (!attributes) return runtime::record(cudaErrorInvalidValue);
  void* address = const_cast<void*>(ptr);
  *attributes = cudaPointerAttributes{};
  auto allocation = core::memory().find(ptr);
  if (!allocation) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = cudaInvalidDeviceId;
    attributes->hostPointer = address;
    return cudaSuccess;
  }
  attributes->device = allocation->device;
  attributes->devicePointer = address;
  switch (allocation->kind) {
    case core::MemoryKind::Device:
    case core::MemoryKind::ModuleVariable:
      attributes->type = cudaMemoryTypeDevice;
      break;
    case core::MemoryKind::Managed:
      attributes->type = cudaMemoryTypeManaged;
      attributes->hostPointer = address;
      break;
    case core::MemoryKind::PinnedHost:
    case core::MemoryKind::RegisteredHost:
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = address;
      break;
  }
  return cudaSuccess;
}

}  // extern "C"
