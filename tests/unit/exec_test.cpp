// The executor with hand-written kernels: C++ functions of type jit::KernelEntry that
// read the ThreadContext the way generated code does and call the runtime functions
// through the addresses runtime_symbols() hands to the JIT.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "exec/barrier.h"
#include "exec/device_heap.h"
#include "exec/device_limits.h"
#include "exec/fiber_stack_pool.h"
#include "exec/grid.h"
#include "exec/settings.h"
#include "exec/warp_collectives.h"
#include "exec/warp_rendezvous.h"
#include "jit/compile.h"
#include "ptx/module.h"
#include "ptx/parse.h"
#include "compile_with_executor.h"

extern char** environ;

namespace cucpu::exec {
namespace {

using jit::ThreadContext;

// The runtime functions, as generated code reaches them.
using BarSyncFn = void (*)(ThreadContext*, uint32_t barrier, uint32_t thread_count);
using ReduxSyncFn = uint32_t (*)(ThreadContext*, uint32_t op, uint32_t value, uint32_t membermask);
using BarArriveFn = void (*)(ThreadContext*, uint32_t barrier, uint32_t thread_count);
using BarRedFn = uint32_t (*)(ThreadContext*, uint32_t barrier, uint32_t thread_count, uint32_t op, uint32_t predicate);
const jit::RuntimeSymbols kSymbols = GridExecutor::runtime_symbols();
const auto bar_sync = reinterpret_cast<BarSyncFn>(kSymbols.at(jit::kBarSync));
const auto bar_arrive = reinterpret_cast<BarArriveFn>(kSymbols.at(jit::kBarArrive));
const auto bar_red = reinterpret_cast<BarRedFn>(kSymbols.at(jit::kBarRed));
const auto redux_sync = reinterpret_cast<ReduxSyncFn>(kSymbols.at(jit::kReduxSyncU32));

constexpr uint32_t op_code(ptx::AtomicOp op) { return static_cast<uint32_t>(op); }
constexpr uint32_t kSigned = 0x100;

// A block's own shared memory: after the reserved part at the start of its window.
template <typename T = uint32_t>
T* block_shared(ThreadContext* ctx) {
  return reinterpret_cast<T*>(ctx->shared_base + jit::kReservedSharedBytes);
}

jit::KernelInfo make_kernel(const char* name, jit::KernelEntry entry, bool uses_barriers) {
  jit::KernelInfo kernel;
  kernel.name = name;
  kernel.entry = entry;
  kernel.uses_barriers = uses_barriers;
  return kernel;
}

LaunchShape make_shape(Dim3 grid, Dim3 block, uint32_t dynamic_shared_bytes = 0) {
  LaunchShape shape;
  shape.grid = grid;
  shape.block = block;
  shape.dynamic_shared_bytes = dynamic_shared_bytes;
  return shape;
}

template <typename Params>
const Params& params_of(const ThreadContext* ctx) {
  return *reinterpret_cast<const Params*>(ctx->params);
}

uint32_t linear_tid(const ThreadContext* ctx) {
  return ctx->tid[0] + ctx->ntid[0] * (ctx->tid[1] + ctx->ntid[1] * ctx->tid[2]);
}

uint32_t linear_block(const ThreadContext* ctx) {
  return ctx->ctaid[0] + ctx->nctaid[0] * (ctx->ctaid[1] + ctx->nctaid[1] * ctx->ctaid[2]);
}

uint32_t block_threads(const ThreadContext* ctx) { return ctx->ntid[0] * ctx->ntid[1] * ctx->ntid[2]; }

Result<void> run(const jit::KernelInfo& kernel, const LaunchShape& shape, const void* params) {
  return GridExecutor::instance().run_grid(kernel, shape, params);
}

// --- every thread runs once, with its ids ---------------------------------------------

struct ThreadRecord {
  std::atomic<uint32_t> runs{0};
  ThreadContext seen{};
};
struct RecordParams {
  ThreadRecord* records;
};

void record_ids(ThreadContext* ctx) {
  ThreadRecord& record =
      params_of<RecordParams>(ctx).records[linear_block(ctx) * block_threads(ctx) + linear_tid(ctx)];
  record.runs.fetch_add(1, std::memory_order_relaxed);
  record.seen = *ctx;
}

class ThreadIds : public testing::TestWithParam<bool> {};  // parameter: uses_barriers (fibers)

TEST_P(ThreadIds, EveryThreadOfA3dGridRunsOnceWithItsIds) {
  const Dim3 grid{3, 2, 4}, block{8, 4, 3};  // 96 threads: three warps
  std::vector<ThreadRecord> records(grid.count() * block.count());
  RecordParams params{records.data()};
  auto kernel = make_kernel("record_ids", record_ids, GetParam());
  ASSERT_TRUE(run(kernel, make_shape(grid, block), &params));

  const unsigned workers = GridExecutor::instance().worker_count();
  size_t index = 0;
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx, ++index) {
              const ThreadRecord& record = records[index];
              ASSERT_EQ(record.runs.load(), 1u) << index;
              const ThreadContext& seen = record.seen;
              EXPECT_EQ(seen.tid[0], tx);
              EXPECT_EQ(seen.tid[1], ty);
              EXPECT_EQ(seen.tid[2], tz);
              EXPECT_EQ(seen.ctaid[0], bx);
              EXPECT_EQ(seen.ctaid[1], by);
              EXPECT_EQ(seen.ctaid[2], bz);
              EXPECT_EQ(seen.ntid[0], block.x);
              EXPECT_EQ(seen.ntid[2], block.z);
              EXPECT_EQ(seen.nctaid[0], grid.x);
              EXPECT_EQ(seen.nctaid[1], grid.y);
              EXPECT_EQ(seen.nctaid[2], grid.z);
              const uint32_t linear = tx + block.x * (ty + block.y * tz);
              EXPECT_EQ(seen.laneid, linear % 32);
              EXPECT_EQ(seen.warpid, linear / 32);
              EXPECT_EQ(seen.nwarpid, 64u);  // an H100's warp slots per multiprocessor
              EXPECT_LT(seen.smid, workers);
              EXPECT_EQ(seen.nsmid, workers);
              EXPECT_EQ(seen.params, reinterpret_cast<const uint8_t*>(&params));
            }
}

INSTANTIATE_TEST_SUITE_P(Strategies, ThreadIds, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) { return info.param ? "Fibers" : "Sequential"; });

// --- shared memory and barriers ---------------------------------------------------------

struct ReverseParams {
  const uint32_t* in;
  uint32_t* out;
  uint32_t* bad_layout;  // counts threads that saw a wrong shared-memory layout
};
constexpr uint32_t kStaticShared = 16;

// out[block][t] = in[block][n - 1 - t], through dynamic shared memory after 16 static bytes.
void reverse_through_shared(ThreadContext* ctx) {
  const auto& p = params_of<ReverseParams>(ctx);
  const uint32_t n = block_threads(ctx), t = linear_tid(ctx), base = linear_block(ctx) * n;
  if (reinterpret_cast<uintptr_t>(ctx->shared_base) % 16 != 0 || ctx->dynamic_smem_size != n * 4 ||
      ctx->total_smem_size != (kStaticShared + n * 4 + 127) / 128 * 128)
    __atomic_fetch_add(p.bad_layout, 1, __ATOMIC_RELAXED);
  auto* shared = block_shared(ctx) + kStaticShared / 4;
  shared[t] = p.in[base + t];
  bar_sync(ctx, 0, 0);
  p.out[base + t] = shared[n - 1 - t];
}

TEST(Barriers, ReverseAnArrayThroughSharedMemory) {
  const uint32_t blocks = 64, threads = 256;
  std::vector<uint32_t> in(blocks * threads), out(blocks * threads, 0);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 7 + 1;
  uint32_t bad_layout = 0;
  ReverseParams params{in.data(), out.data(), &bad_layout};
  auto kernel = make_kernel("reverse", reverse_through_shared, true);
  kernel.static_shared_bytes = kStaticShared;
  kernel.dynamic_shared_offset = kStaticShared;
  ASSERT_TRUE(run(kernel, make_shape({blocks, 1, 1}, {threads, 1, 1}, threads * 4), &params));
  EXPECT_EQ(bad_layout, 0u);
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < threads; ++t) ASSERT_EQ(out[b * threads + t], in[b * threads + threads - 1 - t]);
}

