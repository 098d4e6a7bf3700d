// Named block barriers (PTX ISA 9.7.13.1, bar/barrier). The hardware counts warps, not
// threads: a warp has arrived at a barrier once all of its non-exited threads have, and
// then counts as warp-size threads. A barrier with a thread count completes when count /
// 32 warps have arrived; one without (bar.sync 0, __syncthreads) when every warp that
// still has a live thread has. So a fully exited warp never holds up __syncthreads, and a
// thread that exits lets the rest of its warp arrive without it (Volta+ semantics).
//
// On completion only the threads of arrived warps are released; arrivals of a warp that
// has not fully arrived stay and open the barrier's next round. The expected count comes
// from the first arrival of a round.
//
// bar.arrive adds to a warp's arrivals like bar.sync but does not wait, so it is never
// among the waiting threads. bar.red waits like bar.sync and offers a predicate; the
// completion counts the offers of the threads it releases.
#include "exec/barrier.h"

#include <fmt/format.h>

#include <algorithm>

namespace cucpu::exec {

void BlockBarriers::reset(uint32_t thread_count) {
  for (Barrier& barrier : barriers_) {
    barrier.expected = 0;
    barrier.arrived_warps = 0;
    barrier.waiting.clear();
    barrier.arrivals.fill(0);
  }
  live_in_warp_.fill(0);
  live_warps_ = 0;
  predicates_.assign(thread_count, 0);
  votes_.assign(thread_count, BarrierVote{});
  for (uint32_t warp = 0; warp * kWarpSize < thread_count; ++warp) {
    live_in_warp_[warp] = static_cast<uint8_t>(std::min(kWarpSize, thread_count - warp * kWarpSize));
    live_warps_ |= 1u << warp;
  }
}

// No thread waits and no arrival is counted: the next arrival opens a round.
bool BlockBarriers::is_idle(const Barrier& barrier) {
  return barrier.waiting.empty() &&
         std::all_of(barrier.arrivals.begin(), barrier.arrivals.end(), [](uint8_t n) { return n == 0; });
}

void BlockBarriers::note_warp_if_arrived(Barrier& barrier, uint32_t warp) {
  if (barrier.arrivals[warp] != 0 && barrier.arrivals[warp] == live_in_warp_[warp]) barrier.arrived_warps |= 1u << warp;
}

bool BlockBarriers::is_complete(const Barrier& barrier) const {
  if (barrier.expected == 0) return (live_warps_ & ~barrier.arrived_warps) == 0 && barrier.arrived_warps != 0;
  return static_cast<uint32_t>(__builtin_popcount(barrier.arrived_warps)) * kWarpSize >= barrier.expected;
}

void BlockBarriers::release_arrived_warps(Barrier& barrier, std::vector<uint32_t>& released) {
  std::size_t kept = 0;
  const std::size_t first_released = released.size();
  BarrierVote vote;
  for (uint32_t tid : barrier.waiting) {
    if (barrier.arrived_warps >> (tid / kWarpSize) & 1) {
      released.push_back(tid);
      vote.true_count += predicates_[tid];
      ++vote.thread_count;
    } else {
      barrier.waiting[kept++] = tid;
    }
  }
  barrier.waiting.resize(kept);
  for (std::size_t i = first_released; i < released.size(); ++i) votes_[released[i]] = vote;
  for (uint32_t bits = barrier.arrived_warps; bits != 0; bits &= bits - 1) barrier.arrivals[__builtin_ctz(bits)] = 0;
  barrier.arrived_warps = 0;
}

bool BlockBarriers::arrive(uint32_t barrier_id, uint32_t tid, uint32_t thread_count, std::vector<uint32_t>& released,
                           BarrierArrival kind, bool predicate) {
  Barrier& barrier = barriers_[barrier_id];
  if (is_idle(barrier)) barrier.expected = thread_count;
  const uint32_t warp = tid / kWarpSize;
  const bool waits = kind != BarrierArrival::Arrive;
  ++barrier.arrivals[warp];
  if (waits) barrier.waiting.push_back(tid);
  predicates_[tid] = kind == BarrierArrival::Reduce && predicate;
  note_warp_if_arrived(barrier, warp);
  if (!is_complete(barrier)) return !waits;

  const bool caller_released = (barrier.arrived_warps >> warp & 1) != 0;
  const std::size_t first_released = released.size();
  release_arrived_warps(barrier, released);
  // The caller goes on by returning; it is not among the threads to wake.
  if (waits && caller_released) released.erase(std::find(released.begin() + first_released, released.end(), tid));
  return !waits || caller_released;
}

void BlockBarriers::thread_exited(uint32_t tid, std::vector<uint32_t>& released) {
  const uint32_t warp = tid / kWarpSize;
  if (--live_in_warp_[warp] == 0) live_warps_ &= ~(1u << warp);
  for (Barrier& barrier : barriers_) {
    if (is_idle(barrier)) continue;
    note_warp_if_arrived(barrier, warp);
    if (is_complete(barrier)) release_arrived_warps(barrier, released);
  }
}

bool BlockBarriers::has_waiting() const {
  for (const Barrier& barrier : barriers_)
    if (!barrier.waiting.empty()) return true;
  return false;
}

std::string BlockBarriers::describe_waiting() const {
  std::string text;
  for (uint32_t id = 0; id < kBarrierCount; ++id) {
    const Barrier& barrier = barriers_[id];
    if (barrier.waiting.empty()) continue;
    if (!text.empty()) text += "; ";
    const std::string expected = barrier.expected == 0 ? fmt::format("all live warps ({:#x})", live_warps_)
                                                       : fmt::format("{} threads", barrier.expected);
    text += fmt::format("{} thread(s) wait at barrier {} for {} (warps arrived: {:#x}, first waiting: tid {})",
                        barrier.waiting.size(), id, expected, barrier.arrived_warps, barrier.waiting.front());
  }
  return text;
}

}  // namespace cucpu::exec
