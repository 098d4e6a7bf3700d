// cp.async and mbarrier, compiled by the JIT and run on the executor: zero fill of
// cp.async's src-size / ignore-src forms, mbarrier phases (arrive + try_wait, parity
// waits, pending_count, arrive_drop, expect_tx with a bulk copy's complete_tx), and a
// thread that waits before the others arrive (it must let them run).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <vector>

#include "exec/grid.h"
#include "jit/compile.h"
#include "ptx/parse.h"
#include "compile_with_executor.h"

namespace cucpu::exec {
namespace {

std::unique_ptr<jit::CompiledModule> compile(const char* text) {
  auto compiled = test::compile_with_executor(text, "async_copy_test.ptx");
  EXPECT_TRUE(compiled) << compiled.error().message;
  return compiled ? std::move(*compiled) : nullptr;
}

Result<void> run_one_block(const jit::KernelInfo& kernel, uint32_t threads, void* out) {
  LaunchShape shape;
  shape.grid = {1, 1, 1};
  shape.block = {threads, 1, 1};
  alignas(8) uint8_t params[8];
  std::memcpy(params, &out, sizeof(out));
  return GridExecutor::instance().run_grid(kernel, shape, params);
}

// Shared bytes 0..47 start as 0xff; three copies from `src` (bytes 1, 2, ...) land there.
constexpr const char* kZeroFillPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry zero_fill(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 16 .b8 tile[48];
  .global .align 16 .b8 src[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, src;
  mov.u32 %r1, -1;
  st.shared.v4.u32 [tile], {%r1, %r1, %r1, %r1};
  st.shared.v4.u32 [tile+16], {%r1, %r1, %r1, %r1};
  st.shared.v4.u32 [tile+32], {%r1, %r1, %r1, %r1};
  mov.u32 %r2, 5;
  setp.eq.u32 %p1, %r2, 5;
  cp.async.ca.shared.global [tile], [%rd2], 16, %r2;
  cp.async.cg.shared.global.L2::128B [tile+16], [%rd2], 16, %p1;
  cp.async.ca.shared.global [tile+32], [%rd2], 8;
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  ld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [tile];
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
  ld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [tile+16];
  st.global.v4.u32 [%rd1+16], {%r3, %r4, %r5, %r6};
  ld.shared.v4.u32 {%r3, %r4, %r5, %r6}, [tile+32];
  st.global.v4.u32 [%rd1+32], {%r3, %r4, %r5, %r6};
  ret;
}
)";

TEST(AsyncCopy, SrcSizeAndIgnoreSrcZeroFill) {
  auto compiled = compile(kZeroFillPtx);
  ASSERT_TRUE(compiled);
  const jit::KernelInfo* kernel = compiled->find_kernel("zero_fill");
  ASSERT_NE(kernel, nullptr);
  uint8_t out[48];
  std::memset(out, 0xaa, sizeof(out));
  ASSERT_TRUE(run_one_block(*kernel, 1, out));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], i < 5 ? i + 1 : 0) << i;  // 5 bytes, 11 zeros
  for (int i = 16; i < 32; ++i) EXPECT_EQ(out[i], 0) << i;                 // ignore-src: all zeros
  for (int i = 32; i < 40; ++i) EXPECT_EQ(out[i], i - 31) << i;            // 8 bytes copied
  for (int i = 40; i < 48; ++i) EXPECT_EQ(out[i], 0xff) << i;              // untouched
}

