// The stream engine: order within a stream, concurrency between streams, the legacy
// default stream's barriers, events, destroying streams with work queued, host functions,
// and a stress run of many host threads launching grids over shared streams with events
// between them. Commands here are plain C++ closures (and hand-written kernels run on the
// grid executor), so every expectation is about ordering, not about compiled code.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "core/event.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"
#include "exec/grid.h"
#include "jit/kernel_abi.h"

namespace cucpu::core {
namespace {

using namespace std::chrono_literals;

StreamEngine& engine() { return StreamEngine::instance(); }

Command command_of(std::function<void()> run, CommandKind kind = CommandKind::HostFunction) {
  Command command;
  command.kind = kind;
  command.run = std::move(run);
  return command;
}

CompletionRef enqueue(Stream& stream, std::function<void()> run, CommandKind kind = CommandKind::HostFunction) {
  auto queued = engine().enqueue(stream, command_of(std::move(run), kind));
  EXPECT_TRUE(queued);
  return queued ? *queued : nullptr;
}

// Waits for a flag, giving up after a while: a missing ordering fails instead of hanging.
bool wait_for(const std::atomic<bool>& flag, std::chrono::milliseconds limit = 5000ms) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!flag.load()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(100us);
  }
  return true;
}

// A global sequence: each stamped command notes when it started and ended.
struct Stamp {
  unsigned start = 0, end = 0;
};
std::atomic<unsigned> sequence{1};
std::function<void()> stamped(Stamp& stamp, std::chrono::milliseconds delay) {
  return [&stamp, delay] {
    stamp.start = sequence++;
    std::this_thread::sleep_for(delay);
    stamp.end = sequence++;
  };
}

TEST(Streams, CommandsOfOneStreamRunInOrder) {
  Stream& stream = engine().create(false, 0);
  std::vector<int> order;
  for (int i = 0; i < 100; ++i)
    enqueue(stream, [&order, i] {
      if (i % 10 == 0) std::this_thread::sleep_for(1ms);
      order.push_back(i);
    });
  engine().synchronize(stream);
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[i], i);
  EXPECT_TRUE(engine().is_idle(stream));
  engine().destroy(stream);
}

TEST(Streams, IndependentStreamsRunConcurrently) {
  Stream& a = engine().create(true, 0);
  Stream& b = engine().create(true, 0);
  std::atomic<bool> set_by_b{false}, a_saw_it{false};
  enqueue(a, [&] { a_saw_it = wait_for(set_by_b); });
  enqueue(b, [&] { set_by_b = true; });
  engine().synchronize_all();
  EXPECT_TRUE(a_saw_it) << "stream a's command never saw stream b's: the streams did not overlap";
  engine().destroy(a);
  engine().destroy(b);
}

TEST(Streams, BusyUntilItsWorkIsDone) {
  Stream& stream = engine().create(true, 0);
  std::atomic<bool> release{false}, released{false};
  enqueue(stream, [&] { released = wait_for(release); });
  EXPECT_FALSE(engine().is_idle(stream));
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(engine().is_idle(stream));
  release = true;
  engine().synchronize(stream);
  EXPECT_TRUE(released);
  EXPECT_TRUE(engine().is_idle(stream));
  engine().destroy(stream);
}

TEST(LegacyStream, OrdersBlockingStreamsBothWays) {
  // The guide's k1 on s, k2 on NULL, k3 on s: strictly in order.
  Stream& s = engine().create(false, 0);
  Stamp k1, k2, k3;
  enqueue(s, stamped(k1, 20ms));
  enqueue(engine().legacy(), stamped(k2, 20ms));
  enqueue(s, stamped(k3, 0ms));
  engine().synchronize_all();
  EXPECT_GT(k2.start, k1.end);
  EXPECT_GT(k3.start, k2.end);
  engine().destroy(s);
}

