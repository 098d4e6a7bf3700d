// The process-wide worker pool that runs grids (GridExecutor). One worker thread per
// hardware thread (CUCPU_WORKERS overrides), started on the first launch. A launch queues
// its grid and waits; workers take the grid at the front of the queue and claim chunks of
// block indices from its atomic counter, so all cores stay busy until the last chunk is
// claimed, then move on to the next queued grid. Several host threads can launch at once:
// each grid is its own queue entry, living on its launcher's stack until every worker that
// touched it has left it. The queue is ordered by stream priority (most urgent first, FIFO
// among equals): a worker leaves its grid between chunks when a more urgent one is queued,
// so urgent work starts as soon as the blocks already claimed end (a hint, as on the GPU:
// no block is preempted).
//
// Grids launched from device code (dynamic parallelism) are queued the same way, but
// nobody waits for them: each lives on the heap, is started by the launch tree
// (launch_tree.h) and deletes itself when it and its children are complete. A host launch
// returns when its whole tree is complete. A block whose threads wait for the grids they
// launched (cudaDeviceSynchronize) is suspended, not waited for: the worker goes on with
// other blocks, and the block joins resumable_, served before the grid queue, once those
// grids are complete; its grid's blocks have finished when the last such block has.
//
// The pool is immortal: made with new and never destroyed, its workers parked on a
// condition variable at exit. Joining them from a static destructor would break programs
// that still call CUDA from their own static destructors, and threads parked on a
// condition variable are simply reaped by exit.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

#include "exec/block_runner.h"
#include "exec/cluster_runner.h"
#include "exec/fiber_scheduler.h"
#include "exec/fiber_stack_pool.h"
#include "exec/grid.h"
#include "exec/interleaved_blocks.h"
#include "exec/kernel_faults.h"
#include "exec/settings.h"
#include "support/log.h"

namespace cucpu::exec {
namespace {

constexpr uint32_t kMaxThreadsPerBlock = 1024;
// Device-side parameter buffers: 64-byte aligned, as the device runtime's (CUDA Programming
// Guide, Appendix "Parameter Buffer Layout"), and never smaller than that.
constexpr std::size_t kParamAlignment = 64;

class WorkerPool;

struct AlignedFree {
  void operator()(uint8_t* memory) const { ::operator delete[](memory, std::align_val_t{kParamAlignment}); }
};

// One launched grid while it runs, and its place in the launch tree.
struct GridRun final : TreeGrid {
  GridRun(WorkerPool& pool, bool device_launched) : pool(pool), device_launched(device_launched) {}
  void start() override;
  void complete(const std::optional<Error>& error) override;

  WorkerPool& pool;
  const bool device_launched;              // heap-allocated, deleted once complete
  std::unique_ptr<uint8_t, AlignedFree> param_storage;  // device launches: the parameter buffer
  GridLaunch launch;
  uint64_t block_count = 0;
  uint64_t chunk = 1;                      // blocks claimed at once
  // Each on a cache line of its own, and the fields after them off theirs: every worker
  // reads `failed` before each block, and a claim writes next_block.
  alignas(64) std::atomic<uint64_t> next_block{0};  // the first unclaimed block
  alignas(64) std::atomic<bool> failed{false};      // once set, claimed blocks are skipped
  alignas(64) bool cooperative = false;             // all blocks resident at once (run_cooperative_blocks)
  // Guarded by the pool's mutex:
  bool queued = true;                      // still in the queue (unclaimed blocks remain)
  unsigned workers_inside = 0;             // workers that may still touch it
  std::optional<Error> first_error;
  bool tree_complete = false;              // host launches: it and all it launched are complete
  std::optional<Error> tree_error;         // the first failure in that tree
  unsigned suspended_blocks = 0;           // blocks waiting for their launches (not finished)
};

// Blocks a worker claims at once: several per claim for big grids (fewer atomic
// operations on a shared cache line), few enough that the cores finish together (a
// sixteenth of a worker's share). Up to 1024: a worker's blocks then read and write long
// runs of consecutive memory, which the host's prefetchers follow; at most 64, two workers
// took turns every 64 KB of each array. bench saxpy 7.4 -> 6.2 ms, reduce 7.2 -> 5.4,
// shfl_reduce 6.7 -> 4.4, histogram and stencil a few percent faster, transpose 4% slower
// (2-core Zen 5, three runs each).
uint64_t claim_chunk(uint64_t block_count, unsigned worker_count) {
  return std::clamp<uint64_t>(block_count / (uint64_t{worker_count} * 16), 1, 1024);
}

Dim3 block_index_of(uint64_t linear, const Dim3& grid) {
  Dim3 index;
  index.x = static_cast<uint32_t>(linear % grid.x);
  index.y = static_cast<uint32_t>(linear / grid.x % grid.y);
  index.z = static_cast<uint32_t>(linear / (uint64_t{grid.x} * grid.y));
  return index;
}

// One block of a cooperative grid on the worker that claimed it.
struct CoopBlock : InterleavedBlock {
  using InterleavedBlock::InterleavedBlock;
  SharedWindow shared;  // its own shared memory: the worker's blocks interleave
};

class WorkerPool final : public GridExecutor {
 public:
  explicit WorkerPool(const ExecSettings& settings) : settings_(settings) {}

