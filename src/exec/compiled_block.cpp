// The compiled block strategy's executor side (compiled_block.h). A worker's blocks run
// through calls of their block function, each running blocks until one leaves state behind
// (run_blocks); what the function cannot settle itself comes back here:
//
// - settle: at the end of a round where the lanes did not all meet at one plain
//   __syncthreads, the parked lanes arrive at the block's barriers (barrier.h, the same
//   bookkeeping the fiber strategy uses, so the two agree on every rule: counts in warps,
//   exited threads, bar.red votes), warp by warp and lane by lane; what a completion
//   releases becomes runs of the next round. Nothing released while lanes live: the block
//   cannot finish, an error naming who waits where.
// - enter_lane: one lane's ThreadContext, for the runtime functions a lane calls (printf,
//   malloc, assert, the device runtime) and the functions it calls.
#include "exec/compiled_block.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "exec/kernel_faults.h"
#include "exec/warp_collectives.h"

namespace cucpu::exec {
namespace {

constexpr std::size_t kWarpAlignment = 64;

// The lanes warp `w` has in a block of `threads` threads (the last warp may be partial).
uint32_t warp_lanes(uint32_t w, uint32_t threads) {
  const uint32_t lanes = std::min(kWarpSize, threads - w * kWarpSize);
  return lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
}

CompiledBlock& block_of(jit::CompiledBlockFrame* frame) { return *static_cast<CompiledBlock*>(frame->execution); }

extern "C" uint32_t __cucpu_compiled_settle(jit::CompiledBlockFrame* frame) { return block_of(frame).settle(); }

extern "C" void __cucpu_compiled_leave_direct(jit::CompiledBlockFrame* frame, uint32_t warp, uint32_t start,
                                              uint32_t target) {
  block_of(frame).leave_direct(warp, start, target);
}

extern "C" void __cucpu_compiled_enter_lane(jit::CompiledBlockFrame* frame, uint32_t warp, uint32_t lane) {
  block_of(frame).enter_lane(warp, lane);
}

extern "C" void __cucpu_compiled_unsupported(jit::CompiledBlockFrame* frame, uint32_t warp, const char* what) {
  block_of(frame).unsupported(warp, what);
}

extern "C" uint32_t __cucpu_compiled_collective(jit::CompiledBlockFrame* frame, uint32_t warp,
                                                jit::CompiledCollective* call) {
  return block_of(frame).collective(warp, *call);
}

extern "C" void __cucpu_compiled_collective_results(jit::CompiledBlockFrame* frame, uint32_t warp, uint32_t lanes,
                                                    uint64_t* results) {
  block_of(frame).collective_results(warp, lanes, results);
}

extern "C" void __cucpu_warp_combine(uint32_t collective, uint32_t operation, uint32_t members, const uint64_t* values,
                                     const uint64_t* arguments, uint64_t* results) {
  WarpOffer offers[kWarpSize];
  uint64_t out[kWarpSize] = {};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) offers[lane] = WarpOffer{values[lane], arguments[lane]};
  switch (static_cast<jit::WarpCombineKind>(collective)) {
    case jit::WarpCombineKind::Shuffle:
      combine_shuffle(members, offers, out, operation);
      break;
    case jit::WarpCombineKind::Vote:
      combine_vote(members, offers, out, operation);
      break;
    case jit::WarpCombineKind::Match:
      combine_match(members, offers, out, operation);
      break;
    case jit::WarpCombineKind::Elect:
      combine_elect(members, offers, out, operation);
      break;
    case jit::WarpCombineKind::Redux:
      combine_redux(members, offers, out, operation);
      break;
    case jit::WarpCombineKind::Nothing:
      combine_nothing(members, offers, out, operation);
      break;
  }
  std::memcpy(results, out, sizeof(out));
}

}  // namespace

void CompiledBlock::AlignedFree::operator()(uint8_t* p) const { std::free(p); }

CompiledBlock::CompiledBlock(uintptr_t stack_low) : stack_low_(stack_low) {}

CompiledBlock::~CompiledBlock() = default;

