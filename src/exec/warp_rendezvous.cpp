// Warp rendezvous: the lanes named by a membermask meet, exchange one offer each, and
// leave with one result each. A lane joins the open gathering with the same membermask
// and collective (same combine and operation); the member that completes it runs the
// combine for everyone and closes the gathering at once, so the same lanes can start the
// next collective while the released ones have not run yet (their results travel with
// the wake-up, not in the gathering). Lanes that disagree on the collective or the mask
// never meet; the block then stalls and the scheduler reports the open gatherings.
#include "exec/warp_rendezvous.h"

#include <fmt/format.h>

namespace cucpu::exec {

void WarpRendezvous::reset() { open_.clear(); }

bool WarpRendezvous::arrive(uint32_t lane, uint32_t members, const WarpCollective& collective, WarpOffer offer,
                            uint64_t (&results)[kWarpSize], uint32_t& released) {
  const uint32_t lane_bit = 1u << lane;
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
  // Close it: swap with the last open gathering (order among open gatherings is irrelevant).
  *gathering = open_.back();
  open_.pop_back();
  return true;
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
