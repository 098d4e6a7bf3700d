// The sixteen named barriers of one block (bar.sync / barrier.sync), as plain bookkeeping:
// who waits where, and when a barrier is complete. Parking and waking the waiting
// threads is the scheduler's business (fiber_scheduler.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/block_execution.h"

namespace cucpu::exec {

// How a thread takes part in a barrier (PTX ISA 9.7.13.1): bar.sync waits, bar.arrive
// counts toward completion without waiting, bar.red waits and offers a predicate.
enum class BarrierArrival : uint8_t { Sync, Arrive, Reduce };

class BlockBarriers {
 public:
  // Forgets every waiting thread; the next block has `thread_count` threads, all live.
  void reset(uint32_t thread_count);

  // Records that thread `tid` arrived at `barrier` expecting `thread_count` threads (a
  // multiple of the warp size; 0 = the whole block). Returns true when the caller may go
  // on: its arrival completed the barrier. The other threads that the completion
  // releases are appended to `released`. Returns false when the caller must wait.
  // A BarrierArrival::Arrive caller never waits (the result is true), and is not among the
  // threads a completion releases; a Reduce caller offers `predicate`.
  bool arrive(uint32_t barrier, uint32_t tid, uint32_t thread_count, std::vector<uint32_t>& released,
              BarrierArrival kind = BarrierArrival::Sync, bool predicate = false);

  // The vote of the completion that released thread `tid` (or let it go on) last.
  BarrierVote vote_of(uint32_t tid) const { return votes_[tid]; }

  // Thread `tid` exited. Its warp may now have arrived (its other live threads all wait),
  // and a barrier for the whole block no longer waits for a warp that has fully exited:
  // the threads that completed barriers release are appended to `released`.
  void thread_exited(uint32_t tid, std::vector<uint32_t>& released);

  bool has_waiting() const;

  // "32 thread(s) wait at barrier 1 for 64 threads (warps arrived: 0x1)", one clause per
  // barrier with waiting threads.
  std::string describe_waiting() const;

 private:
  struct Barrier {
    uint32_t expected = 0;                 // threads; 0 = all live warps. Set by the first arrival
    uint32_t arrived_warps = 0;            // bit w: every live thread of warp w has arrived
    std::vector<uint32_t> waiting;         // tids, in arrival order
    std::array<uint8_t, 32> arrivals{};    // per warp: threads that arrived
  };

  static bool is_idle(const Barrier& barrier);
  void note_warp_if_arrived(Barrier& barrier, uint32_t warp);
  bool is_complete(const Barrier& barrier) const;
  void release_arrived_warps(Barrier& barrier, std::vector<uint32_t>& released);

  std::array<Barrier, kBarrierCount> barriers_;
  std::array<uint8_t, 32> live_in_warp_{};  // threads of each warp that have not exited
  uint32_t live_warps_ = 0;                 // bit w: warp w has a live thread
  std::vector<uint8_t> predicates_;         // per tid: what it offered at its bar.red
  std::vector<BarrierVote> votes_;          // per tid: see vote_of
};

}  // namespace cucpu::exec