Result<void> CompiledBlock::start_grid(const BlockSetup& setup, const jit::CompiledBlockCode& code,
                                       const std::atomic<bool>& grid_failed) {
  setup_ = setup;
  code_ = code;
  const uint32_t threads = setup.thread_count();
  const uint32_t warp_count = (threads + kWarpSize - 1) / kWarpSize;
  // The warps' state and the threads' .local frames, kept from block to block.
  const std::size_t warps_bytes = std::size_t{warp_count} * code.warp_stride;
  if (warps_bytes > warps_bytes_) {
    warps_.reset(static_cast<uint8_t*>(std::aligned_alloc(kWarpAlignment, warps_bytes)));
    warps_bytes_ = warps_ ? warps_bytes : 0;
  }
  // The frames start on the stride's largest power of two (up to a page): the .align of
  // the kernel's widest-aligned .local variable (translate_block_function.cpp).
  local_bytes_used_ = std::max<std::size_t>(std::size_t{threads} * code.local_stride, 16);
  const std::size_t frame_alignment = std::clamp<std::size_t>(code.local_stride & -code.local_stride, 16, 4096);
  if (local_bytes_used_ > local_bytes_ || reinterpret_cast<uintptr_t>(local_.get()) % frame_alignment != 0) {
    const std::size_t bytes = (local_bytes_used_ + frame_alignment - 1) / frame_alignment * frame_alignment;
    local_.reset(static_cast<uint8_t*>(std::aligned_alloc(frame_alignment, bytes)));
    local_bytes_ = local_ ? local_bytes_used_ : 0;
  }
  const std::size_t registers_bytes = std::size_t{warp_count} * code.register_stride;
  if (registers_bytes > registers_bytes_) {
    registers_.reset(static_cast<uint8_t*>(std::aligned_alloc(kWarpAlignment, registers_bytes)));
    registers_bytes_ = registers_ ? registers_bytes : 0;
  }
  if (!warps_ || !local_ || !registers_)
    return make_error(ErrorCode::MemoryAllocation,
                      fmt::format("{}: no memory for its warps' state", describe_block(setup.block_index)));

  fill_thread_context(block_context_, setup_, 0, &lane_execution_);
  lane_context_ = block_context_;
  frame_.block = &block_context_;
  frame_.lane = &lane_context_;
  frame_.warps = warps_.get();
  frame_.local = local_.get();
  frame_.registers = registers_.get();
  frame_.warp_count = warp_count;
  frame_.warp_stride = code.warp_stride;
  frame_.local_stride = code.local_stride;
  frame_.execution = this;
  static_assert(sizeof(std::atomic<bool>) == 1 && std::atomic<bool>::is_always_lock_free);
  frame_.grid_failed = reinterpret_cast<const uint8_t*>(&grid_failed);
  flag_errors_in(&frame_.between_blocks);
  if (meetings_.size() < warp_count) meetings_.resize(warp_count);
  // This thread's running_kernel_thread, set around each call of the entry: the address
  // once per grid, not a TLS lookup per call (libcudart's TLS is the global-dynamic model).
  running_ = &running_kernel_thread;
  return {};
}

void CompiledBlock::ready_block(const Dim3& index) {
  clear_error();
  place_block(block_context_, setup_, index.x, index.y, index.z);
  lane_context_placed_ = false;  // enter_lane places it when a lane needs it
  block_context_.exited = 0;
  frame_.between_blocks = 0;
  if (meetings_used_) {
    for (WarpMeeting& m : meetings_) {
      if (!m.used) continue;
      m.rendezvous.reset();
      m.done = 0;
      m.exits_known = 0;
      m.used = false;
    }
    meetings_used_ = false;
  }
  lane_execution_.linear_tid = 0;
}

uint64_t CompiledBlock::enter(uint64_t count) {
  if (setjmp(abandon_point_) != 0) return 0;  // abandoned (abandon_thread): the block's error says why
  return code_.entry(&frame_, count);
}

Result<uint64_t> CompiledBlock::run_blocks(Dim3& index, uint64_t count) {
  ready_block(index);
  // The threads' .local memory is their frames, not the stack (stack_high 0: the stack is
  // not local memory): a launching thread that runs a block itself (grid_executor.cpp) may
  // hold the host's own data there, which kernels may be given.
  *running_ = {&lane_execution_, stack_low_, 0, reinterpret_cast<uintptr_t>(local_.get()),
               reinterpret_cast<uintptr_t>(local_.get()) + local_bytes_used_};
  const uint64_t ran = enter(count);
  *running_ = {};
  setup_.block_index = running_block();
  report_fault(setup_);
  if (auto result = block_result(); !result) return result.error();
  index = running_block();
  advance_block(index, setup_.shape->grid);
  return ran;
}

