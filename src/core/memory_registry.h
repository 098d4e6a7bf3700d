// Every allocation the device knows about: device memory, pinned host memory, managed
// memory and the storage of module variables. A device pointer is a host address, so
// the registry is what tells a device pointer from any other address (cudaFree of a
// stack address is an error, cudaMemset needs device memory, pointer attributes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

#include "support/result.h"

namespace cucpu::core {

// RegisteredHost: a program's own memory page-locked by cudaHostRegister (not ours to free).
enum class MemoryKind { Device, PinnedHost, Managed, ModuleVariable, RegisteredHost };

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  MemoryKind kind = MemoryKind::Device;
  int device = 0;      // the device current when it was allocated (pointer attributes)
  unsigned flags = 0;  // cudaHostAlloc / cudaHostRegister / cudaMallocManaged flags

  bool page_locked() const { return kind == MemoryKind::PinnedHost || kind == MemoryKind::RegisteredHost; }
  // What cudaHostGetFlags/cuMemHostGetFlags report for page-locked memory: with unified
  // addressing every such range is mapped (0x2), and the H100 reports just that for
  // cudaMallocHost, Mapped|Portable and registered memory alike
  // (tests/e2e/memory_model_edges); write-combining (0x4) is kept as asked.
  unsigned reported_host_flags() const { return 0x2 | (flags & 0x4); }
};

class MemoryRegistry {
 public:
  // cudaMalloc's alignment: every allocation starts on a 256-byte boundary.
  static constexpr size_t kAlignment = 256;
  // Where allocations really start: on the device's textureAlignment (512), as an H100's
  // do, so that a texture can be made over any allocation (cudaCreateTextureObject checks it).
  static constexpr size_t kBaseAlignment = 512;

  Result<void*> allocate(size_t size, MemoryKind kind, int device = 0, unsigned flags = 0);
  // Frees an allocation made by allocate() with one of the given kinds; anything else
  // (unknown pointer, interior pointer, wrong kind) is InvalidValue and frees nothing.
  Result<void> release(void* pointer, std::initializer_list<MemoryKind> kinds);
  // Records storage owned elsewhere (module variables) so that it counts as device memory.
  void add_external(void* base, size_t size, MemoryKind kind);
  void remove_external(void* base);
  // cudaHostRegister: records [base, base + size) unless it overlaps a known allocation
  // (HostMemoryAlreadyRegistered); cudaHostUnregister takes the same base back
  // (HostMemoryNotRegistered otherwise).
  Result<void> register_host(void* base, size_t size, unsigned flags, int device);
  Result<void> unregister_host(void* base);
  // The allocation containing address, if any.
  std::optional<Allocation> find(const void* address) const;
  // Whether [address, address + size) lies inside one allocation.
  bool contains_range(const void* address, size_t size) const;
  // Frees every allocate()d block (cudaDeviceReset).
  void release_all();

 private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;  // by base
  std::map<uintptr_t, bool> owned_;              // base -> allocated by us
};

MemoryRegistry& memory();

}  // namespace cucpu::core