  unsigned worker_count() const override { return settings_.worker_count; }
  std::size_t queued_grid_count() override {
    std::lock_guard guard(mutex_);
    return queue_.size();
  }

  Result<void> run_grid(const jit::KernelInfo& kernel, const LaunchShape& shape, const void* params) override {
    return run(kernel, shape, params, false);
  }
  Result<void> run_cooperative_grid(const jit::KernelInfo& kernel, const LaunchShape& shape,
                                    const void* params) override {
    return run(kernel, shape, params, true);
  }
  Result<PreparedGrid> prepare_device_grid(const jit::KernelInfo& kernel, const LaunchShape& shape) override;

  // Queues a grid for the workers (GridRun::start).
  void enqueue(GridRun& grid);
  // A host launch's tree is complete (GridRun::complete).
  void finish_host_grid(GridRun& grid, const std::optional<Error>& error);

 private:
  // The checks every launch makes; the grid's per-block shared memory bytes.
  Result<uint32_t> check_launch(const jit::KernelInfo& kernel, const LaunchShape& shape) const;
  Result<void> fill_launch(GridRun& grid, const jit::KernelInfo& kernel, const LaunchShape& shape,
                           uint32_t shared_bytes);
  Result<jit::CompiledBlockCode> compiled_block_code(const jit::KernelInfo& kernel, const LaunchShape& shape) const;
  Result<void> run(const jit::KernelInfo& kernel, const LaunchShape& shape, const void* params, bool cooperative);
  void run_cooperative_blocks(GridRun& grid);
  void record_failure(GridRun& grid, const Error& error);
  Result<void> start_workers_locked();
  void run_worker(unsigned index);
  // Returns false when it left blocks unclaimed for a more urgent grid.
  bool run_claimed_blocks(GridRun& grid, BlockRunner& runner);
  // A worker (or the launcher) is done with the grid's blocks it claimed; called and
  // returning with the lock held.
  void leave_grid_locked(GridRun& grid, bool all_claimed, std::unique_lock<std::mutex>& lock);
  // The block runner of a thread that launches grids (run: grids of one block).
  BlockRunner& launcher_runner();
  // The queue in priority order; most_urgent_queued_ follows its front.
  void queue_locked(GridRun& grid);
  void unqueue_locked(GridRun& grid);
  // A block of `grid` waits for the grids it launched (cudaDeviceSynchronize): it goes to
  // resumable_ once they are complete; the grid has not finished before it has.
  void suspend_block(GridRun& grid, std::unique_ptr<ResumableBlock> block);
  void resume_block(ResumableBlock* block, BlockRunner& runner);
  void resume_once_launched(ResumableBlock* block);

