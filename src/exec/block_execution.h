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
#include "jit/kernel_abi.h"
#include "support/result.h"

namespace cucpu::exec {

constexpr uint32_t kWarpSize = 32;
constexpr uint32_t kBarrierCount = 16;  // bar.sync ids 0..15 (PTX ISA 9.7.13.1)

// One block of a grid, as a strategy needs it to start the block's threads.
struct BlockSetup {
  const jit::KernelInfo* kernel = nullptr;
  const LaunchShape* shape = nullptr;
  const void* params = nullptr;
  Dim3 block_index;             // ctaid
  uint8_t* shared_base = nullptr;
  uint32_t shared_bytes = 0;    // the whole per-block buffer: static + dynamic
  uint32_t worker_index = 0;    // smid
  uint32_t worker_count = 0;    // nsmid
  uint32_t thread_count() const { return static_cast<uint32_t>(shape->block.count()); }
};

// Fills the special registers of the thread with the given linear thread index.
void fill_thread_context(jit::ThreadContext& context, const BlockSetup& setup, uint32_t linear_tid, void* executor);

// "block (x, y, z)" for messages.
std::string describe_block(const Dim3& block_index);

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

class BlockExecution;

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

  // Waits until every lane of `members` (lanes of the caller's warp) has arrived with the
  // same collective; returns this lane's result.
  virtual uint64_t warp_collective(ThreadExecution& self, uint32_t members, const WarpCollective& collective,
                                   WarpOffer offer) = 0;

  // Ends the calling thread for good (trap, failed assert): it never returns. The fiber
  // strategy drops the thread's fiber; the sequential one jumps back to its loop. Either
  // way the rest of the block is not run: report_error first, and the grid drains.
  [[noreturn]] virtual void abandon_thread(ThreadExecution& self) = 0;

  // activemask: the lanes of the caller's warp at the same call site now. The sequential
  // strategy runs one lane at a time: only the caller's.
  virtual uint32_t active_lanes(ThreadExecution& self, uint32_t /*call_site*/) {
    return 1u << (self.linear_tid % kWarpSize);
  }

  // Records a failure of the running kernel; the block's result is the first one.
  void report_error(ErrorCode code, std::string message);

 protected:
  void clear_error() { first_error_.reset(); }
  Result<void> block_result();

 private:
  std::optional<Error> first_error_;
};

}  // namespace cucpu::exec
