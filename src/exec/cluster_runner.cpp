// Running a thread block cluster on one worker. Its blocks share one shared-memory window
// (shared_window.h: rank r's memory at the window's base plus r strides) and one stack
// pool; each block is a FiberBlock whose scheduler runs on a fiber of its own, so that a
// thread spinning in barrier.cluster.wait (or on a flag another block sets) can switch
// the worker to the cluster's other blocks, as cooperative grids do (grid_executor.cpp).
// barrier.cluster.wait spins with yield points rather than parking: the threads it
// waits for may be in any block, and a FiberBlock only wakes its own threads.
//
// The worker keeps what a cluster needs (window, stacks, blocks) from cluster to cluster.
#include "exec/cluster_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <new>
#include <optional>

#include "exec/fiber_scheduler.h"
#include "exec/interleaved_blocks.h"
#include "exec/kernel_faults.h"

namespace cucpu::exec {
namespace {

// What a worker keeps from cluster to cluster.
struct WorkerClusters {
  SharedWindow window;
  std::unique_ptr<FiberStackPool> stacks;
  std::vector<std::unique_ptr<InterleavedBlock>> blocks;
};

WorkerClusters& worker_clusters() {
  thread_local WorkerClusters clusters;
  return clusters;
}

Dim3 position_of(uint64_t linear, const Dim3& extent) {
  Dim3 index;
  index.x = static_cast<uint32_t>(linear % extent.x);
  index.y = static_cast<uint32_t>(linear / extent.x % extent.y);
  index.z = static_cast<uint32_t>(linear / (uint64_t{extent.x} * extent.y));
  return index;
}

Dim3 clusters_per_grid(const Dim3& grid, const Dim3& cluster) {
  return Dim3{grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z};
}

ThreadExecution& executing_thread(jit::ThreadContext* context) {
  return *static_cast<ThreadExecution*>(context->executor);
}

ClusterRun* running_cluster(jit::ThreadContext* context, const char* what) {
  auto* cluster = static_cast<ClusterRun*>(context->cluster);
  if (!cluster) {
    ThreadExecution& self = executing_thread(context);
    self.block->report_error(ErrorCode::LaunchFailure,
                             fmt::format("thread {}: {} in a block that does not run as a cluster", self.linear_tid,
                                         what));
  }
  return cluster;
}

extern "C" void __cucpu_cluster_arrive(jit::ThreadContext* context) {
  ClusterRun* cluster = running_cluster(context, "barrier.cluster.arrive");
  if (!cluster) return;
  cluster->barrier.arrive(cluster->thread_of(context->cluster_ctarank, executing_thread(context).linear_tid));
}

extern "C" void __cucpu_cluster_wait(jit::ThreadContext* context) {
  ClusterRun* cluster = running_cluster(context, "barrier.cluster.wait");
  if (!cluster) return;
  ThreadExecution& self = executing_thread(context);
  const uint32_t thread = cluster->thread_of(context->cluster_ctarank, self.linear_tid);
  while (!cluster->barrier.passed(thread)) self.block->yield_thread(self);
}

extern "C" uint32_t __cucpu_is_local(jit::ThreadContext*, uint64_t address) {
  return running_kernel_thread.is_local(address) ? 1 : 0;
}

}  // namespace

void ClusterBarrier::reset(uint32_t thread_count) {
  arrived_in_.assign(thread_count, 0);
  phase_ = 0;
  pending_ = live_ = thread_count;
}

void ClusterBarrier::arrive(uint32_t thread) {
  // A second arrival before the phase completes is undefined (PTX ISA 9.7.13.3): it counts once.
  if (arrived_in_[thread] == phase_ + 1) return;
  arrived_in_[thread] = phase_ + 1;
  --pending_;
  complete_if_done();
}

void ClusterBarrier::thread_exited(uint32_t thread) {
  --live_;
  if (arrived_in_[thread] != phase_ + 1) {
    --pending_;
    complete_if_done();
  }
}

void ClusterBarrier::complete_if_done() {
  if (pending_ != 0 || live_ == 0) return;
  ++phase_;
  pending_ = live_;
}

ClusterRun::ClusterRun(uint32_t blocks, uint32_t threads_per_block) : threads_per_block_(threads_per_block) {
  barrier.reset(blocks * threads_per_block);
}

Dim3 cluster_dims_of(const jit::KernelInfo& kernel, const LaunchShape& shape) {
  if (shape.explicit_cluster) return shape.cluster;
  if (kernel.cluster_dims[0] != 0)
    return Dim3{kernel.cluster_dims[0], std::max(kernel.cluster_dims[1], 1u), std::max(kernel.cluster_dims[2], 1u)};
  return Dim3{};
}

bool is_explicit_cluster(const jit::KernelInfo& kernel, const LaunchShape& shape) {
  return shape.explicit_cluster || kernel.cluster_dims[0] != 0 || kernel.explicit_cluster;
}

bool runs_as_clusters(const jit::KernelInfo& kernel, const LaunchShape& shape) {
  return cluster_dims_of(kernel, shape).count() > 1 || is_explicit_cluster(kernel, shape) || kernel.waits_for_cluster;
}

Result<void> check_cluster_shape(const jit::KernelInfo& kernel, const LaunchShape& shape) {
  const Dim3 cluster = cluster_dims_of(kernel, shape);
  const Dim3& grid = shape.grid;
  if (cluster.count() == 0 || cluster.count() > kMaxClusterBlocks)
    return make_error(ErrorCode::InvalidClusterSize,
                      fmt::format("a cluster of {}x{}x{} blocks (at most {})", cluster.x, cluster.y, cluster.z,
                                  kMaxClusterBlocks));
  if (grid.x % cluster.x != 0 || grid.y % cluster.y != 0 || grid.z % cluster.z != 0)
    return make_error(ErrorCode::InvalidClusterSize,
                      fmt::format("grid ({}, {}, {}) is not a multiple of the cluster shape {}x{}x{}", grid.x, grid.y,
                                  grid.z, cluster.x, cluster.y, cluster.z));
  return {};
}

uint64_t cluster_count(const jit::KernelInfo& kernel, const LaunchShape& shape) {
  return clusters_per_grid(shape.grid, cluster_dims_of(kernel, shape)).count();
}

Result<void> run_cluster(const GridLaunch& grid, uint64_t cluster_index, uint32_t worker_index,
                         uint32_t worker_count, const ExecSettings& settings) {
  const jit::KernelInfo& kernel = *grid.kernel;
  const Dim3 dims = cluster_dims_of(kernel, grid.shape);
  const auto block_count = static_cast<uint32_t>(dims.count());
  const Dim3 cluster = position_of(cluster_index, clusters_per_grid(grid.shape.grid, dims));
  const std::string where = fmt::format("cluster ({}, {}, {})", cluster.x, cluster.y, cluster.z);

  WorkerClusters& state = worker_clusters();
  uint8_t* first = state.window.place_cluster(grid.shared_bytes, block_count);
  if (!first)
    return make_error(ErrorCode::MemoryAllocation, fmt::format("{}: no memory for {} blocks of {} bytes of shared "
                                                               "memory", where, block_count, grid.shared_bytes));
  const std::size_t stack_bytes = fiber_stack_bytes(settings, kernel);
  if (!state.stacks) state.stacks = std::make_unique<FiberStackPool>(stack_bytes);
  state.stacks->require_stack_bytes(stack_bytes);
  while (state.blocks.size() < block_count) state.blocks.push_back(std::make_unique<InterleavedBlock>(*state.stacks));

  ClusterRun run(block_count, static_cast<uint32_t>(grid.shape.block.count()));
  const uint32_t stride = shared_span(grid.shared_bytes);
  std::optional<Error> failure;
  InterleavingWorker interleaving;
  for (uint32_t rank = 0; rank < block_count && !failure; ++rank) {
    InterleavedBlock& block = *state.blocks[rank];
    const Dim3 within = position_of(rank, dims);
    BlockSetup& setup = block.setup;
    setup = BlockSetup{};
    setup.kernel = &kernel;
    setup.shape = &grid.shape;
    setup.params = grid.params;
    setup.block_index = Dim3{cluster.x * dims.x + within.x, cluster.y * dims.y + within.y,
                             cluster.z * dims.z + within.z};
    setup.shared_base = first + std::size_t{rank} * stride;
    setup.shared_bytes = grid.shared_bytes;
    setup.shared_window = &state.window;
    setup.worker_index = worker_index;
    setup.worker_count = worker_count;
    setup.grid_workspace = grid.grid_workspace;
    setup.cluster_dims = dims;
    setup.explicit_cluster = is_explicit_cluster(kernel, grid.shape);
    setup.shared_stride = stride;
    setup.cluster_rank = rank;
    setup.cluster = &run;
    block.done = false;
    block.error.reset();
    if (!start_interleaved_block(block))
      failure = make_error(ErrorCode::MemoryAllocation, fmt::format("{}: no memory for its blocks", where));
  }

  // Round-robin over the blocks until all have ended or one has failed.
  uint32_t running = failure ? 0 : block_count;
  while (running > 0 && !failure) {
    for (uint32_t rank = 0; rank < block_count; ++rank) {
      InterleavedBlock& block = *state.blocks[rank];
      if (block.done) continue;
      resume_interleaved_block(block);
      if (!block.done) continue;
      --running;
      if (block.error) {
        failure = block.error;
        break;
      }
    }
  }
  if (failure) {
    // Blocks still running may wait for the failed one forever. Their fibers cannot be
    // unwound through generated code: they stay suspended, and what they use (blocks,
    // stacks) is abandoned; the window is reused, which they will never touch again.
    for (uint32_t rank = 0; rank < state.blocks.size(); ++rank) {
      if (rank < block_count && !state.blocks[rank]->done && state.blocks[rank]->suspended)
        (void)state.blocks[rank].release();
    }
    if (std::any_of(state.blocks.begin(), state.blocks.end(), [](const auto& block) { return !block; })) {
      (void)state.stacks.release();
      state.blocks.clear();
    }
    return *failure;
  }
  return {};
}

void cluster_thread_exited(const BlockSetup& setup, uint32_t linear_tid) {
  if (setup.cluster) setup.cluster->barrier.thread_exited(setup.cluster->thread_of(setup.cluster_rank, linear_tid));
}

jit::RuntimeSymbols cluster_symbols() {
  return jit::RuntimeSymbols{
      {jit::kClusterArrive, reinterpret_cast<void*>(&__cucpu_cluster_arrive)},
      {jit::kClusterWait, reinterpret_cast<void*>(&__cucpu_cluster_wait)},
      {jit::kIsLocal, reinterpret_cast<void*>(&__cucpu_is_local)},
  };
}

}  // namespace cucpu::exec