struct ExchangeParams {
  uint32_t* out;
};

// Four warps, two independent pairs: warps 0-1 exchange through barrier 1, warps 2-3
// through barrier 2, each barrier counting 64 threads; a second round reuses both.
void exchange_in_pairs_of_warps(ThreadContext* ctx) {
  auto* shared = block_shared(ctx);
  const uint32_t t = linear_tid(ctx), pair_base = t < 64 ? 0 : 64, barrier = t < 64 ? 1 : 2;
  uint32_t* out = params_of<ExchangeParams>(ctx).out + linear_block(ctx) * 256;
  shared[t] = t * 3;
  bar_sync(ctx, barrier, 64);
  out[t] = shared[pair_base + 63 - (t - pair_base)];
  bar_sync(ctx, barrier, 64);
  shared[t] = t * 5;
  bar_sync(ctx, barrier, 64);
  out[128 + t] = shared[pair_base + 63 - (t - pair_base)];
}

TEST(Barriers, BarrierWithThreadCountSyncsTwoWarps) {
  const uint32_t blocks = 4;
  std::vector<uint32_t> out(blocks * 256, ~0u);
  ExchangeParams params{out.data()};
  auto kernel = make_kernel("pairs", exchange_in_pairs_of_warps, true);
  kernel.static_shared_bytes = 128 * 4;
  ASSERT_TRUE(run(kernel, make_shape({blocks, 1, 1}, {128, 1, 1}), &params));
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < 128; ++t) {
      const uint32_t pair_base = t < 64 ? 0 : 64, partner = pair_base + 63 - (t - pair_base);
      EXPECT_EQ(out[b * 256 + t], partner * 3) << t;
      EXPECT_EQ(out[b * 256 + 128 + t], partner * 5) << t;
    }
}

struct HalfExitParams {
  uint32_t* out;
  uint32_t waiting_half;  // 0: threads 0..31 wait, 32..63 exit; 1: the other way round
};

void half_exits_half_waits(ThreadContext* ctx) {
  const auto& p = params_of<HalfExitParams>(ctx);
  const uint32_t t = linear_tid(ctx);
  if (t / 32 != p.waiting_half) return;
  auto* shared = block_shared(ctx);
  const uint32_t lane = t % 32;
  shared[lane] = lane + 100;
  bar_sync(ctx, 0, 0);
  p.out[ctx->ctaid[0] * 32 + lane] = shared[31 - lane];
  bar_sync(ctx, 0, 0);  // twice: the barrier is usable again after an exit completed it
}

TEST(Barriers, ExitedThreadsCountAsArrived) {
  for (uint32_t waiting_half : {0u, 1u}) {
    std::vector<uint32_t> out(2 * 32, 0);
    HalfExitParams params{out.data(), waiting_half};
    auto kernel = make_kernel("half_exit", half_exits_half_waits, true);
    kernel.static_shared_bytes = 32 * 4;
    Result<void> result = run(kernel, make_shape({2, 1, 1}, {64, 1, 1}), &params);
    ASSERT_TRUE(result) << result.error().message;
    for (uint32_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], 31 - i % 32 + 100);
  }
}

// In block 1 of 3, warp 0 waits at barrier 1 for 64 threads while warp 1 exits: stuck.
void stuck_in_block_one(ThreadContext* ctx) {
  if (ctx->ctaid[0] != 1) {
    bar_sync(ctx, 0, 0);
    return;
  }
  if (linear_tid(ctx) < 32) bar_sync(ctx, 1, 64);
}

// Half the block waits at barrier 1, the other half at barrier 2, both for everyone.
void split_between_two_barriers(ThreadContext* ctx) { bar_sync(ctx, linear_tid(ctx) < 32 ? 1 : 2, 0); }

void count_blocks(ThreadContext* ctx) {
  auto* counters = params_of<std::atomic<uint32_t>*>(ctx);
  counters[linear_block(ctx)].fetch_add(1, std::memory_order_relaxed);
}

TEST(Barriers, StuckBarrierIsAnErrorNotAHang) {
  auto stuck = make_kernel("stuck", stuck_in_block_one, true);
  Result<void> result = run(stuck, make_shape({3, 1, 1}, {64, 1, 1}), nullptr);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::LaunchFailure);
  EXPECT_NE(result.error().message.find("block (1, 0, 0)"), std::string::npos) << result.error().message;
  EXPECT_NE(result.error().message.find("barrier 1"), std::string::npos) << result.error().message;

  auto split = make_kernel("split", split_between_two_barriers, true);
  result = run(split, make_shape({1, 1, 1}, {64, 1, 1}), nullptr);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("barrier 2"), std::string::npos) << result.error().message;

  // The pool is fine afterwards, on both paths.
  for (bool fibers : {false, true}) {
    std::vector<std::atomic<uint32_t>> counters(200);
    std::atomic<uint32_t>* data = counters.data();
    auto count = make_kernel("count", count_blocks, fibers);
    ASSERT_TRUE(run(count, make_shape({200, 1, 1}, {64, 1, 1}), &data));
    for (auto& counter : counters) ASSERT_EQ(counter.load(), 64u);
  }
}

void redux_own_lane(ThreadContext* ctx) {
  params_of<uint32_t*>(ctx)[linear_tid(ctx)] = redux_sync(ctx, op_code(ptx::AtomicOp::Add), 5, 1u << ctx->laneid);
}

TEST(Barriers, SequentialKernelThatWaitsIsReported) {
  auto kernel = make_kernel("split", split_between_two_barriers, false);
  Result<void> result = run(kernel, make_shape({1, 1, 1}, {64, 1, 1}), nullptr);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("uses_barriers"), std::string::npos) << result.error().message;
  // Waits that complete at once are fine on the sequential path.
  EXPECT_TRUE(run(kernel, make_shape({1, 1, 1}, {1, 1, 1}), nullptr));
  std::vector<uint32_t> out(64, 0);
  uint32_t* data = out.data();
  EXPECT_TRUE(run(make_kernel("own_lane", redux_own_lane, false), make_shape({1, 1, 1}, {64, 1, 1}), &data));
  for (uint32_t value : out) EXPECT_EQ(value, 5u);
}

// --- bar.red, bar.arrive ------------------------------------------------------------------

struct VoteParams {
  uint32_t* out;  // [block][6]
};

// __syncthreads_count/_and/_or (bar.red), over 80 threads: two warps and a half.
void vote_at_barriers(ThreadContext* ctx) {
  const uint32_t t = linear_tid(ctx);
  uint32_t* out = params_of<VoteParams>(ctx).out + linear_block(ctx) * 6;
  const auto popc = op_code(ptx::AtomicOp::Popc), all = op_code(ptx::AtomicOp::And), any = op_code(ptx::AtomicOp::Or);
  const uint32_t results[6] = {bar_red(ctx, 0, 0, popc, t % 3 == 0), bar_red(ctx, 0, 0, all, t < 1000),
                               bar_red(ctx, 0, 0, all, t != 7),      bar_red(ctx, 3, 0, any, t == 70),
                               bar_red(ctx, 15, 0, any, t > 1000),   bar_red(ctx, 0, 0, popc, 1)};
  // Every thread gets the same answer; thread 5 writes it, the others check it.
  for (uint32_t i = 0; i < 6; ++i) {
    if (t == 5) out[i] = results[i];
  }
  bar_sync(ctx, 0, 0);
  for (uint32_t i = 0; i < 6; ++i) {
    if (results[i] != out[i]) __atomic_store_n(&out[i], ~0u, __ATOMIC_RELAXED);
  }
}

TEST(Barriers, BarRedCountsAndCombinesPredicates) {
  const uint32_t blocks = 3;
  std::vector<uint32_t> out(blocks * 6, 0);
  VoteParams params{out.data()};
  ASSERT_TRUE(run(make_kernel("votes", vote_at_barriers, true), make_shape({blocks, 1, 1}, {80, 1, 1}), &params));
  for (uint32_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(out[b * 6 + 0], 27u);  // t % 3 == 0 for t < 80
    EXPECT_EQ(out[b * 6 + 1], 1u);
    EXPECT_EQ(out[b * 6 + 2], 0u);
    EXPECT_EQ(out[b * 6 + 3], 1u);
    EXPECT_EQ(out[b * 6 + 4], 0u);
    EXPECT_EQ(out[b * 6 + 5], 80u);
  }
}

