// The compiled block strategy's side of the executor: runs blocks through their block
// function (kernel_abi.h CompiledBlockFrame), keeps the warps' state and .local memory,
// and answers the block function's runtime calls: barriers that the block function did not
// complete by itself, one lane's context for runtime calls, unsupported cases.
#pragma once

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <memory>
#include <vector>

#include "exec/barrier.h"
#include "exec/block_execution.h"
#include "exec/kernel_faults.h"
#include "exec/warp_rendezvous.h"

namespace cucpu::exec {

class CompiledBlock final : public BlockExecution {
 public:
  // stack_low: the lowest usable address of the running thread's stack, to tell a stack
  // overflow from a bad pointer (kernel_faults.h). Its .local memory is not on the stack.
  explicit CompiledBlock(uintptr_t stack_low);
  ~CompiledBlock() override;

  // What every block of a grid shares, made once for a worker's run of its blocks (a
  // grid of many small blocks costs little more than its blocks' work): the warps' state,
  // the frame, the special registers but the block's own. setup.block_index: the first.
  // grid_failed: set when any block of the grid failed; no further block starts then.
  Result<void> start_grid(const BlockSetup& setup, const jit::CompiledBlockCode& code,
                          const std::atomic<bool>& grid_failed);
  // Runs up to `count` blocks of the grid start_grid readied, in linear order from `index`,
  // until one leaves state behind that must be cleared before the next (a lane's context, a
  // warp's meeting, its device runtime scope: launch_scope is untouched until then) or the
  // grid failed: how many ran; `index` becomes the block after them. The first that fails
  // is the error.
  Result<uint64_t> run_blocks(Dim3& index, uint64_t count);

  // The block function never calls the waiting operations of BlockExecution: its
  // barriers and collectives are its own. Reaching these means generated code is wrong.
  void barrier_sync(ThreadExecution& self, uint32_t barrier, uint32_t thread_count) override;
  uint64_t warp_collective(ThreadExecution& self, uint32_t members, const WarpCollective& collective,
                           WarpOffer offer) override;
  [[noreturn]] void abandon_thread(ThreadExecution& self) override;

  // __cucpu_compiled_settle, __cucpu_compiled_leave_direct, __cucpu_compiled_enter_lane,
  // __cucpu_compiled_unsupported, __cucpu_compiled_collective, __cucpu_compiled_collective_results.
  uint32_t settle();
  uint32_t collective(uint32_t warp, jit::CompiledCollective& call);
  void collective_results(uint32_t warp, uint32_t lanes, uint64_t* results);
  void enter_lane(uint32_t warp, uint32_t lane);
  void leave_direct(uint32_t warp, uint32_t start, uint32_t target);
  [[noreturn]] void unsupported(uint32_t warp, const char* what);

 private:
  jit::CompiledWarp& warp(uint32_t index) {
    return *reinterpret_cast<jit::CompiledWarp*>(warps_.get() + std::size_t{index} * frame_.warp_stride);
  }
  // The block the entry runs now (it advances %ctaid from block to block).
  Dim3 running_block() const { return {block_context_.ctaid[0], block_context_.ctaid[1], block_context_.ctaid[2]}; }
  // Readies block `index` as the first of a call of the entry.
  void ready_block(const Dim3& index);
  // Calls the entry for up to `count` blocks from the readied one: how many ran, 0 when a
  // block was abandoned. Apart from run_blocks, whose locals a longjmp must not clobber.
  [[gnu::noinline]] uint64_t enter(uint64_t count);
  std::string describe_stall(const BlockBarriers& barriers) const;
  // A warp's lanes that exited since its rendezvous last heard: no collective waits for them.
  void report_exits(uint32_t warp);

  // What the warp collectives of one warp need that outlasts one call: the lanes' meeting
  // point, and the results of lanes whose collective completed while they were parked.
  struct WarpMeeting {
    WarpRendezvous rendezvous;
    uint64_t results[kWarpSize] = {};
    uint32_t done = 0;           // lanes whose collective completed: results[] holds theirs
    uint32_t exits_known = 0;    // lanes the rendezvous knows have exited
    bool used = false;           // since the block started
  };
  WarpMeeting& meeting(uint32_t warp);

  uintptr_t stack_low_;
  BlockSetup setup_;
  jit::CompiledBlockCode code_;
  jit::ThreadContext block_context_{};
  jit::ThreadContext lane_context_{};
  ThreadExecution lane_execution_{this, 0};
  jit::CompiledBlockFrame frame_{};
  struct AlignedFree {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, AlignedFree> warps_;
  std::size_t warps_bytes_ = 0;
  std::unique_ptr<uint8_t, AlignedFree> local_;
  std::size_t local_bytes_ = 0;
  std::size_t local_bytes_used_ = 0;  // this grid's threads' frames
  std::unique_ptr<uint8_t, AlignedFree> registers_;
  std::size_t registers_bytes_ = 0;
  BlockBarriers barriers_;
  std::vector<WarpMeeting> meetings_;
  bool meetings_used_ = false;          // some meeting is used since the block started
  bool lane_context_placed_ = false;    // lane_context_ has this block's place
  RunningKernelThread* running_ = nullptr;  // the worker's running_kernel_thread
  std::jmp_buf abandon_point_;
};

// The runtime functions of the strategy (kernel_abi.h), by name.
jit::RuntimeSymbols compiled_block_symbols();

}  // namespace cucpu::exec
