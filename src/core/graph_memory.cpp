// Graph allocations (graph_memory.h): one anonymous mapping per memalloc node, registered
// as device memory so that kernels, copies and pointer queries accept it; the memory each
// device keeps for graphs as a list of free pieces behind one mutex, taken and given back
// when launches are queued (the GPU maps physical memory at launch, not when nodes run).
#include "core/graph_memory.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "core/memory_registry.h"

namespace cucpu::core {

// The memory one device keeps for graphs.
struct GraphMemoryAccounting {
  struct FreePiece {
    size_t size = 0;
    uint64_t stream_id = 0;  // freed by a launch on this stream
    CompletionRef freed;     // reusable by other streams once done (null: at once)
  };
  GraphMemoryUsage usage;  // used == reserved == kept
  std::vector<FreePiece> free;

  void take(GraphAllocation& allocation, uint64_t stream_id) {
    if (allocation.backing_ != 0) return;  // still holds its memory (never freed)
    // The smallest piece that fits and that stream order allows.
    auto best = free.end();
    for (auto it = free.begin(); it != free.end(); ++it) {
      const bool ordered = it->stream_id == stream_id || !it->freed || it->freed->is_done();
      if (ordered && it->size >= allocation.size_ && (best == free.end() || it->size < best->size)) best = it;
    }
    if (best != free.end()) {
      allocation.backing_ = best->size;
      free.erase(best);
      return;
    }
    allocation.backing_ = allocation.size_;
    usage.reserved += allocation.size_;
    usage.used = usage.reserved;
    usage.reserved_high = std::max(usage.reserved_high, usage.reserved);
    usage.used_high = std::max(usage.used_high, usage.used);
  }

  void give_back(GraphAllocation& allocation, uint64_t stream_id, const CompletionRef& freed) {
    if (allocation.backing_ == 0) return;
    free.push_back(FreePiece{allocation.backing_, stream_id, freed});
    allocation.backing_ = 0;
  }
};

namespace {

std::mutex accounting_mutex;
auto* accountings = new std::map<int, GraphMemoryAccounting>;  // immortal, as the engine
auto* allocations = new std::map<const void*, std::weak_ptr<GraphAllocation>>;

}  // namespace

GraphAllocation::~GraphAllocation() {
  {
    std::lock_guard lock(accounting_mutex);
    // Memory it still held stays kept for graphs until trimmed, as freed memory does.
    (*accountings)[device_].give_back(*this, 0, nullptr);
    allocations->erase(base_);
  }
  memory().remove_external(base_);
  munmap(base_, size_);
}

void GraphAllocation::release_pages() { madvise(base_, size_, MADV_DONTNEED); }

Result<std::shared_ptr<GraphAllocation>> reserve_graph_allocation(size_t size, int device) {
  if (size == 0) return make_error(ErrorCode::InvalidValue, "a graph allocation of 0 bytes");
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t mapped = (size + page - 1) / page * page;
  void* base = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED)
    return make_error(ErrorCode::MemoryAllocation,
                      fmt::format("no address space for a graph allocation of {} bytes", size));
  memory().add_external(base, mapped, MemoryKind::Device);
  auto allocation = std::make_shared<GraphAllocation>(base, mapped, device);
  std::lock_guard lock(accounting_mutex);
  (*allocations)[base] = allocation;
  return allocation;
}

std::shared_ptr<GraphAllocation> find_graph_allocation(const void* pointer) {
  std::lock_guard lock(accounting_mutex);
  auto found = allocations->find(pointer);
  return found == allocations->end() ? nullptr : found->second.lock();
}

void back_graph_launch(const std::vector<GraphMemoryEvent>& events, uint64_t stream_id, const CompletionRef& launched) {
  std::lock_guard lock(accounting_mutex);
  for (const GraphMemoryEvent& event : events) {
    GraphMemoryAccounting& accounting = (*accountings)[event.allocation->device()];
    if (event.allocates)
      accounting.take(*event.allocation, stream_id);
    else
      accounting.give_back(*event.allocation, stream_id, launched);
  }
}

bool graph_allocation_live(const GraphAllocation& allocation) {
  std::lock_guard lock(accounting_mutex);
  return allocation.backing_ != 0;
}

void free_graph_allocation(GraphAllocation& allocation, uint64_t stream_id, const CompletionRef& freed) {
  std::lock_guard lock(accounting_mutex);
  (*accountings)[allocation.device()].give_back(allocation, stream_id, freed);
}

GraphMemoryUsage graph_memory_usage(int device) {
  std::lock_guard lock(accounting_mutex);
  return (*accountings)[device].usage;
}

void reset_graph_memory_used_high(int device) {
  std::lock_guard lock(accounting_mutex);
  (*accountings)[device].usage.used_high = 0;
}

void reset_graph_memory_reserved_high(int device) {
  std::lock_guard lock(accounting_mutex);
  (*accountings)[device].usage.reserved_high = 0;
}

void trim_graph_memory(int device) {
  std::lock_guard lock(accounting_mutex);
  GraphMemoryAccounting& accounting = (*accountings)[device];
  std::erase_if(accounting.free, [&](const GraphMemoryAccounting::FreePiece& piece) {
    if (piece.freed && !piece.freed->is_done()) return false;
    accounting.usage.reserved -= piece.size;
    return true;
  });
  accounting.usage.used = accounting.usage.reserved;
}

}  // namespace cucpu::core
