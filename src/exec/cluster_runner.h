// Thread block clusters (CUDA Programming Guide "Thread Block Clusters", "Distributed
// Shared Memory"; PTX ISA 9.7.13.3 barrier.cluster): the blocks of one cluster are
// resident together and may wait for each other, so a worker runs all of them at once,
// interleaved as fibers, with their shared memory side by side in one window.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/block_runner.h"
#include "jit/kernel_abi.h"

namespace cucpu::exec {

// The most blocks a cluster may have anywhere (an H100's non-portable maximum).
constexpr uint32_t kMaxClusterBlocks = 16;

// The cluster shape a grid runs with: the launch's, else the kernel's compile-time one
// (__cluster_dims__), else 1x1x1.
Dim3 cluster_dims_of(const jit::KernelInfo& kernel, const LaunchShape& shape);
// Whether the launch names a cluster shape, or the kernel does (%is_explicit_cluster).
bool is_explicit_cluster(const jit::KernelInfo& kernel, const LaunchShape& shape);
// Whether the grid's blocks run cluster by cluster (run_cluster) rather than one by one:
// clusters of several blocks, explicit ones, and kernels that wait at barrier.cluster.
bool runs_as_clusters(const jit::KernelInfo& kernel, const LaunchShape& shape);
// The executor's own checks of a cluster shape: the grid a multiple of it, at most
// kMaxClusterBlocks blocks (the API layer checks what depends on the kernel's attributes).
Result<void> check_cluster_shape(const jit::KernelInfo& kernel, const LaunchShape& shape);
uint64_t cluster_count(const jit::KernelInfo& kernel, const LaunchShape& shape);

// Runs the blocks of cluster `cluster_index` (x fastest, as blocks are numbered) of the
// grid on the calling worker until all of them have ended; the first failure of any.
// A block that fails ends the cluster: the others may wait for it forever, so their
// fibers are abandoned (as a GPU aborts the grid).
Result<void> run_cluster(const GridLaunch& grid, uint64_t cluster_index, uint32_t worker_index,
                         uint32_t worker_count, const ExecSettings& settings);

// A thread of the cluster ended: barrier.cluster no longer waits for it (PTX ISA 9.7.13.3:
// "all non-exited threads of the cluster").
void cluster_thread_exited(const BlockSetup& setup, uint32_t linear_tid);

// __cucpu_cluster_arrive, __cucpu_cluster_wait, __cucpu_is_local (kernel_abi.h).
jit::RuntimeSymbols cluster_symbols();

// barrier.cluster's bookkeeping: one phase at a time; a phase completes when every thread
// that has not exited has arrived in it. Plain data of one worker: never shared.
class ClusterBarrier {
 public:
  void reset(uint32_t thread_count);
  void arrive(uint32_t thread);
  // Whether the phase the thread last arrived in has completed (true if it never arrived).
  bool passed(uint32_t thread) const { return arrived_in_[thread] != phase_ + 1; }
  void thread_exited(uint32_t thread);
  uint32_t phase() const { return phase_; }

 private:
  void complete_if_done();

  std::vector<uint32_t> arrived_in_;  // per thread: the phase it last arrived in, plus 1 (0: never)
  uint32_t phase_ = 0;
  uint32_t pending_ = 0;  // live threads that have not arrived in this phase
  uint32_t live_ = 0;
};

// One cluster while it runs.
class ClusterRun {
 public:
  ClusterRun(uint32_t blocks, uint32_t threads_per_block);
  uint32_t thread_of(uint32_t rank, uint32_t linear_tid) const { return rank * threads_per_block_ + linear_tid; }
  ClusterBarrier barrier;

 private:
  uint32_t threads_per_block_;
};

}  // namespace cucpu::exec
