// The fiber strategy: every thread of a block is a fiber, run round-robin on one worker.
#pragma once

#include <boost/context/fiber.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "exec/barrier.h"
#include "exec/block_execution.h"
#include "exec/fiber_stack_pool.h"
#include "exec/launch_tree.h"
#include "exec/warp_rendezvous.h"

namespace cucpu::exec {

// Where a worker interleaves whole blocks (a cooperative grid's, a cluster's:
// interleaved_blocks.h), lets it run the others while the calling thread spins and no other
// thread of its block can run. Elsewhere it does nothing.
void yield_to_other_blocks();

// Runs blocks whose threads wait for each other (bar.sync, warp collectives), one block at
// a time, reused from block to block; not thread-safe. A block whose threads wait for the
// grids it launched (cudaDeviceSynchronize) is suspended: its fibers stay as they are, and
// resume() goes on with it later, on whichever worker thread calls it.
class FiberBlock final : public BlockExecution {
 public:
  explicit FiberBlock(FiberStackPool& stacks);
  ~FiberBlock() override;

  // Runs every thread of the block to its end. A block in which no thread can go on
  // (waits that can never complete) is an ErrorCode::LaunchFailure naming who waits where.
  // For blocks that cannot wait for launches (cooperative grids have no launch scope).
  Result<void> run(const BlockSetup& setup);

  // Starts the block's threads and runs them until they end (the block's result) or until
  // every thread that could run waits for grids the block launched: nullopt, the block is
  // suspended until launch_scope's launches are complete; then resume() goes on with it.
  // `setup` must stay where it is until the block ends.
  std::optional<Result<void>> start(const BlockSetup& setup);
  std::optional<Result<void>> resume();
  // The launches its waiting threads wait for (while suspended).
  BlockLaunches* awaited_launches() const { return awaited_; }

  void barrier_sync(ThreadExecution& self, uint32_t barrier, uint32_t thread_count) override;
  void barrier_arrive(ThreadExecution& self, uint32_t barrier, uint32_t thread_count) override;
  BarrierVote barrier_reduce(ThreadExecution& self, uint32_t barrier, uint32_t thread_count, bool predicate) override;
  // Goes to the back of the run queue when another thread can run.
  void yield_thread(ThreadExecution& self) override;
  uint64_t warp_collective(ThreadExecution& self, uint32_t members, const WarpCollective& collective,
                           WarpOffer offer) override;
  // Waits until no other lane of the warp can run (each has parked or exited), then
  // answers the lanes that wait at the same activemask call site.
  uint32_t active_lanes(ThreadExecution& self, uint32_t call_site) override;
  // Switches to the scheduler for good; it stops the block and abandons every fiber.
  [[noreturn]] void abandon_thread(ThreadExecution& self) override;
  // Parks the thread until `launches` are complete (checked by the scheduler loop).
  bool wait_for_launches(ThreadExecution& self, BlockLaunches& launches) override;

 private:
  struct FiberThread;

  void prepare_threads(const BlockSetup& setup);
  // The scheduler loop: runs threads until the block ends or is suspended (nullopt).
  std::optional<Result<void>> schedule();
  void wake_launch_waiters();
  bool start_fiber(FiberThread& thread);
  void park(FiberThread& self);
  void wake(uint32_t linear_tid);
  void wake_released();
  bool check_barrier(const FiberThread& self, uint32_t barrier, uint32_t thread_count);
  // Arrives at a checked barrier, wakes what it completes; parks the caller when it must wait.
  void arrive_at_barrier(FiberThread& self, uint32_t barrier, uint32_t thread_count, BarrierArrival kind,
                         bool predicate);
  void release_active_lanes(uint32_t caller_tid);
  // Wakes the lanes of a completed warp collective with their results.
  void hand_out_results(uint32_t warp_base, uint32_t lanes, const uint64_t (&results)[kWarpSize]);
  void release_collectives_without(uint32_t exited_tid);
  std::string describe_stall() const;
  void abandon_parked_fibers();

  FiberStackPool& stacks_;
  const BlockSetup* setup_ = nullptr;
  std::unique_ptr<FiberThread[]> threads_;
  uint32_t thread_capacity_ = 0;
  uint32_t thread_count_ = 0;
  uint32_t live_threads_ = 0;  // threads that have not exited (not started ones included)
  bool abandoning_ = false;    // a thread trapped or failed an assert: stop the block

  // Runnable threads, a ring: a thread is in it at most once.
  std::vector<uint32_t> run_queue_;
  uint32_t run_queue_head_ = 0;
  uint32_t run_queue_size_ = 0;
  // Yields since this block last let the worker run other blocks: when every thread of
  // the block spins, the blocks they wait for must get the worker (cooperative grids).
  uint32_t yields_in_a_row_ = 0;

  BlockBarriers barriers_;
  std::vector<WarpRendezvous> warps_;
  std::vector<uint32_t> activemask_waiting_;  // per warp: lanes parked in active_lanes
  std::vector<uint32_t> released_;  // scratch: threads a completed barrier releases
  std::vector<uint32_t> launch_waiters_;  // threads parked in cudaDeviceSynchronize
  BlockLaunches* awaited_ = nullptr;      // what they wait for (their block's launches)
  void* scheduler_tsan_fiber_ = nullptr;  // the worker's own context, for ThreadSanitizer
};

}  // namespace cucpu::exec
