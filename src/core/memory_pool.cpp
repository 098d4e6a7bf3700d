// Memory pools of the stream-ordered allocator (memory_pool.h): blocks come from the
// memory registry as device memory, so pointer attributes and memset checks know them
// while a pool holds them; the pool keeps free blocks for reuse under its policies.
#include "core/memory_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/memory_registry.h"

namespace cucpu::core {
namespace {

// Which pool each handed-out block belongs to (cudaFreeAsync finds the pool by pointer).
struct PoolDirectory {
  std::mutex mutex;
  std::map<const void*, PoolRef> live;    // by handle: default and created pools
  std::map<int, PoolRef> defaults;        // by device
  std::map<int, PoolRef> current;         // by device
  std::map<const void*, PoolRef> owners;  // block -> pool (an in-use block keeps it alive)
};

PoolDirectory& directory() {
  static auto* d = new PoolDirectory;  // immortal: stream threads may free blocks at exit
  return *d;
}

void set_owner(const void* pointer, MemoryPool* pool) {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  if (!pool) {
    d.owners.erase(pointer);
    return;
  }
  for (auto& [handle, ref] : d.live)
    if (ref.get() == pool) d.owners[pointer] = ref;
}

constexpr uint64_t kNoStream = UINT64_MAX;  // freed by cudaFree: no stream's own block

// A block serves a request when it is large enough and not wastefully so.
bool fits(size_t block, size_t request) { return block >= request && block / 2 <= request; }

}  // namespace

MemoryPool::~MemoryPool() {
  for (const FreeBlock& block : free_) (void)memory().release(block.pointer, {MemoryKind::Device});
}

Result<PoolBlock> MemoryPool::allocate(size_t size, uint64_t stream_id) {
  const size_t requested = size;  // what "used" counts (the H100 reports 1000 for 1000 bytes)
  size = std::max<size_t>(
      1, (size + MemoryRegistry::kAlignment - 1) / MemoryRegistry::kAlignment * MemoryRegistry::kAlignment);
  std::unique_lock lock(mutex_);
  PoolBlock result;
  // Prefer what needs no dependency: the stream's own frees, then reached ones, then
  // (if allowed) a pending free of another stream that the caller will wait for.
  auto pick = [&](auto usable) { return std::find_if(free_.begin(), free_.end(), usable); };
  auto it = pick([&](const FreeBlock& b) { return fits(b.size, size) && b.stream_id == stream_id; });
  if (it == free_.end() && policy_.allow_opportunistic)
    it = pick([&](const FreeBlock& b) { return fits(b.size, size) && b.reached; });
  if (it == free_.end() && policy_.allow_internal_dependencies) {
    it = pick([&](const FreeBlock& b) { return fits(b.size, size); });
    if (it != free_.end() && !it->reached) result.wait_for = it->freed;
  }
  if (it != free_.end()) {
    result.pointer = it->pointer;
    size = it->size;
    free_.erase(it);
  } else {
    auto fresh = memory().allocate(size, MemoryKind::Device, device_);
    if (!fresh) return fresh.error();
    result.pointer = *fresh;
    usage_.reserved += size;
    usage_.reserved_high = std::max(usage_.reserved_high, usage_.reserved);
  }
  used_.push_back(UsedBlock{result.pointer, size, requested});
  usage_.used += requested;
  usage_.used_high = std::max(usage_.used_high, usage_.used);
  lock.unlock();
  set_owner(result.pointer, this);
  return result;
}

Result<void> MemoryPool::free(void* pointer, uint64_t stream_id, CompletionRef freed) {
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(used_.begin(), used_.end(), [&](const UsedBlock& b) { return b.pointer == pointer; });
    if (it == used_.end())
      return Error{ErrorCode::InvalidValue, fmt::format("{} is not an allocation of this memory pool", pointer)};
    free_.push_back(FreeBlock{pointer, it->size, stream_id, std::move(freed), false});
    usage_.used -= it->requested;
    used_.erase(it);
  }
  set_owner(pointer, nullptr);
  return {};
}

Result<void> MemoryPool::free_now(void* pointer) {
  size_t size = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(used_.begin(), used_.end(), [&](const UsedBlock& b) { return b.pointer == pointer; });
    if (it != used_.end()) size = it->requested;
  }
  auto done = std::make_shared<Completion>();
  done->mark_done();
  if (auto freed = free(pointer, kNoStream, done); !freed) return freed;
  reached(done);
  // The H100 does not take a block that cudaFree (not cudaFreeAsync) returned off the pool's
  // cudaMemPoolAttrUsedMemCurrent (tests/e2e/stream_ordered_alloc_edges: 1000 bytes stay
  // "used" after the cudaFree), so neither does cucpu.
  std::lock_guard lock(mutex_);
  usage_.used += size;
  return {};
}

