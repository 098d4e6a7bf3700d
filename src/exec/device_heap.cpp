// The device heap: one anonymous mapping of the limit's size, carved up by Boost.Interprocess'
// best-fit allocator (managed_external_buffer), which keeps its bookkeeping inside the
// mapping. So the heap holds exactly as much as cudaLimitMallocHeapSize says, a kernel that
// exhausts it gets NULL as on the GPU, and a reset is one munmap. The mapping is made on
// the first malloc and committed page by page as blocks are used.
#include "exec/device_heap.h"

#include <sys/mman.h>

#include <boost/interprocess/managed_external_buffer.hpp>
#include <mutex>
#include <new>
#include <optional>

namespace cucpu::exec {
namespace {

namespace bip = boost::interprocess;

constexpr std::size_t kMallocAlignment = 16;

struct DeviceHeap {
  std::mutex mutex;  // guards everything below; the allocator's own lock is per call
  std::size_t bytes = kDefaultMallocHeapBytes;
  void* memory = nullptr;  // the mapping, once made
  std::optional<bip::managed_external_buffer> blocks;

  bool contains(const void* pointer) const {
    const auto* p = static_cast<const char*>(pointer);
    const auto* base = static_cast<const char*>(memory);
    return memory && p >= base && p < base + bytes;
  }
};

// Immortal: kernels of other host threads may still allocate while the process exits.
DeviceHeap& heap() {
  static DeviceHeap* const instance = new DeviceHeap;
  return *instance;
}

// Makes the mapping and the allocator in it; false when the system has no memory for it.
bool make_heap_locked(DeviceHeap& h) {
  if (h.memory) return true;
  void* memory = mmap(nullptr, h.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) return false;
  try {
    h.blocks.emplace(bip::create_only, memory, h.bytes);
  } catch (const std::exception&) {  // a heap too small for the allocator's own header
    munmap(memory, h.bytes);
    return false;
  }
  h.memory = memory;
  return true;
}

}  // namespace

void* device_malloc(std::size_t bytes) {
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  if (!make_heap_locked(h)) return nullptr;
  return h.blocks->allocate_aligned(bytes == 0 ? 1 : bytes, kMallocAlignment, std::nothrow);
}

void device_free(void* pointer) {
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  if (pointer && h.contains(pointer)) h.blocks->deallocate(pointer);
}

bool set_device_heap_bytes(std::size_t bytes) {
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  if (h.memory) return false;
  h.bytes = bytes;
  return true;
}

std::size_t device_heap_bytes() {
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  return h.bytes;
}

void reset_device_heap() {
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  if (h.memory) {
    h.blocks.reset();
    munmap(h.memory, h.bytes);
    h.memory = nullptr;
  }
  h.bytes = kDefaultMallocHeapBytes;
}

}  // namespace cucpu::exec
