// The fiber strategy for blocks whose threads wait for each other. Each CUDA thread is a
// boost::context::fiber on a pooled stack; the worker's own stack runs the scheduler, a
// loop that resumes runnable threads round-robin. A thread runs until it ends or parks:
// parking (a barrier or warp collective that is not complete yet) records the thread
// where it waits and switches back to the scheduler; the arrival that completes the wait
// marks the waiters runnable again and keeps running itself (no switch). So a bar.sync
// costs every thread one switch out and one in, and the last arrival none.
//
// Threads get their fiber when they first run, so a block whose threads never wait uses
// one stack. When the run queue is empty but threads remain, none of them can ever run
// again: the block is reported as stuck, naming the barriers and warp collectives they
// wait at, and their fibers are abandoned (never resumed, stacks reclaimed) rather than
// unwound, since generated code has no unwind tables to throw through.
#include "exec/fiber_scheduler.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <new>
#include <utility>

#include "exec/cluster_runner.h"
#include "exec/kernel_faults.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CUCPU_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(CUCPU_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace cucpu::exec {
namespace {

// ThreadSanitizer follows stack switches only when told, and Boost 1.74 does not tell
// it: without these its shadow call stack overflows. Switches synchronise (flag 0), so
// TSan checks the worker threads against each other, not the fibers of one block.
#if defined(__SANITIZE_THREAD__) || defined(CUCPU_TSAN)
void* tsan_current_fiber() { return __tsan_get_current_fiber(); }
void* tsan_create_fiber() { return __tsan_create_fiber(0); }
void tsan_destroy_fiber(void* fiber) {
  if (fiber) __tsan_destroy_fiber(fiber);
}
void tsan_switch_to_fiber(void* fiber) { __tsan_switch_to_fiber(fiber, 0); }
#else
void* tsan_current_fiber() { return nullptr; }
void* tsan_create_fiber() { return nullptr; }
void tsan_destroy_fiber(void*) {}
void tsan_switch_to_fiber(void*) {}
#endif

// The lowest usable address of a pooled stack: just above its guard page.
uintptr_t usable_low(const boost::context::stack_context& stack) {
  static const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  return reinterpret_cast<uintptr_t>(stack.sp) - stack.size + page;
}

}  // namespace

struct FiberBlock::FiberThread : ThreadExecution {
  enum class State : uint8_t { NotStarted, Runnable, Running, Parked, Exited };

  FiberThread() { new (&suspended) boost::context::fiber(); }
  ~FiberThread() {
    suspended.~fiber();  // empty by then: finished or abandoned
    tsan_destroy_fiber(tsan_fiber);
  }
  FiberThread(const FiberThread&) = delete;
  FiberThread& operator=(const FiberThread&) = delete;

  // Replaces the handle of a fiber that will never run again without unwinding it
  // (boost::context::fiber's destructor would throw forced_unwind into the fiber).
  void abandon_fiber() { new (&suspended) boost::context::fiber(); }

  jit::ThreadContext context;
  // The thread while it does not run: empty before it starts and after it ends. In a
  // union so that abandon_fiber can drop it without running its destructor.
  union {
    boost::context::fiber suspended;
  };
  boost::context::fiber scheduler;   // the scheduler while this thread runs; empty while parked
  boost::context::stack_context stack;  // noted by PooledStackAllocator
  State state = State::NotStarted;
  uint64_t collective_result = 0;    // handed over by the lane that completes a warp collective
  uint32_t activemask_site = 0;      // where it waits in active_lanes
  void* tsan_fiber = nullptr;        // ThreadSanitizer's name for this fiber (null without TSan)
};

FiberBlock::FiberBlock(FiberStackPool& stacks) : stacks_(stacks) {}

FiberBlock::~FiberBlock() = default;

void FiberBlock::prepare_threads(const BlockSetup& setup) {
  setup_ = &setup;
  thread_count_ = setup.thread_count();
  if (thread_count_ > thread_capacity_) {
    // Every fiber of the previous block has ended or been abandoned: nothing to keep.
    threads_ = std::make_unique<FiberThread[]>(thread_count_);
    thread_capacity_ = thread_count_;
    run_queue_.resize(thread_count_);
  }
  for (uint32_t tid = 0; tid < thread_count_; ++tid) {
    FiberThread& thread = threads_[tid];
    thread.block = this;
    thread.linear_tid = tid;
    thread.state = FiberThread::State::NotStarted;
    thread.collective_result = 0;
    fill_thread_context(thread.context, setup, tid, static_cast<ThreadExecution*>(&thread));
    run_queue_[tid] = tid;
  }
  run_queue_head_ = 0;
  run_queue_size_ = thread_count_;
  live_threads_ = thread_count_;

  barriers_.reset(thread_count_);
  const uint32_t warp_count = (thread_count_ + kWarpSize - 1) / kWarpSize;
  if (warps_.size() < warp_count) warps_.resize(warp_count);
  for (uint32_t warp = 0; warp < warp_count; ++warp) warps_[warp].reset();
  activemask_waiting_.assign(warp_count, 0);
}

