// One block on one worker. The worker keeps one shared-memory window (shared_window.h:
// guard-paged, never zeroed: CUDA leaves shared memory undefined) and picks the
// strategy per kernel: kernels that never wait for another thread run their threads one
// after another, each a plain call on the worker's stack; the others run as fibers
// (fiber_scheduler.cpp). CUCPU_BLOCK_STRATEGY=fibers runs everything as fibers, so the
// fast path can always be checked against the simple one.
#include "exec/block_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <optional>

#include "exec/device_limits.h"
#include "exec/device_runtime.h"

namespace cucpu::exec {
std::size_t fiber_stack_bytes(const ExecSettings& settings, const jit::KernelInfo& kernel) {
  return std::max(settings.fiber_stack_bytes, thread_stack_bytes()) + kernel.local_bytes;
}

Result<void> SequentialBlock::run(const BlockSetup& setup) {
  clear_error();
  setup_ = &setup;
  // A thread that traps, fails an assert or faults ends the block here (abandon_thread;
  // the fault handler has restored the signal mask before it jumps).
  if (setjmp(abandon_point_) == 0) run_threads(setup);
  running_kernel_thread = {};
  report_fault(setup);
  return block_result();
}

void SequentialBlock::abandon_thread(ThreadExecution&) {
  running_kernel_thread = {};
  std::longjmp(abandon_point_, 1);
}

void SequentialBlock::run_threads(const BlockSetup& setup) {
  ThreadExecution execution{this, 0};
  jit::ThreadContext context;
  fill_thread_context(context, setup, 0, &execution);
  const jit::KernelEntry entry = setup.kernel->entry;
  const Dim3& block = setup.shape->block;
  uint32_t linear_tid = 0;
  running_kernel_thread = {&execution, stack_low_};
  for (uint32_t z = 0; z < block.z; ++z) {
    for (uint32_t y = 0; y < block.y; ++y) {
      for (uint32_t x = 0; x < block.x; ++x, ++linear_tid) {
        context.tid[0] = x;
        context.tid[1] = y;
        context.tid[2] = z;
        context.laneid = linear_tid % kWarpSize;
        context.warpid = linear_tid / kWarpSize;
        execution.linear_tid = linear_tid;
        entry(&context);
      }
    }
  }
  running_kernel_thread = {};
}

void SequentialBlock::barrier_sync(ThreadExecution& self, uint32_t barrier, uint32_t thread_count) {
  // A one-thread block is one warp, which arrives at once and counts as 32 threads.
  if (setup_->thread_count() == 1 && barrier < kBarrierCount && thread_count <= kWarpSize) return;
  report_error(ErrorCode::LaunchFailure,
               fmt::format("{}: thread {} of kernel {} waits at barrier {}, but the kernel was compiled as one that "
                           "never waits (uses_barriers is false)",
                           describe_block(setup_->block_index), self.linear_tid, setup_->kernel->name, barrier));
}

uint64_t SequentialBlock::warp_collective(ThreadExecution& self, uint32_t members, const WarpCollective& collective,
                                          WarpOffer offer) {
  const uint32_t lane = self.linear_tid % kWarpSize;
  if ((members | (1u << lane)) == (1u << lane)) {
    WarpOffer offers[kWarpSize];
    uint64_t results[kWarpSize];
    offers[lane] = offer;
    collective.combine(1u << lane, offers, results, collective.operation);
    return results[lane];
  }
  report_error(ErrorCode::LaunchFailure,
               fmt::format("{}: thread {} of kernel {} runs {} with membermask {:#010x}, but the kernel was compiled as "
                           "one that never waits (uses_barriers is false)",
                           describe_block(setup_->block_index), self.linear_tid, setup_->kernel->name, collective.name,
                           members));
  return 0;
}

BlockRunner::BlockRunner(uint32_t worker_index, uint32_t worker_count, const ExecSettings& settings)
    : worker_index_(worker_index),
      worker_count_(worker_count),
      settings_(settings),
      stacks_(settings.fiber_stack_bytes),
      sequential_(current_stack_low()),
      fibers_(stacks_) {}

BlockRunner::~BlockRunner() = default;

Result<void> BlockRunner::run_block(const GridLaunch& grid, const Dim3& block_index) {
  BlockSetup setup;
  setup.kernel = grid.kernel;
  setup.shape = &grid.shape;
  setup.params = grid.params;
  setup.block_index = block_index;
  setup.shared_bytes = grid.shared_bytes;
  setup.shared_base = shared_.place(grid.shared_bytes);
  setup.shared_window = &shared_;
  setup.worker_index = worker_index_;
  setup.worker_count = worker_count_;
  setup.grid_workspace = grid.grid_workspace;
  if (!setup.shared_base)
    return make_error(ErrorCode::MemoryAllocation,
                      fmt::format("{}: no memory for {} bytes of shared memory", describe_block(block_index),
                                  grid.shared_bytes));

  BlockExecution* strategy = &fibers_;
  if (!grid.kernel->uses_barriers && settings_.strategy == BlockStrategyChoice::Auto) {
    strategy = &sequential_;
  } else {
    stacks_.require_stack_bytes(fiber_stack_bytes(settings_, *grid.kernel));
  }
  // The device runtime of the block's threads (dynamic parallelism): the scope ends with
  // the block; the grids it launched go on in the launch tree.
  std::optional<BlockLaunchScope> scope;
  if (grid.tree) scope.emplace(*grid.tree, setup.thread_count());
  strategy->launch_scope = scope ? &*scope : nullptr;
  Result<void> result = strategy == &fibers_ ? fibers_.run(setup) : sequential_.run(setup);
  strategy->launch_scope = nullptr;
  return result;
}

}  // namespace cucpu::exec