// Threads that exited are not counted: warp 1 leaves before the vote.
void vote_after_a_warp_exits(ThreadContext* ctx) {
  const uint32_t t = linear_tid(ctx);
  if (t >= 32 && t < 64) return;
  const uint32_t count = bar_red(ctx, 0, 0, op_code(ptx::AtomicOp::Popc), 1);
  if (t == 0) *params_of<uint32_t*>(ctx) = count;
}

TEST(Barriers, BarRedIgnoresExitedWarps) {
  uint32_t count = 0;
  uint32_t* data = &count;
  ASSERT_TRUE(run(make_kernel("vote_exit", vote_after_a_warp_exits, true), make_shape({1, 1, 1}, {96, 1, 1}), &data));
  EXPECT_EQ(count, 64u);
}

struct HandoffParams {
  uint32_t* sums;  // [block][32]
};

// The guide's producer/consumer with named barriers: warp 0 fills a one-slot buffer and
// signals "full" with bar.arrive 1, 64, then waits on "empty" (bar.sync 2, 64); warp 1
// waits on "full", reads, and signals "empty" with bar.arrive 2, 64.
void produce_and_consume(ThreadContext* ctx) {
  constexpr uint32_t kBatches = 16;
  auto* slot = block_shared(ctx);
  const uint32_t t = linear_tid(ctx), lane = t % 32;
  if (t < 32) {
    for (uint32_t batch = 0; batch < kBatches; ++batch) {
      slot[lane] = batch * 100 + lane;
      bar_arrive(ctx, 1, 64);
      bar_sync(ctx, 2, 64);
    }
  } else {
    uint32_t sum = 0;
    for (uint32_t batch = 0; batch < kBatches; ++batch) {
      bar_sync(ctx, 1, 64);
      sum += slot[lane];
      bar_arrive(ctx, 2, 64);
    }
    params_of<HandoffParams>(ctx).sums[linear_block(ctx) * 32 + lane] = sum;
  }
}

TEST(Barriers, BarArriveHandsOffBetweenWarps) {
  const uint32_t blocks = 4;
  std::vector<uint32_t> sums(blocks * 32, 0);
  HandoffParams params{sums.data()};
  auto kernel = make_kernel("handoff", produce_and_consume, true);
  kernel.static_shared_bytes = 32 * 4;
  ASSERT_TRUE(run(kernel, make_shape({blocks, 1, 1}, {64, 1, 1}), &params));
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t lane = 0; lane < 32; ++lane) ASSERT_EQ(sums[b * 32 + lane], 100 * (16 * 15 / 2) + 16 * lane);
}

TEST(Barriers, BookkeepingOfArriveAndReduce) {
  BlockBarriers barriers;
  barriers.reset(64);
  std::vector<uint32_t> released;
  // Warp 0 arrives without waiting; warp 1 waits and completes the barrier.
  for (uint32_t t = 0; t < 32; ++t) EXPECT_TRUE(barriers.arrive(1, t, 64, released, BarrierArrival::Arrive));
  EXPECT_TRUE(released.empty());
  for (uint32_t t = 32; t < 63; ++t) EXPECT_FALSE(barriers.arrive(1, t, 64, released));
  EXPECT_TRUE(barriers.arrive(1, 63, 64, released));
  EXPECT_EQ(released.size(), 31u);  // warp 1 but the caller; none of warp 0
  EXPECT_FALSE(barriers.has_waiting());
  // The barrier is idle again: the next round's expected count is the new one.
  released.clear();
  for (uint32_t t = 0; t < 63; ++t) EXPECT_FALSE(barriers.arrive(0, t, 0, released, BarrierArrival::Reduce, t < 10));
  EXPECT_TRUE(barriers.arrive(0, 63, 0, released, BarrierArrival::Reduce, true));
  EXPECT_EQ(released.size(), 63u);
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(barriers.vote_of(t).true_count, 11u);
    EXPECT_EQ(barriers.vote_of(t).thread_count, 64u);
  }
}

// --- independent thread scheduling -------------------------------------------------------

// Lane 0 waits until lane 1 waits, then lets it go: the JIT puts yield points on both
// spin loops (ld.volatile in the loop) and runs the kernel on fibers, so each lane lets
// the other run. Without yield points, lane 0 (run first) would spin for ever.
constexpr const char* kLaneHandoffPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry lane_handoff(.param .u64 flags)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [flags];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 bra $L_lane1;
  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra $L_end;
$L_wait_started:
  ld.volatile.global.u32 %r2, [%rd1];
  setp.eq.u32 %p3, %r2, 0;
  @%p3 bra $L_wait_started;
  st.volatile.global.u32 [%rd1+4], 1;
  bra.uni $L_end;
$L_lane1:
  st.volatile.global.u32 [%rd1], 1;
$L_wait_go:
  ld.volatile.global.u32 %r3, [%rd1+4];
  setp.eq.u32 %p3, %r3, 0;
  @%p3 bra $L_wait_go;
  st.global.u32 [%rd1+8], 1;
$L_end:
  ret;
}
)";

TEST(IndependentThreadScheduling, LaneWaitingForAnotherLaneOfItsWarpTerminates) {
  auto compiled = test::compile_with_executor(kLaneHandoffPtx, "lane_handoff.ptx");
  ASSERT_TRUE(compiled) << compiled.error().message;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("lane_handoff");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->uses_barriers);  // a spin loop: fibers
  for (uint32_t threads : {2u, 32u, 64u}) {
    uint32_t flags[3] = {0, 0, 0};
    uint32_t* data = flags;
    alignas(8) uint8_t params[8];
    std::memcpy(params, &data, sizeof(data));
    ASSERT_TRUE(run(*kernel, make_shape({1, 1, 1}, {threads, 1, 1}), params));
    EXPECT_EQ(flags[2], 1u) << threads;
  }
}

// --- redux.sync ---------------------------------------------------------------------------

constexpr uint32_t kReduxKinds = 10;
struct ReduxParams {
  uint32_t* out;  // [thread][kReduxKinds]
};

uint32_t redux_input(uint32_t t) { return t * 2654435761u; }  // spreads bits, wraps on add

void reduce_across_warps(ThreadContext* ctx) {
  using ptx::AtomicOp;
  const uint32_t t = linear_tid(ctx), lane = ctx->laneid;
  uint32_t* out = params_of<ReduxParams>(ctx).out + (linear_block(ctx) * block_threads(ctx) + t) * kReduxKinds;
  const uint32_t v = redux_input(t);
  out[0] = redux_sync(ctx, op_code(AtomicOp::Add), v, ~0u);
  out[1] = redux_sync(ctx, op_code(AtomicOp::Min), v, ~0u);
  out[2] = redux_sync(ctx, op_code(AtomicOp::Max), v, ~0u);
  out[3] = redux_sync(ctx, op_code(AtomicOp::Min) | kSigned, v, ~0u);
  out[4] = redux_sync(ctx, op_code(AtomicOp::Max) | kSigned, v, ~0u);
  out[5] = redux_sync(ctx, op_code(AtomicOp::And), v, ~0u);
  out[6] = redux_sync(ctx, op_code(AtomicOp::Or), v, ~0u);
  out[7] = redux_sync(ctx, op_code(AtomicOp::Xor), v, ~0u);
  // Diverged halves of the warp reduce over their own lanes at the same time.
  if (lane % 2 == 0)
    out[8] = redux_sync(ctx, op_code(AtomicOp::Add), v, 0x55555555u);
  else
    out[8] = redux_sync(ctx, op_code(AtomicOp::Max), v, 0xaaaaaaaau);
  // Lanes 0..7 only, twice in a row (a gathering closes before the released lanes run).
  if (lane < 8) {
    out[9] = redux_sync(ctx, op_code(AtomicOp::Or), 1u << lane, 0xffu);
    out[9] += redux_sync(ctx, op_code(AtomicOp::Add), 1, 0xffu);
  }
}