bool FiberBlock::start_fiber(FiberThread& thread) {
  try {
    thread.tsan_fiber = tsan_create_fiber();
    thread.suspended = boost::context::fiber(std::allocator_arg, PooledStackAllocator{&stacks_, &thread.stack},
                                             [this, &thread](boost::context::fiber&& scheduler) {
                                               thread.scheduler = std::move(scheduler);
                                               setup_->kernel->entry(&thread.context);
                                               release_active_lanes(thread.linear_tid);
                                               tsan_switch_to_fiber(scheduler_tsan_fiber_);
                                               return std::move(thread.scheduler);
                                             });
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

Result<void> FiberBlock::run(const BlockSetup& setup) {
  std::optional<Result<void>> result = start(setup);
  if (result) return *result;
  // Only a block with a launch scope can wait for its launches, and these have none.
  abandon_parked_fibers();
  return make_error(ErrorCode::LaunchFailure, fmt::format("{}: waits for the grids it launched where no block can "
                                                          "be suspended", describe_block(setup.block_index)));
}

std::optional<Result<void>> FiberBlock::start(const BlockSetup& setup) {
  clear_error();
  abandoning_ = false;
  prepare_threads(setup);
  return resume();
}

std::optional<Result<void>> FiberBlock::resume() {
  // The worker thread running the scheduler now, which may not be the one that started it.
  scheduler_tsan_fiber_ = tsan_current_fiber();
  return schedule();
}

std::optional<Result<void>> FiberBlock::schedule() {
  const BlockSetup& setup = *setup_;
  bool out_of_memory = false;
  for (;;) {
    // Waiters for launches go on once the launches are complete, even while other threads
    // keep the run queue busy (one may spin on what a waiter does next).
    if (!launch_waiters_.empty() && awaited_->complete()) wake_launch_waiters();
    if (run_queue_size_ == 0) break;
    const uint32_t tid = run_queue_[run_queue_head_];
    run_queue_head_ = (run_queue_head_ + 1) % thread_count_;
    --run_queue_size_;
    FiberThread& thread = threads_[tid];

    if (thread.state == FiberThread::State::NotStarted && !start_fiber(thread)) {
      report_error(ErrorCode::MemoryAllocation,
                   fmt::format("{}: no memory for the stack of thread {}", describe_block(setup.block_index), tid));
      out_of_memory = true;
      break;
    }
    thread.state = FiberThread::State::Running;
    tsan_switch_to_fiber(thread.tsan_fiber);
    // A fault while the thread runs abandons it (kernel_faults.cpp): it comes back here parked.
    running_kernel_thread = {&thread, usable_low(thread.stack), reinterpret_cast<uintptr_t>(thread.stack.sp)};
    thread.suspended = std::move(thread.suspended).resume();
    running_kernel_thread = {};
    if (thread.suspended) {
      if (abandoning_) break;  // it called abandon_thread: the block ends here
      continue;                // it parked (park() set its state)
    }

    // The thread ended: barriers no longer wait for it (barrier.cpp says how).
    thread.state = FiberThread::State::Exited;
    // A TSan fiber per CUDA thread, not per slot: frames of the finished fiber stay on
    // its shadow stack, and reusing it would let them pile up.
    tsan_destroy_fiber(std::exchange(thread.tsan_fiber, nullptr));
    --live_threads_;
    released_.clear();
    barriers_.thread_exited(tid, released_);
    wake_released();
    cluster_thread_exited(setup, tid);  // barrier.cluster waits no longer for it
    release_collectives_without(tid);
  }

  if (live_threads_ > 0) {
    // Every thread that could run waits for launches (or for one that does): suspended.
    if (!launch_waiters_.empty() && !abandoning_ && !out_of_memory) return std::nullopt;
    if (!abandoning_ && !out_of_memory) report_error(ErrorCode::LaunchFailure, describe_stall());
    abandon_parked_fibers();
  }
  launch_waiters_.clear();
  awaited_ = nullptr;
  report_fault(setup);
  return block_result();
}

bool FiberBlock::wait_for_launches(ThreadExecution& self_execution, BlockLaunches& launches) {
  auto& self = static_cast<FiberThread&>(self_execution);
  awaited_ = &launches;
  launch_waiters_.push_back(self.linear_tid);
  park(self);  // woken by the scheduler loop once the launches are complete
  return true;
}

void FiberBlock::wake_launch_waiters() {
  for (uint32_t tid : launch_waiters_) wake(tid);
  launch_waiters_.clear();
}

void FiberBlock::park(FiberThread& self) {
  self.state = FiberThread::State::Parked;
  release_active_lanes(self.linear_tid);
  tsan_switch_to_fiber(scheduler_tsan_fiber_);
  self.scheduler = std::move(self.scheduler).resume();
}

void FiberBlock::abandon_thread(ThreadExecution& self_execution) {
  auto& self = static_cast<FiberThread&>(self_execution);
  abandoning_ = true;
  self.state = FiberThread::State::Parked;
  tsan_switch_to_fiber(scheduler_tsan_fiber_);
  std::move(self.scheduler).resume();
  __builtin_unreachable();  // never resumed: abandon_parked_fibers drops the fiber
}

void FiberBlock::wake(uint32_t tid) {
  threads_[tid].state = FiberThread::State::Runnable;
  run_queue_[(run_queue_head_ + run_queue_size_) % thread_count_] = tid;
  ++run_queue_size_;
}

void FiberBlock::wake_released() {
  for (uint32_t tid : released_) wake(tid);
}

bool FiberBlock::check_barrier(const FiberThread& self, uint32_t barrier, uint32_t thread_count) {
  if (barrier >= kBarrierCount) {
    report_error(ErrorCode::LaunchFailure, fmt::format("{}: thread {} waits at barrier {} (ids are 0..{})",
                                                       describe_block(setup_->block_index), self.linear_tid, barrier,
                                                       kBarrierCount - 1));
    return false;
  }
  const uint32_t warp_threads = (thread_count_ + kWarpSize - 1) / kWarpSize * kWarpSize;
  if (thread_count > warp_threads) {
    report_error(ErrorCode::LaunchFailure,
                 fmt::format("{}: thread {} waits at barrier {} for {} threads, but the block has {} warps",
                             describe_block(setup_->block_index), self.linear_tid, barrier, thread_count,
                             warp_threads / kWarpSize));
    return false;
  }
  return true;
}

void FiberBlock::arrive_at_barrier(FiberThread& self, uint32_t barrier, uint32_t thread_count, BarrierArrival kind,
                                   bool predicate) {
  released_.clear();
  const bool goes_on = barriers_.arrive(barrier, self.linear_tid, thread_count, released_, kind, predicate);
  wake_released();
  if (!goes_on) park(self);
}

void FiberBlock::barrier_sync(ThreadExecution& self_execution, uint32_t barrier, uint32_t thread_count) {
  auto& self = static_cast<FiberThread&>(self_execution);
  if (check_barrier(self, barrier, thread_count))
    arrive_at_barrier(self, barrier, thread_count, BarrierArrival::Sync, false);
}

void FiberBlock::barrier_arrive(ThreadExecution& self_execution, uint32_t barrier, uint32_t thread_count) {
  auto& self = static_cast<FiberThread&>(self_execution);
  if (check_barrier(self, barrier, thread_count))
    arrive_at_barrier(self, barrier, thread_count, BarrierArrival::Arrive, false);
}

BarrierVote FiberBlock::barrier_reduce(ThreadExecution& self_execution, uint32_t barrier, uint32_t thread_count,
                                       bool predicate) {
  auto& self = static_cast<FiberThread&>(self_execution);
  if (!check_barrier(self, barrier, thread_count)) return {};
  arrive_at_barrier(self, barrier, thread_count, BarrierArrival::Reduce, predicate);
  return barriers_.vote_of(self.linear_tid);
}

void FiberBlock::yield_thread(ThreadExecution& self_execution) {
  auto& self = static_cast<FiberThread&>(self_execution);
  // A spinning lane is not at an activemask call site: lanes waiting there need not wait
  // for it (else a lane spinning on one of them would never see it go on).
  release_active_lanes(self.linear_tid);
  // No other thread of the block can run, or all of them have spun once since the last
  // switch: another block may be what they wait for.
  if (run_queue_size_ == 0 || ++yields_in_a_row_ >= thread_count_) {
    yields_in_a_row_ = 0;
    yield_to_other_blocks();
    return;
  }
  wake(self.linear_tid);             // runnable, behind the others
  tsan_switch_to_fiber(scheduler_tsan_fiber_);
  self.scheduler = std::move(self.scheduler).resume();
}

uint64_t FiberBlock::warp_collective(ThreadExecution& self_execution, uint32_t members,
                                     const WarpCollective& collective, WarpOffer offer) {
  auto& self = static_cast<FiberThread&>(self_execution);
  const uint32_t lane = self.linear_tid % kWarpSize;
  const uint32_t warp_base = self.linear_tid - lane;
  members = WarpRendezvous::members_named(lane, members, thread_count_ - warp_base);

  uint64_t results[kWarpSize];
  uint32_t released = 0;
  if (!warps_[self.linear_tid / kWarpSize].arrive(lane, members, collective, offer, results, released)) {
    park(self);
    return self.collective_result;
  }
  hand_out_results(warp_base, released, results);
  return results[lane];
}

void FiberBlock::hand_out_results(uint32_t warp_base, uint32_t lanes, const uint64_t (&results)[kWarpSize]) {
  for (uint32_t bits = lanes; bits != 0; bits &= bits - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(bits));
    threads_[warp_base + lane].collective_result = results[lane];
    wake(warp_base + lane);
  }
}

// Warp collectives wait only for the non-exited lanes of their membermask
// (warp_rendezvous.cpp): an exit may complete some.
void FiberBlock::release_collectives_without(uint32_t exited_tid) {
  const uint32_t warp_base = exited_tid - exited_tid % kWarpSize;
  WarpRendezvous& warp = warps_[exited_tid / kWarpSize];
  uint64_t results[kWarpSize];
  uint32_t released = 0;
  while (warp.complete_without_exited(exited_tid % kWarpSize, results, released))
    hand_out_results(warp_base, released, results);
}

uint32_t FiberBlock::active_lanes(ThreadExecution& self_execution, uint32_t call_site) {
  auto& self = static_cast<FiberThread&>(self_execution);
  self.activemask_site = call_site;
  activemask_waiting_[self.linear_tid / kWarpSize] |= 1u << (self.linear_tid % kWarpSize);
  park(self);  // park() itself may find the warp settled and wake this lane at once
  return static_cast<uint32_t>(self.collective_result);
}

// The lanes that are "currently executing" an activemask (PTX ISA 9.7.12.14) are, with
// fibers, the lanes that reached the same call site before the warp settled: once every
// lane has parked or exited, no other lane can join any more.
void FiberBlock::release_active_lanes(uint32_t caller_tid) {
  const uint32_t warp = caller_tid / kWarpSize;
  const uint32_t waiting = activemask_waiting_[warp];
  if (waiting == 0) return;
  const uint32_t warp_base = warp * kWarpSize;
  const uint32_t warp_end = std::min(warp_base + kWarpSize, thread_count_);
  for (uint32_t tid = warp_base; tid < warp_end; ++tid) {
    const FiberThread::State state = threads_[tid].state;
    if (tid != caller_tid && state != FiberThread::State::Parked && state != FiberThread::State::Exited) return;
  }
  activemask_waiting_[warp] = 0;
  for (uint32_t bits = waiting; bits != 0; bits &= bits - 1) {
    FiberThread& lane = threads_[warp_base + static_cast<uint32_t>(__builtin_ctz(bits))];
    uint32_t same_site = 0;
    for (uint32_t others = waiting; others != 0; others &= others - 1) {
      const uint32_t other = static_cast<uint32_t>(__builtin_ctz(others));
      if (threads_[warp_base + other].activemask_site == lane.activemask_site) same_site |= 1u << other;
    }
    lane.collective_result = same_site;
    wake(lane.linear_tid);
  }
}

std::string FiberBlock::describe_stall() const {
  std::string text = fmt::format("{} cannot finish: ", describe_block(setup_->block_index));
  std::string waits = barriers_.describe_waiting();
  const uint32_t warp_count = (thread_count_ + kWarpSize - 1) / kWarpSize;
  for (uint32_t warp = 0; warp < warp_count; ++warp) {
    if (!warps_[warp].has_waiting()) continue;
    if (!waits.empty()) waits += "; ";
    waits += fmt::format("warp {}: {}", warp, warps_[warp].describe_waiting());
  }
  return text + waits + fmt::format(" ({} of {} threads exited)", thread_count_ - live_threads_, thread_count_);
}

void FiberBlock::abandon_parked_fibers() {
  for (uint32_t tid = 0; tid < thread_count_; ++tid) {
    FiberThread& thread = threads_[tid];
    if (!thread.suspended) continue;
    // Its stack holds only the frames of kernel code and of this file, none of which
    // owns resources, so reusing the stack is all the cleanup there is.
    stacks_.give_back(thread.stack);
    thread.abandon_fiber();
    tsan_destroy_fiber(std::exchange(thread.tsan_fiber, nullptr));
    thread.state = FiberThread::State::Exited;
  }
}

}  // namespace cucpu::exec
