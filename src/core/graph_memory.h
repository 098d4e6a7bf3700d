// Memory of graph allocation nodes (CUDA Programming Guide "Graph Memory Nodes"). A
// memalloc node gets its address when it is added and keeps it for the graph's life; the
// memory is backed from the graph's launch until a memfree node (or cudaFree) ends it.
// On the host the address is a mapping made at creation whose pages are handed back
// (MADV_DONTNEED) when the allocation is freed. The footprint the GPU reports is modelled
// at launch, as the guide describes it: a launch backs the graph's allocations with
// physical memory the device keeps for graphs, reusing what earlier launches freed on the
// same stream, or anywhere once their launch has completed, and growing it otherwise;
// freed memory stays kept (counted) until cudaDeviceGraphMemTrim.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/completion.h"
#include "support/result.h"

namespace cucpu::core {

class GraphAllocation {
 public:
  GraphAllocation(void* base, size_t size, int device) : base_(base), size_(size), device_(device) {}
  ~GraphAllocation();  // unmaps (the node and every executable graph made from it are gone)
  GraphAllocation(const GraphAllocation&) = delete;
  GraphAllocation& operator=(const GraphAllocation&) = delete;

  void* pointer() const { return base_; }
  size_t size() const { return size_; }
  int device() const { return device_; }

  // The memfree node ran (or cudaFree): the pages go back to the system; the address
  // stays reserved for the next launch.
  void release_pages();

 private:
  friend struct GraphMemoryAccounting;
  friend bool graph_allocation_live(const GraphAllocation& allocation);
  void* const base_;
  const size_t size_;
  const int device_;
  size_t backing_ = 0;  // kept memory it holds now (0: none); guarded by the accounting's mutex
};

// A new allocation of `size` bytes on `device`.
Result<std::shared_ptr<GraphAllocation>> reserve_graph_allocation(size_t size, int device);
// The allocation whose address `pointer` is (for memfree nodes and frees), else null.
std::shared_ptr<GraphAllocation> find_graph_allocation(const void* pointer);

// One memalloc or memfree node of an executable graph, in the order its steps run.
struct GraphMemoryEvent {
  std::shared_ptr<GraphAllocation> allocation;
  bool allocates = true;
};
// A launch of a graph with these memory nodes is queued on stream `stream_id`; `launched`
// completes when it has run.
void back_graph_launch(const std::vector<GraphMemoryEvent>& events, uint64_t stream_id, const CompletionRef& launched);
// Whether the allocation holds memory now in stream order: a launch allocated it and no
// free (node, cudaFree or cudaFreeAsync) has been queued since.
bool graph_allocation_live(const GraphAllocation& allocation);
// cudaFree / cudaFreeAsync of a graph allocation outside its graph: its memory is kept
// for reuse from now on (cudaFree) or once `freed` completes.
void free_graph_allocation(GraphAllocation& allocation, uint64_t stream_id, const CompletionRef& freed);

// cudaDeviceGetGraphMemAttribute. cucpu counts the memory associated with graphs and the
// memory kept for them as one number: kept memory is associated until trimmed.
struct GraphMemoryUsage {
  uint64_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
};
GraphMemoryUsage graph_memory_usage(int device);
// cudaDeviceSetGraphMemAttribute: the high watermarks can only be reset (to 0).
void reset_graph_memory_used_high(int device);
void reset_graph_memory_reserved_high(int device);
// cudaDeviceGraphMemTrim: kept memory no allocation holds and no running launch may
// still use goes back to the system.
void trim_graph_memory(int device);

}  // namespace cucpu::core