TEST(LegacyStream, NonBlockingStreamsAreExempt) {
  Stream& nb = engine().create(true, 0);
  // Each side waits for a flag only the other side sets: a barrier between them deadlocks.
  std::atomic<bool> from_legacy{false}, from_nb{false}, nb_saw{false}, legacy_saw{false};
  enqueue(nb, [&] { nb_saw = wait_for(from_legacy); });
  enqueue(engine().legacy(), [&] { from_legacy = true; });
  enqueue(engine().legacy(), [&] { legacy_saw = wait_for(from_nb); });
  enqueue(nb, [&] { from_nb = true; });
  engine().synchronize_all();
  EXPECT_TRUE(nb_saw);
  EXPECT_TRUE(legacy_saw);
  engine().destroy(nb);
}

TEST(LegacyStream, PerThreadStreamsAreBlocking) {
  Stamp on_thread, on_legacy;
  std::thread([&] { enqueue(engine().per_thread(), stamped(on_thread, 20ms)); }).join();
  // The thread has ended; its stream's work still runs, and the legacy stream waits for it.
  enqueue(engine().legacy(), stamped(on_legacy, 0ms));
  engine().synchronize(engine().legacy());
  EXPECT_NE(on_thread.end, 0u);
  EXPECT_GT(on_legacy.start, on_thread.end);
}

TEST(LegacyStream, SynchronizingItWaitsForBlockingStreams) {
  Stream& s = engine().create(false, 0);
  std::atomic<bool> done{false};
  enqueue(s, [&] {
    std::this_thread::sleep_for(20ms);
    done = true;
  });
  EXPECT_FALSE(engine().is_idle(engine().legacy()));
  engine().synchronize(engine().legacy());
  EXPECT_TRUE(done);
  engine().destroy(s);
}

TEST(Events, WaitOrdersStreamsAndTimesTheWork) {
  Stream& producer = engine().create(true, 0);
  Stream& consumer = engine().create(true, 0);
  Event* start = create_event(false);
  Event* produced = create_event(false);
  int data = -1, seen = 0;
  ASSERT_TRUE(start->record(producer));
  enqueue(producer, [&] {
    std::this_thread::sleep_for(30ms);
    data = 42;
  });
  ASSERT_TRUE(produced->record(producer));
  EXPECT_FALSE(produced->is_complete());
  EXPECT_EQ(Event::elapsed_ms(*start, *produced).error().code, ErrorCode::NotReady);
  Command wait;
  wait.after.push_back(produced->completion());
  ASSERT_TRUE(engine().enqueue(consumer, std::move(wait)));
  enqueue(consumer, [&] { seen = data; });
  engine().synchronize(consumer);
  EXPECT_EQ(seen, 42);
  produced->synchronize();
  EXPECT_TRUE(produced->is_complete());
  auto elapsed = Event::elapsed_ms(*start, *produced);
  ASSERT_TRUE(elapsed);
  EXPECT_GE(*elapsed, 25.0f);
  destroy_event(start);
  destroy_event(produced);
  engine().destroy(producer);
  engine().destroy(consumer);
}

TEST(Events, NeverRecordedAndUntimedEvents) {
  Event* never = create_event(false);
  Event* untimed = create_event(true);
  Event* timed = create_event(false);
  EXPECT_TRUE(never->is_complete());
  EXPECT_EQ(never->completion(), nullptr);
  ASSERT_TRUE(untimed->record(engine().legacy()));
  ASSERT_TRUE(timed->record(engine().legacy()));
  timed->synchronize();
  EXPECT_EQ(Event::elapsed_ms(*never, *timed).error().code, ErrorCode::InvalidResourceHandle);
  EXPECT_EQ(Event::elapsed_ms(*untimed, *timed).error().code, ErrorCode::InvalidResourceHandle);
  EXPECT_TRUE(is_event(never));
  for (Event* event : {never, untimed, timed}) destroy_event(event);
  EXPECT_FALSE(is_event(never));
}

TEST(Streams, DestroyWithPendingWorkFinishesIt) {
  Stream& stream = engine().create(false, 0);
  std::atomic<bool> ran{false};
  enqueue(stream, [&] {
    std::this_thread::sleep_for(20ms);
    ran = true;
  });
  engine().destroy(stream);
  EXPECT_FALSE(engine().is_created(&stream));
  engine().synchronize_all();
  EXPECT_TRUE(ran);
}

