// Stream-ordered allocations and frees (stream_ordered_memory.h).
#include "core/stream_ordered_memory.h"

#include "core/graph_memory.h"
#include "core/memory_registry.h"
#include "core/stream_engine.h"

namespace cucpu::core {

Result<void*> allocate_in_stream_order(Stream& stream, MemoryPool& pool, size_t size) {
  auto block = pool.allocate(size, stream.id());
  if (!block) return make_error(ErrorCode::MemoryAllocation, "the pool cannot hold the allocation");
  if (block->wait_for) {
    // The block was freed on another stream and that free is still pending: this stream
    // waits for it (cudaMemPoolReuseAllowInternalDependencies).
    Command wait;
    wait.kind = CommandKind::EventWait;
    wait.after.push_back(block->wait_for);
    if (auto queued = StreamEngine::instance().enqueue(stream, std::move(wait)); !queued) return queued.error();
  }
  return block->pointer;
}

Result<void> free_in_stream_order(Stream& stream, void* pointer) {
  Command command;
  command.kind = CommandKind::Set;  // touches memory: a broken device skips it like a set
  if (PoolRef pool = pool_of(pointer)) {
    if (auto freed = pool->free(pointer, stream.id(), command.done); !freed) return freed.error();
    command.run = [pool, freed = command.done] { pool->reached(freed); };
  } else if (auto graph_allocation = find_graph_allocation(pointer)) {
    if (!graph_allocation_live(*graph_allocation))
      return make_error(ErrorCode::InvalidValue, "a graph allocation that is not live");
    // A graph's allocation: its memory is kept for graphs, reusable in stream order.
    free_graph_allocation(*graph_allocation, stream.id(), command.done);
    command.run = [graph_allocation] { graph_allocation->release_pages(); };
  } else {
    // cudaMalloc memory may be freed in stream order too: released when the stream gets there.
    auto allocation = memory().find(pointer);
    if (!allocation || allocation->kind != MemoryKind::Device || allocation->base != reinterpret_cast<uintptr_t>(pointer))
      return make_error(ErrorCode::InvalidValue, "not an allocation of device memory");
    command.run = [pointer] { (void)memory().release(pointer, {MemoryKind::Device}); };
  }
  auto queued = StreamEngine::instance().enqueue(stream, std::move(command));
  if (!queued) return queued.error();
  return {};
}

}  // namespace cucpu::core
