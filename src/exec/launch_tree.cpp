// The launch tree of dynamic parallelism (launch_tree.h): counting what keeps a grid from
// being complete, starting tail launches and the next grid of a stream when it is. A
// completion walks up the tree in a loop, not by recursion: a chain of thousands of
// nested launches completes at once when its deepest grid does.
#include "exec/launch_tree.h"

#include <algorithm>
#include <utility>

namespace cucpu::exec {
namespace {

std::atomic<uint64_t> pending_launches{0};

void start_grid(TreeGrid* grid) {
  pending_launches.fetch_sub(1, std::memory_order_relaxed);
  grid->start();
}

}  // namespace

void LaunchStream::enqueue_grid(TreeGrid* grid) { enqueue(Command{grid, nullptr, false, 0, nullptr}); }

void LaunchStream::enqueue_record(const std::shared_ptr<DeviceEvent>& event) {
  enqueue(Command{nullptr, event, false, event->new_generation(), nullptr});
}

void LaunchStream::enqueue_wait(const std::shared_ptr<DeviceEvent>& event) {
  // The record the wait is for is the latest one made before it (none: nothing to wait for).
  const uint64_t generation = event->latest_generation();
  if (generation == 0) return;
  enqueue(Command{nullptr, event, true, generation, nullptr});
}

void LaunchStream::enqueue_memory_command(std::function<void()> command) {
  enqueue(Command{nullptr, nullptr, false, 0, std::move(command)});
}

void LaunchStream::enqueue(Command command) {
  {
    std::lock_guard guard(mutex_);
    waiting_.push_back(std::move(command));
    if (busy_) return;
    busy_ = true;
  }
  run_ready();
}

void LaunchStream::advance() { run_ready(); }

void LaunchStream::run_ready() {
  for (;;) {
    Command command;
    {
      std::lock_guard guard(mutex_);
      if (waiting_.empty()) {
        busy_ = false;
        return;
      }
      command = std::move(waiting_.front());
      waiting_.pop_front();
    }
    if (command.grid) {
      start_grid(command.grid);  // advance() once it is complete
      return;
    }
    if (command.memory_command) {
      command.memory_command();
    } else if (!command.wait) {
      command.event->fire(command.generation);
    } else if (!command.event->fired_or_wait(command.generation, shared_from_this())) {
      return;  // advance() once it fires
    }
  }
}

uint64_t DeviceEvent::new_generation() {
  std::lock_guard guard(mutex_);
  return ++recorded_;
}

uint64_t DeviceEvent::latest_generation() {
  std::lock_guard guard(mutex_);
  return recorded_;
}

void DeviceEvent::fire(uint64_t generation) {
  std::vector<std::shared_ptr<LaunchStream>> released;
  {
    std::lock_guard guard(mutex_);
    fired_ = std::max(fired_, generation);
    for (std::size_t i = 0; i < waiters_.size();) {
      if (waiters_[i].first <= fired_) {
        released.push_back(std::move(waiters_[i].second));
        waiters_[i] = std::move(waiters_.back());
        waiters_.pop_back();
      } else {
        ++i;
      }
    }
  }
  for (const auto& stream : released) stream->advance();
}

bool DeviceEvent::fired_or_wait(uint64_t generation, const std::shared_ptr<LaunchStream>& stream) {
  std::lock_guard guard(mutex_);
  if (fired_ >= generation) return true;
  waiters_.emplace_back(generation, stream);
  return false;
}

void BlockLaunches::completed(bool failed) {
  if (failed) failed_.store(true, std::memory_order_release);
  std::function<void()> resume;
  {
    // Under the lock: a block suspending now either sees the count at zero or leaves its
    // wake-up for this completion to run.
    std::lock_guard guard(mutex_);
    if (incomplete_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    resume = std::move(resume_);
    resume_ = nullptr;
  }
  if (resume) resume();
}

void BlockLaunches::resume_when_complete(std::function<void()> resume) {
  {
    std::lock_guard guard(mutex_);
    if (!complete()) {
      resume_ = std::move(resume);
      return;
    }
  }
  resume();
}

void launch_child(TreeGrid& parent, TreeGrid* child, const std::shared_ptr<LaunchStream>& stream,
                  const std::shared_ptr<BlockLaunches>& launches) {
  child->parent_ = &parent;
  child->root_ = parent.root_;
  child->depth_ = parent.depth_ + 1;
  child->stream_ = stream;
  child->block_launches_ = launches;
  if (launches) launches->launched();
  parent.outstanding_.fetch_add(1, std::memory_order_acq_rel);
  pending_launches.fetch_add(1, std::memory_order_relaxed);
  if (stream) {
    stream->enqueue_grid(child);
  } else {
    start_grid(child);
  }
}

void launch_tail(TreeGrid& parent, TreeGrid* child) {
  child->parent_ = &parent;
  child->root_ = parent.root_;
  child->depth_ = parent.depth_ + 1;
  pending_launches.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard guard(parent.mutex_);
  parent.tails_.push_back(child);
}

// One thing `grid` waited for is complete (its blocks, or a child with `error`).
void release(TreeGrid* grid, std::optional<Error> error) {
  while (grid) {
    if (error) {
      std::lock_guard guard(grid->mutex_);
      if (!grid->error_) grid->error_ = std::move(error);
    }
    if (grid->outstanding_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    // Everything but the tail launches is complete: the next tail launch runs now, alone.
    TreeGrid* tail = nullptr;
    std::optional<Error> subtree_error;
    {
      std::lock_guard guard(grid->mutex_);
      if (!grid->tails_.empty()) {
        tail = grid->tails_.front();
        grid->tails_.erase(grid->tails_.begin());
      }
      subtree_error = grid->error_;
    }
    if (tail) {
      grid->outstanding_.store(1, std::memory_order_release);
      start_grid(tail);
      return;
    }
    TreeGrid* parent = grid->parent_;
    std::shared_ptr<LaunchStream> stream = std::move(grid->stream_);
    std::shared_ptr<BlockLaunches> launches = std::move(grid->block_launches_);
    grid->complete(subtree_error);  // may delete grid
    if (stream) stream->advance();
    // After the stream went on: memory commands queued behind the grid have run too, so a
    // cudaDeviceSynchronize woken here sees them.
    if (launches) launches->completed(subtree_error.has_value());
    grid = parent;
    error = std::move(subtree_error);
  }
}

void finish_own_blocks(TreeGrid& grid, std::optional<Error> error) { release(&grid, std::move(error)); }

uint64_t pending_launch_count() { return pending_launches.load(std::memory_order_relaxed); }

}  // namespace cucpu::exec