TEST(Streams, HostFunctionsKnowWhereTheyRun) {
  Stream& stream = engine().create(false, 0);
  bool in_host_function_call = false, in_kernel_command = true;
  enqueue(stream, [&] { in_host_function_call = in_host_function(); });
  enqueue(stream, [&] { in_kernel_command = in_host_function(); }, CommandKind::Kernel);
  engine().synchronize(stream);
  EXPECT_TRUE(in_host_function_call);
  EXPECT_FALSE(in_kernel_command);
  EXPECT_FALSE(in_host_function());
  engine().destroy(stream);
}

TEST(Streams, BrokenDeviceRunsNoMoreKernelsButStillCompletes) {
  Stream& stream = engine().create(false, 0);
  set_sticky_error(make_error(ErrorCode::IllegalAddress, "a test fault"));
  bool kernel_ran = false, host_function_ran = false;
  enqueue(stream, [&] { kernel_ran = true; }, CommandKind::Kernel);
  enqueue(stream, [&] { host_function_ran = true; });
  engine().synchronize(stream);
  clear_sticky_error();
  EXPECT_FALSE(kernel_ran);
  EXPECT_TRUE(host_function_ran);
  engine().destroy(stream);
}

// --- stress: 64 host threads x 1000 launches over 16 streams, events between them -----

struct CopyParams {
  const int* src;  // null: write `add` alone
  int* dst;
  int add;
};

// dst = *src + add, by thread 0 of the single block (the other 31 threads idle).
void copy_plus(jit::ThreadContext* ctx) {
  const auto& p = *reinterpret_cast<const CopyParams*>(ctx->params);
  if (ctx->tid[0] == 0) *p.dst = (p.src ? *p.src : 0) + p.add;
}

TEST(StreamStress, SixtyFourThreadsThousandLaunchesSixteenStreams) {
  constexpr int kThreads = 64, kPairs = 500, kStreams = 16;  // 64 x 500 x 2 launches
  jit::KernelInfo kernel;
  kernel.name = "copy_plus";
  kernel.entry = copy_plus;
  const exec::LaunchShape shape{{1, 1, 1}, {32, 1, 1}, 0};
  auto launch = [&](Stream& stream, CopyParams params) {
    ASSERT_TRUE(engine().enqueue(stream, command_of(
                                             [&kernel, shape, params] {
                                               auto ran = exec::GridExecutor::instance().run_grid(kernel, shape,
                                                                                                  &params);
                                               if (!ran) set_sticky_error(ran.error());
                                             },
                                             CommandKind::Kernel)));
  };
  std::vector<Stream*> streams;
  for (int i = 0; i < kStreams; ++i) streams.push_back(&engine().create(i % 2 == 1, i % 3 == 0 ? -1 : 0));
  std::vector<std::vector<int>> produced(kThreads, std::vector<int>(kPairs, 0));
  std::vector<std::vector<int>> consumed(kThreads, std::vector<int>(kPairs, 0));
  std::atomic<int> legacy_visits{0};

  const auto begin = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Event* event = create_event(true);
      for (int j = 0; j < kPairs; ++j) {
        // Producer and consumer on different streams, ordered only by the event.
        Stream& first = *streams[(t + j) % kStreams];
        Stream& second = *streams[(t + j + 5) % kStreams];
        launch(first, CopyParams{nullptr, &produced[t][j], 7 * j + t});
        ASSERT_TRUE(event->record(first));
        Command wait;
        wait.after.push_back(event->completion());
        ASSERT_TRUE(engine().enqueue(second, std::move(wait)));
        launch(second, CopyParams{&produced[t][j], &consumed[t][j], 1});
        if (j % 100 == 99) enqueue(engine().legacy(), [&] { ++legacy_visits; });
      }
      destroy_event(event);
    });
  for (std::thread& thread : threads) thread.join();
  engine().synchronize_all();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

  EXPECT_FALSE(sticky_error());
  int wrong = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int j = 0; j < kPairs; ++j) wrong += consumed[t][j] != 7 * j + t + 1;
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(legacy_visits.load(), kThreads * kPairs / 100);
  RecordProperty("seconds", std::to_string(seconds));
  std::printf("%d launches in %.2f s\n", kThreads * kPairs * 2, seconds);
  for (Stream* stream : streams) engine().destroy(*stream);
}

}  // namespace
}  // namespace cucpu::core