void CompiledBlock::barrier_sync(ThreadExecution& self, uint32_t barrier, uint32_t) {
  report_error(ErrorCode::LaunchFailure,
               fmt::format("{}: thread {} of kernel {} reached barrier {} through a runtime call, which the compiled "
                           "block strategy never makes (internal error)",
                           describe_block(running_block()), self.linear_tid, setup_.kernel->name, barrier));
}

uint64_t CompiledBlock::warp_collective(ThreadExecution& self, uint32_t, const WarpCollective& collective, WarpOffer) {
  report_error(ErrorCode::LaunchFailure,
               fmt::format("{}: thread {} of kernel {} reached {} through a runtime call, which the compiled block "
                           "strategy never makes (internal error)",
                           describe_block(running_block()), self.linear_tid, setup_.kernel->name, collective.name));
  return 0;
}

void CompiledBlock::abandon_thread(ThreadExecution&) {
  *running_ = {};
  std::longjmp(abandon_point_, 1);
}

void CompiledBlock::enter_lane(uint32_t warp_index, uint32_t lane) {
  const uint32_t tid = warp_index * kWarpSize + lane;
  // The lanes' context is the block's with a lane's own registers.
  if (!lane_context_placed_) {
    const Dim3 block = running_block();
    place_block(lane_context_, setup_, block.x, block.y, block.z);
    lane_context_placed_ = true;
  }
  frame_.between_blocks = 1;  // the lane's context, its .local bounds: ready_block clears them
  const Dim3& block = setup_.shape->block;
  lane_context_.tid[0] = tid % block.x;
  lane_context_.tid[1] = tid / block.x % block.y;
  lane_context_.tid[2] = tid / (block.x * block.y);
  lane_context_.laneid = lane;
  lane_context_.warpid = warp_index;
  lane_context_.exited = 0;
  lane_execution_.linear_tid = tid;
  frame_.current_thread = tid;
  const uintptr_t frame = reinterpret_cast<uintptr_t>(local_.get()) + uintptr_t{tid} * frame_.local_stride;
  running_->local_low = frame;
  running_->local_high = frame + frame_.local_stride;
}

void CompiledBlock::leave_direct(uint32_t current, uint32_t start, uint32_t target) {
  for (uint32_t w = 0; w < frame_.warp_count; ++w) {
    jit::CompiledWarp& state = warp(w);
    if (w == current || state.live == 0) continue;
    if (w < current) {
      state.parks[0] = jit::CompiledPark{target, state.live, 0, 0, jit::ParkKind::Sync, 0};
      state.park_count = 1;
    } else {
      state.runs[0] = jit::CompiledRun{start, state.live, 0, 0};
      state.run_count = 1;
    }
  }
}

void CompiledBlock::unsupported(uint32_t warp_index, const char* what) {
  report_error(ErrorCode::LaunchFailure,
               fmt::format("{}: warp {} of kernel {}: {}", describe_block(running_block()), warp_index,
                           setup_.kernel->name, what));
  lane_execution_.linear_tid = warp_index * kWarpSize;
  abandon_thread(lane_execution_);
}

CompiledBlock::WarpMeeting& CompiledBlock::meeting(uint32_t warp_index) {
  WarpMeeting& m = meetings_[warp_index];
  m.used = true;
  meetings_used_ = true;
  frame_.between_blocks = 1;  // ready_block clears the meetings
  return m;
}

void CompiledBlock::report_exits(uint32_t warp_index) {
  WarpMeeting& m = meeting(warp_index);
  const uint32_t exited = warp_lanes(warp_index, setup_.thread_count()) & ~warp(warp_index).live & ~m.exits_known;
  for (uint32_t bits = exited; bits != 0; bits &= bits - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(bits));
    m.exits_known |= 1u << lane;
    uint64_t results[kWarpSize];
    uint32_t released = 0;
    while (m.rendezvous.complete_without_exited(lane, results, released)) {
      for (uint32_t r = released; r != 0; r &= r - 1) m.results[__builtin_ctz(r)] = results[__builtin_ctz(r)];
      m.done |= released;
    }
  }
}

