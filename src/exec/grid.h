// Running a grid of thread blocks of one compiled kernel on the host's cores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "exec/launch_tree.h"
#include "jit/compile.h"
#include "support/result.h"

namespace cucpu::exec {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamic_shared_bytes = 0;
  // Thread block clusters: the launch's cluster shape (cudaLaunchAttributeClusterDimension),
  // or 1x1x1 and explicit_cluster false where it gives none; then the kernel's compile-time
  // shape (__cluster_dims__) applies (cluster_runner.h).
  Dim3 cluster{};
  bool explicit_cluster = false;
  // The launching stream's priority, CUDA's convention: lower is more urgent. A hint: idle
  // workers take blocks of the most urgent queued grid first; running blocks finish.
  int priority = 0;
  // %current_graph_exec: 0, which an H100 reads in every kernel of a graph launched from the
  // host too (e2e launch_identity_registers); graphs launched from the device would name
  // theirs, and cucpu has none.
  uint64_t graph_exec = 0;
  // %gridid: the launch's number, from next_gridid(); 0 asks the executor to draw a new one.
  // A kernel node of a graph exec keeps the number drawn at instantiation: an H100 gives two
  // launches of one exec the same %gridid, and two execs of one graph different ones.
  uint64_t gridid = 0;
};

// A %gridid no launch has had yet: 1, 2, 3, ... per process.
uint64_t next_gridid();

// A grid made by a device-side launch (dynamic parallelism) whose parameter buffer the
// launching thread fills before it launches the grid into the tree (launch_tree.h). Once
// launched the tree owns it; a grid never launched is simply destroyed.
struct PreparedGrid {
  std::unique_ptr<TreeGrid> grid;
  const jit::KernelInfo* kernel = nullptr;
  uint8_t* params = nullptr;  // kernel.param_bytes (at least 64), 64-byte aligned
};

// A pool of worker threads, one per core (CUCPU_WORKERS overrides), that runs grids.
// Blocks are spread over the workers; a block's threads run as fibers on one worker
// (or, for kernels that never wait on another thread, one after another).
class GridExecutor {
 public:
  static GridExecutor& instance();  // the process-wide pool, started on first use
  virtual ~GridExecutor() = default;

  virtual unsigned worker_count() const = 0;
  // Grids in the queue: with blocks to claim or a last chunk still running (diagnostics, tests).
  virtual std::size_t queued_grid_count() = 0;

  // Runs every block of the grid and returns when the whole grid has finished.
  // params points to a buffer laid out as kernel.params says.
  virtual Result<void> run_grid(const jit::KernelInfo& kernel, const LaunchShape& shape, const void* params) = 0;

  // A cooperative launch: every block of the grid is resident at once, so blocks may wait
  // for each other (grid.sync(), flags in global memory). Each worker runs the blocks it
  // claims interleaved, as fibers: a block whose threads all spin lets the worker switch to
  // another block. Kernels see the grid-sync workspace in %envreg1:%envreg2.
  virtual Result<void> run_cooperative_grid(const jit::KernelInfo& kernel, const LaunchShape& shape,
                                            const void* params) = 0;

  // A grid for a device-side launch of `kernel` (checked as a host launch is); started by
  // the launch tree, it runs on the workers without anyone waiting for it.
  virtual Result<PreparedGrid> prepare_device_grid(const jit::KernelInfo& kernel, const LaunchShape& shape) = 0;

  // The runtime functions generated code calls (bar.sync, warp collectives, ...).
  static jit::RuntimeSymbols runtime_symbols();
};

}  // namespace cucpu::exec
