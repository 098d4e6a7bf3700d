// Building graphs node by node, for both APIs (graph_building.h).
#include "core/graph_building.h"

#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "core/memory_registry.h"
#include "exec/graph_conditional.h"

namespace cucpu::core {
namespace {

// An allocation of `graph` that every path to the new node has freed already (all its
// memalloc nodes are followed by a memfree node among the new node's ancestors).
std::shared_ptr<GraphAllocation> freed_before(const Graph& graph, const std::vector<GraphNode*>& dependencies,
                                              size_t size, int device) {
  std::unordered_set<const GraphNode*> ancestors;
  std::vector<const GraphNode*> pending(dependencies.begin(), dependencies.end());
  while (!pending.empty()) {
    const GraphNode* node = pending.back();
    pending.pop_back();
    if (!graph.contains(node) || !ancestors.insert(node).second) continue;
    for (const GraphNode* dependency : node->dependencies()) pending.push_back(dependency);
  }
  std::unordered_map<const GraphAllocation*, int> open;  // allocations minus frees seen
  for (const GraphNode* node : graph.nodes()) {
    const auto& allocation = node->content().allocation;
    if (node->kind() == CommandKind::MemAlloc) ++open[allocation.get()];
    if (node->kind() == CommandKind::MemFree && ancestors.contains(node)) --open[allocation.get()];
  }
  for (const GraphNode* node : ancestors) {
    const auto& allocation = node->content().allocation;
    if (node->kind() == CommandKind::MemFree && open[allocation.get()] == 0 && allocation->size() >= size &&
        allocation->device() == device)
      return allocation;
  }
  return nullptr;
}

}  // namespace

Result<GraphNode*> add_graph_node(Graph* graph, const std::vector<GraphNode*>& dependencies, NodeContent content) {
  if (graph && is_graph(graph)) return graph->add(std::move(content), dependencies);  // it destroys them on error
  for (Graph* body : content.bodies) destroy_graph(body);  // the node would have owned them
  return Error{ErrorCode::InvalidValue, "not a graph"};
}

Result<NodeContent> kernel_node(const Kernel& kernel, const LaunchRequest& request) {
  auto launch = prepare_launch(kernel, request);
  if (!launch) return launch.error();
  return NodeContent{.kind = CommandKind::Kernel, .run = kernel_command(std::move(*launch)).run};
}

Result<NodeContent> memset_node(void* dst, size_t pitch, unsigned value, unsigned element_size, size_t width,
                                size_t height) {
  if (!dst || (element_size != 1 && element_size != 2 && element_size != 4) || height == 0)
    return Error{ErrorCode::InvalidValue, "memset node: no destination, an element size not 1, 2 or 4, or no rows"};
  const size_t row_bytes = width * element_size;
  if (height > 1 && pitch < row_bytes) return Error{ErrorCode::InvalidValue, "memset node: pitch below the width"};
  const size_t step = height > 1 ? pitch : row_bytes;
  if (row_bytes > 0 && !memory().contains_range(dst, step * (height - 1) + row_bytes))
    return Error{ErrorCode::InvalidValue, "memset node: the rows are not device memory"};
  return NodeContent{.kind = CommandKind::Set, .run = [=] {
                       for (size_t row = 0; row < height; ++row) {
                         auto* bytes = static_cast<unsigned char*>(dst) + row * step;
                         for (size_t i = 0; i < width; ++i) std::memcpy(bytes + i * element_size, &value, element_size);
                       }
                     }};
}

NodeContent host_node(void (*fn)(void*), void* data) {
  return NodeContent{.kind = CommandKind::HostFunction, .run = [fn, data] { fn(data); }};
}

Result<Graph*> clone_graph(const Graph& graph) {
  for (const GraphNode* node : graph.nodes())
    if (node->kind() == CommandKind::MemAlloc || node->kind() == CommandKind::MemFree ||
        node->kind() == CommandKind::Conditional)
      return Error{ErrorCode::NotSupported, "a graph with memory or conditional nodes cannot be cloned"};
  Graph* copy = create_graph();
  graph.copy_into(*copy);
  return copy;
}

Result<NodeContent> child_graph_node(const Graph* parent, Graph* child, bool clone) {
  if (!child || !is_graph(child) || child->owned_by_node() || parent == child)
    return Error{ErrorCode::InvalidValue, "child graph node: not a graph that may become a child"};
  Result<Graph*> body = clone ? clone_graph(*child) : child;
  if (!body) return body.error();
  return NodeContent{.kind = CommandKind::Graph, .bodies = {*body}};
}

NodeContent event_node(Event* event, bool record) {
  NodeContent content{.kind = record ? CommandKind::EventRecord : CommandKind::EventWait, .event = event};
  if (record)
    content.run = [event] {
      if (is_event(event)) event->record_reached();
    };
  else
    content.run = [event] {
      if (!is_event(event)) return;
      if (CompletionRef completion = event->completion()) completion->wait();
    };
  return content;
}

Result<NodeContent> conditional_node(uint64_t handle, ConditionType type, unsigned bodies) {
  const bool counted = type == ConditionType::If      ? bodies == 1 || bodies == 2
                       : type == ConditionType::While ? bodies == 1
                                                      : bodies > 0;
  if (!exec::is_graph_conditional(handle) || !counted)
    return Error{ErrorCode::InvalidValue, "conditional node: unknown handle or a body count its type refuses"};
  NodeContent content{.kind = CommandKind::Conditional, .condition = Condition{handle, type}};
  for (unsigned i = 0; i < bodies; ++i) content.bodies.push_back(create_graph());
  return content;
}

Result<NodeContent> mem_alloc_node(const Graph& graph, const std::vector<GraphNode*>& dependencies, size_t size,
                                   int device) {
  Result<std::shared_ptr<GraphAllocation>> allocation = freed_before(graph, dependencies, size, device);
  if (!*allocation) allocation = reserve_graph_allocation(size, device);
  if (!allocation) return allocation.error();
  // Nothing to do when it runs: the launch backed it (graph_memory.h), pages come on use.
  return NodeContent{.kind = CommandKind::MemAlloc, .allocation = *allocation};
}

Result<NodeContent> mem_free_node(void* pointer) {
  std::shared_ptr<GraphAllocation> allocation = find_graph_allocation(pointer);
  if (!allocation) return Error{ErrorCode::InvalidValue, "memfree node: not the address of a graph allocation"};
  return NodeContent{.kind = CommandKind::MemFree, .run = [allocation] { allocation->release_pages(); },
                     .allocation = allocation};
}

}  // namespace cucpu::core
