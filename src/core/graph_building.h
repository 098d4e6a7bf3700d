// Building graphs node by node, for both APIs (cudaGraphAdd*Node, cuGraphAdd*Node, and
// the generic cudaGraphAddNode/cuGraphAddNode): the content of each node kind, made with
// the checks the GPU applies when the node is added, and adding it after its
// dependencies. The APIs translate their parameter structs and map the errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/event.h"
#include "core/graph.h"
#include "core/launch.h"
#include "support/result.h"

namespace cucpu::core {

// Adds `content` to `graph` after `dependencies` (nodes of that graph). On any error
// the bodies the node would have owned are destroyed.
Result<GraphNode*> add_graph_node(Graph* graph, const std::vector<GraphNode*>& dependencies, NodeContent content);

// A kernel node: the launch checked and its arguments copied now, as a launch does.
Result<NodeContent> kernel_node(const Kernel& kernel, const LaunchRequest& request);
// A memset node writes `element_size`-byte elements (1, 2 or 4) of `value`, `width` of
// them in each of `height` rows `pitch` bytes apart, in memory cucpu allocated.
Result<NodeContent> memset_node(void* dst, size_t pitch, unsigned value, unsigned element_size, size_t width,
                                size_t height);
NodeContent host_node(void (*fn)(void*), void* data);
// A copy of `graph` (cudaGraphClone, cuGraphClone); NotSupported for a graph with memory
// allocation, memory free or conditional nodes, which CUDA does not clone.
Result<Graph*> clone_graph(const Graph& graph);
// A child graph node: `child` cloned (or moved in: the node owns it from now on).
Result<NodeContent> child_graph_node(const Graph* parent, Graph* child, bool clone);
// Event record and wait nodes: the event is checked when the node runs (a destroyed
// event is skipped, not touched).
NodeContent event_node(Event* event, bool record);
// A conditional node of `type` with `bodies` empty body graphs (If: 1 or 2, While: 1,
// Switch: at least 1) on a live conditional handle (exec/graph_conditional.h).
Result<NodeContent> conditional_node(uint64_t handle, ConditionType type, unsigned bodies);
// A memory allocation node of `size` bytes on `device`. It takes the address of an
// allocation every path to it has freed already (CUDA reuses virtual addresses within a
// graph), else reserves a new one; the address is content.allocation->pointer().
Result<NodeContent> mem_alloc_node(const Graph& graph, const std::vector<GraphNode*>& dependencies, size_t size,
                                   int device);
// A memory free node for the graph allocation at `pointer`.
Result<NodeContent> mem_free_node(void* pointer);

}  // namespace cucpu::core