void MemoryPool::reached(const CompletionRef& freed) {
  std::lock_guard lock(mutex_);
  for (FreeBlock& block : free_)
    if (block.freed == freed) block.reached = true;
  trim_locked(threshold_);
}

void MemoryPool::trim_to(uint64_t keep) {
  std::lock_guard lock(mutex_);
  trim_locked(keep);
}

void MemoryPool::trim_locked(uint64_t keep) {
  // Only reached blocks: a pending free may still be followed by work of its stream
  // that an internal dependency was promised for, and its memory is not idle yet.
  for (auto it = free_.begin(); it != free_.end() && usage_.reserved > keep;) {
    if (!it->reached) {
      ++it;
      continue;
    }
    (void)memory().release(it->pointer, {MemoryKind::Device});
    usage_.reserved -= it->size;
    it = free_.erase(it);
  }
}

uint64_t MemoryPool::release_threshold() const {
  std::lock_guard lock(mutex_);
  return threshold_;
}

void MemoryPool::set_release_threshold(uint64_t bytes) {
  std::lock_guard lock(mutex_);
  threshold_ = bytes;
}

ReusePolicy MemoryPool::reuse_policy() const {
  std::lock_guard lock(mutex_);
  return policy_;
}

void MemoryPool::set_reuse_policy(const ReusePolicy& policy) {
  std::lock_guard lock(mutex_);
  policy_ = policy;
}

PoolUsage MemoryPool::usage() const {
  std::lock_guard lock(mutex_);
  return usage_;
}

void MemoryPool::reset_reserved_high() {
  std::lock_guard lock(mutex_);
  usage_.reserved_high = usage_.reserved;
}

void MemoryPool::reset_used_high() {
  std::lock_guard lock(mutex_);
  usage_.used_high = usage_.used;
}

void MemoryPool::forget_blocks() {
  std::lock_guard lock(mutex_);
  free_.clear();
  used_.clear();
  usage_ = PoolUsage{};
}

PoolRef default_pool(int device) {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  PoolRef& pool = d.defaults[device];
  if (!pool) {
    pool = std::make_shared<MemoryPool>(device);
    d.live[pool.get()] = pool;
  }
  return pool;
}

PoolRef current_pool(int device) {
  {
    auto& d = directory();
    std::lock_guard lock(d.mutex);
    if (auto it = d.current.find(device); it != d.current.end() && d.live.contains(it->second.get())) return it->second;
  }
  return default_pool(device);  // never set, or the pool set was destroyed
}

void set_current_pool(int device, PoolRef pool) {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  d.current[device] = std::move(pool);
}

PoolRef create_pool(int device) {
  auto pool = std::make_shared<MemoryPool>(device);
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  d.live[pool.get()] = pool;
  return pool;
}

PoolRef find_pool(const void* handle) {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  auto it = d.live.find(handle);
  return it == d.live.end() ? nullptr : it->second;
}

Result<void> destroy_pool(const void* handle) {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  auto it = d.live.find(handle);
  if (it == d.live.end()) return Error{ErrorCode::InvalidValue, "not a memory pool"};
  for (auto& [device, pool] : d.defaults)
    if (pool.get() == handle)
      return Error{ErrorCode::InvalidValue, "a device's default memory pool cannot be destroyed"};
  for (auto current = d.current.begin(); current != d.current.end();)
    current = current->second.get() == handle ? d.current.erase(current) : std::next(current);
  d.live.erase(it);  // blocks in use and pending frees hold the pool until they are done
  return {};
}

PoolRef pool_of(const void* pointer) {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  auto it = d.owners.find(pointer);
  return it == d.owners.end() ? nullptr : it->second;
}

void forget_pool_memory() {
  auto& d = directory();
  std::lock_guard lock(d.mutex);
  for (auto& [handle, pool] : d.live) pool->forget_blocks();
  for (auto& [pointer, pool] : d.owners) pool->forget_blocks();  // destroyed pools still holding blocks
  d.owners.clear();
  d.current.clear();
}

}  // namespace cucpu::core
