// Stream priorities in the grid executor: with one worker the order blocks run in is the
// order the pool serves grids, so each test logs that order. A more urgent grid queued
// while a long, less urgent one runs starts before the rest of that one's blocks (the
// block already running finishes); equal priorities keep launch order; kernels launched
// on a stream carry that stream's priority to the executor.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/stream_engine.h"
#include "exec/grid.h"
#include "jit/compile.h"

namespace cucpu::exec {
namespace {

using namespace std::chrono_literals;

// Before the pool starts (it reads the setting once): one worker makes the order exact.
const bool one_worker = [] { return setenv("CUCPU_WORKERS", "1", 1) == 0; }();

constexpr int kLeastUrgent = 0;
constexpr int kMostUrgent = -5;

// Every block appends "grid tag * 100 + block index" to the log. Block 0 of a grid whose
// `hold` is set waits until the test releases it: the worker is busy inside that grid.
struct OrderLog {
  std::atomic<uint32_t> next{0};
  uint32_t entries[256] = {};
  std::atomic<bool> holding{false};
  std::atomic<bool> released{false};
  std::vector<uint32_t> order() const { return {entries, entries + next.load()}; }
};
struct LogParams {
  OrderLog* log;
  uint32_t tag;
  bool hold;
};

void log_block(jit::ThreadContext* ctx) {
  const auto& p = *reinterpret_cast<const LogParams*>(ctx->params);
  if (p.hold && ctx->ctaid[0] == 0) {
    p.log->holding = true;
    while (!p.log->released) std::this_thread::sleep_for(100us);
  }
  p.log->entries[p.log->next++] = p.tag * 100 + ctx->ctaid[0];
}

jit::KernelInfo log_kernel() {
  jit::KernelInfo kernel;
  kernel.name = "log_block";
  kernel.entry = log_block;
  return kernel;
}

LaunchShape shape_of(uint32_t blocks, int priority) {
  LaunchShape shape;
  shape.grid = {blocks, 1, 1};
  shape.priority = priority;
  return shape;
}

// Waits for a condition, giving up after a while: a broken pool fails instead of hanging.
template <typename Condition>
bool wait_until(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(100us);
  }
  return true;
}

std::vector<uint32_t> sequence(uint32_t tag, uint32_t first, uint32_t end) {
  std::vector<uint32_t> entries;
  for (uint32_t block = first; block < end; ++block) entries.push_back(tag * 100 + block);
  return entries;
}

std::vector<uint32_t> joined(std::initializer_list<std::vector<uint32_t>> parts) {
  std::vector<uint32_t> all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Launches a grid from its own host thread (a launch waits for its grid).
std::thread launch_from_thread(const jit::KernelInfo& kernel, LaunchShape shape, const LogParams& params) {
  return std::thread(
      [&kernel, shape, &params] { EXPECT_TRUE(GridExecutor::instance().run_grid(kernel, shape, &params)); });
}

TEST(GridPriority, UrgentGridQueuedLaterRunsBeforeTheRestOfALongerGrid) {
  ASSERT_TRUE(one_worker);
  GridExecutor& pool = GridExecutor::instance();
  ASSERT_EQ(pool.worker_count(), 1u);
  const jit::KernelInfo kernel = log_kernel();
  OrderLog log;
  // 16 blocks on one worker: claimed one at a time, so the worker looks at the queue
  // after each block.
  const LogParams low{&log, 1, true}, high{&log, 2, false};
  std::thread low_launch = launch_from_thread(kernel, shape_of(16, kLeastUrgent), low);
  ASSERT_TRUE(wait_until([&] { return log.holding.load(); }));
  std::thread high_launch = launch_from_thread(kernel, shape_of(4, kMostUrgent), high);
  ASSERT_TRUE(wait_until([&] { return pool.queued_grid_count() == 2; }));
  log.released = true;
  low_launch.join();
  high_launch.join();
  EXPECT_EQ(log.order(), joined({sequence(1, 0, 1), sequence(2, 0, 4), sequence(1, 1, 16)}));
  EXPECT_EQ(pool.queued_grid_count(), 0u);
}

TEST(GridPriority, QueuedGridsRunByPriorityThenInLaunchOrder) {
  GridExecutor& pool = GridExecutor::instance();
  const jit::KernelInfo kernel = log_kernel();
  OrderLog log;
  // A one-block grid holds the worker while three more are queued: two of equal priority
  // (in launch order), then a more urgent one that overtakes both.
  const LogParams blocker{&log, 1, true}, first{&log, 2, false}, second{&log, 3, false}, urgent{&log, 4, false};
  std::vector<std::thread> launches;
  launches.push_back(launch_from_thread(kernel, shape_of(1, kMostUrgent), blocker));
  ASSERT_TRUE(wait_until([&] { return log.holding.load(); }));
  launches.push_back(launch_from_thread(kernel, shape_of(3, -1), first));
  // The blocker stays queued until its worker is done with its only chunk.
  ASSERT_TRUE(wait_until([&] { return pool.queued_grid_count() == 2; }));
  launches.push_back(launch_from_thread(kernel, shape_of(3, -1), second));
  ASSERT_TRUE(wait_until([&] { return pool.queued_grid_count() == 3; }));
  launches.push_back(launch_from_thread(kernel, shape_of(2, -3), urgent));
  ASSERT_TRUE(wait_until([&] { return pool.queued_grid_count() == 4; }));
  log.released = true;
  for (std::thread& launch : launches) launch.join();
  EXPECT_EQ(log.order(), joined({sequence(1, 0, 1), sequence(4, 0, 2), sequence(2, 0, 3), sequence(3, 0, 3)}));
}

TEST(GridPriority, StreamCommandsRunWithTheirStreamsPriority) {
  core::StreamEngine& engine = core::StreamEngine::instance();
  core::Stream& urgent = engine.create(false, kMostUrgent);
  core::Stream& plain = engine.create(false, kLeastUrgent);
  std::atomic<int> seen_urgent{1}, seen_plain{1};
  auto record = [](std::atomic<int>& seen) {
    core::Command command;
    command.kind = core::CommandKind::HostFunction;
    command.run = [&seen] { seen = core::running_stream_priority(); };
    return command;
  };
  ASSERT_TRUE(engine.enqueue(urgent, record(seen_urgent)));
  ASSERT_TRUE(engine.enqueue(plain, record(seen_plain)));
  engine.synchronize(urgent);
  engine.synchronize(plain);
  EXPECT_EQ(seen_urgent.load(), kMostUrgent);
  EXPECT_EQ(seen_plain.load(), kLeastUrgent);
  EXPECT_EQ(core::running_stream_priority(), kLeastUrgent);  // not a stream's thread
  engine.destroy(urgent);
  engine.destroy(plain);
}

}  // namespace
}  // namespace cucpu::exec
