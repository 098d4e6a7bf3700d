// Graphs (graph.h): nodes and edges behind a mutex (capture adds nodes from the
// capturing threads), instantiation as Kahn's topological sort.
#include "core/graph.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/stream_engine.h"

namespace cucpu::core {
namespace {

std::mutex handles_mutex;
auto* graphs = new std::unordered_set<const void*>;  // immortal, as the engine
auto* graph_execs = new std::unordered_set<const void*>;

}  // namespace

Result<GraphNode*> Graph::add(CommandKind kind, std::function<void()> run,
                              const std::vector<GraphNode*>& dependencies) {
  std::lock_guard lock(mutex_);
  for (GraphNode* dependency : dependencies)
    if (std::none_of(nodes_.begin(), nodes_.end(), [dependency](const auto& own) { return own.get() == dependency; }))
      return make_error(ErrorCode::InvalidValue, "a dependency that is not a node of this graph");
  auto node = std::make_unique<GraphNode>(*this, kind, std::move(run));
  for (GraphNode* dependency : dependencies)
    if (std::find(node->dependencies_.begin(), node->dependencies_.end(), dependency) == node->dependencies_.end())
      node->dependencies_.push_back(dependency);
  nodes_.push_back(std::move(node));
  return nodes_.back().get();
}

Result<void> Graph::add_dependency(GraphNode* from, GraphNode* to) {
  if (!contains(from) || !contains(to) || from == to)
    return make_error(ErrorCode::InvalidValue, "an edge between nodes that are not two nodes of this graph");
  std::lock_guard lock(mutex_);
  if (std::find(to->dependencies_.begin(), to->dependencies_.end(), from) != to->dependencies_.end())
    return make_error(ErrorCode::InvalidValue, "an edge the graph has already");
  to->dependencies_.push_back(from);
  return {};
}

bool Graph::contains(const GraphNode* node) const {
  std::lock_guard lock(mutex_);
  return std::any_of(nodes_.begin(), nodes_.end(), [node](const auto& own) { return own.get() == node; });
}

std::vector<GraphNode*> Graph::nodes() const {
  std::lock_guard lock(mutex_);
  std::vector<GraphNode*> all;
  for (const auto& node : nodes_) all.push_back(node.get());
  return all;
}

std::vector<GraphNode*> Graph::roots() const {
  std::vector<GraphNode*> all = nodes(), roots;
  std::copy_if(all.begin(), all.end(), std::back_inserter(roots),
               [](const GraphNode* node) { return node->dependencies().empty(); });
  return roots;
}

std::vector<std::pair<GraphNode*, GraphNode*>> Graph::edges() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<GraphNode*, GraphNode*>> edges;
  for (const auto& node : nodes_)
    for (GraphNode* from : node->dependencies_) edges.emplace_back(from, node.get());
  return edges;
}

void Graph::copy_into(Graph& copy) const {
  std::scoped_lock lock(mutex_, copy.mutex_);
  std::unordered_map<const GraphNode*, GraphNode*> copies;
  for (const auto& node : nodes_) {
    copy.nodes_.push_back(std::make_unique<GraphNode>(copy, node->kind(), node->run()));
    copies[node.get()] = copy.nodes_.back().get();
  }
  // Dependencies may name nodes made later (cudaGraphAddDependencies), hence a second pass.
  for (const auto& node : nodes_)
    for (GraphNode* dependency : node->dependencies_) copies[node.get()]->dependencies_.push_back(copies[dependency]);
}

