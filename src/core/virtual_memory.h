// The driver's virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap,
// cuMemSetAccess, ...): address ranges reserved first, physical allocations made apart
// from them and mapped into them. Here a physical allocation is a memory file (memfd) and
// mapping it is mmap over the reserved range, so that two mappings of one allocation
// (exported as a file descriptor and imported again) alias as on a GPU; a mapping is
// inaccessible (PROT_NONE) until its access is set, and is device memory for the rest of
// cucpu (the memory registry) while it is mapped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "support/result.h"

namespace cucpu::core {

// The granularity of sizes, offsets and addresses (an H200's, minimum and recommended).
constexpr size_t kVirtualMemoryGranularity = size_t{2} << 20;

// What cuMemCreate was asked for, read back by cuMemGetAllocationPropertiesFromHandle
// (CUmemAllocationProp's numbers).
struct PhysicalProperties {
  int type = 1;           // pinned
  int location_type = 1;  // device
  int location_id = 0;
  unsigned handle_types = 0;
};

enum class Access { None = 0, Read = 1, ReadWrite = 3 };  // CUmemAccess_flags

class VirtualMemory {
 public:
  static VirtualMemory& instance();

  Result<void*> reserve(size_t size, size_t alignment);
  Result<void> free(void* address, size_t size);

  Result<uint64_t> create(size_t size, const PhysicalProperties& properties);
  Result<void> release(uint64_t handle);
  Result<PhysicalProperties> properties(uint64_t handle);
  // The allocation mapped at `address` (one more reference, released with release()).
  Result<uint64_t> retain(const void* address);
  Result<int> export_descriptor(uint64_t handle);  // a new file descriptor the caller owns
  Result<uint64_t> import_descriptor(int descriptor);

  Result<void> map(void* address, size_t size, size_t offset, uint64_t handle);
  Result<void> unmap(void* address, size_t size);
  Result<void> set_access(void* address, size_t size, Access access);
  Result<Access> access(const void* address);

 private:
  struct Physical {
    int descriptor;
    size_t size;
    PhysicalProperties properties;
    int references;  // the handle's own, retains, and one per mapping
  };
  struct Mapping {
    size_t size;
    uint64_t handle;
    Access access = Access::None;
  };
  // The mappings inside [begin, end); InvalidValue if one sticks out of it or none is there.
  Result<void> for_mappings_locked(uintptr_t begin, uintptr_t end, const auto& visit);
  void drop_reference_locked(uint64_t handle);
  // The mapping holding `address`, or null.
  const Mapping* mapping_at_locked(const void* address) const;
  bool reserved_locked(uintptr_t begin, uintptr_t end) const;

  std::mutex mutex_;
  uint64_t next_handle_ = 1;
  std::map<uint64_t, Physical> physical_;
  std::map<uintptr_t, size_t> reservations_;  // base -> size
  std::map<uintptr_t, Mapping> mappings_;      // base -> mapping
};

}  // namespace cucpu::core
