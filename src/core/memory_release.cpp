// cudaFree and cudaFreeHost (memory_release.h).
#include "core/memory_release.h"

#include <algorithm>
#include <initializer_list>

#include "core/graph_memory.h"
#include "core/managed_advice.h"
#include "core/memory_pool.h"
#include "core/memory_registry.h"
#include "core/stream_engine.h"

namespace cucpu::core {
namespace {

Result<void> release(void* pointer, std::initializer_list<MemoryKind> kinds) {
  if (!pointer) return {};
  // A stream-ordered allocation goes back to its pool without synchronising (cudaFree's
  // documentation: the caller has made sure that its accesses are done).
  const bool device_memory = std::find(kinds.begin(), kinds.end(), MemoryKind::Device) != kinds.end();
  if (PoolRef pool = device_memory ? pool_of(pointer) : nullptr) return pool->free_now(pointer);
  // Queued work may still use the memory.
  StreamEngine::instance().synchronize_all();
  return memory().release(pointer, kinds);
}

}  // namespace

Result<void> free_device_memory(void* pointer) {
  if (auto graph_allocation = find_graph_allocation(pointer)) {
    // A graph's allocation freed outside the graph: its address stays the graph's.
    if (!graph_allocation_live(*graph_allocation))
      return make_error(ErrorCode::InvalidValue, "a graph allocation that is not live");
    StreamEngine::instance().synchronize_all();
    free_graph_allocation(*graph_allocation, 0, nullptr);
    graph_allocation->release_pages();
    return {};
  }
  auto allocation = memory().find(pointer);
  auto released = release(pointer, {MemoryKind::Device, MemoryKind::Managed});
  if (released && allocation && allocation->kind == MemoryKind::Managed)
    forget_advice(pointer, allocation->size);  // cudaMemAdvise's record of it goes too
  return released;
}

Result<void> free_host_memory(void* pointer) { return release(pointer, {MemoryKind::PinnedHost}); }

}  // namespace cucpu::core