TEST(WarpCollectives, ReduxOverFullAndPartialMasks) {
  const uint32_t blocks = 3, threads = 64;
  std::vector<uint32_t> out(blocks * threads * kReduxKinds, 0);
  ReduxParams params{out.data()};
  auto kernel = make_kernel("redux", reduce_across_warps, true);
  ASSERT_TRUE(run(kernel, make_shape({blocks, 1, 1}, {threads, 1, 1}), &params));

  for (uint32_t block = 0; block < blocks; ++block) {
    for (uint32_t warp = 0; warp < threads / 32; ++warp) {
      uint32_t add = 0, min = ~0u, max = 0, band = ~0u, bor = 0, bxor = 0, even_add = 0, odd_max = 0;
      int32_t smin = INT32_MAX, smax = INT32_MIN;
      for (uint32_t lane = 0; lane < 32; ++lane) {
        const uint32_t v = redux_input(warp * 32 + lane);
        add += v, min = std::min(min, v), max = std::max(max, v), band &= v, bor |= v, bxor ^= v;
        smin = std::min(smin, static_cast<int32_t>(v)), smax = std::max(smax, static_cast<int32_t>(v));
        if (lane % 2 == 0) even_add += v;
        else odd_max = std::max(odd_max, v);
      }
      for (uint32_t lane = 0; lane < 32; ++lane) {
        const uint32_t* r = &out[(block * threads + warp * 32 + lane) * kReduxKinds];
        EXPECT_EQ(r[0], add);
        EXPECT_EQ(r[1], min);
        EXPECT_EQ(r[2], max);
        EXPECT_EQ(r[3], static_cast<uint32_t>(smin));
        EXPECT_EQ(r[4], static_cast<uint32_t>(smax));
        EXPECT_EQ(r[5], band);
        EXPECT_EQ(r[6], bor);
        EXPECT_EQ(r[7], bxor);
        EXPECT_EQ(r[8], lane % 2 == 0 ? even_add : odd_max) << lane;
        EXPECT_EQ(r[9], lane < 8 ? 0xffu + 8 : 0u) << lane;
      }
    }
  }
}

// Lane 31 exits, some lanes before the others reduce, some after: a full-warp redux
// waits for the non-exited lanes only (PTX ISA 9.7.12.11).
void redux_without_lane_31(ThreadContext* ctx) {
  if (ctx->laneid == 31) return;
  params_of<uint32_t*>(ctx)[linear_tid(ctx)] = redux_sync(ctx, op_code(ptx::AtomicOp::Add), 1, ~0u);
}

TEST(WarpCollectives, MaskNamingAnExitedLaneWaitsOnlyForTheOthers) {
  std::vector<uint32_t> out(64, 0);
  uint32_t* data = out.data();
  auto kernel = make_kernel("redux_exit", redux_without_lane_31, true);
  ASSERT_TRUE(run(kernel, make_shape({1, 1, 1}, {64, 1, 1}), &data));
  for (uint32_t tid = 0; tid < 64; ++tid) EXPECT_EQ(out[tid], tid % 32 == 31 ? 0u : 31u) << tid;
}

TEST(WarpCollectives, RendezvousKeepsDivergedGatheringsApart) {
  WarpRendezvous rendezvous;
  const WarpCollective add{"add", [](uint32_t members, const WarpOffer(&offers)[32], uint64_t(&results)[32], uint32_t) {
                             uint64_t sum = 0;
                             for (uint32_t l = 0; l < 32; ++l)
                               if (members >> l & 1) sum += offers[l].value;
                             for (uint32_t l = 0; l < 32; ++l) results[l] = sum;
                           },
                           0};
  uint64_t results[32];
  uint32_t released = 0;
  EXPECT_FALSE(rendezvous.arrive(0, 0b0101, add, {1, 0}, results, released));
  EXPECT_FALSE(rendezvous.arrive(1, 0b1010, add, {10, 0}, results, released));
  EXPECT_TRUE(rendezvous.arrive(3, 0b1010, add, {20, 0}, results, released));
  EXPECT_EQ(released, 0b0010u);
  EXPECT_EQ(results[1], 30u);
  EXPECT_TRUE(rendezvous.has_waiting());
  EXPECT_TRUE(rendezvous.arrive(2, 0b0101, add, {2, 0}, results, released));
  EXPECT_EQ(released, 0b0001u);
  EXPECT_EQ(results[0], 3u);
  EXPECT_FALSE(rendezvous.has_waiting());
}

// --- shfl.sync, vote.sync, match.sync, elect.sync, activemask, bar.warp.sync ----------

using ShflSyncFn = uint64_t (*)(ThreadContext*, uint32_t mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask);
using VoteSyncFn = uint32_t (*)(ThreadContext*, uint32_t mode, uint32_t predicate, uint32_t mask);
using MatchSyncFn = uint64_t (*)(ThreadContext*, uint32_t mode, uint64_t value, uint32_t mask);
using ActivemaskFn = uint32_t (*)(ThreadContext*, uint32_t call_site);
using BarWarpSyncFn = void (*)(ThreadContext*, uint32_t mask);
using ElectSyncFn = uint64_t (*)(ThreadContext*, uint32_t mask);
const auto shfl_sync = reinterpret_cast<ShflSyncFn>(kSymbols.at(jit::kShflSync));
const auto vote_sync = reinterpret_cast<VoteSyncFn>(kSymbols.at(jit::kVoteSync));
const auto match_sync = reinterpret_cast<MatchSyncFn>(kSymbols.at(jit::kMatchSync));
const auto activemask = reinterpret_cast<ActivemaskFn>(kSymbols.at(jit::kActivemask));
const auto bar_warp_sync = reinterpret_cast<BarWarpSyncFn>(kSymbols.at(jit::kBarWarpSync));
const auto elect_sync = reinterpret_cast<ElectSyncFn>(kSymbols.at(jit::kElectSync));

template <typename E>
constexpr uint32_t mode_code(E mode) {
  return static_cast<uint32_t>(mode);
}
constexpr uint64_t kP = uint64_t{1} << 32;  // the predicate bit of a d|p result

// The source lane PTX ISA 9.7.8.6 defines for width-w shuffles (c = (32 - w) << 8 | clamp),
// as the conformance program computes it; -1 when out of range.
int reference_source(ptx::ShuffleMode mode, int lane, int b, int width) {
  const int segmask = 32 - width, min_lane = lane & segmask;
  const int max_lane = mode == ptx::ShuffleMode::Up ? min_lane : min_lane | (31 & ~segmask);
  int j = 0;
  bool ok = false;
  switch (mode) {
    case ptx::ShuffleMode::Up:
      j = lane - b, ok = j >= max_lane;
      break;
    case ptx::ShuffleMode::Down:
      j = lane + b, ok = j <= max_lane;
      break;
    case ptx::ShuffleMode::Bfly:
      j = lane ^ b, ok = j <= max_lane;
      break;
    default:
      j = min_lane | (b & ~segmask), ok = j <= max_lane;
      break;
  }
  return ok ? j : -1;
}

TEST(WarpCollectives, ShuffleCombineFollowsThePtxLaneRules) {
  using ptx::ShuffleMode;
  const struct {
    ShuffleMode mode;
    uint32_t b;
  } cases[] = {{ShuffleMode::Idx, 3},  {ShuffleMode::Up, 1},    {ShuffleMode::Down, 2},
               {ShuffleMode::Bfly, 1}, {ShuffleMode::Bfly, 16}, {ShuffleMode::Idx, 35}};
  for (const auto& c : cases) {
    for (uint32_t width : {32u, 16u, 8u, 1u}) {
      const uint32_t clamp = c.mode == ShuffleMode::Up ? 0 : 31;
      WarpOffer offers[kWarpSize];
      for (uint32_t lane = 0; lane < kWarpSize; ++lane)
        offers[lane] = {100 + lane, c.b | (uint64_t{(32 - width) << 8 | clamp} << 32)};
      uint64_t results[kWarpSize];
      combine_shuffle(~0u, offers, results, mode_code(c.mode));
      for (int lane = 0; lane < 32; ++lane) {
        const int source = reference_source(c.mode, lane, static_cast<int>(c.b & 31), static_cast<int>(width));
        EXPECT_EQ(results[lane], (100u + static_cast<uint32_t>(source < 0 ? lane : source)) | (source < 0 ? 0 : kP))
            << ptx::spelling(c.mode) << " b " << c.b << " width " << width << " lane " << lane;
      }
    }
  }
  // A source lane in range but outside the membermask reads 0 (what an H200 does,
  // tests/e2e/probes/shuffle_non_member_source.cu).
  WarpOffer offers[kWarpSize];
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) offers[lane] = {100 + lane, 16 | (uint64_t{31} << 32)};
  uint64_t results[kWarpSize];
  combine_shuffle(0x0000ffffu, offers, results, mode_code(ShuffleMode::Bfly));
  EXPECT_EQ(results[3], 0u | kP);
}

