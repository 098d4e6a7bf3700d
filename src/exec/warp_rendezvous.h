// The meeting point of one warp's lanes for warp collectives (redux.sync, shfl.sync,
// vote.sync, match.sync, ...): lanes arrive with an offer, the last member to arrive
// combines all offers into per-lane results. Plain bookkeeping like the barriers:
// parking the lanes that wait is the scheduler's business.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/block_execution.h"

namespace cucpu::exec {

class WarpRendezvous {
 public:
  // Forgets every open gathering, for the next block.
  void reset();

  // The members `membermask` names for `lane` of a warp whose lanes 0..lanes-1 exist: the
  // caller always (a mask without it is undefined, PTX ISA 9.7.12.x; so it cannot wait for
  // a gathering it is not part of), lanes past the end of the block never (a full mask in a
  // partial warp names only the lanes there are, as on the GPU).
  static uint32_t members_named(uint32_t lane, uint32_t membermask, uint32_t lanes);

  // Records that `lane` arrived with `offer` at a collective over the lanes of `members`
  // (which includes `lane`; exited lanes are left out of it). Returns true when this
  // arrival completes the gathering: then `results` holds each member's result and
  // `released` the members other than `lane`, who waited. Otherwise the caller must wait.
  bool arrive(uint32_t lane, uint32_t members, const WarpCollective& collective, WarpOffer offer,
              uint64_t (&results)[kWarpSize], uint32_t& released);

  // Lane `lane` exited: no gathering waits for it any more. Completes at most one gathering
  // that now has every member (true: `results` and `released`, all of whose lanes waited,
  // as from arrive); call again until it returns false.
  bool complete_without_exited(uint32_t lane, uint64_t (&results)[kWarpSize], uint32_t& released);

  bool has_waiting() const;

  // "lanes 0x0000ffff wait at redux.sync with membermask 0xffffffff (missing 0xffff0000)",
  // one clause per open gathering.
  std::string describe_waiting() const;

 private:
  // The lanes that arrived so far at one collective with one membermask. Several can be
  // open at once: with independent thread scheduling, diverged parts of a warp may each
  // run a collective over their own lanes.
  struct Gathering {
    WarpCollective collective;
    uint32_t members = 0;
    uint32_t arrived = 0;
    WarpOffer offers[kWarpSize];
  };
  void close(Gathering& gathering);

  std::vector<Gathering> open_;
  uint32_t exited_ = 0;  // lanes that have exited: members of no gathering
};

}  // namespace cucpu::exec