  const ExecSettings settings_;
  std::mutex mutex_;
  std::condition_variable work_queued_;
  std::condition_variable grid_left_;     // a host launch's tree completed; launchers check theirs
  std::deque<GridRun*> queue_;            // by priority, most urgent first
  std::atomic<int> most_urgent_queued_{INT_MAX};  // queue_.front()'s priority, read between chunks
  std::deque<ResumableBlock*> resumable_;  // suspended blocks whose launches are complete; first served
  std::vector<std::thread> workers_;
  static thread_local const WorkerPool* current_pool_;  // set on the pool's own workers
  static thread_local uint32_t current_worker_index_;
};

thread_local const WorkerPool* WorkerPool::current_pool_ = nullptr;
thread_local uint32_t WorkerPool::current_worker_index_ = 0;

Result<void> WorkerPool::start_workers_locked() {
  if (!workers_.empty()) return {};
  // Before any kernel runs: a fault in kernel code becomes the grid's error.
  install_kernel_fault_handlers();
  try {
    for (unsigned index = 0; index < settings_.worker_count; ++index)
      workers_.emplace_back([this, index] { run_worker(index); });
  } catch (const std::system_error& error) {
    if (workers_.empty())
      return make_error(ErrorCode::MemoryAllocation, fmt::format("cannot start worker threads: {}", error.what()));
    // Fewer workers than configured still run every grid (nsmid stays as configured).
  }
  log::debug(log::Category::Exec, "started {} worker threads", workers_.size());
  return {};
}

Result<uint32_t> WorkerPool::check_launch(const jit::KernelInfo& kernel, const LaunchShape& shape) const {
  if (!kernel.entry) return make_error(ErrorCode::InvalidDeviceFunction, fmt::format("kernel {} has no code", kernel.name));
  const uint64_t threads = shape.block.count();
  if (shape.grid.count() == 0 || threads == 0)
    return make_error(ErrorCode::InvalidConfiguration,
                      fmt::format("launch of {} with an empty grid or block", kernel.name));
  if (threads > std::min(kernel.max_threads_per_block, kMaxThreadsPerBlock))
    return make_error(ErrorCode::InvalidConfiguration,
                      fmt::format("launch of {} with {} threads per block (at most {})", kernel.name, threads,
                                  std::min(kernel.max_threads_per_block, kMaxThreadsPerBlock)));
  const uint64_t shared_bytes = std::max<uint64_t>(
      kernel.static_shared_bytes, uint64_t{kernel.dynamic_shared_offset} + shape.dynamic_shared_bytes);
  if (shared_bytes > UINT32_MAX)
    return make_error(ErrorCode::InvalidConfiguration, fmt::format("{} bytes of shared memory", shared_bytes));
  if (auto clusters = check_cluster_shape(kernel, shape); !clusters) return clusters.error();
  return static_cast<uint32_t>(shared_bytes);
}

// The compiled block strategy's function for the launch's block shape, where the settings
// and the kernel allow it (made at the first launch with that shape); else none, or with
// CUCPU_BLOCK_STRATEGY=compiled the error that kept it from being made.
Result<jit::CompiledBlockCode> WorkerPool::compiled_block_code(const jit::KernelInfo& kernel,
                                                               const LaunchShape& shape) const {
  if (settings_.strategy == BlockStrategyChoice::Fibers || kernel.block_compiler == nullptr)
    return jit::CompiledBlockCode{};
  // Clusters and cooperative grids interleave blocks on fibers: not this strategy's yet.
  if (runs_as_clusters(kernel, shape)) return jit::CompiledBlockCode{};
  auto code = kernel.block_compiler->block_function(shape.block.x, shape.block.y, shape.block.z);
  if (!code) {
    if (settings_.strategy == BlockStrategyChoice::Compiled)
      return make_error(ErrorCode::LaunchFailure,
                        "no block function under CUCPU_BLOCK_STRATEGY=compiled: " + code.error().message);
    log::debug(log::Category::Jit, "kernel {}: no block function ({}), it runs on fibers", kernel.name,
               code.error().message);
    return jit::CompiledBlockCode{};
  }
  return *code;
}

Result<void> WorkerPool::fill_launch(GridRun& grid, const jit::KernelInfo& kernel, const LaunchShape& shape,
                                     uint32_t shared_bytes) {
  grid.launch.kernel = &kernel;
  grid.launch.shape = shape;
  if (shape.gridid == 0) grid.launch.shape.gridid = next_gridid();
  grid.launch.shared_bytes = shared_bytes;
  grid.launch.tree = &grid;
  auto compiled = compiled_block_code(kernel, shape);
  if (!compiled) return compiled.error();
  grid.launch.compiled = *compiled;
  // Clustered grids are claimed cluster by cluster (run_cluster): block_count counts clusters.
  grid.block_count = runs_as_clusters(kernel, shape) ? cluster_count(kernel, shape) : shape.grid.count();
  grid.chunk = claim_chunk(grid.block_count, settings_.worker_count);
  return {};
}

Result<void> WorkerPool::run(const jit::KernelInfo& kernel, const LaunchShape& shape, const void* params,
                             bool cooperative) {
  Result<uint32_t> shared_bytes = check_launch(kernel, shape);
  if (!shared_bytes) return shared_bytes.error();
  // A worker waiting here would hold its cores' blocks hostage; device-side launches
  // (dynamic parallelism) go through prepare_device_grid and the launch tree instead.
  if (current_pool_ == this)
    return make_error(ErrorCode::NotSupported, "a grid launched from inside a running kernel");
  if (cooperative && runs_as_clusters(kernel, shape))
    return make_error(ErrorCode::NotSupported, "a cooperative launch of a kernel that runs in thread block clusters");

  GridRun grid(*this, false);
  if (auto filled = fill_launch(grid, kernel, shape, *shared_bytes); !filled) return filled;
  grid.launch.params = params;
  grid.cooperative = cooperative;
  // cooperative_groups' grid_workspace (details/driver_abi.h): its size, then the grid
  // barrier's counter. It lives here, on the launcher's stack, until the grid has ended.
  alignas(8) uint32_t workspace[2] = {sizeof(workspace), 0};
  if (cooperative) grid.launch.grid_workspace = reinterpret_cast<uintptr_t>(workspace);
  log::debug(log::Category::Exec, "grid {}: {} blocks of {} threads, {} bytes shared, {} strategy", kernel.name,
             grid.block_count, shape.block.count(), grid.launch.shared_bytes,
             grid.launch.compiled.entry                                                ? "compiled"
             : kernel.uses_barriers || settings_.strategy == BlockStrategyChoice::Fibers ? "fiber"
                                                                                        : "sequential");

  std::unique_lock lock(mutex_);
  if (auto started = start_workers_locked(); !started) return started;
  queue_locked(grid);
  // A grid of one compiled block (a launch's latency matters most there): the launching
  // thread runs it itself rather than waking a worker and waiting to be woken in turn. Its
  // device-side launches, if any, go to the workers.
  const bool run_here = grid.block_count == 1 && grid.launch.compiled.entry != nullptr && !cooperative;
  if (run_here) {
    ++grid.workers_inside;
    lock.unlock();
    const bool all_claimed = run_claimed_blocks(grid, launcher_runner());
    lock.lock();
    leave_grid_locked(grid, all_claimed, lock);
  } else {
    work_queued_.notify_all();
  }
  grid_left_.wait(lock, [&] { return grid.tree_complete; });
  if (grid.tree_error) return *grid.tree_error;
  return {};
}

Result<PreparedGrid> WorkerPool::prepare_device_grid(const jit::KernelInfo& kernel, const LaunchShape& shape) {
  Result<uint32_t> shared_bytes = check_launch(kernel, shape);
  if (!shared_bytes) return shared_bytes.error();
  auto grid = std::make_unique<GridRun>(*this, true);
  if (auto filled = fill_launch(*grid, kernel, shape, *shared_bytes); !filled) return filled.error();
  const std::size_t param_bytes =
      (std::max<std::size_t>(kernel.param_bytes, 1) + kParamAlignment - 1) / kParamAlignment * kParamAlignment;
  auto* params = static_cast<uint8_t*>(::operator new[](param_bytes, std::align_val_t{kParamAlignment}, std::nothrow));
  if (!params)
    return make_error(ErrorCode::MemoryAllocation, fmt::format("no memory for the parameters of {}", kernel.name));
  grid->param_storage.reset(params);
  grid->launch.params = params;
  return PreparedGrid{std::move(grid), &kernel, params};
}

// Device-launched grids only: they come from running kernels, so the workers are started.
void WorkerPool::enqueue(GridRun& grid) {
  std::lock_guard guard(mutex_);
  queue_locked(grid);
  work_queued_.notify_all();
}

void WorkerPool::queue_locked(GridRun& grid) {
  const int priority = grid.launch.shape.priority;
  queue_.insert(std::upper_bound(queue_.begin(), queue_.end(), priority,
                                 [](int urgency, const GridRun* queued) { return urgency < queued->launch.shape.priority; }),
                &grid);
  most_urgent_queued_.store(queue_.front()->launch.shape.priority, std::memory_order_relaxed);
}

void WorkerPool::unqueue_locked(GridRun& grid) {
  queue_.erase(std::find(queue_.begin(), queue_.end(), &grid));
  grid.queued = false;
  most_urgent_queued_.store(queue_.empty() ? INT_MAX : queue_.front()->launch.shape.priority,
                            std::memory_order_relaxed);
}

void WorkerPool::finish_host_grid(GridRun& grid, const std::optional<Error>& error) {
  std::lock_guard guard(mutex_);
  grid.tree_error = error;
  grid.tree_complete = true;
  grid_left_.notify_all();
}

void GridRun::start() {
  // A failure anywhere in the tree aborts the rest of it, as a fault ends all work of a
  // GPU context: the grid still passes through the queue, its blocks skipped.
  const GridRun& host_grid = *static_cast<GridRun*>(root());
  if (host_grid.failed.load(std::memory_order_relaxed)) failed.store(true, std::memory_order_relaxed);
  // Work launched from the device belongs to the host launch's stream and has its priority.
  launch.shape.priority = host_grid.launch.shape.priority;
  pool.enqueue(*this);
}

void GridRun::complete(const std::optional<Error>& error) {
  if (device_launched) {
    delete this;
  } else {
    pool.finish_host_grid(*this, error);
  }
}

void WorkerPool::run_worker(unsigned index) {
  current_pool_ = this;
  current_worker_index_ = index;
  BlockRunner runner(index, settings_.worker_count, settings_);
  std::unique_lock lock(mutex_);
  for (;;) {
    work_queued_.wait(lock, [&] { return !queue_.empty() || !resumable_.empty(); });
    if (!resumable_.empty()) {
      ResumableBlock* block = resumable_.front();
      resumable_.pop_front();
      lock.unlock();
      resume_block(block, runner);
      lock.lock();
      continue;
    }
    GridRun& grid = *queue_.front();
    ++grid.workers_inside;
    lock.unlock();
    bool all_claimed = true;
    if (grid.cooperative)
      run_cooperative_blocks(grid);  // all its blocks resident: never left for another grid
    else
      all_claimed = run_claimed_blocks(grid, runner);
    lock.lock();
    leave_grid_locked(grid, all_claimed, lock);
  }
}

void WorkerPool::leave_grid_locked(GridRun& grid, bool all_claimed, std::unique_lock<std::mutex>& lock) {
  // Every block is claimed now: the grid leaves the queue (once, by whoever sees it first).
  // One that left for a more urgent grid leaves it queued for later, for the workers.
  if (all_claimed && grid.queued) unqueue_locked(grid);
  if (!all_claimed) work_queued_.notify_all();
  if (--grid.workers_inside == 0 && grid.suspended_blocks == 0 && !grid.queued) {
    // The last one out: every block has finished. What waits on the grid (its launcher, its
    // stream, its parent) is told outside the lock.
    std::optional<Error> error = grid.first_error;
    lock.unlock();
    finish_own_blocks(grid, std::move(error));
    lock.lock();
  }
}

BlockRunner& WorkerPool::launcher_runner() {
  // One per launching thread (a stream's), made on it: it gives the thread its alternate
  // signal stack, so that a fault in kernel code there becomes the grid's error too. It
  // counts as multiprocessor 0 (%smid).
  thread_local std::unique_ptr<BlockRunner> runner;
  if (!runner) runner = std::make_unique<BlockRunner>(0, settings_.worker_count, settings_);
  return *runner;
}

bool WorkerPool::run_claimed_blocks(GridRun& grid, BlockRunner& runner) {
  const bool clustered = runs_as_clusters(*grid.launch.kernel, grid.launch.shape);
  for (;;) {
    // One relaxed load per chunk: a more urgent grid (queued after this one started) is
    // served first. Whoever claims the last chunk returns true, so the grid leaves the queue.
    if (most_urgent_queued_.load(std::memory_order_relaxed) < grid.launch.shape.priority &&
        grid.next_block.load(std::memory_order_relaxed) < grid.block_count)
      return false;
    const uint64_t first = grid.next_block.fetch_add(grid.chunk, std::memory_order_relaxed);
    if (first >= grid.block_count) return true;
    const uint64_t end = std::min(first + grid.chunk, grid.block_count);
    if (clustered) {
      for (uint64_t cluster = first; cluster < end; ++cluster) {
        // After a failure the rest of the grid is skipped, as a GPU aborts a faulting kernel.
        if (grid.failed.load(std::memory_order_relaxed)) break;
        auto ran = run_cluster(grid.launch, cluster, current_worker_index_, settings_.worker_count, settings_);
        if (!ran) record_failure(grid, ran.error());
      }
      continue;
    }
    if (grid.launch.compiled.entry != nullptr) {
      auto ran = runner.run_compiled_blocks(grid.launch, block_index_of(first, grid.launch.shape.grid), end - first,
                                            grid.failed);
      if (!ran) record_failure(grid, ran.error());
      continue;
    }
    for (uint64_t block = first; block < end; ++block) {
      if (grid.failed.load(std::memory_order_relaxed)) break;
      BlockRun run = runner.run_block(grid.launch, block_index_of(block, grid.launch.shape.grid));
      if (run.suspended) {
        suspend_block(grid, std::move(run.suspended));
      } else if (!run.result) {
        record_failure(grid, run.result.error());
      }
    }
  }
}

void WorkerPool::suspend_block(GridRun& grid, std::unique_ptr<ResumableBlock> block) {
  {
    std::lock_guard guard(mutex_);
    ++grid.suspended_blocks;
  }
  resume_once_launched(block.release());
}

void WorkerPool::resume_once_launched(ResumableBlock* block) {
  block->fibers.awaited_launches()->resume_when_complete([this, block] {
    std::lock_guard guard(mutex_);
    resumable_.push_back(block);
    work_queued_.notify_all();
  });
}

void WorkerPool::resume_block(ResumableBlock* block, BlockRunner& runner) {
  GridRun& grid = static_cast<GridRun&>(*block->grid->tree);
  BlockRun run = runner.resume_block(std::unique_ptr<ResumableBlock>(block));
  if (run.suspended) return resume_once_launched(run.suspended.release());  // waits again: still counted
  if (!run.result) record_failure(grid, run.result.error());
  std::unique_lock lock(mutex_);
  // The last suspended block of a grid no worker runs any more: the grid's blocks have finished.
  if (--grid.suspended_blocks != 0 || grid.workers_inside != 0 || grid.queued) return;
  std::optional<Error> error = grid.first_error;
  lock.unlock();
  finish_own_blocks(grid, std::move(error));
}

void WorkerPool::record_failure(GridRun& grid, const Error& error) {
  std::lock_guard guard(mutex_);
  if (!grid.first_error) grid.first_error = error;
  grid.failed.store(true, std::memory_order_relaxed);
  static_cast<GridRun*>(grid.root())->failed.store(true, std::memory_order_relaxed);
}

// The worker claims chunks of blocks, one chunk per round, and resumes each of its blocks
// once per round. A block runs until it ends or until a thread spins while no other
// thread of the block can run (yield_to_other_blocks). Claiming goes on while any block
// is unclaimed, so a grid whose other workers are busy elsewhere still completes here.
void WorkerPool::run_cooperative_blocks(GridRun& grid) {
  // The worker's stacks for cooperative grids, kept from grid to grid: a grid of 264 blocks
  // of 1024 threads has 270,000 fibers, and mapping, faulting in and unmapping their stacks
  // at every launch took most of its time (the kernel's page faults and TLB shootdowns).
  // The pool outlives the blocks whose threads use its stacks.
  thread_local std::unique_ptr<FiberStackPool> kept_stacks;
  const std::size_t stack_bytes = fiber_stack_bytes(settings_, *grid.launch.kernel);
  if (!kept_stacks) kept_stacks = std::make_unique<FiberStackPool>(stack_bytes, false);
  kept_stacks->require_stack_bytes(stack_bytes);
  FiberStackPool& stacks = *kept_stacks;
  std::vector<std::unique_ptr<CoopBlock>> blocks;
  InterleavingWorker interleaving;
  const uint32_t worker_index = current_worker_index_;
  for (;;) {
    const bool failed = grid.failed.load(std::memory_order_relaxed);
    if (!failed) {
      const uint64_t first = grid.next_block.fetch_add(grid.chunk, std::memory_order_relaxed);
      for (uint64_t index = first; index < std::min(first + grid.chunk, grid.block_count); ++index) {
        auto block = std::make_unique<CoopBlock>(stacks);
        BlockSetup& setup = block->setup;
        setup.kernel = grid.launch.kernel;
        setup.shape = &grid.launch.shape;
        setup.params = grid.launch.params;
        setup.block_index = block_index_of(index, grid.launch.shape.grid);
        setup.shared_base = block->shared.place(grid.launch.shared_bytes);
        setup.shared_window = &block->shared;
        setup.shared_bytes = grid.launch.shared_bytes;
        if (!setup.shared_base) {
          record_failure(grid, make_error(ErrorCode::MemoryAllocation,
                                          fmt::format("{}: no memory for {} bytes of shared memory",
                                                      describe_block(setup.block_index), setup.shared_bytes)));
          break;
        }
        setup.worker_index = worker_index;
        setup.worker_count = settings_.worker_count;
        setup.grid_workspace = grid.launch.grid_workspace;
        if (!start_interleaved_block(*block)) {
          record_failure(grid, make_error(ErrorCode::MemoryAllocation,
                                          fmt::format("{}: no memory for a cooperative block",
                                                      describe_block(setup.block_index))));
          break;
        }
        blocks.push_back(std::move(block));
      }
    }
    if (failed || grid.failed.load(std::memory_order_relaxed)) {
      // A GPU aborts the whole grid; blocks that wait for the failed one would wait
      // forever. Their fibers cannot be unwound through generated code: they are left
      // suspended, and their memory is abandoned (the context is broken from now on).
      for (auto& block : blocks) (void)block.release();
      break;
    }
    if (blocks.empty()) break;
    for (std::size_t i = 0; i < blocks.size();) {
      CoopBlock& block = *blocks[i];
      resume_interleaved_block(block);
      if (!block.done) {
        ++i;
        continue;
      }
      if (block.error) record_failure(grid, *block.error);
      blocks[i] = std::move(blocks.back());
      blocks.pop_back();
    }
  }
}

ExecSettings settings_from_environment() {
  std::vector<std::string> warnings;
  ExecSettings settings = read_exec_settings(
      [](const char* name) -> const char* { return std::getenv(name); }, std::thread::hardware_concurrency(),
      warnings);
  for (const std::string& warning : warnings) std::fprintf(stderr, "cucpu: warning: %s\n", warning.c_str());
  return settings;
}

}  // namespace

uint64_t next_gridid() {
  static std::atomic<uint64_t> drawn{0};
  return ++drawn;
}

GridExecutor& GridExecutor::instance() {
  // Immortal on purpose (see the top of this file); the magic static makes the first call thread-safe.
  static WorkerPool* const pool = new WorkerPool(settings_from_environment());
  return *pool;
}

}  // namespace cucpu::exec