TEST(WarpCollectives, VoteMatchAndElectCombines) {
  WarpOffer offers[kWarpSize];
  uint64_t results[kWarpSize];
  offers[0].value = 1, offers[1].value = 0, offers[2].value = 1, offers[3].value = 0;
  combine_vote(0xf, offers, results, mode_code(ptx::VoteMode::Ballot));
  EXPECT_EQ(results[3], 0b0101u);
  combine_vote(0xf, offers, results, mode_code(ptx::VoteMode::All));
  EXPECT_EQ(results[0], 0u);
  combine_vote(0xf, offers, results, mode_code(ptx::VoteMode::Any));
  EXPECT_EQ(results[1], 1u);
  combine_vote(0xf, offers, results, mode_code(ptx::VoteMode::Uni));
  EXPECT_EQ(results[2], 0u);
  combine_vote(0b0101, offers, results, mode_code(ptx::VoteMode::Uni));
  EXPECT_EQ(results[2], 1u);
  combine_vote(0b0101, offers, results, mode_code(ptx::VoteMode::All));
  EXPECT_EQ(results[0], 1u);

  offers[0].value = 5, offers[1].value = 5, offers[2].value = 7, offers[3].value = 5;
  combine_match(0xf, offers, results, mode_code(ptx::VoteMode::Any));
  EXPECT_EQ(results[0], 0b1011u);
  EXPECT_EQ(results[2], 0b0100u);
  combine_match(0xf, offers, results, mode_code(ptx::VoteMode::All));
  EXPECT_EQ(results[1], 0u);
  combine_match(0b1011, offers, results, mode_code(ptx::VoteMode::All));
  EXPECT_EQ(results[3], 0b1011u | kP);
  offers[0].value = 5 | (uint64_t{1} << 40);  // .b64 compares all 64 bits
  combine_match(0b1011, offers, results, mode_code(ptx::VoteMode::All) | 0x100);
  EXPECT_EQ(results[3], 0u);

  combine_elect(0b1100, offers, results, 0);
  EXPECT_EQ(results[2], 2u | kP);
  EXPECT_EQ(results[3], 2u);
}

struct WarpOps {
  uint64_t shfl_down;  // full mask in a partial warp
  uint32_t ballot, any, all, uni, match_any, activemask_even, elect, after_syncwarp;
};
struct WarpOpsParams {
  WarpOps* out;
  uint32_t* shared_counter;
};

void run_warp_ops(ThreadContext* ctx) {
  const uint32_t t = linear_tid(ctx), lane = ctx->laneid;
  const WarpOpsParams& p = params_of<WarpOpsParams>(ctx);
  WarpOps& o = p.out[t];
  o.shfl_down = shfl_sync(ctx, mode_code(ptx::ShuffleMode::Down), 100 + lane, 1, 31, ~0u);
  o.ballot = vote_sync(ctx, mode_code(ptx::VoteMode::Ballot), lane % 3 == 0, ~0u);
  o.any = vote_sync(ctx, mode_code(ptx::VoteMode::Any), lane == 5, ~0u);
  o.all = vote_sync(ctx, mode_code(ptx::VoteMode::All), lane < 40, ~0u);
  o.uni = vote_sync(ctx, mode_code(ptx::VoteMode::Uni), lane == 0, ~0u);
  o.match_any = static_cast<uint32_t>(match_sync(ctx, mode_code(ptx::VoteMode::Any), lane / 4, ~0u));
  if (lane % 2 == 0) o.activemask_even = activemask(ctx, 1);
  const uint64_t elected = elect_sync(ctx, lane < 16 ? 0xffffu : 0xffff0000u);
  o.elect = static_cast<uint32_t>((elected & 31) | (elected >> 27));  // leader | p << 5
  // Lanes write, meet at bar.warp.sync, then read what the others wrote.
  __atomic_fetch_add(&p.shared_counter[t / 32], 1u, __ATOMIC_RELAXED);
  bar_warp_sync(ctx, ~0u);
  o.after_syncwarp = __atomic_load_n(&p.shared_counter[t / 32], __ATOMIC_RELAXED);
}

TEST(WarpCollectives, ShuffleVoteMatchElectAndActivemaskInAPartialWarp) {
  const uint32_t threads = 48;  // warp 1 has 16 lanes: a full mask names only those
  std::vector<WarpOps> out(threads);
  uint32_t counters[2] = {0, 0};
  WarpOpsParams params{out.data(), counters};
  auto kernel = make_kernel("warp_ops", run_warp_ops, true);
  Result<void> result = run(kernel, make_shape({1, 1, 1}, {threads, 1, 1}), &params);
  ASSERT_TRUE(result) << result.error().message;
  for (uint32_t t = 0; t < threads; ++t) {
    const uint32_t lane = t % 32, lanes = t < 32 ? 32 : 16;
    const uint32_t existing = lanes == 32 ? ~0u : 0xffffu;
    const WarpOps& o = out[t];
    // Lane 15 of the 16-lane warp reads lane 16, which does not exist: 0, as on an H200.
    EXPECT_EQ(o.shfl_down, lane + 1 < lanes ? (101 + lane) | kP : lane == 31 ? 100 + lane : kP) << t;
    EXPECT_EQ(o.ballot, 0x49249249u & existing) << t;
    EXPECT_EQ(o.any, 1u) << t;
    EXPECT_EQ(o.all, 1u) << t;
    EXPECT_EQ(o.uni, 0u) << t;
    EXPECT_EQ(o.match_any, 0xfu << (lane / 4 * 4)) << t;
    if (lane % 2 == 0) {
      EXPECT_EQ(o.activemask_even, 0x55555555u & existing) << t;
    }
    EXPECT_EQ(o.elect, (lane < 16 ? 0u : 16u) | (lane == 0 || lane == 16 ? 0x20u : 0u)) << t;
    EXPECT_EQ(o.after_syncwarp, lanes) << t;
  }
}

// Lane 3 exits; the others meet at __syncwarp over the full warp and never complete.
// Lane 3 exits; the other lanes sync the full warp, then exchange over it.
void syncwarp_without_lane_3(ThreadContext* ctx) {
  if (ctx->laneid == 3) return;
  bar_warp_sync(ctx, ~0u);
  const uint64_t from_lane_3 = shfl_sync(ctx, mode_code(ptx::ShuffleMode::Idx), 100 + ctx->laneid, 3, 0x1f, ~0u);
  const uint32_t ballot = vote_sync(ctx, mode_code(ptx::VoteMode::Ballot), 1, ~0u);
  params_of<uint32_t*>(ctx)[ctx->laneid] = ballot ^ static_cast<uint32_t>(from_lane_3);
}

TEST(WarpCollectives, SyncwarpAndShuffleWithAnExitedLaneComplete) {
  std::vector<uint32_t> out(32, 0);
  uint32_t* data = out.data();
  auto kernel = make_kernel("syncwarp_exit", syncwarp_without_lane_3, true);
  ASSERT_TRUE(run(kernel, make_shape({1, 1, 1}, {32, 1, 1}), &data));
  // The ballot leaves lane 3 out; a shuffle from it reads 0, as on an H200
  // (tests/e2e/probes/shuffle_non_member_source.cu).
  for (uint32_t lane = 0; lane < 32; ++lane) EXPECT_EQ(out[lane], lane == 3 ? 0u : ~0u & ~8u) << lane;
}

// Lane 3 waits at a block barrier that lanes 0..31 of warp 0 never reach: warp 0's
// bar.warp.sync can never complete, and the stall names the missing lane.
void syncwarp_while_lane_3_waits_at_a_barrier(ThreadContext* ctx) {
  if (ctx->laneid == 3) {
    bar_sync(ctx, 1, 32);
    return;
  }
  bar_warp_sync(ctx, ~0u);
}

