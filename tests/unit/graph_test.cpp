// Graphs and stream capture in core: dependency order when a graph runs, cycles refused,
// capture turning stream commands into nodes (with a fork and join through events), and
// capture's misuse errors; child graph, conditional, event and memory nodes, capture
// modes and capture into an existing graph. Nodes are plain C++ closures.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/event.h"
#include "core/graph.h"
#include "core/graph_memory.h"
#include "core/stream_engine.h"
#include "exec/graph_conditional.h"
#include "exec/grid.h"
#include "jit/kernel_abi.h"

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

// cudaGraphLaunch orders every launch of one executable graph behind the previous one, on
// whichever streams they go: two launches on two streams never overlap.
TEST(Graphs, LaunchesOfOneExecOnTwoStreamsRunOneAfterTheOther) {
  std::atomic<int> running{0}, most{0};
  Graph* graph = create_graph();
  ASSERT_TRUE(graph->add(CommandKind::HostFunction, [&] {
    most = std::max(most.load(), ++running);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    --running;
  }, {}));
  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  Stream& one = engine().create(true, 0);
  Stream& two = engine().create(true, 0);
  for (int launch = 0; launch < 3; ++launch) {
    ASSERT_TRUE(engine().enqueue(one, (*exec)->launch_command(one.id())));
    ASSERT_TRUE(engine().enqueue(two, (*exec)->launch_command(two.id())));
  }
  engine().synchronize(one);
  engine().synchronize(two);
  EXPECT_EQ(most.load(), 1);
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
  EXPECT_EQ((*ended)->graph, graph);
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

// --- node kinds beyond plain commands -----------------------------------------------------

namespace cucpu::core {
namespace {

// Runs an executable graph once on a fresh stream and waits for it.
void launch_once(const GraphExec& exec) {
  Stream& stream = engine().create(true, 0);
  ASSERT_TRUE(engine().enqueue(stream, exec.launch_command()));
  engine().synchronize(stream);
  engine().destroy(stream);
}

TEST(GraphNodes, AChildGraphRunsInPlaceAsTheCopyMadeWhenItWasAdded) {
  RunLog log;
  Graph* child = create_graph();
  auto x = child->add(CommandKind::HostFunction, log.note('x'), {});
  ASSERT_TRUE(x && child->add(CommandKind::HostFunction, log.note('y'), {*x}));
  Graph* body = create_graph();
  child->copy_into(*body);  // what cudaGraphAddChildGraphNode does with the child
  ASSERT_TRUE(child->add(CommandKind::HostFunction, log.note('!'), {}));  // not in the node's copy

  Graph* graph = create_graph();
  auto a = graph->add(CommandKind::HostFunction, log.note('a'), {});
  ASSERT_TRUE(a);
  auto node = graph->add(NodeContent{.kind = CommandKind::Graph, .bodies = {body}}, {*a});
  ASSERT_TRUE(node);
  EXPECT_TRUE(body->owned_by_node());
  ASSERT_TRUE(graph->add(CommandKind::HostFunction, log.note('z'), {*node}));
  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  launch_once(**exec);
  EXPECT_EQ(log.order, (std::vector<char>{'a', 'x', 'y', 'z'}));

  // A clone of the parent copies the child too; destroying the parent destroys the body.
  Graph* clone = create_graph();
  graph->copy_into(*clone);
  const GraphNode* cloned_node = clone->nodes()[1];
  ASSERT_EQ(cloned_node->content().bodies.size(), 1u);
  EXPECT_NE(cloned_node->content().bodies[0], body);
  EXPECT_EQ(cloned_node->content().bodies[0]->nodes().size(), 2u);
  destroy_graph(graph);
  EXPECT_FALSE(is_graph(body));
  destroy_graph(clone);
  destroy_graph(child);
}

// A graph whose conditional node (of `type`, with `size` bodies) follows a host node that
// sets the handle to `value`; body i logs the digit i.
struct ConditionalGraph {
  RunLog log;
  Graph* graph = create_graph();
  uint64_t handle;
  std::unique_ptr<GraphExec> exec;

  ConditionalGraph(ConditionType type, unsigned size, uint32_t default_value = 0, bool assign_default = false)
      : handle(exec::create_graph_conditional(default_value, assign_default)) {
    NodeContent content{.kind = CommandKind::Conditional, .condition = Condition{handle, type}};
    for (unsigned i = 0; i < size; ++i) content.bodies.push_back(create_graph());
    for (unsigned i = 0; i < size; ++i)
      EXPECT_TRUE(content.bodies[i]->add(CommandKind::HostFunction, log.note(static_cast<char>('0' + i)), {}));
    EXPECT_TRUE(graph->add(std::move(content), {}));
    auto made = GraphExec::instantiate(*graph);
    EXPECT_TRUE(made);
    if (made) exec = std::move(*made);
  }
  ~ConditionalGraph() { destroy_graph(graph); }
  std::vector<char> run_with(uint32_t value) {
    log.order.clear();
    EXPECT_TRUE(exec::set_graph_conditional(handle, value));
    launch_once(*exec);
    return log.order;
  }
};

TEST(GraphNodes, ConditionalIfElseAndSwitchRunTheBodyTheValueChooses) {
  ConditionalGraph if_only(ConditionType::If, 1);
  EXPECT_EQ(if_only.run_with(0), std::vector<char>{});
  EXPECT_EQ(if_only.run_with(7), std::vector<char>{'0'});
  ConditionalGraph if_else(ConditionType::If, 2);
  EXPECT_EQ(if_else.run_with(0), std::vector<char>{'1'});
  EXPECT_EQ(if_else.run_with(1), std::vector<char>{'0'});
  ConditionalGraph cases(ConditionType::Switch, 3);
  EXPECT_EQ(cases.run_with(2), std::vector<char>{'2'});
  EXPECT_EQ(cases.run_with(0), std::vector<char>{'0'});
  EXPECT_EQ(cases.run_with(3), std::vector<char>{});  // past the last body: none runs
}

TEST(GraphNodes, ConditionalWhileRunsItsBodyUntilTheBodyClearsTheValue) {
  RunLog log;
  Graph* graph = create_graph();
  // cudaGraphCondAssignDefault with 1: every launch starts looping (a do-while).
  const uint64_t handle = exec::create_graph_conditional(1, true);
  NodeContent content{.kind = CommandKind::Conditional, .condition = Condition{handle, ConditionType::While}};
  Graph* body = create_graph();
  content.bodies.push_back(body);
  int counter = 0;
  auto count_down = [&] {
    log.note('b')();
    if (--counter <= 0) exec::set_graph_conditional(handle, 0);
  };
  ASSERT_TRUE(body->add(CommandKind::HostFunction, count_down, {}));
  ASSERT_TRUE(graph->add(std::move(content), {}));
  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  counter = 3;
  launch_once(**exec);
  EXPECT_EQ(log.order, std::vector<char>(3, 'b'));
  EXPECT_EQ(exec::graph_conditional_value(handle), 0u);
  counter = 2;  // the default value applies again at the next launch
  launch_once(**exec);
  EXPECT_EQ(log.order.size(), 5u);
  destroy_graph(graph);
  EXPECT_FALSE(is_graph(body));
}

TEST(GraphNodes, DeviceSideSetConditionalWritesTheHandlesValue) {
  // What a kernel's call of cudaGraphSetConditional(handle, value) reaches.
  using DeviceFunction = void (*)(jit::ThreadContext*, void* const*, void*);
  const jit::RuntimeSymbols symbols = exec::GridExecutor::runtime_symbols();
  auto found = symbols.find(std::string(jit::kDeviceRuntimePrefix) + "cudaGraphSetConditional");
  ASSERT_NE(found, symbols.end());
  const uint64_t handle = exec::create_graph_conditional(0, false);
  uint32_t value = 42;
  void* args[] = {const_cast<uint64_t*>(&handle), &value};
  reinterpret_cast<DeviceFunction>(found->second)(nullptr, args, nullptr);
  EXPECT_EQ(exec::graph_conditional_value(handle), 42u);
  EXPECT_FALSE(exec::graph_conditional_value(handle + 1000000));
}

TEST(GraphNodes, EventRecordAndWaitNodesOrderAgainstOtherStreams) {
  Event* ready = create_event(false);
  Event* reached = create_event(false);
  Stream& other = engine().create(true, 0);
  std::atomic<bool> release{false};
  std::atomic<bool> waited_for_other{false};
  // The other stream's work ends only when released; the graph waits for it.
  ASSERT_TRUE(engine().enqueue(other, host_command([&] {
    while (!release) std::this_thread::sleep_for(std::chrono::microseconds(100));
    waited_for_other = true;
  })));
  ASSERT_TRUE(ready->record(other));
  Graph* graph = create_graph();
  auto wait = graph->add(NodeContent{.kind = CommandKind::EventWait,
                                     .run = [ready] { ready->completion()->wait(); },
                                     .event = ready},
                         {});
  ASSERT_TRUE(wait);
  bool saw_other = false;
  auto check = graph->add(CommandKind::HostFunction, [&] { saw_other = waited_for_other.load(); }, {*wait});
  ASSERT_TRUE(check);
  ASSERT_TRUE(graph->add(NodeContent{.kind = CommandKind::EventRecord, .run = [reached] { reached->record_reached(); },
                                     .event = reached},
                         {*check}));
  auto exec = GraphExec::instantiate(*graph);
  ASSERT_TRUE(exec);
  Stream& stream = engine().create(true, 0);
  ASSERT_TRUE(engine().enqueue(stream, (*exec)->launch_command()));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  release = true;
  engine().synchronize(stream);
  EXPECT_TRUE(saw_other);
  EXPECT_TRUE(reached->is_complete());
  EXPECT_TRUE(Event::elapsed_ms(*ready, *reached));
  engine().destroy(stream);
  engine().destroy(other);
  destroy_graph(graph);
  destroy_event(ready);
  destroy_event(reached);
}

// A graph that allocates `memory`, runs `work` on it, and frees it unless told not to.
Graph* allocating_graph(const std::shared_ptr<GraphAllocation>& memory, std::function<void()> work, bool frees = true) {
  Graph* graph = create_graph();
  auto alloc = graph->add(NodeContent{.kind = CommandKind::MemAlloc, .allocation = memory}, {});
  EXPECT_TRUE(alloc);
  auto use = graph->add(CommandKind::HostFunction, std::move(work), {*alloc});
  EXPECT_TRUE(use);
  if (frees) {
    EXPECT_TRUE(graph->add(NodeContent{.kind = CommandKind::MemFree,
                                       .run = [memory] { memory->release_pages(); },
                                       .allocation = memory},
                           {*use}));
  }
  return graph;
}

TEST(GraphNodes, GraphAllocationsAreBackedAtLaunchAndReusedInStreamOrder) {
  constexpr int kDevice = 0;
  trim_graph_memory(kDevice);
  const uint64_t base = graph_memory_usage(kDevice).used;
  auto reserve = [&] {
    auto made = reserve_graph_allocation(100000, kDevice);
    EXPECT_TRUE(made);
    return made ? std::move(*made) : nullptr;
  };
  std::shared_ptr<GraphAllocation> a = reserve(), b = reserve(), c = reserve();
  ASSERT_TRUE(a && b && c);
  const uint64_t size = a->size();
  EXPECT_GE(size, 100000u);
  EXPECT_EQ(find_graph_allocation(a->pointer()), a);
  std::atomic<bool> release{false};
  auto held = [&release, address = a->pointer()] {
    static_cast<uint8_t*>(address)[99999] = 1;  // the address is device memory of its own
    while (!release) std::this_thread::sleep_for(std::chrono::microseconds(100));
  };
  Graph* first = allocating_graph(a, held);
  Graph* second = allocating_graph(b, [] {});
  Graph* unfreed = allocating_graph(c, [] {}, false);
  auto first_exec = GraphExec::instantiate(*first);
  auto second_exec = GraphExec::instantiate(*second);
  auto unfreed_exec = GraphExec::instantiate(*unfreed);
  ASSERT_TRUE(first_exec && second_exec && unfreed_exec);
  EXPECT_EQ(graph_memory_usage(kDevice).used, base);  // instantiating backs nothing

  Stream& one = engine().create(true, 0);
  Stream& two = engine().create(true, 0);
  ASSERT_TRUE(engine().enqueue(one, (*first_exec)->launch_command(one.id())));
  EXPECT_EQ(graph_memory_usage(kDevice).used, base + size);  // backed at launch, before it runs
  ASSERT_TRUE(engine().enqueue(one, (*second_exec)->launch_command(one.id())));
  EXPECT_EQ(graph_memory_usage(kDevice).used, base + size);  // after it on the same stream: reused
  ASSERT_TRUE(engine().enqueue(two, (*first_exec)->launch_command(two.id())));
  // On another stream: the launch waits for the exec's previous one (cudaGraphLaunch orders
  // launches of one exec), but its memory is backed at launch, apart: more memory.
  EXPECT_EQ(graph_memory_usage(kDevice).used, base + 2 * size);
  release = true;
  engine().synchronize(one);
  engine().synchronize(two);
  ASSERT_TRUE(engine().enqueue(two, (*unfreed_exec)->launch_command(two.id())));
  engine().synchronize(two);
  EXPECT_EQ(graph_memory_usage(kDevice).used, base + 2 * size);  // completed launches' memory reused
  trim_graph_memory(kDevice);
  EXPECT_EQ(graph_memory_usage(kDevice).used, base + size);  // the unfreed allocation keeps its memory
  free_graph_allocation(*c, 0, nullptr);  // cudaFree
  EXPECT_EQ(graph_memory_usage(kDevice).used, base + size);  // freed memory stays kept...
  trim_graph_memory(kDevice);
  EXPECT_EQ(graph_memory_usage(kDevice).used, base);  // ...until trimmed
  EXPECT_GE(graph_memory_usage(kDevice).used_high, base + 2 * size);

  void* const address = a->pointer();
  engine().destroy(one);
  engine().destroy(two);
  for (Graph* graph : {first, second, unfreed}) destroy_graph(graph);
  first_exec->reset();
  a.reset();
  // Unmapped with the last owner (a stream thread drops its launch's copy just after it ran).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (find_graph_allocation(address) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(find_graph_allocation(address), nullptr);
}

TEST(CaptureModes, UnsafeCallsFailAndInvalidateGlobalAndOwnCaptures) {
  Stream& stream = engine().create(true, 0);
  Graph* graph = create_graph();
  EXPECT_TRUE(engine().check_unsafe_call("cudaMalloc"));  // nothing captures
  ASSERT_TRUE(engine().begin_capture(stream, *graph, CaptureMode::Global));
  EXPECT_EQ(engine().check_unsafe_call("cudaMalloc").error().code, ErrorCode::StreamCaptureUnsupported);
  EXPECT_EQ(engine().enqueue(stream, host_command([] {})).error().code, ErrorCode::StreamCaptureInvalidated);
  EXPECT_EQ(engine().end_capture(stream).error().code, ErrorCode::StreamCaptureInvalidated);
  EXPECT_FALSE(engine().is_capturing(stream));  // over all the same

  // Relaxed captures forbid nothing; a thread in relaxed mode is never stopped.
  ASSERT_TRUE(engine().begin_capture(stream, *graph, CaptureMode::Relaxed));
  EXPECT_TRUE(engine().check_unsafe_call("cudaMalloc"));
  ASSERT_TRUE(engine().end_capture(stream));
  ASSERT_TRUE(engine().begin_capture(stream, *graph, CaptureMode::Global));
  EXPECT_EQ(exchange_thread_capture_mode(CaptureMode::Relaxed), CaptureMode::Global);
  EXPECT_TRUE(engine().check_unsafe_call("cudaMalloc"));
  EXPECT_EQ(exchange_thread_capture_mode(CaptureMode::Global), CaptureMode::Relaxed);
  ASSERT_TRUE(engine().end_capture(stream));

  // Another thread's capture: a global one stops this thread, a thread-local one does not.
  for (CaptureMode mode : {CaptureMode::ThreadLocal, CaptureMode::Global}) {
    std::thread([&] { ASSERT_TRUE(engine().begin_capture(stream, *graph, mode)); }).join();
    const bool allowed = static_cast<bool>(engine().check_unsafe_call("cudaMalloc"));
    EXPECT_EQ(allowed, mode == CaptureMode::ThreadLocal);
    EXPECT_EQ(engine().end_capture(stream).error().code, ErrorCode::StreamCaptureWrongThread);
    std::thread([&] { (void)engine().end_capture(stream); }).join();
  }
  engine().destroy(stream);
  destroy_graph(graph);
}

TEST(Capture, IntoAnExistingGraphAfterGivenNodesAndWithReplacedDependencies) {
  RunLog log;
  Graph* graph = create_graph();
  auto a = graph->add(CommandKind::HostFunction, log.note('a'), {});
  auto b = graph->add(CommandKind::HostFunction, log.note('b'), {});
  ASSERT_TRUE(a && b);
  Stream& stream = engine().create(true, 0);
  ASSERT_TRUE(engine().begin_capture(stream, *graph, CaptureMode::Global, {*a}, true));
  ASSERT_TRUE(engine().enqueue(stream, host_command(log.note('c'))));  // after a
  ASSERT_TRUE(engine().update_capture_tips(stream, {*b}, true));
  ASSERT_TRUE(engine().enqueue(stream, host_command(log.note('d'))));  // after b only
  Graph* other = create_graph();
  auto foreign = other->add(CommandKind::Empty, nullptr, {});
  ASSERT_TRUE(foreign);
  EXPECT_EQ(engine().update_capture_tips(stream, {*foreign}, false).error().code, ErrorCode::InvalidValue);
  auto ended = engine().end_capture(stream);
  ASSERT_TRUE(ended);
  EXPECT_TRUE((*ended)->into_existing_graph);
  const std::vector<GraphNode*> nodes = graph->nodes();
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[2]->dependencies(), std::vector<GraphNode*>{*a});
  EXPECT_EQ(nodes[3]->dependencies(), std::vector<GraphNode*>{*b});
  engine().destroy(stream);
  destroy_graph(graph);
  destroy_graph(other);
}

}  // namespace
}  // namespace cucpu::core
