// __cucpu_warp_step (kernel_abi.h): a warp-wide step that needs every lane's data at
// once — the tensor-core matrix product, ldmatrix, stmatrix, movmatrix. The lanes meet
// on the warp rendezvous like any warp collective; the last to arrive runs the step
// once with every member's buffer while the others are parked, so the step may read
// and write all buffers freely.
#include "exec/block_execution.h"
#include "exec/warp_step.h"

namespace cucpu::exec {
namespace {

using WarpStepFn = void (*)(void* const* lanes, uint32_t members, uint32_t stride);

// Offers: value = the lane's buffer, argument = the step function (the same for all).
void combine_step(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                  uint32_t) {
  void* lanes[kWarpSize] = {};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (members >> lane & 1) lanes[lane] = reinterpret_cast<void*>(offers[lane].value);
    results[lane] = 0;
  }
  const uint32_t first = static_cast<uint32_t>(__builtin_ctz(members));
  reinterpret_cast<WarpStepFn>(offers[first].argument)(lanes, members, 1);  // each lane's own buffer
}

}  // namespace

extern "C" void __cucpu_warp_step(jit::ThreadContext* context, uint32_t membermask, void* lane_data, void* step,
                                  uint32_t operation) {
  ThreadExecution& self = *static_cast<ThreadExecution*>(context->executor);
  const WarpOffer offer{reinterpret_cast<uint64_t>(lane_data), reinterpret_cast<uint64_t>(step)};
  self.block->warp_collective(self, membermask, WarpCollective{"warp matrix step", combine_step, operation}, offer);
}

jit::RuntimeSymbols warp_step_symbols() {
  return {{jit::kWarpStep, reinterpret_cast<void*>(&__cucpu_warp_step)}};
}

}  // namespace cucpu::exec
