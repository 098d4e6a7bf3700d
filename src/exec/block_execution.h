// What a running block looks like to the runtime functions that generated code calls.
//
// Each CUDA thread's ThreadContext::executor points at its ThreadExecution; that names
// the BlockExecution running it, which is one of the execution strategies (sequential
// fast path, fibers). The runtime functions (runtime_functions.cpp) only decode their
// arguments and call the block, so a new strategy is one more BlockExecution.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "exec/grid.h"
#include "exec/shared_window.h"
#include "jit/kernel_abi.h"
#include "support/result.h"

namespace cucpu::exec {

constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kBarrierCount = 16;  // bar.sync ids 0..15 (PTX ISA 9.7.13.1)

class ClusterRun;

// One block of a grid, as a strategy needs it to start the block's threads.
struct BlockSetup {
  const jit::KernelInfo* kernel = nullptr;
  const LaunchShape* shape = nullptr;
  const void* params = nullptr;
  Dim3 block_index;             // ctaid
  uint8_t* shared_base = nullptr;
  uint32_t shared_bytes = 0;    // the whole per-block buffer: static + dynamic
  const SharedWindow* shared_window = nullptr;  // the guard pages around it, for fault messages
  uint32_t worker_index = 0;    // smid
  uint32_t worker_count = 0;    // nsmid
  uint64_t grid_workspace = 0;  // %envreg1:%envreg2 (cooperative launches)
  // Thread block clusters (cluster_runner.h): the cluster's shape (1x1x1 without one, each
  // block its own cluster), where the next rank's shared memory starts (0: shared_span of
  // shared_bytes), and the cluster the block runs in (null for a lone block).
  Dim3 cluster_dims{};
  bool explicit_cluster = false;
  uint32_t shared_stride = 0;
  uint32_t cluster_rank = 0;    // %cluster_ctarank
  ClusterRun* cluster = nullptr;
  uint32_t thread_count() const { return static_cast<uint32_t>(shape->block.count()); }
};

// Fills the special registers of the thread with the given linear thread index.
void fill_thread_context(jit::ThreadContext& context, const BlockSetup& setup, uint32_t linear_tid, void* executor);
// Only the registers that name the block (%ctaid, the cluster's and the block's place in
// it), for the next block of the same grid in a context fill_thread_context made: block
// (x, y, z), or setup.block_index. The index comes in registers where the caller has just
// stored it field by field (a load of two fields at once waits for those stores to land).
void place_block(jit::ThreadContext& context, const BlockSetup& setup, uint32_t x, uint32_t y, uint32_t z);
inline void place_block(jit::ThreadContext& context, const BlockSetup& setup) {
  place_block(context, setup, setup.block_index.x, setup.block_index.y, setup.block_index.z);
}

// "block (x, y, z)" for messages.
std::string describe_block(const Dim3& block_index);

// The block after `index` in a grid of `grid` blocks, in linear order (x fastest).
inline void advance_block(Dim3& index, const Dim3& grid) {
  if (++index.x != grid.x) return;
  index.x = 0;
  if (++index.y != grid.y) return;
  index.y = 0;
  ++index.z;
}

// One lane's contribution to a warp collective. Shuffles need a value and a source lane,
// votes a predicate, reductions a value: two words cover all of them.
struct WarpOffer {
  uint64_t value = 0;
  uint64_t argument = 0;
};

// How the members of a warp collective turn their offers into per-lane results. Run once,
// by the lane that arrives last; only the entries of member lanes are meaningful.
using WarpCombine = void (*)(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                             uint32_t operation);

// One kind of warp collective (redux.sync.add, shfl.sync.idx, ...). Lanes join the same
// gathering only when they name the same combine, operation and membermask.
struct WarpCollective {
  const char* name = "";  // for messages: "redux.sync"
  WarpCombine combine = nullptr;
  uint32_t operation = 0;
};

// What a bar.red hands back: of the threads that one completion released, how many
// offered true, and how many there were (popc, and, or follow from these).
struct BarrierVote {
  uint32_t true_count = 0;
  uint32_t thread_count = 0;
};

class BlockExecution;
class BlockLaunchScope;
class BlockLaunches;

// A fault of a kernel thread (SIGSEGV, SIGBUS), as the signal handler records it
// (kernel_faults.cpp): plain data, written in signal context.
struct KernelFault {
  int signal = 0;  // 0: none
  int code = 0;    // si_code
  uintptr_t address = 0;
  uint32_t linear_tid = 0;
  bool stack_overflow = false;
};

// What ThreadContext::executor points at.
struct ThreadExecution {
  BlockExecution* block = nullptr;
  uint32_t linear_tid = 0;
};

// A block while it runs: the strategy that runs it implements the waiting operations.
class BlockExecution {
 public:
  virtual ~BlockExecution() = default;