uint32_t CompiledBlock::collective(uint32_t warp_index, jit::CompiledCollective& call) {
  report_exits(warp_index);
  WarpMeeting& m = meeting(warp_index);
  const WarpCollective kind = warp_collective_of(static_cast<jit::WarpCombineKind>(call.kind), call.operation);
  const uint32_t lanes = setup_.thread_count() - warp_index * kWarpSize;
  for (uint32_t bits = call.active; bits != 0; bits &= bits - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(bits));
    uint64_t results[kWarpSize];
    uint32_t released = 0;
    const WarpOffer offer{call.values[lane], call.arguments[lane]};
    const uint32_t members = WarpRendezvous::members_named(lane, call.membermasks[lane], lanes);
    if (!m.rendezvous.arrive(lane, members, kind, offer, results, released)) continue;
    const uint32_t completed_lanes = released | 1u << lane;
    for (uint32_t r = completed_lanes; r != 0; r &= r - 1) m.results[__builtin_ctz(r)] = results[__builtin_ctz(r)];
    m.done |= completed_lanes;
  }
  const uint32_t completed = call.active & m.done;
  for (uint32_t bits = completed; bits != 0; bits &= bits - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(bits));
    call.results[lane] = m.results[lane];
  }
  m.done &= ~completed;
  return completed;
}

void CompiledBlock::collective_results(uint32_t warp_index, uint32_t lanes, uint64_t* results) {
  WarpMeeting& m = meeting(warp_index);
  for (uint32_t bits = lanes; bits != 0; bits &= bits - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(bits));
    results[lane] = m.results[lane];
  }
}

uint32_t CompiledBlock::settle() {
  const uint32_t threads = setup_.thread_count();
  const uint32_t warp_count = frame_.warp_count;
  std::vector<uint32_t> released;
  bool barrier_parks = false;
  for (uint32_t w = 0; w < warp_count; ++w) {
    const jit::CompiledWarp& state = warp(w);
    for (uint32_t k = 0; k < state.park_count; ++k)
      barrier_parks |= state.parks[k].kind == jit::ParkKind::Sync || state.parks[k].kind == jit::ParkKind::Reduce;
  }
  barriers_.reset(barrier_parks ? threads : 0);
  // Exited threads first: no barrier waits for them.
  for (uint32_t w = 0; w < warp_count && barrier_parks; ++w) {
    const uint32_t live = warp(w).live;
    for (uint32_t lane = 0; lane < kWarpSize && w * kWarpSize + lane < threads; ++lane)
      if (!(live >> lane & 1)) barriers_.thread_exited(w * kWarpSize + lane, released);
  }
  // Then every lane parked at a barrier arrives, in warp and lane order. Lanes that
  // yielded go on; lanes at a collective go on once it completed (exits can complete it).
  std::vector<uint8_t> goes_on(threads, 0);
  const uint32_t warp_threads = (threads + kWarpSize - 1) / kWarpSize * kWarpSize;
  for (uint32_t w = 0; w < warp_count; ++w) {
    jit::CompiledWarp& state = warp(w);
    bool collective_parks = false;
    for (uint32_t k = 0; k < state.park_count; ++k) collective_parks |= state.parks[k].kind == jit::ParkKind::Collective;
    if (collective_parks) report_exits(w);
    for (uint32_t k = 0; k < state.park_count; ++k) {
      const jit::CompiledPark& park = state.parks[k];
      if (park.kind == jit::ParkKind::Yield || park.kind == jit::ParkKind::Collective) {
        const uint32_t lanes = park.kind == jit::ParkKind::Yield ? park.mask : park.mask & meetings_[w].done;
        for (uint32_t bits = lanes; bits != 0; bits &= bits - 1) goes_on[w * kWarpSize + __builtin_ctz(bits)] = 1;
        if (park.kind == jit::ParkKind::Collective) meetings_[w].done &= ~lanes;
        continue;
      }
      for (uint32_t bits = park.mask; bits != 0; bits &= bits - 1) {
        const uint32_t tid = w * kWarpSize + static_cast<uint32_t>(__builtin_ctz(bits));
        // The checks the fiber strategy makes: a bad barrier is an error, and the thread goes on.
        if (park.barrier >= kBarrierCount || park.thread_count > warp_threads) {
          report_error(ErrorCode::LaunchFailure,
                       park.barrier >= kBarrierCount
                           ? fmt::format("{}: thread {} waits at barrier {} (ids are 0..{})",
                                         describe_block(running_block()), tid, park.barrier, kBarrierCount - 1)
                           : fmt::format("{}: thread {} waits at barrier {} for {} threads, but the block has {} warps",
                                         describe_block(running_block()), tid, park.barrier, park.thread_count,
                                         warp_threads / kWarpSize));
          goes_on[tid] = 1;
          continue;
        }
        const bool predicate = park.predicates >> (tid % kWarpSize) & 1;
        const BarrierArrival kind = park.kind == jit::ParkKind::Reduce ? BarrierArrival::Reduce : BarrierArrival::Sync;
        if (barriers_.arrive(park.barrier, tid, park.thread_count, released, kind, predicate)) goes_on[tid] = 1;
      }
    }
  }
  for (uint32_t tid : released) goes_on[tid] = 1;
  // What was released runs next round, with its completion's vote.
  bool any_run = false, any_live = false;
  for (uint32_t w = 0; w < warp_count; ++w) {
    jit::CompiledWarp& state = warp(w);
    any_live |= state.live != 0;
    any_run |= state.run_count != 0;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < state.park_count; ++k) {
      jit::CompiledPark park = state.parks[k];
      uint32_t lanes = 0;
      for (uint32_t bits = park.mask; bits != 0; bits &= bits - 1) {
        const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(bits));
        if (goes_on[w * kWarpSize + lane]) lanes |= 1u << lane;
      }
      if (lanes != 0) {
        const uint32_t first = w * kWarpSize + static_cast<uint32_t>(__builtin_ctz(lanes));
        const BarrierVote vote = barrier_parks ? barriers_.vote_of(first) : BarrierVote{};
        state.runs[state.run_count++] = jit::CompiledRun{park.point, lanes, vote.true_count, vote.thread_count};
        any_run = true;
      }
      park.mask &= ~lanes;
      if (park.mask != 0) state.parks[kept++] = park;
    }
    state.park_count = kept;
  }
  if (any_run) return 0;
  if (any_live) report_error(ErrorCode::LaunchFailure, describe_stall(barriers_));
  return 1;
}