Result<std::unique_ptr<GraphExec>> GraphExec::instantiate(const Graph& graph) {
  const std::vector<GraphNode*> nodes = graph.nodes();
  std::unordered_map<const GraphNode*, size_t> waiting;  // dependencies not yet placed
  std::unordered_map<const GraphNode*, std::vector<GraphNode*>> dependents;
  std::vector<GraphNode*> ready;
  for (GraphNode* node : nodes) {
    waiting[node] = node->dependencies().size();
    for (GraphNode* dependency : node->dependencies()) dependents[dependency].push_back(node);
    if (node->dependencies().empty()) ready.push_back(node);
  }
  auto exec = std::make_unique<GraphExec>();
  auto steps = std::make_shared<std::vector<Step>>();
  std::unordered_map<const GraphNode*, size_t> step_of;
  // Kahn's algorithm, taking ready nodes in creation order (a stable, readable schedule).
  for (size_t next = 0; next < ready.size(); ++next) {
    GraphNode* node = ready[next];
    step_of[node] = steps->size();
    steps->push_back(Step{node->kind(), node->run()});
    for (GraphNode* dependent : dependents[node])
      if (--waiting[dependent] == 0) ready.push_back(dependent);
  }
  if (steps->size() != nodes.size()) return make_error(ErrorCode::InvalidValue, "the graph has a cycle");
  exec->steps_ = std::move(steps);
  for (GraphNode* node : nodes) {
    exec->step_of_node_.push_back(step_of[node]);
    exec->source_nodes_.push_back(node);
  }
  exec->shape_ = shape_of(nodes);
  return exec;
}

GraphExec::Shape GraphExec::shape_of(const std::vector<GraphNode*>& nodes) {
  std::unordered_map<const GraphNode*, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  Shape shape;
  for (const GraphNode* node : nodes) {
    std::vector<size_t> dependencies;
    for (const GraphNode* dependency : node->dependencies()) dependencies.push_back(index[dependency]);
    std::sort(dependencies.begin(), dependencies.end());
    shape.emplace_back(node->kind(), std::move(dependencies));
  }
  return shape;
}

Result<void> GraphExec::set_node_run(const GraphNode* node, std::function<void()> run) {
  auto found = std::find(source_nodes_.begin(), source_nodes_.end(), node);
  if (found == source_nodes_.end())
    return make_error(ErrorCode::InvalidValue, "a node that is not in the graph this was instantiated from");
  const size_t step = step_of_node_[found - source_nodes_.begin()];
  auto steps = std::make_shared<std::vector<Step>>(*steps_);  // copy on write: queued launches keep theirs
  (*steps)[step].run = std::move(run);
  steps_ = std::move(steps);
  return {};
}

Result<void> GraphExec::update_from(const Graph& graph) {
  const std::vector<GraphNode*> nodes = graph.nodes();
  if (shape_of(nodes) != shape_)
    return make_error(ErrorCode::GraphExecUpdateFailure, "the graph's nodes or edges differ from the instantiated graph's");
  auto steps = std::make_shared<std::vector<Step>>(*steps_);
  for (size_t i = 0; i < nodes.size(); ++i) (*steps)[step_of_node_[i]].run = nodes[i]->run();
  steps_ = std::move(steps);
  return {};
}

Command GraphExec::launch_command() const {
  Command command;
  command.kind = CommandKind::Graph;
  command.run = [steps = steps_] {
    for (const Step& step : *steps) run_command(step.kind, step.run);
  };
  return command;
}

Graph* create_graph() {
  auto* graph = new Graph;
  std::lock_guard lock(handles_mutex);
  graphs->insert(graph);
  return graph;
}

bool is_graph(const void* handle) {
  std::lock_guard lock(handles_mutex);
  return graphs->contains(handle);
}

void destroy_graph(Graph* graph) {
  {
    std::lock_guard lock(handles_mutex);
    graphs->erase(graph);
  }
  delete graph;
}

GraphExec* keep_graph_exec(std::unique_ptr<GraphExec> exec) {
  std::lock_guard lock(handles_mutex);
  graph_execs->insert(exec.get());
  return exec.release();
}

bool is_graph_exec(const void* handle) {
  std::lock_guard lock(handles_mutex);
  return graph_execs->contains(handle);
}

void destroy_graph_exec(GraphExec* exec) {
  {
    std::lock_guard lock(handles_mutex);
    graph_execs->erase(exec);
  }
  delete exec;
}

}  // namespace cucpu::core
