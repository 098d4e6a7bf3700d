// The combines of the warp collectives beyond redux.sync (shfl.sync, vote.sync,
// match.sync, elect.sync, bar.warp.sync) and the runtime functions that run them on the
// warp rendezvous (kernel_abi.h). Exposed for unit tests of the combines.
#pragma once

#include <cstdint>

#include "exec/block_execution.h"
#include "jit/kernel_abi.h"

namespace cucpu::exec {

// Offers: shfl: value = a, argument = b | c << 32, operation = ptx::ShuffleMode.
// Results: d in bits 0..31, p in bit 32.
void combine_shuffle(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                     uint32_t operation);
// vote: value = predicate (0/1), operation = ptx::VoteMode. Results: 0/1, or the ballot.
void combine_vote(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                  uint32_t operation);
// match: value = the value, operation = ptx::VoteMode (| 0x100 for .b64). Results: mask | p << 32.
void combine_match(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                   uint32_t operation);
// elect: results: the lowest member lane | (lane is it) << 32.
void combine_elect(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                   uint32_t operation);
// redux.sync (runtime_functions.cpp): value = the value, operation = ptx::AtomicOp (| 0x100:
// signed min/max). Results: the reduction.
void combine_redux(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                   uint32_t operation);
// bar.warp.sync: nothing to exchange.
void combine_nothing(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                     uint32_t operation);

// The collective the compiled block strategy names by kind and operation (kernel_abi.h),
// as the fiber strategy's runtime functions name it: lanes of either meet alike.
WarpCollective warp_collective_of(jit::WarpCombineKind kind, uint32_t operation);

// __cucpu_shfl_sync, __cucpu_vote_sync, ... by their kernel_abi.h names.
jit::RuntimeSymbols warp_collective_symbols();

}  // namespace cucpu::exec
