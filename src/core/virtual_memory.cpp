// Virtual memory management over memory files and mmap (virtual_memory.h).
#include "core/virtual_memory.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iterator>

#include "core/memory_registry.h"

namespace cucpu::core {
namespace {

Error invalid(const char* what) { return Error{ErrorCode::InvalidValue, what}; }
Error not_supported(const char* what) { return Error{ErrorCode::NotSupported, what}; }

bool aligned(uintptr_t value) { return value % kVirtualMemoryGranularity == 0; }

int protection(Access access) {
  switch (access) {
    case Access::Read: return PROT_READ;
    case Access::ReadWrite: return PROT_READ | PROT_WRITE;
    case Access::None: break;
  }
  return PROT_NONE;
}

// Reserved but unmapped address space: no access, no memory behind it.
bool make_inaccessible(void* address, size_t size) {
  return mmap(address, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) != MAP_FAILED;
}

}  // namespace

VirtualMemory& VirtualMemory::instance() {
  static auto* memory = new VirtualMemory;  // immortal, like the memory registry
  return *memory;
}

Result<void*> VirtualMemory::reserve(size_t size, size_t alignment) {
  if (size == 0 || !aligned(size)) return invalid("a reservation's size is a multiple of the granularity");
  if (alignment == 0) alignment = kVirtualMemoryGranularity;
  if (alignment % kVirtualMemoryGranularity != 0) return invalid("alignment not a multiple of the granularity");
  // Over-reserve, then give back what lies before and after the aligned range.
  const size_t span = size + alignment;
  void* raw = mmap(nullptr, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return Error{ErrorCode::MemoryAllocation, "no address space left to reserve"};
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t base = (start + alignment - 1) / alignment * alignment;
  if (base > start) munmap(raw, base - start);
  if (start + span > base + size) munmap(reinterpret_cast<void*>(base + size), start + span - base - size);
  std::lock_guard lock(mutex_);
  reservations_[base] = size;
  return reinterpret_cast<void*>(base);
}

Result<void> VirtualMemory::free(void* address, size_t size) {
  std::lock_guard lock(mutex_);
  const auto base = reinterpret_cast<uintptr_t>(address);
  auto reservation = reservations_.find(base);
  if (reservation == reservations_.end() || reservation->second != size) return invalid("not a reserved range");
  auto mapping = mappings_.lower_bound(base);
  if (mapping != mappings_.end() && mapping->first < base + size) return invalid("the range is still mapped");
  munmap(address, size);
  reservations_.erase(reservation);
  return {};
}

Result<uint64_t> VirtualMemory::create(size_t size, const PhysicalProperties& properties) {
  if (size == 0 || !aligned(size)) return invalid("an allocation's size is a multiple of the granularity");
  const int descriptor = memfd_create("cucpu-physical-allocation", MFD_CLOEXEC);
  if (descriptor < 0) return Error{ErrorCode::MemoryAllocation, "memfd_create failed"};
  if (ftruncate(descriptor, static_cast<off_t>(size)) != 0) {
    close(descriptor);
    return Error{ErrorCode::MemoryAllocation, "cannot size the physical allocation"};
  }
  std::lock_guard lock(mutex_);
  const uint64_t handle = next_handle_++;
  physical_[handle] = Physical{descriptor, size, properties, 1};
  return handle;
}

void VirtualMemory::drop_reference_locked(uint64_t handle) {
  auto found = physical_.find(handle);
  if (found == physical_.end() || --found->second.references > 0) return;
  close(found->second.descriptor);  // mappings hold the memory on their own
  physical_.erase(found);
}

Result<void> VirtualMemory::release(uint64_t handle) {
  std::lock_guard lock(mutex_);
  if (!physical_.count(handle)) return invalid("not an allocation handle");
  drop_reference_locked(handle);
  return {};
}

Result<PhysicalProperties> VirtualMemory::properties(uint64_t handle) {
  std::lock_guard lock(mutex_);
  auto found = physical_.find(handle);
  if (found == physical_.end()) return invalid("not an allocation handle");
  return found->second.properties;
}

const VirtualMemory::Mapping* VirtualMemory::mapping_at_locked(const void* address) const {
  const auto at = reinterpret_cast<uintptr_t>(address);
  auto mapping = mappings_.upper_bound(at);
  if (mapping == mappings_.begin()) return nullptr;
  --mapping;
  return at < mapping->first + mapping->second.size ? &mapping->second : nullptr;
}

Result<uint64_t> VirtualMemory::retain(const void* address) {
  std::lock_guard lock(mutex_);
  const Mapping* mapping = mapping_at_locked(address);
  if (!mapping) return invalid("no allocation is mapped there");
  ++physical_.at(mapping->handle).references;
  return mapping->handle;
}

Result<int> VirtualMemory::export_descriptor(uint64_t handle) {
  std::lock_guard lock(mutex_);
  auto found = physical_.find(handle);
  if (found == physical_.end()) return invalid("not an allocation handle");
  const int copy = dup(found->second.descriptor);
  if (copy < 0) return Error{ErrorCode::Unknown, "dup failed"};
  return copy;
}

Result<uint64_t> VirtualMemory::import_descriptor(int descriptor) {
  struct stat status {};
  if (fstat(descriptor, &status) != 0 || status.st_size <= 0) return invalid("not an exported allocation");
  const int own = dup(descriptor);
  if (own < 0) return invalid("not an exported allocation");
  std::lock_guard lock(mutex_);
  const uint64_t handle = next_handle_++;
  PhysicalProperties properties;
  properties.handle_types = 1;  // CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
  physical_[handle] = Physical{own, static_cast<size_t>(status.st_size), properties, 1};
  return handle;
}

bool VirtualMemory::reserved_locked(uintptr_t begin, uintptr_t end) const {
  auto reservation = reservations_.upper_bound(begin);
  if (reservation == reservations_.begin()) return false;
  --reservation;
  return end <= reservation->first + reservation->second;
}

Result<void> VirtualMemory::map(void* address, size_t size, size_t offset, uint64_t handle) {
  const auto begin = reinterpret_cast<uintptr_t>(address);
  std::lock_guard lock(mutex_);
  auto physical = physical_.find(handle);
  if (physical == physical_.end()) return invalid("not an allocation handle");
  // What an H200 answers: sizes and offsets off the granularity, or past the allocation,
  // are "not supported"; an address outside a reservation or over a mapping is invalid.
  if (size == 0 || !aligned(size) || !aligned(offset) || offset + size > physical->second.size)
    return not_supported("a mapping covers whole granules of its allocation");
  if (!aligned(begin) || !reserved_locked(begin, begin + size)) return invalid("not a reserved range");
  auto next = mappings_.lower_bound(begin);
  if (next != mappings_.end() && next->first < begin + size) return invalid("the range is mapped already");
  if (next != mappings_.begin() && std::prev(next)->first + std::prev(next)->second.size > begin)
    return invalid("the range is mapped already");
  if (mmap(address, size, PROT_NONE, MAP_SHARED | MAP_FIXED, physical->second.descriptor, static_cast<off_t>(offset)) ==
      MAP_FAILED)
    return Error{ErrorCode::MemoryAllocation, "mmap of the physical allocation failed"};
  ++physical->second.references;
  mappings_[begin] = Mapping{size, handle};
  memory().add_external(address, size, MemoryKind::Device);
  return {};
}

Result<void> VirtualMemory::for_mappings_locked(uintptr_t begin, uintptr_t end, const auto& visit) {
  auto first = mappings_.lower_bound(begin);
  if (first == mappings_.end() || first->first != begin) return invalid("no mapping starts there");
  uintptr_t at = begin;
  for (auto mapping = first; at < end; ++mapping) {
    if (mapping == mappings_.end() || mapping->first != at || at + mapping->second.size > end)
      return invalid("the range is not whole mappings");
    at += mapping->second.size;
  }
  for (auto mapping = first; mapping != mappings_.end() && mapping->first < end;)
    mapping = visit(mapping);
  return {};
}

Result<void> VirtualMemory::unmap(void* address, size_t size) {
  const auto begin = reinterpret_cast<uintptr_t>(address);
  std::lock_guard lock(mutex_);
  return for_mappings_locked(begin, begin + size, [&](auto mapping) {
    auto* base = reinterpret_cast<void*>(mapping->first);
    make_inaccessible(base, mapping->second.size);
    memory().remove_external(base);
    drop_reference_locked(mapping->second.handle);
    return mappings_.erase(mapping);
  });
}

Result<void> VirtualMemory::set_access(void* address, size_t size, Access access) {
  const auto begin = reinterpret_cast<uintptr_t>(address);
  std::lock_guard lock(mutex_);
  return for_mappings_locked(begin, begin + size, [&](auto mapping) {
    mprotect(reinterpret_cast<void*>(mapping->first), mapping->second.size, protection(access));
    mapping->second.access = access;
    return std::next(mapping);
  });
}

Result<Access> VirtualMemory::access(const void* address) {
  std::lock_guard lock(mutex_);
  const Mapping* mapping = mapping_at_locked(address);
  if (!mapping) return invalid("no allocation is mapped there");
  return mapping->access;
}

}  // namespace cucpu::core
