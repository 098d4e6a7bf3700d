// CUDA graphs (CUDA Programming Guide "CUDA Graphs"): nodes that are stream commands, with
// the dependencies between them; built by hand or by stream capture (stream_engine.h).
// An executable graph is a snapshot of the nodes in a dependency-respecting order; its
// launch is one command of a stream, which runs the nodes one after another. Child graph
// and conditional nodes own graphs of their own (their bodies), instantiated with the
// graph that holds them: a child graph runs in place, a conditional node runs its bodies
// as its handle's value says (exec/graph_conditional.h), every time it is reached.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/graph_memory.h"
#include "core/stream.h"
#include "support/result.h"

namespace cucpu::core {

// cudaGraphConditionalNodeType: IF runs body 0 when the value is non-zero (else body 1 if
// there is one), WHILE runs body 0 while it is non-zero (tested first), SWITCH runs body
// `value` if there is one.
enum class ConditionType { If, While, Switch };
struct Condition {
  uint64_t handle = 0;  // exec/graph_conditional.h
  ConditionType type = ConditionType::If;
};

// What a node is made of. Bodies are graphs (live handles) the node owns from now on.
struct NodeContent {
  CommandKind kind = CommandKind::Empty;
  std::function<void()> run = {};              // the work of a plain node; re-runnable
  std::vector<Graph*> bodies = {};             // child graph nodes: one; conditional nodes: their bodies
  std::optional<Condition> condition = {};     // conditional nodes
  const void* event = nullptr;                 // event record / wait nodes: their core::Event
  std::shared_ptr<GraphAllocation> allocation = {};  // memalloc and memfree nodes
};

class GraphNode {
 public:
  GraphNode(Graph& graph, NodeContent content);
  ~GraphNode();  // destroys its bodies
  GraphNode(const GraphNode&) = delete;
  GraphNode& operator=(const GraphNode&) = delete;
  Graph& graph() const { return graph_; }
  CommandKind kind() const { return content_.kind; }
  const std::function<void()>& run() const { return content_.run; }
  const NodeContent& content() const { return content_; }
  const std::vector<GraphNode*>& dependencies() const { return dependencies_; }

  // The launch attributes set on a kernel node (cudaGraphKernelNodeSetAttribute): the
  // runtime's 64-byte cudaLaunchAttributeValue by attribute id, as bytes (core has no CUDA
  // headers). The ones kept only steer the GPU; cloning a graph copies them.
  static constexpr size_t kLaunchAttributeBytes = 64, kLaunchAttributeCount = 17;
  std::array<std::array<uint8_t, kLaunchAttributeBytes>, kLaunchAttributeCount> launch_attributes{};

 private:
  friend class Graph;
  Graph& graph_;
  const NodeContent content_;
  std::vector<GraphNode*> dependencies_;
};

class Graph {
 public:
  // A node depending on `dependencies`, which must be nodes of this graph.
  Result<GraphNode*> add(NodeContent content, const std::vector<GraphNode*>& dependencies);
  Result<GraphNode*> add(CommandKind kind, std::function<void()> run, const std::vector<GraphNode*>& dependencies) {
    return add(NodeContent{.kind = kind, .run = std::move(run)}, dependencies);
  }
  Result<void> add_dependency(GraphNode* from, GraphNode* to);
  bool contains(const GraphNode* node) const;
  std::vector<GraphNode*> nodes() const;
  std::vector<GraphNode*> roots() const;
  // Every edge as (from, to), in node order.
  std::vector<std::pair<GraphNode*, GraphNode*>> edges() const;
  // Copies this graph's nodes and edges into `copy` (an empty graph): cudaGraphClone.
  // Bodies are copied too; conditional handles are shared with the original.
  void copy_into(Graph& copy) const;
  // A body of a child graph or conditional node: destroyed with its node, not by the API.
  bool owned_by_node() const { return owned_by_node_; }

 private:
  friend class GraphNode;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<GraphNode>> nodes_;
  bool owned_by_node_ = false;
};

class GraphExec {
 public:
  // Orders the graph's nodes so that each comes after its dependencies; a cycle is an error.
  static Result<std::unique_ptr<GraphExec>> instantiate(const Graph& graph);
  // cudaGraphInstantiateFlagAutoFreeOnLaunch: a launch takes over the allocations an
  // earlier launch made and nobody freed; without it such a launch is refused.
  void set_auto_free_on_launch(bool on) { auto_free_on_launch_ = on; }
  // Whether a launch now would be refused: an allocation of the graph is still live
  // (CUDA Programming Guide "Graph Memory Nodes": cudaErrorInvalidValue).
  bool allocations_outstanding() const;
  // The stream command that runs the whole graph once, queued on stream `stream_id` (its
  // memory nodes are backed now, graph_memory.h).
  Command launch_command(uint64_t stream_id = 0) const;

  // cudaGraphExecKernelNodeSetParams and its kin: new work for one node of the graph this
  // was made from, for later launches only (launches already queued keep what they had).
  Result<void> set_node_run(const GraphNode* node, std::function<void()> run);
  // cudaGraphExecUpdate: takes the work of `graph`'s nodes if the graph has the same
  // shape (node kinds and edges, node for node in creation order); else changes nothing.
  Result<void> update_from(const Graph& graph);

 private:
  // The completion of the latest launch command made: the next launch waits for it.
  mutable std::mutex launch_mutex_;
  mutable CompletionRef last_launch_;
  bool auto_free_on_launch_ = false;
  struct Step {
    CommandKind kind;
    std::function<void()> run;
    uint64_t gridid = 0;  // a kernel node's %gridid at every launch of this exec (exec/grid.h)
  };
  using Steps = std::shared_ptr<const std::vector<Step>>;
  // The steps of `graph` in a dependency-respecting order (bodies instantiated inside),
  // and for each node (creation order) its step.
  // Memory nodes, of child graphs too, are listed in that order in `memory` (if given).
  static Result<Steps> order_steps(const Graph& graph, std::vector<size_t>* step_of_node,
                                   std::vector<GraphMemoryEvent>* memory = nullptr);
  static Result<Step> step_of(const GraphNode& node);
  static void run_steps(const std::vector<Step>& steps);
  // A graph's shape: each node's kind and the creation-order indices of its dependencies.
  using Shape = std::vector<std::pair<CommandKind, std::vector<size_t>>>;
  static Shape shape_of(const std::vector<GraphNode*>& nodes);

  Steps steps_;
  std::vector<size_t> step_of_node_;                 // by creation index of the source graph's nodes
  std::vector<const GraphNode*> source_nodes_;       // the source graph's nodes, in creation order
  Shape shape_;
  std::vector<uint64_t> conditional_handles_;        // of its conditional nodes, at any depth
  std::vector<GraphMemoryEvent> memory_events_;      // its memalloc and memfree nodes, in order
};

// The %gridid of the graph kernel node the calling thread runs now, 0 outside one.
uint64_t running_graph_node_gridid();

// Live handles, for checking the ones the API is given.
Graph* create_graph();
bool is_graph(const void* handle);
void destroy_graph(Graph* graph);
GraphExec* keep_graph_exec(std::unique_ptr<GraphExec> exec);
bool is_graph_exec(const void* handle);
void destroy_graph_exec(GraphExec* exec);  // a launch already queued keeps its own copy

}  // namespace cucpu::core
