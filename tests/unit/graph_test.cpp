// Graphs and stream capture in core: dependency order when a graph runs, cycles refused,
// capture turning stream commands into nodes (with a fork and join through events), and
// capture's misuse errors. Nodes are plain C++ closures.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/event.h"
#include "core/graph.h"
#include "core/stream_engine.h"

namespace cucpu::core {
namespace {

StreamEngine& engine() { return StreamEngine::instance(); }

// Nodes append their name here when they run.
struct RunLog {
  std::mutex mutex;
  std::vector<char> order;
  std::function<void()> note(char name) {
    return [this, name] {
      std::lock_guard lock(mutex);
      order.push_back(name);
    };
  }
  size_t position(char name, size_t occurrence = 0) {
    for (size_t i = 0; i < order.size(); ++i)
      if (order[i] == name && occurrence-- == 0) return i;
    return SIZE_MAX;
  }
};

Command host_command(std::function<void()> run) {
  Command command;
  command.kind = CommandKind::HostFunction;
  command.run = std::move(run);
  return command;
}

TEST(Graphs, DiamondRunsInDependencyOrderAtEveryLaunch) {
  RunLog log;
  Graph* graph = create_graph();
  // Created out of order on purpose: d first needs b and c, which need a.
  auto a = graph->add(CommandKind::HostFunction, log.note('a'), {});
  ASSERT_TRUE(a);
  auto b = graph->add(CommandKind::HostFunction, log.note('b'), {*a});
  auto c = graph->add(CommandKind::HostFunction, log.note('c'), {*a});
  ASSERT_TRUE(b && c);
  auto d = graph->add(CommandKind::HostFunction, log.note('d'), {});
  ASSERT_TRUE(d);
  ASSERT_TRUE(graph->add_dependency(*b, *d));
  ASSERT_TRUE(graph->add_dependency(*c, *d));
  EXPECT_EQ(graph->edges().size(), 4u);
  EXPECT_EQ(graph->roots(), std::vector<GraphNode*>{*a});
  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  Stream& stream = engine().create(true, 0);
  for (int launch = 0; launch < 2; ++launch) ASSERT_TRUE(engine().enqueue(stream, (*exec)->launch_command()));
  engine().synchronize(stream);
  ASSERT_EQ(log.order.size(), 8u);
  for (size_t run = 0; run < 2; ++run) {
    EXPECT_LT(log.position('a', run), log.position('b', run));
    EXPECT_LT(log.position('a', run), log.position('c', run));
    EXPECT_LT(log.position('b', run), log.position('d', run));
    EXPECT_LT(log.position('c', run), log.position('d', run));
  }
  EXPECT_LT(log.position('d', 0), log.position('a', 1));  // launches on one stream do not overlap
  engine().destroy(stream);
  destroy_graph(graph);
}

TEST(Graphs, ACloneHasTheSameNodesAndEdgesButIsItsOwn) {
  RunLog log;
  Graph* graph = create_graph();
  auto last = graph->add(CommandKind::HostFunction, log.note('z'), {});
  auto first = graph->add(CommandKind::HostFunction, log.note('a'), {});
  ASSERT_TRUE(last && first);
  ASSERT_TRUE(graph->add_dependency(*first, *last));  // an edge to an earlier-made node
  Graph* clone = create_graph();
  graph->copy_into(*clone);
  destroy_graph(graph);  // the clone does not depend on the original
  ASSERT_EQ(clone->nodes().size(), 2u);
  ASSERT_EQ(clone->edges().size(), 1u);
  EXPECT_TRUE(clone->contains(clone->edges()[0].first));
  auto exec = GraphExec::instantiate(*clone);
  ASSERT_TRUE(exec);
  ASSERT_TRUE(engine().enqueue(engine().legacy(), (*exec)->launch_command()));
  engine().synchronize(engine().legacy());
  EXPECT_EQ(log.order, (std::vector<char>{'a', 'z'}));
  destroy_graph(clone);
}

TEST(Graphs, AnExecutableGraphTakesNewNodeWorkAndSameShapedGraphs) {
  RunLog log;
  Graph* graph = create_graph();
  auto a = graph->add(CommandKind::Kernel, log.note('a'), {});
  ASSERT_TRUE(a);
  ASSERT_TRUE(graph->add(CommandKind::HostFunction, log.note('b'), {*a}));
  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  Command before = (*exec)->launch_command();  // made before the change: keeps 'a'
  ASSERT_TRUE((*exec)->set_node_run(*a, log.note('A')));
  Graph* other = create_graph();
  EXPECT_FALSE((*exec)->set_node_run(*other->add(CommandKind::Kernel, nullptr, {}), nullptr));
  ASSERT_TRUE(engine().enqueue(engine().legacy(), std::move(before)));
  ASSERT_TRUE(engine().enqueue(engine().legacy(), (*exec)->launch_command()));
  engine().synchronize(engine().legacy());
  EXPECT_EQ(log.order, (std::vector<char>{'a', 'b', 'A', 'b'}));

  // Same shape (a kernel, then a host function after it): updated; another shape: refused.
  Graph* same = create_graph();
  auto x = same->add(CommandKind::Kernel, log.note('x'), {});
  ASSERT_TRUE(x && same->add(CommandKind::HostFunction, log.note('y'), {*x}));
  ASSERT_TRUE((*exec)->update_from(*same));
  EXPECT_EQ((*exec)->update_from(*other).error().code, ErrorCode::GraphExecUpdateFailure);
  log.order.clear();
  ASSERT_TRUE(engine().enqueue(engine().legacy(), (*exec)->launch_command()));
  engine().synchronize(engine().legacy());
  EXPECT_EQ(log.order, (std::vector<char>{'x', 'y'}));
  for (Graph* g : {graph, other, same}) destroy_graph(g);
}

TEST(Graphs, CyclesAndForeignNodesAreRefused) {
  Graph* graph = create_graph();
  Graph* other = create_graph();
  auto a = graph->add(CommandKind::Empty, nullptr, {});
  auto b = graph->add(CommandKind::Empty, nullptr, {*a});
  auto foreign = other->add(CommandKind::Empty, nullptr, {});
  ASSERT_TRUE(a && b && foreign);
  EXPECT_FALSE(graph->add(CommandKind::Empty, nullptr, {*foreign}));
  EXPECT_FALSE(graph->add_dependency(*foreign, *a));
  EXPECT_FALSE(graph->add_dependency(*a, *b));  // already there
  ASSERT_TRUE(graph->add_dependency(*b, *a));
  EXPECT_FALSE(GraphExec::instantiate(*graph));
  destroy_graph(graph);
  destroy_graph(other);
}

TEST(Capture, CommandsBecomeNodesWithForkAndJoinThroughEvents) {
  RunLog log;
  Stream& origin = engine().create(true, 0);
  Stream& side = engine().create(true, 0);
  Graph* graph = create_graph();
  ASSERT_TRUE(engine().begin_capture(origin, *graph));
  EXPECT_TRUE(engine().is_capturing(origin));
  EXPECT_FALSE(engine().is_capturing(side));

  ASSERT_TRUE(engine().enqueue(origin, host_command(log.note('a'))));
  Event* fork = create_event(true);
  Event* join = create_event(true);
  ASSERT_TRUE(fork->record(origin));
  engine().join_capture(side, fork->capture_mark());  // cudaStreamWaitEvent(side, fork)
  EXPECT_TRUE(engine().is_capturing(side));
  ASSERT_TRUE(engine().enqueue(side, host_command(log.note('s'))));
  ASSERT_TRUE(engine().enqueue(origin, host_command(log.note('o'))));
  ASSERT_TRUE(join->record(side));
  engine().join_capture(origin, join->capture_mark());  // cudaStreamWaitEvent(origin, join)
  ASSERT_TRUE(engine().enqueue(origin, host_command(log.note('z'))));

  EXPECT_EQ(engine().end_capture(side).error().code, ErrorCode::StreamCaptureUnmatched);
  auto ended = engine().end_capture(origin);
  ASSERT_TRUE(ended);
  EXPECT_EQ(*ended, graph);
  EXPECT_FALSE(engine().is_capturing(origin));
  EXPECT_FALSE(engine().is_capturing(side));
  EXPECT_TRUE(log.order.empty()) << "captured work ran during the capture";
  EXPECT_EQ(graph->nodes().size(), 4u);
  EXPECT_EQ(graph->edges().size(), 4u);  // a->s, a->o, s->z, o->z

  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  ASSERT_TRUE(engine().enqueue(origin, (*exec)->launch_command()));
  engine().synchronize(origin);
  ASSERT_EQ(log.order.size(), 4u);
  EXPECT_EQ(log.order.front(), 'a');
  EXPECT_EQ(log.order.back(), 'z');
  for (Event* event : {fork, join}) destroy_event(event);
  engine().destroy(origin);
  engine().destroy(side);
  destroy_graph(graph);
}

TEST(Capture, MisuseIsAnError) {
  Graph* graph = create_graph();
  EXPECT_EQ(engine().begin_capture(engine().legacy(), *graph).error().code, ErrorCode::StreamCaptureUnsupported);
  Stream& stream = engine().create(false, 0);
  EXPECT_EQ(engine().end_capture(stream).error().code, ErrorCode::IllegalState);
  ASSERT_TRUE(engine().begin_capture(stream, *graph));
  EXPECT_EQ(engine().begin_capture(stream, *graph).error().code, ErrorCode::IllegalState);
  ASSERT_TRUE(engine().end_capture(stream));
  engine().destroy(stream);
  destroy_graph(graph);
}

}  // namespace
}  // namespace cucpu::core
