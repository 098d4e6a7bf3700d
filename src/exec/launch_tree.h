// The tree of grids that dynamic parallelism makes (CUDA Programming Guide "CUDA Dynamic
// Parallelism"): which grid may start when, and when a grid is complete.
//
// A grid is complete when its own blocks have finished, every grid its threads launched is
// complete, and then its tail launches, one after another, are complete too. Launches
// into one stream of a block (its NULL stream, or a stream it created) start one after
// another, each once the previous one is complete; fire-and-forget launches start at once.
// CDP2 kernels never wait inside a kernel: a launch only records the child, so a parent's
// blocks finish and free their stacks while only these small records wait. Kernels of the
// guide's Appendix D ABI may wait in cudaDeviceSynchronize for what their block launched
// (BlockLaunches); such a block is suspended meanwhile, never a worker. The host's launch
// returns when its root grid is complete.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "support/result.h"

namespace cucpu::exec {

class LaunchStream;
class BlockLaunches;

// One grid of a launch tree; the executor's grid runs derive from it.
class TreeGrid {
 public:
  virtual ~TreeGrid() = default;

  // The grid may run now: hand its blocks to the workers. Called once.
  virtual void start() = 0;
  // The grid and everything it launched are complete; `error` is the first failure of the
  // subtree. Called once, last: the grid may delete itself.
  virtual void complete(const std::optional<Error>& error) = 0;

  // How deep in the tree: 0 for a grid the host launched.
  uint32_t depth() const { return depth_; }
  // The grid the host launched, whose launch waits for the whole tree.
  TreeGrid* root() { return root_; }

 private:
  friend class LaunchStream;
  friend void launch_child(TreeGrid&, TreeGrid*, const std::shared_ptr<LaunchStream>&,
                           const std::shared_ptr<BlockLaunches>&);
  friend void launch_tail(TreeGrid&, TreeGrid*);
  friend void release(TreeGrid*, std::optional<Error>);

  TreeGrid* parent_ = nullptr;
  TreeGrid* root_ = this;
  uint32_t depth_ = 0;
  std::shared_ptr<LaunchStream> stream_;  // the stream that orders it, if any
  std::shared_ptr<BlockLaunches> block_launches_;  // its launching block's, where that block may wait
  std::atomic<int64_t> outstanding_{1};   // its own blocks, plus each child not complete yet
  std::mutex mutex_;                      // guards the two below
  // Tail launches not started yet, in launch order. A vector: libstdc++'s deque allocates
  // even when empty, and every grid has this (two mallocs per launch for a rare feature).
  std::vector<TreeGrid*> tails_;
  std::optional<Error> error_;
};

class DeviceEvent;

// Work in one device stream (a block's NULL stream, or a stream it created) runs in order:
// a grid starts once the work before it is complete; an event record fires once the work
// before it is complete; a wait holds the stream until its event fires; a memory command
// (cudaMemcpyAsync/MemsetAsync) runs when it is reached. Shared by the block that made it,
// the grids queued in it and the events it waits for, so it outlives the block.
class LaunchStream : public std::enable_shared_from_this<LaunchStream> {
 public:
  void enqueue_grid(TreeGrid* grid);
  void enqueue_record(const std::shared_ptr<DeviceEvent>& event);
  void enqueue_wait(const std::shared_ptr<DeviceEvent>& event);
  void enqueue_memory_command(std::function<void()> command);
  // The grid that ran in this stream is complete, or the event it waited for fired: the
  // work after it goes on.
  void advance();

 private:
  struct Command {
    TreeGrid* grid = nullptr;
    std::shared_ptr<DeviceEvent> event;
    bool wait = false;        // with event: wait for it (else record it)
    uint64_t generation = 0;  // the event's record a wait waits for, or a record makes
    std::function<void()> memory_command;
  };
  void enqueue(Command command);
  // With the stream held (busy_): runs commands until one must wait or none is left.
  void run_ready();

  std::mutex mutex_;
  bool busy_ = false;  // someone runs its commands, or its head waits for a grid or an event
  std::deque<Command> waiting_;
};

// A device-side event (cudaEventCreateWithFlags with cudaEventDisableTiming): each record
// is a generation that fires when the work before it in its stream is complete; a wait
// waits for the latest generation recorded when the wait was made.
class DeviceEvent {
 public:
  uint64_t new_generation();
  uint64_t latest_generation();
  void fire(uint64_t generation);
  // True when `generation` has fired; otherwise `stream` advances once it does.
  bool fired_or_wait(uint64_t generation, const std::shared_ptr<LaunchStream>& stream);

 private:
  std::mutex mutex_;
  uint64_t recorded_ = 0;
  uint64_t fired_ = 0;
  std::vector<std::pair<uint64_t, std::shared_ptr<LaunchStream>>> waiters_;
};

// The grids one block launched that are not complete yet: what a cudaDeviceSynchronize of
// the block's threads waits for (CUDA Programming Guide, Appendix D: "all work launched by
// the block"). Made by a block whose kernel can synchronise; shared with the grids it
// launched, so that it outlives the block.
class BlockLaunches {
 public:
  // Whether every grid the block launched is complete.
  bool complete() const { return incomplete_.load(std::memory_order_acquire) == 0; }
  // Whether one of them (or what they launched) failed.
  bool failed() const { return failed_.load(std::memory_order_acquire); }

  // For a block suspended while its threads wait: `resume` runs once every grid it launched
  // is complete: at once (here, on the caller) when they are now, else on the worker that
  // completes the last one. Called once per suspension.
  void resume_when_complete(std::function<void()> resume);

 private:
  friend void launch_child(TreeGrid&, TreeGrid*, const std::shared_ptr<LaunchStream>&,
                           const std::shared_ptr<BlockLaunches>&);
  friend void release(TreeGrid*, std::optional<Error>);
  void launched() { incomplete_.fetch_add(1, std::memory_order_acq_rel); }
  void completed(bool failed);

  std::atomic<int64_t> incomplete_{0};
  std::atomic<bool> failed_{false};
  std::mutex mutex_;              // guards resume_ and orders it with the last completion
  std::function<void()> resume_;  // a suspended block's wake-up, until it runs
};

// `child` is launched by a thread of `parent`: into `stream` (null: fire-and-forget,
// it starts at once). The parent is not complete until the child is. `launches`: the
// launching block's record, when that block may wait for the child (null otherwise).
void launch_child(TreeGrid& parent, TreeGrid* child, const std::shared_ptr<LaunchStream>& stream,
                  const std::shared_ptr<BlockLaunches>& launches = nullptr);

// `child` is launched into cudaStreamTailLaunch: it starts once `parent` and all its
// other work are complete, after the tail launches made before it.
void launch_tail(TreeGrid& parent, TreeGrid* child);

// Every block of `grid` has finished (error: the first block failure).
void finish_own_blocks(TreeGrid& grid, std::optional<Error> error);

// Launches recorded but not started yet (waiting for their stream or their parent), the
// count cudaLimitDevRuntimePendingLaunchCount bounds.
uint64_t pending_launch_count();

}  // namespace cucpu::exec
