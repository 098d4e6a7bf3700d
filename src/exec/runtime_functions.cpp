// The runtime functions JIT-compiled kernels call (kernel_abi.h): they decode their
// arguments and hand over to the strategy running the block, found through
// ThreadContext::executor. bar.red's popc/and/or come from the vote the barrier counted.
// Also the combine of redux.sync (PTX ISA 9.7.12.11): the
// reduction over the offers of a warp rendezvous, computed once by the last lane.
#include <fmt/format.h>

#include "exec/block_execution.h"
#include "exec/cluster_runner.h"
#include "exec/compiled_block.h"
#include "exec/device_calls.h"
#include "exec/device_runtime.h"
#include "exec/graph_conditional.h"
#include "exec/grid.h"
#include "exec/texture_symbols.h"
#include "exec/warp_collectives.h"
#include "exec/warp_step.h"
#include "ptx/module.h"

namespace cucpu::exec {
namespace {

constexpr uint32_t kSignedFlag = 0x100;  // op | 0x100: signed min/max (kernel_abi.h)

uint32_t atomic_op(ptx::AtomicOp op) { return static_cast<uint32_t>(op); }

// "redux.sync.add" for messages; nullptr for an operation redux.sync does not have.
const char* redux_name(uint32_t operation) {
  const bool is_signed = (operation & kSignedFlag) != 0;
  switch (operation & ~kSignedFlag) {
    case static_cast<uint32_t>(ptx::AtomicOp::And): return "redux.sync.and";
    case static_cast<uint32_t>(ptx::AtomicOp::Or): return "redux.sync.or";
    case static_cast<uint32_t>(ptx::AtomicOp::Xor): return "redux.sync.xor";
    case static_cast<uint32_t>(ptx::AtomicOp::Add): return "redux.sync.add";
    case static_cast<uint32_t>(ptx::AtomicOp::Min): return is_signed ? "redux.sync.min.s32" : "redux.sync.min.u32";
    case static_cast<uint32_t>(ptx::AtomicOp::Max): return is_signed ? "redux.sync.max.s32" : "redux.sync.max.u32";
    default: return nullptr;
  }
}

uint32_t reduce_pair(uint32_t operation, uint32_t a, uint32_t b) {
  const bool is_signed = (operation & kSignedFlag) != 0;
  const uint32_t op = operation & ~kSignedFlag;
  if (op == atomic_op(ptx::AtomicOp::And)) return a & b;
  if (op == atomic_op(ptx::AtomicOp::Or)) return a | b;
  if (op == atomic_op(ptx::AtomicOp::Xor)) return a ^ b;
  if (op == atomic_op(ptx::AtomicOp::Add)) return a + b;  // wraps, as .u32/.s32 add does
  const bool a_first = is_signed ? static_cast<int32_t>(a) < static_cast<int32_t>(b) : a < b;
  if (op == atomic_op(ptx::AtomicOp::Min)) return a_first ? a : b;
  return a_first ? b : a;  // Max
}

ThreadExecution& executing_thread(jit::ThreadContext* context) {
  return *static_cast<ThreadExecution*>(context->executor);
}

}  // namespace

void combine_redux(uint32_t members, const WarpOffer (&offers)[kWarpSize], uint64_t (&results)[kWarpSize],
                   uint32_t operation) {
  const uint32_t first_lane = static_cast<uint32_t>(__builtin_ctz(members));
  uint32_t total = static_cast<uint32_t>(offers[first_lane].value);
  for (uint32_t bits = members & (members - 1); bits != 0; bits &= bits - 1)
    total = reduce_pair(operation, total, static_cast<uint32_t>(offers[__builtin_ctz(bits)].value));
  for (uint32_t bits = members; bits != 0; bits &= bits - 1) results[__builtin_ctz(bits)] = total;
}


extern "C" void __cucpu_bar_sync(jit::ThreadContext* context, uint32_t barrier, uint32_t thread_count) {
  ThreadExecution& self = executing_thread(context);
  self.block->barrier_sync(self, barrier, thread_count);
}

extern "C" void __cucpu_bar_arrive(jit::ThreadContext* context, uint32_t barrier, uint32_t thread_count) {
  ThreadExecution& self = executing_thread(context);
  self.block->barrier_arrive(self, barrier, thread_count);
}

extern "C" uint32_t __cucpu_bar_red(jit::ThreadContext* context, uint32_t barrier, uint32_t thread_count,
                                    uint32_t operation, uint32_t predicate) {
  ThreadExecution& self = executing_thread(context);
  const BarrierVote vote = self.block->barrier_reduce(self, barrier, thread_count, predicate != 0);
  if (operation == atomic_op(ptx::AtomicOp::Popc)) return vote.true_count;
  if (operation == atomic_op(ptx::AtomicOp::And)) return vote.true_count == vote.thread_count ? 1 : 0;
  if (operation == atomic_op(ptx::AtomicOp::Or)) return vote.true_count != 0 ? 1 : 0;
  self.block->report_error(ErrorCode::LaunchFailure,
                           fmt::format("thread {}: bar.red with unknown operation {:#x}", self.linear_tid, operation));
  return 0;
}

extern "C" void __cucpu_yield(jit::ThreadContext* context) {
  ThreadExecution& self = executing_thread(context);
  self.block->yield_thread(self);
}

extern "C" uint32_t __cucpu_redux_sync_u32(jit::ThreadContext* context, uint32_t operation, uint32_t value,
                                           uint32_t membermask) {
  ThreadExecution& self = executing_thread(context);
  const char* name = redux_name(operation);
  if (!name) {
    self.block->report_error(ErrorCode::LaunchFailure,
                             fmt::format("thread {}: redux.sync with unknown operation {:#x}", self.linear_tid,
                                         operation));
    return 0;
  }
  const WarpCollective collective{name, combine_redux, operation};
  return static_cast<uint32_t>(self.block->warp_collective(self, membermask, collective, WarpOffer{value, 0}));
}

jit::RuntimeSymbols GridExecutor::runtime_symbols() {
  jit::RuntimeSymbols symbols = warp_collective_symbols();
  symbols.merge(warp_step_symbols());
  symbols.merge(device_runtime_symbols());
  symbols.merge(cluster_symbols());
  symbols.merge(graph_device_symbols());
  symbols.merge(texture_symbols());
  symbols.merge(compiled_block_symbols());
  symbols.merge(jit::RuntimeSymbols{
      {jit::kBarSync, reinterpret_cast<void*>(&__cucpu_bar_sync)},
      {jit::kBarArrive, reinterpret_cast<void*>(&__cucpu_bar_arrive)},
      {jit::kBarRed, reinterpret_cast<void*>(&__cucpu_bar_red)},
      {jit::kYield, reinterpret_cast<void*>(&__cucpu_yield)},
      {jit::kReduxSyncU32, reinterpret_cast<void*>(&__cucpu_redux_sync_u32)},
      {jit::kVprintf, reinterpret_cast<void*>(&__cucpu_vprintf)},
      {jit::kAssertFail, reinterpret_cast<void*>(&__cucpu_assertfail)},
      {jit::kTrap, reinterpret_cast<void*>(&__cucpu_trap)},
      {jit::kBreakpoint, reinterpret_cast<void*>(&__cucpu_breakpoint)},
      {jit::kMalloc, reinterpret_cast<void*>(&__cucpu_malloc)},
      {jit::kFree, reinterpret_cast<void*>(&__cucpu_free)},
      {jit::kNanosleep, reinterpret_cast<void*>(&__cucpu_nanosleep)},
      {jit::kMisaligned, reinterpret_cast<void*>(&__cucpu_misaligned)},
      {jit::kIllegalInstruction, reinterpret_cast<void*>(&__cucpu_illegal_instruction)},
      {jit::kBadCallTarget, reinterpret_cast<void*>(&__cucpu_bad_call_target)},
  });
  return symbols;
}

}  // namespace cucpu::exec
