// Warp collectives on the warp rendezvous: shfl.sync (PTX ISA 9.7.8.6), vote.sync
// (9.7.12.10), match.sync (9.7.12.12), elect.sync (9.7.12.13), bar.warp.sync (9.7.12.3)
// and activemask (9.7.12.14). Each runtime function packs its lane's offer, meets the
// other lanes of the membermask, and the last to arrive runs the combine for all.
// Where PTX leaves a result undefined we do what an H100 does where known: a shuffle
// whose source lane (in range) is not a member reads 0.
#include "exec/warp_collectives.h"

#include <fmt/format.h>

#include "ptx/module.h"

namespace cucpu::exec {
namespace {

constexpr uint32_t kMatch64Flag = 0x100;  // kernel_abi.h
constexpr uint64_t kPredicateBit = uint64_t{1} << 32;

template <typename E>
constexpr uint32_t code(E value) {
  return static_cast<uint32_t>(value);
}

ThreadExecution& executing_thread(jit::ThreadContext* context) {
  return *static_cast<ThreadExecution*>(context->executor);
}

// Member lanes, lowest first.
template <typename Visit>
void for_each_lane(uint32_t members, Visit visit) {
  for (uint32_t bits = members; bits != 0; bits &= bits - 1) visit(static_cast<uint32_t>(__builtin_ctz(bits)));
}

const char* shuffle_name(uint32_t mode) {
  switch (mode) {
    case code(ptx::ShuffleMode::Up):
      return "shfl.sync.up";
    case code(ptx::ShuffleMode::Down):
      return "shfl.sync.down";
    case code(ptx::ShuffleMode::Bfly):
      return "shfl.sync.bfly";
    case code(ptx::ShuffleMode::Idx):
      return "shfl.sync.idx";
    default:
      return nullptr;
  }
}

const char* vote_name(uint32_t mode) {
  switch (mode) {
    case code(ptx::VoteMode::All):
      return "vote.sync.all";
    case code(ptx::VoteMode::Any):
      return "vote.sync.any";
    case code(ptx::VoteMode::Uni):
      return "vote.sync.uni";
    case code(ptx::VoteMode::Ballot):
      return "vote.sync.ballot";
    default:
      return nullptr;
  }
}

const char* match_name(uint32_t mode) {
  switch (mode) {
    case code(ptx::VoteMode::Any):
      return "match.sync.any.b32";
    case code(ptx::VoteMode::All):
      return "match.sync.all.b32";
    case code(ptx::VoteMode::Any) | kMatch64Flag:
      return "match.sync.any.b64";
    case code(ptx::VoteMode::All) | kMatch64Flag:
      return "match.sync.all.b64";
    default:
      return nullptr;
  }
}

uint64_t meet(jit::ThreadContext* context, const char* name, WarpCombine combine, uint32_t operation,
              uint32_t membermask, WarpOffer offer) {
  ThreadExecution& self = executing_thread(context);
  if (!name) {
    self.block->report_error(
        ErrorCode::LaunchFailure,
        fmt::format("thread {}: warp collective with unknown operation {:#x}", self.linear_tid, operation));
    return 0;
  }
  return self.block->warp_collective(self, membermask, WarpCollective{name, combine, operation}, offer);
}

}  // namespace

void combine_shuffle(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                     uint32_t operation) {
  for_each_lane(members, [&](uint32_t lane) {
    const uint32_t b = static_cast<uint32_t>(offers[lane].argument) & 31;
    const uint32_t c = static_cast<uint32_t>(offers[lane].argument >> 32);
    const uint32_t clamp = c & 31;
    const uint32_t segment_mask = (c >> 8) & 31;
    const int32_t min_lane = static_cast<int32_t>(lane & segment_mask);
    const int32_t max_lane = min_lane | static_cast<int32_t>(clamp & ~segment_mask);
    const int32_t self = static_cast<int32_t>(lane);
    int32_t source = self;
    bool in_range = false;
    switch (operation) {
      case code(ptx::ShuffleMode::Up):
        source = self - static_cast<int32_t>(b);
        in_range = source >= max_lane;
        break;
      case code(ptx::ShuffleMode::Down):
        source = self + static_cast<int32_t>(b);
        in_range = source <= max_lane;
        break;
      case code(ptx::ShuffleMode::Bfly):
        source = self ^ static_cast<int32_t>(b);
        in_range = source <= max_lane;
        break;
      default:  // Idx
        source = min_lane | static_cast<int32_t>(b & ~segment_mask);
        in_range = source <= max_lane;
        break;
    }
    if (!in_range) source = self;
    // A source lane outside the membermask is undefined; it reads 0 on an H100 and H200,
    // whether that lane has exited or runs elsewhere (tests/e2e/probes/shuffle_non_member_source.cu).
    const uint64_t value = ((members >> source) & 1) != 0 ? offers[source].value & 0xffffffffu : 0;
    results[lane] = value | (in_range ? kPredicateBit : 0);
  });
}

void combine_vote(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                  uint32_t operation) {
  uint32_t ballot = 0;
  for_each_lane(members, [&](uint32_t lane) {
    if (offers[lane].value != 0) ballot |= 1u << lane;
  });
  uint64_t result = 0;
  switch (operation) {
    case code(ptx::VoteMode::All):
      result = ballot == members;
      break;
    case code(ptx::VoteMode::Any):
      result = ballot != 0;
      break;
    case code(ptx::VoteMode::Uni):
      result = ballot == members || ballot == 0;
      break;
    default:
      result = ballot;
      break;  // Ballot
  }
  for_each_lane(members, [&](uint32_t lane) { results[lane] = result; });
}

void combine_match(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                   uint32_t operation) {
  if ((operation & ~kMatch64Flag) == code(ptx::VoteMode::All)) {
    const uint64_t first = offers[__builtin_ctz(members)].value;
    bool same = true;
    for_each_lane(members, [&](uint32_t lane) { same = same && offers[lane].value == first; });
    for_each_lane(members, [&](uint32_t lane) { results[lane] = same ? (members | kPredicateBit) : 0; });
    return;
  }
  for_each_lane(members, [&](uint32_t lane) {
    uint32_t equal = 0;
    for_each_lane(members, [&](uint32_t other) {
      if (offers[other].value == offers[lane].value) equal |= 1u << other;
    });
    results[lane] = equal;
  });
}

void combine_elect(uint32_t members, const WarpOffer (&)[kWarpSize], uint64_t (&results)[kWarpSize], uint32_t) {
  const uint32_t leader = static_cast<uint32_t>(__builtin_ctz(members));
  for_each_lane(members, [&](uint32_t lane) { results[lane] = leader | (lane == leader ? kPredicateBit : 0); });
}

void combine_nothing(uint32_t members, const WarpOffer (&)[kWarpSize], uint64_t (&results)[kWarpSize], uint32_t) {
  for_each_lane(members, [&](uint32_t lane) { results[lane] = 0; });
}

WarpCollective warp_collective_of(jit::WarpCombineKind kind, uint32_t operation) {
  auto named = [](WarpCollective collective) {
    if (collective.name == nullptr) collective.name = "a warp collective";
    return collective;
  };
  switch (kind) {
    case jit::WarpCombineKind::Shuffle:
      return named({shuffle_name(operation), combine_shuffle, operation});
    case jit::WarpCombineKind::Vote:
      return named({vote_name(operation), combine_vote, operation});
    case jit::WarpCombineKind::Match:
      return named({match_name(operation), combine_match, operation});
    case jit::WarpCombineKind::Elect:
      return {"elect.sync", combine_elect, 0};
    case jit::WarpCombineKind::Redux:
      return {"redux.sync", combine_redux, operation};
    case jit::WarpCombineKind::Nothing:
      break;
  }
  return {"bar.warp.sync", combine_nothing, 0};
}

extern "C" uint64_t __cucpu_shfl_sync(jit::ThreadContext* context, uint32_t mode, uint32_t a, uint32_t b, uint32_t c,
                                      uint32_t membermask) {
  return meet(context, shuffle_name(mode), combine_shuffle, mode, membermask, WarpOffer{a, b | (uint64_t{c} << 32)});
}

extern "C" uint32_t __cucpu_vote_sync(jit::ThreadContext* context, uint32_t mode, uint32_t predicate,
                                      uint32_t membermask) {
  return static_cast<uint32_t>(
      meet(context, vote_name(mode), combine_vote, mode, membermask, WarpOffer{predicate != 0 ? 1u : 0u, 0}));
}

extern "C" uint64_t __cucpu_match_sync(jit::ThreadContext* context, uint32_t mode, uint64_t value,
                                       uint32_t membermask) {
  return meet(context, match_name(mode), combine_match, mode, membermask, WarpOffer{value, 0});
}

extern "C" uint64_t __cucpu_elect_sync(jit::ThreadContext* context, uint32_t membermask) {
  return meet(context, "elect.sync", combine_elect, 0, membermask, WarpOffer{});
}

extern "C" void __cucpu_bar_warp_sync(jit::ThreadContext* context, uint32_t membermask) {
  meet(context, "bar.warp.sync", combine_nothing, 0, membermask, WarpOffer{});
}

extern "C" uint32_t __cucpu_activemask(jit::ThreadContext* context, uint32_t call_site) {
  ThreadExecution& self = executing_thread(context);
  return self.block->active_lanes(self, call_site);
}

jit::RuntimeSymbols warp_collective_symbols() {
  return {
      {jit::kShflSync, reinterpret_cast<void*>(&__cucpu_shfl_sync)},
      {jit::kVoteSync, reinterpret_cast<void*>(&__cucpu_vote_sync)},
      {jit::kMatchSync, reinterpret_cast<void*>(&__cucpu_match_sync)},
      {jit::kActivemask, reinterpret_cast<void*>(&__cucpu_activemask)},
      {jit::kBarWarpSync, reinterpret_cast<void*>(&__cucpu_bar_warp_sync)},
      {jit::kElectSync, reinterpret_cast<void*>(&__cucpu_elect_sync)},
  };
}

}  // namespace cucpu::exec