TEST(WarpCollectives, LaneWaitingElsewhereForeverIsReported) {
  auto kernel = make_kernel("syncwarp_stuck", syncwarp_while_lane_3_waits_at_a_barrier, true);
  Result<void> result = run(kernel, make_shape({1, 1, 1}, {32, 1, 1}), nullptr);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::LaunchFailure);
  EXPECT_NE(result.error().message.find("bar.warp.sync"), std::string::npos) << result.error().message;
  EXPECT_NE(result.error().message.find("missing lanes 0x00000008"), std::string::npos) << result.error().message;
  EXPECT_NE(result.error().message.find("barrier 1"), std::string::npos) << result.error().message;
}

std::vector<uint32_t> tid_range(uint32_t first, uint32_t end) {
  std::vector<uint32_t> tids;
  for (uint32_t tid = first; tid < end; ++tid) tids.push_back(tid);
  return tids;
}

TEST(Barriers, BookkeepingCountsWarps) {
  BlockBarriers barriers;
  std::vector<uint32_t> released;

  // __syncthreads in a block of three warps whose last two warps exit.
  barriers.reset(96);
  for (uint32_t tid = 0; tid < 32; ++tid) EXPECT_FALSE(barriers.arrive(3, tid, 0, released));
  for (uint32_t tid = 32; tid < 96; ++tid) barriers.thread_exited(tid, released);
  EXPECT_EQ(released, tid_range(0, 32));

  // A partial last warp counts as a whole one: 48 threads complete bar.sync 1, 64.
  released.clear();
  barriers.reset(48);
  for (uint32_t tid = 0; tid < 47; ++tid) EXPECT_FALSE(barriers.arrive(1, tid, 64, released));
  EXPECT_TRUE(barriers.arrive(1, 47, 64, released));
  EXPECT_EQ(released, tid_range(0, 47));

  // Threads that exit let the rest of their warp arrive, at counted barriers too.
  released.clear();
  barriers.reset(64);
  for (uint32_t tid = 0; tid < 48; ++tid) EXPECT_FALSE(barriers.arrive(5, tid, 64, released));
  for (uint32_t tid = 48; tid < 64; ++tid) barriers.thread_exited(tid, released);
  EXPECT_EQ(released, tid_range(0, 48));

  // Only arrived warps are released; a partly arrived warp waits for the next round.
  released.clear();
  barriers.reset(96);
  for (uint32_t tid = 0; tid < 16; ++tid) EXPECT_FALSE(barriers.arrive(2, tid, 32, released));
  for (uint32_t tid = 32; tid < 63; ++tid) EXPECT_FALSE(barriers.arrive(2, tid, 32, released));
  EXPECT_TRUE(barriers.arrive(2, 63, 32, released));
  EXPECT_EQ(released, tid_range(32, 63));
  EXPECT_TRUE(barriers.has_waiting());
  EXPECT_NE(barriers.describe_waiting().find("16 thread(s) wait at barrier 2 for 32 threads"), std::string::npos)
      << barriers.describe_waiting();
}

struct PartialWarpParams {
  uint32_t* out;
};

// 48 threads (a warp and a half) of which 8 exit: the rest meet at bar.sync 1, 64.
void partial_warps_meet(ThreadContext* ctx) {
  const uint32_t t = linear_tid(ctx);
  if (t >= 40) return;
  auto* shared = block_shared(ctx);
  shared[t] = t + 1;
  bar_sync(ctx, 1, 64);
  params_of<PartialWarpParams>(ctx).out[ctx->ctaid[0] * 40 + t] = shared[39 - t];
}

TEST(Barriers, PartialWarpsArriveAsWholeWarps) {
  std::vector<uint32_t> out(2 * 40, 0);
  PartialWarpParams params{out.data()};
  auto kernel = make_kernel("partial", partial_warps_meet, true);
  kernel.static_shared_bytes = 40 * 4;
  Result<void> result = run(kernel, make_shape({2, 1, 1}, {48, 1, 1}), &params);
  ASSERT_TRUE(result) << result.error().message;
  for (uint32_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], 39 - i % 40 + 1);
}

// --- scale and concurrency ------------------------------------------------------------

TEST(Grids, SixtyFiveThousandBlocksComplete) {
  for (bool fibers : {false, true}) {
    const uint32_t blocks = fibers ? 4096 : 1u << 16;
    std::vector<std::atomic<uint32_t>> counters(blocks);
    std::atomic<uint32_t>* data = counters.data();
    auto kernel = make_kernel("count", count_blocks, fibers);
    ASSERT_TRUE(run(kernel, make_shape({blocks / 16, 4, 4}, {32, 1, 1}), &data));
    for (uint32_t b = 0; b < blocks; ++b) ASSERT_EQ(counters[b].load(), 32u) << b;
  }
}

struct SumParams {
  const uint32_t* in;
  std::atomic<uint64_t>* sum;
};

void sum_with_barrier(ThreadContext* ctx) {
  const auto& p = params_of<SumParams>(ctx);
  auto* shared = block_shared(ctx);
  const uint32_t t = linear_tid(ctx), n = block_threads(ctx);
  shared[t] = p.in[linear_block(ctx) * n + t];
  bar_sync(ctx, 0, 0);
  if (t == 0) {
    uint64_t block_sum = 0;
    for (uint32_t i = 0; i < n; ++i) block_sum += shared[i];
    p.sum->fetch_add(block_sum, std::memory_order_relaxed);
  }
}

void sum_with_atomics(ThreadContext* ctx) {
  const auto& p = params_of<SumParams>(ctx);
  p.sum->fetch_add(p.in[linear_block(ctx) * block_threads(ctx) + linear_tid(ctx)], std::memory_order_relaxed);
}

TEST(Grids, TwoHostThreadsLaunchConcurrently) {
  // Each host thread launches its own grids (own data, own kernel, own strategy) many times.
  auto launch_many = [](bool fibers, uint32_t seed, int rounds, bool& ok) {
    const uint32_t blocks = 16, threads = 32;
    std::vector<uint32_t> in(blocks * threads);
    uint64_t expected = 0;
    for (uint32_t i = 0; i < in.size(); ++i) expected += in[i] = i ^ seed;
    auto kernel = fibers ? make_kernel("sum", sum_with_barrier, true) : make_kernel("sum", sum_with_atomics, false);
    kernel.static_shared_bytes = threads * 4;
    ok = true;
    for (int round = 0; round < rounds; ++round) {
      std::atomic<uint64_t> sum{0};
      SumParams params{in.data(), &sum};
      const Dim3 grid = round % 2 ? Dim3{blocks, 1, 1} : Dim3{1, blocks / 4, 4};
      if (!run(kernel, make_shape(grid, {threads, 1, 1}), &params) || sum.load() != expected) ok = false;
    }
  };
  bool ok_a = false, ok_b = false;
  std::thread a(launch_many, true, 0x1234u, 20, std::ref(ok_a));
  std::thread b(launch_many, false, 0xbeefu, 200, std::ref(ok_b));
  a.join();
  b.join();
  EXPECT_TRUE(ok_a);
  EXPECT_TRUE(ok_b);
}

TEST(Grids, InvalidLaunchesAreRejected) {
  auto kernel = make_kernel("count", count_blocks, false);
  EXPECT_EQ(run(kernel, make_shape({0, 1, 1}, {32, 1, 1}), nullptr).error().code, ErrorCode::InvalidConfiguration);
  EXPECT_EQ(run(kernel, make_shape({1, 1, 1}, {1025, 1, 1}), nullptr).error().code,
            ErrorCode::InvalidConfiguration);
  kernel.max_threads_per_block = 128;
  EXPECT_EQ(run(kernel, make_shape({1, 1, 1}, {16, 16, 1}), nullptr).error().code, ErrorCode::InvalidConfiguration);
  kernel.entry = nullptr;
  EXPECT_EQ(run(kernel, make_shape({1, 1, 1}, {1, 1, 1}), nullptr).error().code, ErrorCode::InvalidDeviceFunction);
}

struct NestedParams {
  const jit::KernelInfo* inner;
  std::atomic<int>* codes;
};

