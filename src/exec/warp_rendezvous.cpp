// Warp rendezvous: the lanes named by a membermask meet, exchange one offer each, and
// leave with one result each. A lane joins the open gathering with the same membermask
// and collective (same combine and operation); the member that completes it runs the
// combine for everyone and closes the gathering at once, so the same lanes can start the
// next collective while the released ones have not run yet (their results travel with
// the wake-up, not in the gathering). Lanes that disagree on the collective or the mask
// never meet; the block then stalls and the scheduler reports the open gatherings.
//
// Exited lanes take no part: shfl.sync, vote.sync, match.sync and redux.sync "wait until
// all non-exited threads corresponding to membermask have executed" them (PTX ISA
// 9.7.8.6, 9.7.12.10-12). A mask naming an exited lane is cut to the lanes still there,
// and a lane that exits completes the gatherings that waited only for it. bar.warp.sync
// and elect.sync follow the same rule: the warp-synchronising hardware is the same.
#include "exec/warp_rendezvous.h"

#include <fmt/format.h>

namespace cucpu::exec {

void WarpRendezvous::reset() {
  open_.clear();
  exited_ = 0;
}

void WarpRendezvous::close(Gathering& gathering) {
  // Swap with the last open gathering (order among open gatherings is irrelevant).
  gathering = open_.back();
  open_.pop_back();
}

uint32_t WarpRendezvous::members_named(uint32_t lane, uint32_t membermask, uint32_t lanes) {
  const uint32_t existing = lanes >= kWarpSize ? ~0u : (1u << lanes) - 1;
  return (membermask | 1u << lane) & existing;
}

bool WarpRendezvous::arrive(uint32_t lane, uint32_t members, const WarpCollective& collective, WarpOffer offer,
                            uint64_t (&results)[kWarpSize], uint32_t& released) {
  const uint32_t lane_bit = 1u << lane;
  members &= ~exited_;
  Gathering* gathering = nullptr;
  for (Gathering& open : open_) {
    if (open.members == members && open.collective.combine == collective.combine &&
        open.collective.operation == collective.operation && (open.arrived & lane_bit) == 0) {
      gathering = &open;
      break;
    }
  }
  if (!gathering) {
    gathering = &open_.emplace_back();
    gathering->collective = collective;
    gathering->members = members;
  }
  gathering->arrived |= lane_bit;
  gathering->offers[lane] = offer;
  if (gathering->arrived != members) return false;

  gathering->collective.combine(members, gathering->offers, results, gathering->collective.operation);
  released = members & ~lane_bit;
  close(*gathering);
  return true;
}

bool WarpRendezvous::complete_without_exited(uint32_t lane, uint64_t (&results)[kWarpSize], uint32_t& released) {
  const uint32_t lane_bit = 1u << lane;
  exited_ |= lane_bit;
  for (Gathering& open : open_) {
    open.members &= ~lane_bit;
    if (open.arrived != open.members) continue;
    open.collective.combine(open.members, open.offers, results, open.collective.operation);
    released = open.members;
    close(open);
    return true;
  }
  return false;
}

bool WarpRendezvous::has_waiting() const { return !open_.empty(); }

std::string WarpRendezvous::describe_waiting() const {
  std::string text;
  for (const Gathering& open : open_) {
    if (!text.empty()) text += "; ";
    text += fmt::format("lanes {:#010x} wait at {} with membermask {:#010x} (missing lanes {:#010x})", open.arrived,
                        open.collective.name, open.members, open.members & ~open.arrived);
  }
  return text;
}

}  // namespace cucpu::exec
