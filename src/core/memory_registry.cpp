// The allocation registry: an ordered map from base address to allocation, so that
// "which allocation contains this address" is one upper_bound.
#include "core/memory_registry.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

namespace cucpu::core {

MemoryRegistry& memory() {
  static auto* registry = new MemoryRegistry;  // immortal: programs free memory from static destructors
  return *registry;
}

Result<void*> MemoryRegistry::allocate(size_t size, MemoryKind kind, int device, unsigned flags) {
  // aligned_alloc needs a multiple of the alignment; a zero-byte request still gets a
  // distinct, freeable block as on the GPU.
  size_t rounded = (size + kBaseAlignment - 1) / kBaseAlignment * kBaseAlignment;
  if (rounded < size) return make_error(ErrorCode::MemoryAllocation, "allocation size overflows");
  void* block = std::aligned_alloc(kBaseAlignment, rounded == 0 ? kBaseAlignment : rounded);
  if (!block) return make_error(ErrorCode::MemoryAllocation, fmt::format("cannot allocate {} bytes", size));
  std::lock_guard lock(mutex_);
  allocations_[reinterpret_cast<uintptr_t>(block)] =
      Allocation{reinterpret_cast<uintptr_t>(block), size, kind, device, flags};
  owned_[reinterpret_cast<uintptr_t>(block)] = true;
  return block;
}

Result<void> MemoryRegistry::release(void* pointer, std::initializer_list<MemoryKind> kinds) {
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
  bool kind_matches = false;
  if (it != allocations_.end())
    for (MemoryKind kind : kinds) kind_matches |= it->second.kind == kind;
  if (!kind_matches || !owned_.count(it->first))
    return make_error(ErrorCode::InvalidValue, fmt::format("{} is not an allocation of this kind", pointer));
  owned_.erase(it->first);
  allocations_.erase(it);
  std::free(pointer);
  return {};
}

void MemoryRegistry::add_external(void* base, size_t size, MemoryKind kind) {
  std::lock_guard lock(mutex_);
  allocations_[reinterpret_cast<uintptr_t>(base)] = Allocation{reinterpret_cast<uintptr_t>(base), size, kind};
}

void MemoryRegistry::remove_external(void* base) {
  std::lock_guard lock(mutex_);
  allocations_.erase(reinterpret_cast<uintptr_t>(base));
}

Result<void> MemoryRegistry::register_host(void* base, size_t size, unsigned flags, int device) {
  const auto begin = reinterpret_cast<uintptr_t>(base);
  std::lock_guard lock(mutex_);
  // The first allocation ending after `begin` overlaps [begin, begin + size) if it starts before its end.
  auto next = allocations_.upper_bound(begin);
  if (next != allocations_.begin()) {
    auto previous = std::prev(next);
    if (previous->second.base + std::max<size_t>(previous->second.size, 1) > begin) next = previous;
  }
  if (next != allocations_.end() && next->second.base < begin + size)
    return make_error(ErrorCode::HostMemoryAlreadyRegistered,
                      fmt::format("[{}, +{}) overlaps memory the device already knows", base, size));
  allocations_[begin] = Allocation{begin, size, MemoryKind::RegisteredHost, device, flags};
  return {};
}

Result<void> MemoryRegistry::unregister_host(void* base) {
  // Inside a registered range but not its start: InvalidValue, as on the GPU.
  if (auto allocation = find(base); allocation && allocation->kind == MemoryKind::RegisteredHost &&
                                    allocation->base != reinterpret_cast<uintptr_t>(base))
    return make_error(ErrorCode::InvalidValue, fmt::format("{} lies inside a registered range", base));
  std::lock_guard lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
  if (it == allocations_.end() || it->second.kind != MemoryKind::RegisteredHost)
    return make_error(ErrorCode::HostMemoryNotRegistered, fmt::format("{} was not registered", base));
  allocations_.erase(it);
  return {};
}

std::optional<Allocation> MemoryRegistry::find(const void* address) const {
  auto key = reinterpret_cast<uintptr_t>(address);
  std::lock_guard lock(mutex_);
  auto it = allocations_.upper_bound(key);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  const Allocation& a = it->second;
  if (key >= a.base + std::max<size_t>(a.size, 1)) return std::nullopt;
  return a;
}

bool MemoryRegistry::contains_range(const void* address, size_t size) const {
  auto allocation = find(address);
  if (!allocation) return false;
  return reinterpret_cast<uintptr_t>(address) - allocation->base + size <= allocation->size;
}

void MemoryRegistry::release_all() {
  std::lock_guard lock(mutex_);
  for (auto& [base, owned] : owned_) {
    allocations_.erase(base);
    std::free(reinterpret_cast<void*>(base));
  }
  owned_.clear();
}

}  // namespace cucpu::core
