// Running one block on one worker: shared memory, and the choice of execution strategy.
#pragma once

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <memory>
#include <optional>

#include "exec/block_execution.h"
#include "exec/compiled_block.h"
#include "exec/device_runtime.h"
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
  // The compiled block strategy's function for this grid's block shape; no entry: the grid
  // runs on fibers (or one thread after another, for kernels that never wait).
  jit::CompiledBlockCode compiled;
};

// The stack of each fiber running `kernel`: the floor our compiled code needs or
// cudaLimitStackSize, whichever is larger, plus the kernel's .local variables.
std::size_t fiber_stack_bytes(const ExecSettings& settings, const jit::KernelInfo& kernel);

// The fast path: the threads of a block one after another on the worker's stack, for
// kernels that never wait for another thread (KernelInfo::uses_barriers == false).
class SequentialBlock final : public BlockExecution {
 public:
  // stack_low, stack_high: the worker's stack, to tell a stack overflow from a bad pointer
  // and local memory from other memory.
  explicit SequentialBlock(uintptr_t stack_low = 0, uintptr_t stack_high = 0)
      : stack_low_(stack_low), stack_high_(stack_high) {}

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
  uintptr_t stack_high_;
  std::jmp_buf abandon_point_;
};

// One block with everything it owns while it runs: its shared memory, its threads' fibers
// and their stacks, its setup and device-runtime scope. A worker runs its blocks in one and
// reuses it; a block suspended while its threads wait for the grids they launched
// (cudaDeviceSynchronize) keeps it, the worker takes another, and whichever worker is free
// once those grids are complete resumes the block.
struct ResumableBlock {
  explicit ResumableBlock(std::size_t stack_bytes) : stacks(stack_bytes), fibers(stacks) {}
  SharedWindow shared;
  FiberStackPool stacks;
  FiberBlock fibers;
  BlockSetup setup;
  std::optional<BlockLaunchScope> scope;
  const GridLaunch* grid = nullptr;  // the grid it belongs to
};

// How running (or resuming) a block ended: with its result, or suspended.
struct BlockRun {
  Result<void> result;                       // once it ended
  std::unique_ptr<ResumableBlock> suspended;  // when it has not: resume it once suspended->scope's
                                              // launches are complete
};

// The per-worker state that runs blocks: one per worker thread, never shared. Made on the
// worker thread itself (it gives that thread its alternate signal stack).
class BlockRunner {
 public:
  BlockRunner(uint32_t worker_index, uint32_t worker_count, const ExecSettings& settings);
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  // One block of a grid without a compiled block function (those: run_compiled_blocks).
  BlockRun run_block(const GridLaunch& grid, const Dim3& block_index);
  // `count` blocks of a grid that has a compiled block function (grid.compiled), from
  // `first` on in linear order (x fastest), one after another: what they share is made
  // once. Ends at the first block that fails (its error), or early once `failed` is set:
  // the rest of a failed grid is skipped, as a GPU aborts a faulting kernel.
  Result<void> run_compiled_blocks(const GridLaunch& grid, Dim3 first, uint64_t count, const std::atomic<bool>& failed);
  // Goes on with a suspended block (of any worker) on this worker.
  BlockRun resume_block(std::unique_ptr<ResumableBlock> block);

 private:
  // block_ (taken from the spares if this worker has none) with the setup of the block,
  // its shared memory in block_'s window.
  Result<void> prepare_block(const GridLaunch& grid, const Dim3& block_index);
  // The block ended (progress) or was suspended (nullopt, it keeps `block`).
  BlockRun conclude(std::unique_ptr<ResumableBlock> block, std::optional<Result<void>> progress);

  uint32_t worker_index_;
  uint32_t worker_count_;
  ExecSettings settings_;
  SignalStack signal_stack_;
  SequentialBlock sequential_;
  CompiledBlock compiled_;
  std::unique_ptr<ResumableBlock> block_;  // reused by this worker's blocks; null after one was suspended
};

}  // namespace cucpu::exec