// 64 threads. out[t * 8 + ...]:
//   0: test_wait on the phase-0 state after the wait (1)
//   1: pending_count of the state phase 1's arrival returned (64..1 across threads)
//   2: test_wait.parity 0 right after phase 1 completed (0: parity 0 is now phase 2, running)
//   3: test_wait.parity 1 after arriving in phase 2 (1: phase 1 is complete)
//   4: the last word of the 16 bytes a bulk copy brought in phase 3
// Phase 2: threads 32..63 arrive_drop (the expected count becomes 32); phase 3: only
// threads 0..31 arrive, thread 0 with expect_tx 16, thread 1 issues the bulk copy.
constexpr const char* kPhasesPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry phases(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p<12>;
  .shared .align 8 .b64 bar;
  .shared .align 16 .b8 tile[16];
  .global .align 16 .b32 payload[4] = {11, 22, 33, 44};
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_ready;
  mbarrier.init.shared::cta.b64 [bar], 64;
$L_ready:
  bar.sync 0;
  mbarrier.arrive.release.cta.shared::cta.b64 %rd4, [bar];
$L_wait0:
  mbarrier.try_wait.shared::cta.b64 %p2, [bar], %rd4;
  @!%p2 bra $L_wait0;
  mbarrier.test_wait.shared.b64 %p3, [bar], %rd4;
  selp.u32 %r2, 1, 0, %p3;
  st.global.u32 [%rd3], %r2;
  mbarrier.arrive.shared.b64 %rd5, [bar];
  mbarrier.pending_count.b64 %r3, %rd5;
  st.global.u32 [%rd3+4], %r3;
$L_wait1:
  mbarrier.try_wait.parity.acquire.cta.shared.b64 %p4, [bar], 1, 1000;
  @!%p4 bra $L_wait1;
  mbarrier.test_wait.parity.shared.b64 %p5, [bar], 0;
  selp.u32 %r4, 1, 0, %p5;
  st.global.u32 [%rd3+8], %r4;
  bar.sync 0;
  setp.ge.u32 %p6, %r1, 32;
  @%p6 bra $L_drop;
  mbarrier.arrive.shared.b64 %rd6, [bar];
  mbarrier.test_wait.parity.shared.b64 %p7, [bar], 1;
  selp.u32 %r5, 1, 0, %p7;
  st.global.u32 [%rd3+12], %r5;
$L_wait2:
  mbarrier.test_wait.parity.shared.b64 %p8, [bar], 0;
  @!%p8 bra $L_wait2;
  setp.eq.u32 %p9, %r1, 0;
  @%p9 bra $L_expect;
  setp.eq.u32 %p10, %r1, 1;
  @!%p10 bra $L_arrive3;
  mov.u64 %rd7, payload;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile], [%rd7], 16, [bar];
$L_arrive3:
  mbarrier.arrive.shared.b64 %rd8, [bar];
  bra.uni $L_wait3;
$L_expect:
  mbarrier.arrive.expect_tx.shared.b64 %rd8, [bar], 16;
$L_wait3:
  mbarrier.try_wait.parity.shared.b64 %p11, [bar], 1;
  @!%p11 bra $L_wait3;
  ld.shared.u32 %r6, [tile+12];
  st.global.u32 [%rd3+16], %r6;
  bra.uni $L_end;
$L_drop:
  mbarrier.arrive_drop.shared.b64 %rd9, [bar];
  mov.u32 %r7, 1;
  st.global.u32 [%rd3+12], %r7;
  st.global.u32 [%rd3+16], %r7;
$L_end:
  bar.sync 0;
  @%p1 bra $L_done;
  mbarrier.inval.shared.b64 [bar];
$L_done:
  ret;
}
)";

TEST(Mbarrier, PhasesParityDropAndTransactionCount) {
  auto compiled = compile(kPhasesPtx);
  ASSERT_TRUE(compiled);
  const jit::KernelInfo* kernel = compiled->find_kernel("phases");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->uses_barriers);  // waits on an mbarrier: fibers
  std::vector<uint32_t> out(64 * 8, 0);
  ASSERT_TRUE(run_one_block(*kernel, 64, out.data()));
  std::vector<uint32_t> pending;
  for (uint32_t t = 0; t < 64; ++t) {
    const uint32_t* o = &out[t * 8];
    EXPECT_EQ(o[0], 1u) << t;  // phase 0 complete after its wait
    pending.push_back(o[1]);
    EXPECT_EQ(o[2], 0u) << t;  // nobody arrives in phase 2 before the bar.sync
    EXPECT_EQ(o[3], 1u) << t;
    EXPECT_EQ(o[4], t < 32 ? 44u : 1u) << t;  // the bulk copy landed before phase 3 completed
  }
  std::sort(pending.begin(), pending.end());
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(pending[i], i + 1);  // each arrival saw one fewer pending
}

}  // namespace
}  // namespace cucpu::exec