  // bar.sync barrier, thread_count (a multiple of the warp size; 0 = the whole block).
  virtual void barrier_sync(ThreadExecution& self, uint32_t barrier, uint32_t thread_count) = 0;

  // bar.arrive barrier, thread_count: counts toward the barrier without waiting.
  virtual void barrier_arrive(ThreadExecution& /*self*/, uint32_t /*barrier*/, uint32_t /*thread_count*/) {
    report_error(ErrorCode::LaunchFailure, "bar.arrive in a kernel compiled as one that never waits");
  }

  // bar.red barrier, thread_count, predicate: bar.sync that also counts the predicates of
  // the threads the completion releases (__syncthreads_count/_and/_or).
  virtual BarrierVote barrier_reduce(ThreadExecution& /*self*/, uint32_t /*barrier*/, uint32_t /*thread_count*/,
                                     bool /*predicate*/) {
    report_error(ErrorCode::LaunchFailure, "bar.red in a kernel compiled as one that never waits");
    return {};
  }

  // A yield point on a spin loop's back-edge: lets the other threads of the block run, so
  // that a lane waiting for another lane of its warp makes progress (independent thread
  // scheduling, CUDA Programming Guide, compute capability 7.x). Nothing to do where
  // threads do not take turns.
  virtual void yield_thread(ThreadExecution& /*self*/) {}

  // Waits until every lane of `members` (lanes of the caller's warp) has arrived with the
  // same collective; returns this lane's result.
  virtual uint64_t warp_collective(ThreadExecution& self, uint32_t members, const WarpCollective& collective,
                                   WarpOffer offer) = 0;

  // Ends the calling thread for good (trap, failed assert): it never returns. The fiber
  // strategy drops the thread's fiber; the sequential one jumps back to its loop. Either
  // way the rest of the block is not run: report_error first, and the grid drains.
  [[noreturn]] virtual void abandon_thread(ThreadExecution& self) = 0;

  // cudaDeviceSynchronize in device code: parks the calling thread until `launches` (its
  // block's) are complete. Only the fiber strategy can wait; false where the block cannot.
  virtual bool wait_for_launches(ThreadExecution& /*self*/, BlockLaunches& /*launches*/) { return false; }

  // activemask: the lanes of the caller's warp at the same call site now. The sequential
  // strategy runs one lane at a time: only the caller's.
  virtual uint32_t active_lanes(ThreadExecution& self, uint32_t /*call_site*/) {
    return 1u << (self.linear_tid % kWarpSize);
  }

  // The block's device-runtime state (device_runtime.h) while it runs; null where device
  // launches are not available.
  BlockLaunchScope* launch_scope = nullptr;

  // Records a failure of the running kernel; the block's result is the first one.
  void report_error(ErrorCode code, std::string message);

  // The fault handler's record of a fault, before it abandons the thread. Only stores:
  // it runs in signal context. The block's run() reports it (report_fault).
  void record_fault(const KernelFault& fault) {
    if (fault_.signal == 0) fault_ = fault;
  }

 protected:
  void clear_error() {
    first_error_.reset();
    fault_ = {};
  }
  // Turns a recorded fault into the block's error, once the block has stopped.
  void report_fault(const BlockSetup& setup);
  Result<void> block_result();
  // A word report_error sets to 1 (the compiled strategy's frame: run no further block).
  void flag_errors_in(uint32_t* flag) { error_flag_ = flag; }

 private:
  std::optional<Error> first_error_;
  KernelFault fault_;
  uint32_t* error_flag_ = nullptr;
};

}  // namespace cucpu::exec