// A kernel that launches a grid itself, as dynamic parallelism would.
void launch_from_kernel(ThreadContext* ctx) {
  const auto& p = params_of<NestedParams>(ctx);
  Result<void> result = GridExecutor::instance().run_grid(*p.inner, make_shape({1, 1, 1}, {1, 1, 1}), nullptr);
  p.codes->store(result ? -1 : static_cast<int>(result.error().code));
}

TEST(Grids, LaunchFromInsideAKernelIsRefusedNotDeadlocked) {
  auto inner = make_kernel("empty", [](ThreadContext*) {}, false);
  std::atomic<int> code{-2};
  NestedParams params{&inner, &code};
  ASSERT_TRUE(run(make_kernel("outer", launch_from_kernel, false), make_shape({1, 1, 1}, {1, 1, 1}), &params));
  EXPECT_EQ(code.load(), static_cast<int>(ErrorCode::NotSupported));
}

// --- faults in kernel code -------------------------------------------------------------------

struct FaultParams {
  volatile uint32_t* bad;  // 0x10: nothing is mapped there
  uint32_t faulting_thread;
};

void read_bad_address(ThreadContext* ctx) {
  const auto& p = params_of<FaultParams>(ctx);
  if (linear_tid(ctx) == p.faulting_thread && linear_block(ctx) == 1) (void)*p.bad;
}

// Recurses until the depth in the parameters, far past any fiber stack.
__attribute__((noinline)) uint32_t recurse(uint32_t depth, uint32_t limit) {
  volatile uint8_t frame[512];
  frame[0] = static_cast<uint8_t>(depth);
  if (depth == limit) return frame[0];
  return recurse(depth + 1, limit) + frame[0];
}

void overflow_stack(ThreadContext* ctx) { (void)recurse(0, params_of<uint32_t>(ctx)); }

void expect_pool_still_works() {
  for (bool fibers : {false, true}) {
    std::vector<std::atomic<uint32_t>> counters(200);
    std::atomic<uint32_t>* data = counters.data();
    auto count = make_kernel("count", count_blocks, fibers);
    ASSERT_TRUE(run(count, make_shape({200, 1, 1}, {64, 1, 1}), &data));
    for (auto& counter : counters) ASSERT_EQ(counter.load(), 64u);
  }
}

class KernelFaults : public testing::TestWithParam<bool> {};  // parameter: uses_barriers (fibers)

TEST_P(KernelFaults, BadAddressIsAnIllegalAddressErrorNotACrash) {
  for (int round = 0; round < 3; ++round) {  // the handler stays armed after a fault
    FaultParams params{reinterpret_cast<volatile uint32_t*>(uintptr_t{0x10}), 37};
    Result<void> result = run(make_kernel("bad", read_bad_address, GetParam()), make_shape({3, 1, 1}, {8, 8, 1}),
                              &params);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().code, ErrorCode::IllegalAddress);
    EXPECT_NE(result.error().message.find("block (1, 0, 0), thread (5, 4, 0)"), std::string::npos)
        << result.error().message;
    EXPECT_NE(result.error().message.find("illegal address 0x10"), std::string::npos) << result.error().message;
  }
  expect_pool_still_works();
}

// A fiber overflows into its guard page; on the sequential path the worker's own stack ends.
TEST_P(KernelFaults, StackOverflowIsNamed) {
  uint32_t limit = 1u << 30;  // 512 GiB of frames: only the guard page stops it
  Result<void> result =
      run(make_kernel("deep", overflow_stack, GetParam()), make_shape({2, 1, 1}, {32, 1, 1}), &limit);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::IllegalAddress);
  EXPECT_NE(result.error().message.find("stack overflow"), std::string::npos) << result.error().message;
  expect_pool_still_works();
  // The stacks went back to the pool: a shallow recursion on them works.
  limit = 8;
  EXPECT_TRUE(run(make_kernel("shallow", overflow_stack, GetParam()), make_shape({4, 1, 1}, {64, 1, 1}), &limit));
}

INSTANTIATE_TEST_SUITE_P(Strategies, KernelFaults, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& info) { return info.param ? "fibers" : "sequential"; });

TEST(KernelFaultsOutsideKernels, StillKillTheProcess) {
  // Arm the handlers (the pool starts on the first grid), then fault on a host thread.
  expect_pool_still_works();
  EXPECT_EXIT(
      {
        volatile uint32_t* bad = reinterpret_cast<volatile uint32_t*>(uintptr_t{0x10});
        std::thread([bad] { (void)*bad; }).join();
      },
      // Killed by SIGSEGV; a sanitizer's handler, chained to, reports and exits instead.
      [](int status) {
        return (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
      },
      "");
}

// --- device heap and limits ------------------------------------------------------------------

TEST(DeviceHeap, BoundedByItsLimitThreadSafeAndResetToTheDefault) {
  reset_device_heap();
  EXPECT_EQ(device_heap_bytes(), kDefaultMallocHeapBytes);
  EXPECT_TRUE(set_device_heap_bytes(std::size_t{1} << 20));
  // Four host threads take 1 KiB blocks until the 1 MiB heap is full, then free them.
  std::atomic<std::size_t> taken{0};
  std::latch all_full(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&taken, &all_full] {
      std::vector<void*> mine;
      while (void* block = device_malloc(1024)) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 16, 0u);
        static_cast<uint8_t*>(block)[1023] = 1;
        mine.push_back(block);
      }
      taken += mine.size();
      all_full.arrive_and_wait();  // no block goes back before every thread found the heap full
      for (void* block : mine) device_free(block);
    });
  for (auto& thread : threads) thread.join();
  EXPECT_GT(taken.load(), 900u);   // bookkeeping costs a little
  EXPECT_LE(taken.load(), 1024u);  // never more than the limit holds
  EXPECT_EQ(device_malloc(std::size_t{1} << 21), nullptr);
  void* whole = device_malloc(900 * 1024);  // everything came back
  EXPECT_NE(whole, nullptr);
  device_free(whole);
  device_free(nullptr);
  int not_from_the_heap = 0;
  device_free(&not_from_the_heap);  // ignored
  EXPECT_FALSE(set_device_heap_bytes(std::size_t{2} << 20));  // in use: fixed
  reset_device_limits();
  EXPECT_EQ(device_heap_bytes(), kDefaultMallocHeapBytes);
  EXPECT_EQ(thread_stack_bytes(), kDefaultThreadStackBytes);
  EXPECT_TRUE(set_device_heap_bytes(std::size_t{2} << 20));
  reset_device_heap();
}

// A kernel whose frames are larger than the fiber floor needs cudaLimitStackSize.
void recurse_with_the_given_depth(ThreadContext* ctx) { (void)recurse(0, params_of<uint32_t>(ctx)); }

TEST(DeviceLimits, StackSizeLimitGrowsFiberStacks) {
  uint32_t depth = 400;  // ~600 bytes a frame: about 240 KiB, past the 64 KiB floor
  auto kernel = make_kernel("deep_enough", recurse_with_the_given_depth, true);
  Result<void> result = run(kernel, make_shape({1, 1, 1}, {32, 1, 1}), &depth);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("stack overflow"), std::string::npos) << result.error().message;
  set_thread_stack_bytes(512 * 1024);
  EXPECT_TRUE(run(kernel, make_shape({1, 1, 1}, {32, 1, 1}), &depth));
  reset_device_limits();
}

// Stacks without guard pages (cooperative grids) come in batches of mappings: a pool going
// away unmaps every free stack, whole batches or one by one, and never one still in use
// (a fiber abandoned with a failed grid keeps its stack).
bool is_mapped(const boost::context::stack_context& stack) {
  unsigned char residency[64];
  void* low = static_cast<char*>(stack.sp) - stack.size;
  return mincore(low, 4096, residency) == 0;
}

TEST(FiberStackPool, UnmapsFreeStacksAndKeepsTheOnesInUse) {
  std::vector<boost::context::stack_context> freed, held;
  {
    FiberStackPool pool(64 * 1024, false);
    for (int i = 0; i < 64 + 3; ++i) freed.push_back(pool.take());  // a whole batch, and 3 of the next
    held.push_back(freed.back());
    freed.pop_back();
    for (const auto& stack : freed) ASSERT_NE(stack.sp, nullptr);
    for (const auto& stack : freed) pool.give_back(stack);
    EXPECT_TRUE(is_mapped(held[0]));
  }
  for (const auto& stack : freed) EXPECT_FALSE(is_mapped(stack));
  ASSERT_TRUE(is_mapped(held[0]));
  munmap(static_cast<char*>(held[0].sp) - held[0].size, held[0].size);
}

