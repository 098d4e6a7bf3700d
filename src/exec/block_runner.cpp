// Blocks on one worker. The worker keeps one shared-memory window (shared_window.h:
// guard-paged, never zeroed: CUDA leaves shared memory undefined) and picks the
// strategy per kernel: a grid with a compiled block function runs its claimed blocks one
// after another through it (run_compiled_blocks); otherwise kernels that never wait for
// another thread run their threads one after another, each a plain call on the worker's
// stack, and the others run as fibers
// (fiber_scheduler.cpp). CUCPU_BLOCK_STRATEGY=fibers runs everything as fibers, so the
// fast path can always be checked against the simple one.
//
// A fiber block may be suspended (its threads wait for the grids they launched): it keeps
// its ResumableBlock, and the worker takes a spare one or makes a new one for its next
// block. A resumed block that ends hands its ResumableBlock to the worker that ran it, or
// to the spares when that worker has one already.
#include "exec/block_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "exec/device_limits.h"

namespace cucpu::exec {
namespace {

// ResumableBlocks no worker holds, shared by all workers. A few are kept for the next
// suspension; more would only hold shared-memory reservations and stacks.
class SpareBlocks {
 public:
  std::unique_ptr<ResumableBlock> take(std::size_t stack_bytes) {
    {
      std::lock_guard guard(mutex_);
      if (!spares_.empty()) {
        std::unique_ptr<ResumableBlock> block = std::move(spares_.back());
        spares_.pop_back();
        return block;
      }
    }
    return std::unique_ptr<ResumableBlock>(new (std::nothrow) ResumableBlock(stack_bytes));  // null: no memory
  }
  void give_back(std::unique_ptr<ResumableBlock> block) {
    constexpr std::size_t kKept = 16;
    std::lock_guard guard(mutex_);
    if (spares_.size() < kKept) spares_.push_back(std::move(block));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<ResumableBlock>> spares_;
};

SpareBlocks& spare_blocks() {
  static auto* spares = new SpareBlocks;  // immortal, as the worker pool that uses it
  return *spares;
}

}  // namespace

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
  running_kernel_thread = {&execution, stack_low_, stack_high_};
  for (uint32_t z = 0; z < block.z; ++z) {
    for (uint32_t y = 0; y < block.y; ++y) {
      for (uint32_t x = 0; x < block.x; ++x, ++linear_tid) {
        context.tid[0] = x;
        context.tid[1] = y;
        context.tid[2] = z;
        context.laneid = linear_tid % kWarpSize;
        context.warpid = linear_tid / kWarpSize;
        execution.linear_tid = linear_tid;
        context.exited = 0;  // the last thread may have ended by exit inside a .func
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
      sequential_(current_stack_low(), current_stack_high()),
      compiled_(current_stack_low()),
      block_(spare_blocks().take(settings.fiber_stack_bytes)) {}

BlockRunner::~BlockRunner() = default;

Result<void> BlockRunner::prepare_block(const GridLaunch& grid, const Dim3& block_index) {
  if (!block_) block_ = spare_blocks().take(settings_.fiber_stack_bytes);
  if (!block_)
    return make_error(ErrorCode::MemoryAllocation, fmt::format("{}: no memory to run it", describe_block(block_index)));
  BlockSetup& setup = block_->setup;
  setup = BlockSetup{};
  setup.kernel = grid.kernel;
  setup.shape = &grid.shape;
  setup.params = grid.params;
  setup.block_index = block_index;
  setup.shared_bytes = grid.shared_bytes;
  setup.shared_base = block_->shared.place(grid.shared_bytes);
  setup.shared_window = &block_->shared;
  setup.worker_index = worker_index_;
  setup.worker_count = worker_count_;
  setup.grid_workspace = grid.grid_workspace;
  if (!setup.shared_base)
    return make_error(ErrorCode::MemoryAllocation,
                      fmt::format("{}: no memory for {} bytes of shared memory", describe_block(block_index),
                                  grid.shared_bytes));
  return {};
}

Result<void> BlockRunner::run_compiled_blocks(const GridLaunch& grid, Dim3 block_index, uint64_t count,
                                              const std::atomic<bool>& failed) {
  if (auto placed = prepare_block(grid, block_index); !placed) return placed;
  ResumableBlock& block = *block_;
  if (auto ready = compiled_.start_grid(block.setup, grid.compiled, failed); !ready) return ready;
  // The blocks' device runtime scope: one its threads never used serves the next block.
  // (A lane that uses it makes a runtime call, which ends run_blocks' stretch of blocks.)
  Dim3 index = block_index;
  while (count > 0 && !failed.load(std::memory_order_relaxed)) {
    if (grid.tree && !block.scope) block.scope.emplace(*grid.tree, block.setup.thread_count());
    compiled_.launch_scope = block.scope ? &*block.scope : nullptr;
    Result<uint64_t> ran = compiled_.run_blocks(index, count);
    compiled_.launch_scope = nullptr;
    if (block.scope && !block.scope->untouched()) block.scope.reset();
    if (!ran) {
      block.scope.reset();
      return ran.error();
    }
    count -= *ran;
  }
  block.scope.reset();
  return {};
}

BlockRun BlockRunner::run_block(const GridLaunch& grid, const Dim3& block_index) {
  if (auto placed = prepare_block(grid, block_index); !placed) return BlockRun{placed.error(), nullptr};
  ResumableBlock& block = *block_;
  block.grid = &grid;
  BlockSetup& setup = block.setup;

  // The device runtime of the block's threads (dynamic parallelism): the scope ends with
  // the block; the grids it launched go on in the launch tree.
  if (grid.tree) block.scope.emplace(*grid.tree, setup.thread_count());
  BlockLaunchScope* scope = block.scope ? &*block.scope : nullptr;
  if (!grid.kernel->uses_barriers && settings_.strategy == BlockStrategyChoice::Auto) {
    sequential_.launch_scope = scope;
    Result<void> result = sequential_.run(setup);
    sequential_.launch_scope = nullptr;
    block.scope.reset();
    return BlockRun{std::move(result), nullptr};
  }
  block.stacks.require_stack_bytes(fiber_stack_bytes(settings_, *grid.kernel));
  block.fibers.launch_scope = scope;
  std::optional<Result<void>> progress = block.fibers.start(setup);
  return conclude(std::move(block_), std::move(progress));
}

BlockRun BlockRunner::resume_block(std::unique_ptr<ResumableBlock> block) {
  std::optional<Result<void>> progress = block->fibers.resume();
  return conclude(std::move(block), std::move(progress));
}

BlockRun BlockRunner::conclude(std::unique_ptr<ResumableBlock> block, std::optional<Result<void>> progress) {
  if (!progress) return BlockRun{{}, std::move(block)};
  block->fibers.launch_scope = nullptr;
  block->scope.reset();
  block->grid = nullptr;
  if (!block_) {
    block_ = std::move(block);
  } else {
    spare_blocks().give_back(std::move(block));
  }
  return BlockRun{std::move(*progress), nullptr};
}

}  // namespace cucpu::exec
