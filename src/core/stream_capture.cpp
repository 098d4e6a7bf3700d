// Stream capture's beginning and end (stream_capture.h).
#include "core/stream_capture.h"

#include <cstdio>

#include "core/graph_building.h"

namespace cucpu::core {

Result<void> begin_stream_capture(Stream& stream, CaptureMode mode, Graph* existing, std::vector<GraphNode*> tips) {
  Graph* graph = existing ? existing : create_graph();
  for (GraphNode* tip : tips) {
    if (!graph->contains(tip)) {
      if (!existing) destroy_graph(graph);
      return make_error(ErrorCode::InvalidValue, "a dependency that is not a node of the graph");
    }
  }
  auto begun = StreamEngine::instance().begin_capture(stream, *graph, mode, std::move(tips), existing != nullptr);
  if (!begun && !existing) destroy_graph(graph);
  return begun;
}

Result<Graph*> end_stream_capture(Stream& stream, bool graph_wanted) {
  const CaptureMark mark = StreamEngine::instance().capture_of(stream);
  if (!graph_wanted && !(mark.session && mark.session->into_existing_graph))
    return make_error(ErrorCode::InvalidValue, "no graph to return the capture in");
  auto ended = StreamEngine::instance().end_capture(stream);
  if (!ended) {
    if (ended.error().code == ErrorCode::StreamCaptureInvalidated && !mark.session->into_existing_graph)
      destroy_graph(mark.session->graph);
    return ended.error();
  }
  return (*ended)->graph;
}

Result<GraphExec*> instantiate_graph(Graph& graph, bool auto_free_on_launch) {
  auto exec = GraphExec::instantiate(graph);
  if (!exec) return exec.error();
  (*exec)->set_auto_free_on_launch(auto_free_on_launch);
  return keep_graph_exec(std::move(*exec));
}

Result<void> launch_graph(GraphExec& exec, Stream& stream) {
  if (exec.allocations_outstanding()) {
    std::fprintf(stderr,
                 "cucpu: graph launch: the graph's memory allocated by its last launch is not freed yet "
                 "(free it, or instantiate with the AutoFreeOnLaunch flag)\n");
    return make_error(ErrorCode::InvalidValue, "the graph's allocations are live");
  }
  Command command = exec.launch_command(stream.id());
  const CompletionRef done = command.done;
  auto queued = StreamEngine::instance().enqueue(stream, std::move(command));
  if (queued) return {};
  done->mark_done();  // never queued: the exec's next launch must not wait for it
  return queued.error();
}

namespace {

// Adds the node `make` gives (from the capture's graph and tips) and makes it the tip.
template <typename Make>
Result<GraphNode*> add_captured_node(Stream& stream, Make make) {
  auto& engine = StreamEngine::instance();
  const CaptureMark mark = engine.capture_of(stream);
  if (!mark.session) return Error{ErrorCode::InvalidValue, "the stream is not capturing"};
  if (mark.session->invalidated) return Error{ErrorCode::StreamCaptureInvalidated, "the capture was invalidated"};
  Graph& graph = *mark.session->graph;
  std::vector<GraphNode*> tips(mark.tips.begin(), mark.tips.end());
  Result<NodeContent> content = make(graph, tips);
  if (!content) return content.error();
  auto node = add_graph_node(&graph, tips, std::move(*content));
  if (!node) return node.error();
  if (auto moved = engine.update_capture_tips(stream, {*node}, true); !moved) return moved.error();
  return *node;
}

}  // namespace

Result<void*> capture_allocation(Stream& stream, size_t size, int device) {
  auto node = add_captured_node(stream, [&](const Graph& graph, const std::vector<GraphNode*>& tips) {
    return mem_alloc_node(graph, tips, size, device);
  });
  if (!node) return node.error();
  return (*node)->content().allocation->pointer();
}

Result<void> capture_free(Stream& stream, void* pointer) {
  auto node = add_captured_node(stream, [&](const Graph&, const std::vector<GraphNode*>&) {
    return mem_free_node(pointer);
  });
  if (!node) return node.error();
  return {};
}

}  // namespace cucpu::core
