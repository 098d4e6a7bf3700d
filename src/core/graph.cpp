// Graphs (graph.h): nodes and edges behind a mutex (capture adds nodes from the
// capturing threads), instantiation as Kahn's topological sort, recursively for the
// bodies of child graph and conditional nodes.
#include "core/graph.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/sticky_error.h"
#include "core/stream_engine.h"
#include "exec/graph_conditional.h"
#include "exec/grid.h"

namespace cucpu::core {
namespace {

std::mutex handles_mutex;
auto* graphs = new std::unordered_set<const void*>;  // immortal, as the engine
auto* graph_execs = new std::unordered_set<const void*>;

// The %gridid of the graph kernel node this thread is running (0: none).
thread_local uint64_t running_node_gridid = 0;

}  // namespace

uint64_t running_graph_node_gridid() { return running_node_gridid; }

GraphNode::GraphNode(Graph& graph, NodeContent content) : graph_(graph), content_(std::move(content)) {
  for (Graph* body : content_.bodies) body->owned_by_node_ = true;
}

GraphNode::~GraphNode() {
  for (Graph* body : content_.bodies) destroy_graph(body);
}

Result<GraphNode*> Graph::add(NodeContent content, const std::vector<GraphNode*>& dependencies) {
  std::unique_lock lock(mutex_);
  for (GraphNode* dependency : dependencies)
    if (std::none_of(nodes_.begin(), nodes_.end(), [dependency](const auto& own) { return own.get() == dependency; })) {
      lock.unlock();
      for (Graph* body : content.bodies) destroy_graph(body);  // the node would have owned them
      return make_error(ErrorCode::InvalidValue, "a dependency that is not a node of this graph");
    }
  auto node = std::make_unique<GraphNode>(*this, std::move(content));
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
    NodeContent content = node->content();
    for (Graph*& body : content.bodies) {
      Graph* body_copy = create_graph();
      body->copy_into(*body_copy);
      body = body_copy;
    }
    copy.nodes_.push_back(std::make_unique<GraphNode>(copy, std::move(content)));
    copy.nodes_.back()->launch_attributes = node->launch_attributes;
    copies[node.get()] = copy.nodes_.back().get();
  }
  // Dependencies may name nodes made later (cudaGraphAddDependencies), hence a second pass.
  for (const auto& node : nodes_)
    for (GraphNode* dependency : node->dependencies_) copies[node.get()]->dependencies_.push_back(copies[dependency]);
}

namespace {

// The handles of the conditional nodes of `graph` and of its bodies, at any depth.
void collect_conditional_handles(const Graph& graph, std::vector<uint64_t>& handles) {
  for (const GraphNode* node : graph.nodes()) {
    const NodeContent& content = node->content();
    if (content.condition &&
        std::find(handles.begin(), handles.end(), content.condition->handle) == handles.end())
      handles.push_back(content.condition->handle);
    for (const Graph* body : content.bodies) collect_conditional_handles(*body, handles);
  }
}

}  // namespace

void GraphExec::run_steps(const std::vector<Step>& steps) {
  for (const Step& step : steps) {
    const uint64_t outer = std::exchange(running_node_gridid, step.gridid);
    run_command(step.kind, step.run);
    running_node_gridid = outer;
  }
}

Result<GraphExec::Step> GraphExec::step_of(const GraphNode& node) {
  const NodeContent& content = node.content();
  if (content.bodies.empty())
    return Step{content.kind, content.run, content.kind == CommandKind::Kernel ? exec::next_gridid() : 0};
  std::vector<Steps> bodies;
  for (const Graph* body : content.bodies) {
    auto steps = order_steps(*body, nullptr);
    if (!steps) return steps.error();
    bodies.push_back(std::move(*steps));
  }
  if (!content.condition)  // a child graph: its nodes run in place
    return Step{content.kind, [steps = bodies[0]] { run_steps(*steps); }};
  return Step{content.kind, [condition = *content.condition, bodies = std::move(bodies)] {
                auto value = [&] { return exec::graph_conditional_value(condition.handle).value_or(0); };
                switch (condition.type) {
                  case ConditionType::If:
                    if (value() != 0)
                      run_steps(*bodies[0]);
                    else if (bodies.size() > 1)
                      run_steps(*bodies[1]);
                    break;
                  case ConditionType::While:
                    // A broken device runs no kernel that could end the loop.
                    while (value() != 0 && !sticky_error()) run_steps(*bodies[0]);
                    break;
                  case ConditionType::Switch:
                    if (const uint32_t chosen = value(); chosen < bodies.size()) run_steps(*bodies[chosen]);
                    break;
                }
              }};
}