// As the fiber strategy says it (fiber_scheduler.cpp describe_stall).
std::string CompiledBlock::describe_stall(const BlockBarriers& barriers) const {
  uint32_t live_threads = 0;
  std::string waits = barriers.describe_waiting();
  for (uint32_t w = 0; w < frame_.warp_count; ++w) {
    const auto* state = reinterpret_cast<const jit::CompiledWarp*>(warps_.get() + std::size_t{w} * frame_.warp_stride);
    live_threads += static_cast<uint32_t>(__builtin_popcount(state->live));
    if (w >= meetings_.size() || !meetings_[w].used || !meetings_[w].rendezvous.has_waiting()) continue;
    if (!waits.empty()) waits += "; ";
    waits += fmt::format("warp {}: {}", w, meetings_[w].rendezvous.describe_waiting());
  }
  const uint32_t threads = setup_.thread_count();
  return fmt::format("{} cannot finish: {} ({} of {} threads exited)", describe_block(running_block()), waits,
                     threads - live_threads, threads);
}

jit::RuntimeSymbols compiled_block_symbols() {
  return {
      {jit::kCompiledSettle, reinterpret_cast<void*>(&__cucpu_compiled_settle)},
      {jit::kCompiledEnterLane, reinterpret_cast<void*>(&__cucpu_compiled_enter_lane)},
      {jit::kCompiledLeaveDirect, reinterpret_cast<void*>(&__cucpu_compiled_leave_direct)},
      {jit::kCompiledUnsupported, reinterpret_cast<void*>(&__cucpu_compiled_unsupported)},
      {jit::kWarpCombine, reinterpret_cast<void*>(&__cucpu_warp_combine)},
      {jit::kCompiledCollective, reinterpret_cast<void*>(&__cucpu_compiled_collective)},
      {jit::kCompiledCollectiveResults, reinterpret_cast<void*>(&__cucpu_compiled_collective_results)},
  };
}

}  // namespace cucpu::exec
