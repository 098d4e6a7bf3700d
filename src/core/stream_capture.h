// Beginning and ending a stream capture for either API: the graph it records into (a new
// one, or the caller's), and what becomes of it when the capture fails; and what either
// API does with the graph: instantiate it and launch the result on a stream.
#pragma once

#include <vector>

#include "core/graph.h"
#include "core/stream_engine.h"
#include "support/result.h"

namespace cucpu::core {

// Into `existing` (null: a new graph) after `tips`, which must be nodes of it.
Result<void> begin_stream_capture(Stream& stream, CaptureMode mode, Graph* existing, std::vector<GraphNode*> tips);

// The captured graph. `graph_wanted` false is allowed only for a capture into the caller's
// graph. An invalidated capture is over, and its graph goes unless it is the caller's.
Result<Graph*> end_stream_capture(Stream& stream, bool graph_wanted);

// cudaGraphInstantiate/cuGraphInstantiate (AutoFreeOnLaunch is the flag that matters here).
Result<GraphExec*> instantiate_graph(Graph& graph, bool auto_free_on_launch);

// cudaGraphLaunch/cuGraphLaunch: refused while memory the last launch allocated is live
// (unless instantiated to free it on launch).
Result<void> launch_graph(GraphExec& exec, Stream& stream);

// cudaMallocAsync/cuMemAllocAsync and cudaFreeAsync/cuMemFreeAsync in a capturing stream:
// the capture's next node is a memory allocation (free) node after the capture's tips, as
// cudaGraphAddMemAllocNode (FreeNode) makes it (CUDA Programming Guide "Graph Memory
// Nodes": stream capture). The allocation's address comes back at once.
Result<void*> capture_allocation(Stream& stream, size_t size, int device);
Result<void> capture_free(Stream& stream, void* pointer);

}  // namespace cucpu::core
