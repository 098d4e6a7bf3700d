// CUDA graphs (CUDA Programming Guide "CUDA Graphs"): nodes that are stream commands, with
// the dependencies between them; built by hand or by stream capture (stream_engine.h).
// An executable graph is a snapshot of the nodes in a dependency-respecting order; its
// launch is one command of a stream, which runs the nodes one after another.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "core/stream.h"
#include "support/result.h"

namespace cucpu::core {

class GraphNode {
 public:
  GraphNode(Graph& graph, CommandKind kind, std::function<void()> run)
      : graph_(graph), kind_(kind), run_(std::move(run)) {}
  Graph& graph() const { return graph_; }
  CommandKind kind() const { return kind_; }
  const std::function<void()>& run() const { return run_; }
  const std::vector<GraphNode*>& dependencies() const { return dependencies_; }

 private:
  friend class Graph;
  Graph& graph_;
  const CommandKind kind_;
  const std::function<void()> run_;  // re-runnable: it runs at every launch
  std::vector<GraphNode*> dependencies_;
};

class Graph {
 public:
  // A node depending on `dependencies`, which must be nodes of this graph.
  Result<GraphNode*> add(CommandKind kind, std::function<void()> run, const std::vector<GraphNode*>& dependencies);
  Result<void> add_dependency(GraphNode* from, GraphNode* to);
  bool contains(const GraphNode* node) const;
  std::vector<GraphNode*> nodes() const;
  std::vector<GraphNode*> roots() const;
  // Every edge as (from, to), in node order.
  std::vector<std::pair<GraphNode*, GraphNode*>> edges() const;
  // Copies this graph's nodes and edges into `copy` (an empty graph): cudaGraphClone.
  void copy_into(Graph& copy) const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<GraphNode>> nodes_;
};

class GraphExec {
 public:
  // Orders the graph's nodes so that each comes after its dependencies; a cycle is an error.
  static Result<std::unique_ptr<GraphExec>> instantiate(const Graph& graph);
  // The stream command that runs the whole graph once.
  Command launch_command() const;

  // cudaGraphExecKernelNodeSetParams and its kin: new work for one node of the graph this
  // was made from, for later launches only (launches already queued keep what they had).
  Result<void> set_node_run(const GraphNode* node, std::function<void()> run);
  // cudaGraphExecUpdate: takes the work of `graph`'s nodes if the graph has the same
  // shape (node kinds and edges, node for node in creation order); else changes nothing.
  Result<void> update_from(const Graph& graph);

 private:
  struct Step {
    CommandKind kind;
    std::function<void()> run;
  };
  // A graph's shape: each node's kind and the creation-order indices of its dependencies.
  using Shape = std::vector<std::pair<CommandKind, std::vector<size_t>>>;
  static Shape shape_of(const std::vector<GraphNode*>& nodes);

  std::shared_ptr<const std::vector<Step>> steps_;
  std::vector<size_t> step_of_node_;                 // by creation index of the source graph's nodes
  std::vector<const GraphNode*> source_nodes_;       // the source graph's nodes, in creation order
  Shape shape_;
};

// Live handles, for checking the ones the API is given.
Graph* create_graph();
bool is_graph(const void* handle);
void destroy_graph(Graph* graph);
GraphExec* keep_graph_exec(std::unique_ptr<GraphExec> exec);
bool is_graph_exec(const void* handle);
void destroy_graph_exec(GraphExec* exec);  // a launch already queued keeps its own copy

}  // namespace cucpu::core