// --- settings -------------------------------------------------------------------------------

const char* fake_environment(const char* name) {
  if (std::strcmp(name, "CUCPU_WORKERS") == 0) return std::getenv("FAKE_WORKERS");
  return nullptr;
}

TEST(Settings, WorkerCountIsValidated) {
  auto workers_for = [](const char* text, std::vector<std::string>& warnings) {
    setenv("FAKE_WORKERS", text, 1);
    return read_exec_settings(fake_environment, 6, warnings).worker_count;
  };
  std::vector<std::string> warnings;
  EXPECT_EQ(workers_for("3", warnings), 3u);
  EXPECT_TRUE(warnings.empty());
  for (const char* bad : {"", "0", "-2", "3x", "banana", "99999999999999999999", "5000"}) {
    warnings.clear();
    EXPECT_EQ(workers_for(bad, warnings), 6u) << bad;
    ASSERT_EQ(warnings.size(), 1u) << bad;
    EXPECT_NE(warnings[0].find("CUCPU_WORKERS"), std::string::npos);
  }
  unsetenv("FAKE_WORKERS");
  warnings.clear();
  EXPECT_EQ(read_exec_settings(fake_environment, 0, warnings).worker_count, 1u);
}

TEST(Settings, BlockStrategyIsParsed) {
  static const char* strategy = nullptr;
  auto lookup = [](const char* name) -> const char* {
    return std::strcmp(name, "CUCPU_BLOCK_STRATEGY") == 0 ? strategy : nullptr;
  };
  std::vector<std::string> warnings;
  const std::pair<const char*, BlockStrategyChoice> cases[] = {{nullptr, BlockStrategyChoice::Auto},
                                                               {"auto", BlockStrategyChoice::Auto},
                                                               {"fibers", BlockStrategyChoice::Fibers},
                                                               {"compiled", BlockStrategyChoice::Compiled}};
  for (const auto& [text, choice] : cases) {
    strategy = text;
    EXPECT_EQ(read_exec_settings(lookup, 2, warnings).strategy, choice) << (text ? text : "unset");
  }
  EXPECT_TRUE(warnings.empty());
  strategy = "compile";
  EXPECT_EQ(read_exec_settings(lookup, 2, warnings).strategy, BlockStrategyChoice::Auto);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("CUCPU_BLOCK_STRATEGY=compile is not auto, fibers or compiled"), std::string::npos);
}

// Runs in a child process that this test binary spawns with CUCPU_WORKERS set.
TEST(Settings, WorkerCountInChildProcess) {
  const char* expected = std::getenv("EXEC_TEST_EXPECTED_WORKERS");
  if (!expected) GTEST_SKIP() << "runs only as the child of Settings.CucpuWorkersIsHonoured";
  EXPECT_EQ(GridExecutor::instance().worker_count(), static_cast<unsigned>(std::atoi(expected)));
  const uint32_t blocks = 64;
  std::vector<ThreadRecord> records(blocks);
  RecordParams params{records.data()};
  ASSERT_TRUE(run(make_kernel("record_ids", record_ids, false), make_shape({blocks, 1, 1}, {1, 1, 1}), &params));
  for (const ThreadRecord& record : records) {
    EXPECT_EQ(record.seen.nsmid, static_cast<unsigned>(std::atoi(expected)));
    EXPECT_LT(record.seen.smid, record.seen.nsmid);
  }
}

int run_child_with_workers(const char* workers, unsigned expected) {
  std::vector<std::string> variables = {std::string("CUCPU_WORKERS=") + workers,
                                        "EXEC_TEST_EXPECTED_WORKERS=" + std::to_string(expected)};
  std::vector<char*> env;
  for (auto& variable : variables) env.push_back(variable.data());
  for (char** entry = environ; *entry; ++entry)
    if (std::strncmp(*entry, "CUCPU_WORKERS=", 14) != 0) env.push_back(*entry);
  env.push_back(nullptr);
  std::string filter = "--gtest_filter=Settings.WorkerCountInChildProcess";
  char exe[] = "/proc/self/exe";
  char* argv[] = {exe, filter.data(), nullptr};
  // The child's gtest report goes to /dev/null; its stderr (the warning) stays visible.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, exe, &actions, nullptr, argv, env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Settings, CucpuWorkersIsHonoured) {
  if (std::getenv("EXEC_TEST_EXPECTED_WORKERS")) GTEST_SKIP();
  EXPECT_EQ(run_child_with_workers("3", 3), 0);
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(run_child_with_workers("banana", hardware), 0);  // with a warning on stderr
}

// --- cost ---------------------------------------------------------------------------------

void many_barriers(ThreadContext* ctx) {
  for (int i = 0; i < 50; ++i) bar_sync(ctx, 0, 0);
}

void empty_kernel(ThreadContext*) {}

TEST(Cost, FiberSwitchAndSequentialThread) {
  using Clock = std::chrono::steady_clock;
  const unsigned workers = GridExecutor::instance().worker_count();
  auto barriers = make_kernel("many_barriers", many_barriers, true);
  const uint32_t blocks = 16 * workers, threads = 1024;
  auto start = Clock::now();
  ASSERT_TRUE(run(barriers, make_shape({blocks, 1, 1}, {threads, 1, 1}), nullptr));
  const double barrier_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();

  auto empty = make_kernel("empty", empty_kernel, false);
  const uint32_t empty_blocks = 4096;
  start = Clock::now();
  ASSERT_TRUE(run(empty, make_shape({empty_blocks, 1, 1}, {1024, 1, 1}), nullptr));
  const double empty_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();

  auto fiber_empty = make_kernel("empty", empty_kernel, true);
  start = Clock::now();
  ASSERT_TRUE(run(fiber_empty, make_shape({empty_blocks / 4, 1, 1}, {1024, 1, 1}), nullptr));
  const double fiber_empty_ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();

  // Per worker: wall time x workers / work items.
  std::printf("[ cost     ] %u workers: bar.sync %.1f ns per thread and barrier (a park and a resume); "
              "fiber thread start+end %.1f ns; sequential thread %.2f ns\n",
              workers, barrier_ns * workers / (double(blocks) * threads * 50),
              fiber_empty_ns * workers / (double(empty_blocks / 4) * 1024),
              empty_ns * workers / (double(empty_blocks) * 1024));
}

}  // namespace
}  // namespace cucpu::exec

// A cooperative grid of many more blocks than workers whose blocks wait for each other:
// every block arrives at a global counter, then spins (with yield points, as the JIT
// inserts them) until all blocks have arrived. Only co-residency lets it finish.
namespace cucpu::exec {
namespace {

using YieldFn = void (*)(ThreadContext*);
const auto yield = reinterpret_cast<YieldFn>(kSymbols.at(jit::kYield));

struct CooperativeParams {
  std::atomic<uint32_t>* arrived;
  std::atomic<uint32_t>* passed;
};

void wait_for_every_block(ThreadContext* ctx) {
  const auto& p = params_of<CooperativeParams>(ctx);
  if (linear_tid(ctx) == 0) p.arrived->fetch_add(1);
  while (p.arrived->load(std::memory_order_acquire) < ctx->nctaid[0]) yield(ctx);
  p.passed->fetch_add(1);
}

TEST(CooperativeGrids, BlocksThatWaitForEachOtherAllFinish) {
  for (uint32_t blocks : {3u, 64u, 300u}) {
    std::atomic<uint32_t> arrived{0}, passed{0};
    CooperativeParams params{&arrived, &passed};
    auto kernel = make_kernel("wait_for_every_block", wait_for_every_block, true);
    auto ran = GridExecutor::instance().run_cooperative_grid(kernel, make_shape({blocks, 1, 1}, {64, 1, 1}), &params);
    ASSERT_TRUE(ran) << ran.error().message;
    EXPECT_EQ(arrived.load(), blocks);
    EXPECT_EQ(passed.load(), blocks * 64);
  }
}

}  // namespace
}  // namespace cucpu::exec