Result<GraphExec::Steps> GraphExec::order_steps(const Graph& graph, std::vector<size_t>* step_of_node,
                                                std::vector<GraphMemoryEvent>* memory) {
  const std::vector<GraphNode*> nodes = graph.nodes();
  std::unordered_map<const GraphNode*, size_t> waiting;  // dependencies not yet placed
  std::unordered_map<const GraphNode*, std::vector<GraphNode*>> dependents;
  std::vector<GraphNode*> ready;
  for (GraphNode* node : nodes) {
    waiting[node] = node->dependencies().size();
    for (GraphNode* dependency : node->dependencies()) dependents[dependency].push_back(node);
    if (node->dependencies().empty()) ready.push_back(node);
  }
  auto steps = std::make_shared<std::vector<Step>>();
  std::unordered_map<const GraphNode*, size_t> step_index;
  // Kahn's algorithm, taking ready nodes in creation order (a stable, readable schedule).
  for (size_t next = 0; next < ready.size(); ++next) {
    GraphNode* node = ready[next];
    step_index[node] = steps->size();
    auto step = step_of(*node);
    if (!step) return step.error();
    steps->push_back(std::move(*step));
    const NodeContent& content = node->content();
    if (memory && content.allocation)
      memory->push_back(GraphMemoryEvent{content.allocation, content.kind == CommandKind::MemAlloc});
    if (memory && content.kind == CommandKind::Graph)  // a child graph's memory nodes run in place
      for (const Graph* body : content.bodies)
        if (auto ordered = order_steps(*body, nullptr, memory); !ordered) return ordered.error();
    for (GraphNode* dependent : dependents[node])
      if (--waiting[dependent] == 0) ready.push_back(dependent);
  }
  if (steps->size() != nodes.size()) return make_error(ErrorCode::InvalidValue, "the graph has a cycle");
  if (step_of_node)
    for (GraphNode* node : nodes) step_of_node->push_back(step_index[node]);
  return Steps(std::move(steps));
}

Result<std::unique_ptr<GraphExec>> GraphExec::instantiate(const Graph& graph) {
  auto exec = std::make_unique<GraphExec>();
  auto steps = order_steps(graph, &exec->step_of_node_, &exec->memory_events_);
  if (!steps) return steps.error();
  exec->steps_ = std::move(*steps);
  const std::vector<GraphNode*> nodes = graph.nodes();
  exec->source_nodes_.assign(nodes.begin(), nodes.end());
  exec->shape_ = shape_of(nodes);
  collect_conditional_handles(graph, exec->conditional_handles_);
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
  for (size_t i = 0; i < nodes.size(); ++i) {
    auto step = step_of(*nodes[i]);
    if (!step) return step.error();
    step->gridid = (*steps)[step_of_node_[i]].gridid;  // still the same node of this exec
    (*steps)[step_of_node_[i]] = std::move(*step);
  }
  steps_ = std::move(steps);
  return {};
}

bool GraphExec::allocations_outstanding() const {
  if (auto_free_on_launch_) return false;
  return std::ranges::any_of(memory_events_, [](const GraphMemoryEvent& event) {
    return event.allocates && graph_allocation_live(*event.allocation);
  });
}

Command GraphExec::launch_command(uint64_t stream_id) const {
  Command command;
  command.kind = CommandKind::Graph;
  {
    // cudaGraphLaunch: "each launch is ordered behind ... any previous launches of graphExec"
    // (to run a graph concurrently, instantiate it again), whatever the streams.
    std::lock_guard lock(launch_mutex_);
    if (last_launch_) command.after.push_back(last_launch_);
    last_launch_ = command.done;
  }
  if (!memory_events_.empty()) back_graph_launch(memory_events_, stream_id, command.done);
  command.run = [steps = steps_, handles = conditional_handles_] {
    // cudaGraphCondAssignDefault: each launch starts from the handle's default value.
    for (uint64_t handle : handles) exec::reset_graph_conditional(handle);
    run_steps(*steps);
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
