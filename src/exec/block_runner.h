// Running one block on one worker: shared memory, and the choice of execution strategy.
#pragma once

#include <csetjmp>
#include <cstdint>
#include <memory>

#include "exec/block_execution.h"
#include "exec/fiber_scheduler.h"
#include "exec/fiber_stack_pool.h"
#include "exec/grid.h"
#include "exec/kernel_faults.h"
#include "exec/settings.h"

namespace cucpu::exec {

// What every block of one grid shares.
struct GridLaunch {
  const jit::KernelInfo* kernel = nullptr;
  LaunchShape shape;
  const void* params = nullptr;
  uint32_t shared_bytes = 0;  // per block: max(static, dynamic offset + dynamic bytes)
  uint64_t grid_workspace = 0;  // cooperative launches: cooperative groups' grid_workspace
  TreeGrid* tree = nullptr;     // the grid in its launch tree (device-side launches' parent)
};

// The stack of each fiber running `kernel`: the floor our compiled code needs or
// cudaLimitStackSize, whichever is larger, plus the kernel's .local variables.
std::size_t fiber_stack_bytes(const ExecSettings& settings, const jit::KernelInfo& kernel);

// The fast path: the threads of a block one after another on the worker's stack, for
// kernels that never wait for another thread (KernelInfo::uses_barriers == false).
class SequentialBlock final : public BlockExecution {
 public:
  // stack_low: where the worker's stack ends, to tell a stack overflow from a bad pointer.
  explicit SequentialBlock(uintptr_t stack_low = 0) : stack_low_(stack_low) {}

  Result<void> run(const BlockSetup& setup);

  // Only trivial waits can complete here (a one-thread block, a one-lane membermask);
  // anything else means the kernel was compiled with uses_barriers wrongly false.
  void barrier_sync(ThreadExecution& self, uint32_t barrier, uint32_t thread_count) override;
  uint64_t warp_collective(ThreadExecution& self, uint32_t members, const WarpCollective& collective,
                           WarpOffer offer) override;
  // Jumps back to run() (longjmp: the frames it drops are kernel code and runtime
  // functions that own nothing).
  [[noreturn]] void abandon_thread(ThreadExecution& self) override;

 private:
  void run_threads(const BlockSetup& setup);

  const BlockSetup* setup_ = nullptr;
  uintptr_t stack_low_;
  std::jmp_buf abandon_point_;
};

// The per-worker state that runs blocks: one per worker thread, never shared. Made on the
// worker thread itself (it gives that thread its alternate signal stack).
class BlockRunner {
 public:
  BlockRunner(uint32_t worker_index, uint32_t worker_count, const ExecSettings& settings);
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  Result<void> run_block(const GridLaunch& grid, const Dim3& block_index);

 private:

  uint32_t worker_index_;
  uint32_t worker_count_;
  ExecSettings settings_;
  SignalStack signal_stack_;
  SharedWindow shared_;  // reused by every block of this worker
  FiberStackPool stacks_;
  SequentialBlock sequential_;
  FiberBlock fibers_;
};

}  // namespace cucpu::exec
