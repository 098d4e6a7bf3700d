// sm_90 async-proxy instructions run in kernels on the executor: st.async and red.async
// from each block of a cluster into its neighbour's shared memory, completing on the
// neighbour's mbarrier (which the neighbour waits on with expect_tx); cp.reduce.async.bulk
// into global memory (bulk_group) and into a peer's shared memory (mbarrier); and the
// fences and cache hints that must compile and not fault (fence.proxy.*, membar.proxy,
// fence.mbarrier_init, cp.async.bulk.prefetch.L2, discard.L2, applypriority).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "compile_with_executor.h"
#include "exec/grid.h"

namespace cucpu {
namespace {

using exec::Dim3;
using exec::LaunchShape;

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// Thread 0 of each block initialises its mbarrier and expects 28 bytes per thread (one
// .b32, one .b64 and one .v4.b32 st.async); after barrier.cluster every thread stores
// into the next rank's buffers, then waits on its own mbarrier and copies what the
// previous rank stored into out: 7 words per thread.
constexpr const char* kStoreRingPtx = R"(
.visible .entry store_ring(.param .u64 out)
{
  .shared .align 8 .b64 bar;
  .shared .align 16 .b8 words[128];
  .shared .align 16 .b8 longs[256];
  .shared .align 16 .b8 quads[512];
  .reg .b32 %r<40>;
  .reg .b64 %rd<12>;
  .reg .pred %p<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra READY;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 896;
READY:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  add.u32 %r4, %r2, 1;
  rem.u32 %r4, %r4, %r3;
  mapa.shared::cluster.u32 %r5, bar, %r4;
  mad.lo.u32 %r6, %r2, 1000, %r1;
  shl.b32 %r7, %r1, 2;
  mov.u32 %r8, words;
  add.u32 %r8, %r8, %r7;
  mapa.shared::cluster.u32 %r9, %r8, %r4;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r9], %r6, [%r5];
  cvt.u64.u32 %rd2, %r6;
  shl.b64 %rd3, %rd2, 32;
  or.b64 %rd3, %rd3, 7;
  shl.b32 %r10, %r1, 3;
  mov.u32 %r11, longs;
  add.u32 %r11, %r11, %r10;
  mapa.shared::cluster.u32 %r12, %r11, %r4;
  st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b64 [%r12], %rd3, [%r5];
  shl.b32 %r13, %r1, 4;
  mov.u32 %r14, quads;
  add.u32 %r14, %r14, %r13;
  mapa.shared::cluster.u32 %r15, %r14, %r4;
  add.u32 %r16, %r6, 1;
  add.u32 %r17, %r6, 2;
  add.u32 %r18, %r6, 3;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r15], {%r6, %r16, %r17, %r18}, [%r5];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  ld.shared.u32 %r20, [%r8];
  ld.shared.u64 %rd4, [%r11];
  ld.shared.v4.u32 {%r21, %r22, %r23, %r24}, [%r14];
  ld.param.u64 %rd5, [out];
  mov.u32 %r25, %ctaid.x;
  mov.u32 %r26, %ntid.x;
  mad.lo.u32 %r27, %r25, %r26, %r1;
  mul.wide.u32 %rd6, %r27, 28;
  add.u64 %rd7, %rd5, %rd6;
  st.global.u32 [%rd7], %r20;
  mov.b64 {%r28, %r29}, %rd4;
  st.global.u32 [%rd7+4], %r28;
  st.global.u32 [%rd7+8], %r29;
  st.global.u32 [%rd7+12], %r21;
  st.global.u32 [%rd7+16], %r22;
  st.global.u32 [%rd7+20], %r23;
  st.global.u32 [%rd7+24], %r24;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  ret;
}
)";

// Every thread red.async's into the next rank's counters: add.u32 of rank+1, min.s32 of
// -(rank*100+tid), add.u64 of 2^32, inc.u32 with bound 1000 and xor.b32 of 1 << tid;
// 4+4+8+4+4 bytes each. After its mbarrier completes, thread 0 writes its counters.
constexpr const char* kReduceRingPtx = R"(
.visible .entry reduce_ring(.param .u64 out)
{
  .shared .align 8 .b64 bar;
  .shared .align 8 .b8 counters[32];
  .reg .b32 %r<30>;
  .reg .b64 %rd<12>;
  .reg .pred %p<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  mov.u32 %r4, %ntid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra READY;
  st.shared.u32 [counters], 0;
  st.shared.u32 [counters+4], 0;
  st.shared.u64 [counters+8], 0;
  st.shared.u32 [counters+16], 0;
  st.shared.u32 [counters+20], 0;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  mul.lo.u32 %r5, %r4, 24;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], %r5;
READY:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  add.u32 %r6, %r2, 1;
  rem.u32 %r6, %r6, %r3;
  mapa.shared::cluster.u32 %r7, bar, %r6;
  mapa.shared::cluster.u32 %r8, counters, %r6;
  add.u32 %r9, %r2, 1;
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r8], %r9, [%r7];
  mad.lo.u32 %r10, %r2, 100, %r1;
  neg.s32 %r10, %r10;
  add.u32 %r11, %r8, 4;
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%r11], %r10, [%r7];
  add.u32 %r12, %r8, 8;
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r12], 4294967296, [%r7];
  add.u32 %r13, %r8, 16;
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r13], 1000, [%r7];
  add.u32 %r14, %r8, 20;
  mov.u32 %r15, 1;
  shl.b32 %r15, %r15, %r1;
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32 [%r14], %r15, [%r7];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  @%p1 bra DONE;
  ld.param.u64 %rd2, [out];
  mov.u32 %r16, %ctaid.x;
  mul.wide.u32 %rd3, %r16, 24;
  add.u64 %rd4, %rd2, %rd3;
  ld.shared.u32 %r17, [counters];
  st.global.u32 [%rd4], %r17;
  ld.shared.u32 %r17, [counters+4];
  st.global.u32 [%rd4+4], %r17;
  ld.shared.u64 %rd5, [counters+8];
  st.global.u64 [%rd4+8], %rd5;
  ld.shared.u32 %r17, [counters+16];
  st.global.u32 [%rd4+16], %r17;
  ld.shared.u32 %r17, [counters+20];
  st.global.u32 [%rd4+20], %r17;
DONE:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  ret;
}
)";

// Each of 64 threads puts tid+1 (and its float and 64-bit forms) in shared memory; thread
// 0 reduces the arrays into global memory with cp.reduce.async.bulk: add.u32 into u[64],
// min.s32 of -(tid+1)*(block+1) into s[64], add.f32 into f[64], and.b64 into l[64].
constexpr const char* kBulkReducePtx = R"(
.visible .entry bulk_reduce(.param .u64 u, .param .u64 s, .param .u64 f, .param .u64 l)
{
  .shared .align 16 .b8 us[256];
  .shared .align 16 .b8 ss[256];
  .shared .align 16 .b8 fs[256];
  .shared .align 16 .b8 ls[512];
  .reg .b32 %r<20>;
  .reg .b64 %rd<20>;
  .reg .f32 %f<4>;
  .reg .pred %p<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  add.u32 %r3, %r1, 1;
  shl.b32 %r4, %r1, 2;
  mov.u32 %r5, us;
  add.u32 %r5, %r5, %r4;
  st.shared.u32 [%r5], %r3;
  add.u32 %r6, %r2, 1;
  mul.lo.u32 %r7, %r3, %r6;
  neg.s32 %r7, %r7;
  mov.u32 %r8, ss;
  add.u32 %r8, %r8, %r4;
  st.shared.u32 [%r8], %r7;
  cvt.rn.f32.u32 %f1, %r3;
  mov.u32 %r9, fs;
  add.u32 %r9, %r9, %r4;
  st.shared.f32 [%r9], %f1;
  mov.b64 %rd1, -1;
  mov.b64 %rd2, 1;
  shl.b64 %rd2, %rd2, %r2;
  xor.b64 %rd1, %rd1, %rd2;
  shl.b32 %r10, %r1, 3;
  mov.u32 %r11, ls;
  add.u32 %r11, %r11, %r10;
  st.shared.u64 [%r11], %rd1;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.param.u64 %rd3, [u];
  ld.param.u64 %rd4, [s];
  ld.param.u64 %rd5, [f];
  ld.param.u64 %rd6, [l];
  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd3], [us], 256;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%rd4], [ss], 256;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd5], [fs], 256;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b64 [%rd6], [ls], 512;
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group.read 0;
DONE:
  ret;
}
)";

// Thread 0 reduces 32 half-precision values and 16 words of one block's shared memory
// into global memory: add.noftz.f16 of 1.5, max.bf16 of (tid - 8), and dec.u32 of 5 with
// an .L2::cache_hint policy operand.
constexpr const char* kHalfReducePtx = R"(
.visible .entry half_reduce(.param .u64 h, .param .u64 m, .param .u64 d)
{
  .shared .align 16 .b8 hs[64];
  .shared .align 16 .b8 ms[64];
  .shared .align 16 .b8 ds[64];
  .reg .b16 %h<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 1;
  mov.u32 %r3, hs;
  add.u32 %r3, %r3, %r2;
  mov.b16 %h1, 0x3e00;
  st.shared.b16 [%r3], %h1;
  sub.s32 %r4, %r1, 8;
  cvt.rn.f32.s32 %f1, %r4;
  cvt.rn.bf16.f32 %h2, %f1;
  mov.u32 %r5, ms;
  add.u32 %r5, %r5, %r2;
  st.shared.b16 [%r5], %h2;
  setp.lt.u32 %p1, %r1, 16;
  shl.b32 %r6, %r1, 2;
  mov.u32 %r7, ds;
  add.u32 %r7, %r7, %r6;
  @%p1 st.shared.u32 [%r7], 5;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [h];
  ld.param.u64 %rd2, [m];
  ld.param.u64 %rd3, [d];
  createpolicy.fractional.L2::evict_last.b64 %rd4, 1.0;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [hs], 64;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16 [%rd2], [ms], 64;
  cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.dec.u32 [%rd3], [ds], 64, %rd4;
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
DONE:
  ret;
}
)";

// Every rank adds its 16 words (rank*16 + i) into the next rank's acc with
// cp.reduce.async.bulk.shared::cluster (mbarrier completion, 64 bytes expected); after
// waiting, thread 0 copies acc to out.
constexpr const char* kClusterBulkReducePtx = R"(
.visible .entry cluster_bulk_reduce(.param .u64 out)
{
  .shared .align 8 .b64 bar;
  .shared .align 16 .b8 acc[64];
  .shared .align 16 .b8 mine[64];
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  .reg .pred %p<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  shl.b32 %r4, %r1, 2;
  mov.u32 %r5, mine;
  add.u32 %r5, %r5, %r4;
  mad.lo.u32 %r6, %r2, 16, %r1;
  st.shared.u32 [%r5], %r6;
  mov.u32 %r7, acc;
  add.u32 %r7, %r7, %r4;
  st.shared.u32 [%r7], 1000;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra READY;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 64;
READY:
  fence.proxy.async.shared::cta;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  @%p1 bra WAIT;
  add.u32 %r8, %r2, 1;
  rem.u32 %r8, %r8, %r3;
  mapa.shared::cluster.u32 %r9, bar, %r8;
  mapa.shared::cluster.u32 %r10, acc, %r8;
  cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r10], [mine], 64, [%r9];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  ld.shared.u32 %r11, [%r7];
  ld.param.u64 %rd2, [out];
  mov.u32 %r12, %ctaid.x;
  mad.lo.u32 %r13, %r12, 16, %r1;
  mul.wide.u32 %rd3, %r13, 4;
  add.u64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r11;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  ret;
}
)";

// The fences and cache hints, each on a valid global address; then out[tid] = tid + 1.
constexpr const char* kFencesPtx = R"(
.visible .entry fences(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  fence.proxy.alias;
  fence.proxy.async;
  fence.proxy.async.global;
  fence.proxy.async.shared::cta;
  fence.proxy.async.shared::cluster;
  fence.proxy.tensormap::generic.release.cta;
  fence.proxy.tensormap::generic.release.cluster;
  fence.proxy.tensormap::generic.release.gpu;
  fence.proxy.tensormap::generic.release.sys;
  fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;
  fence.proxy.tensormap::generic.acquire.sys [%rd1], 128;
  fence.mbarrier_init.release.cluster;
  membar.proxy.alias;
  cp.async.bulk.prefetch.L2.global [%rd1], 256;
  applypriority.global.L2::evict_normal [%rd1], 128;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

// discard.global.L2 leaves the line undefined; cucpu keeps it, which the test accepts
// only as "did not fault", never as a checked value.
constexpr const char* kDiscardPtx = R"(
.visible .entry discard_line(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  discard.global.L2 [%rd1], 128;
  ret;
}
)";

class AsyncProxy : public ::testing::Test {
 protected:
  const jit::KernelInfo* kernel(const char* ptx, const char* name) {
    auto compiled = test::compile_with_executor(std::string(kHeader) + ptx, name);
    EXPECT_TRUE(compiled) << (compiled ? "" : compiled.error().message);
    if (!compiled) return nullptr;
    modules_.push_back(std::move(*compiled));
    return modules_.back()->find_kernel(name);
  }

  static LaunchShape shape(uint32_t blocks, uint32_t threads, uint32_t cluster) {
    LaunchShape s;
    s.grid = Dim3{blocks, 1, 1};
    s.block = Dim3{threads, 1, 1};
    s.cluster = Dim3{cluster, 1, 1};
    s.explicit_cluster = cluster > 1;
    return s;
  }

  template <typename... T>
  static Result<void> run(const jit::KernelInfo& k, const LaunchShape& s, T... arguments) {
    // The parameters as the kernel's .param block lays them out: all 8-byte pointers here.
    uint64_t params[] = {reinterpret_cast<uint64_t>(arguments)...};
    return exec::GridExecutor::instance().run_grid(k, s, params);
  }

  std::vector<std::unique_ptr<jit::CompiledModule>> modules_;
};

TEST_F(AsyncProxy, StAsyncStoresIntoTheNeighbourAndCompletesItsMbarrier) {
  const jit::KernelInfo* k = kernel(kStoreRingPtx, "store_ring");
  ASSERT_NE(k, nullptr);
  for (uint32_t cluster : {2u, 4u}) {
    SCOPED_TRACE("cluster of " + std::to_string(cluster));
    constexpr uint32_t kBlocks = 8, kThreads = 32;
    std::vector<uint32_t> out(kBlocks * kThreads * 7, 0);
    ASSERT_TRUE(run(*k, shape(kBlocks, kThreads, cluster), out.data()));
    for (uint32_t block = 0; block < kBlocks; ++block) {
      const uint32_t rank = block % cluster;
      const uint32_t previous = (rank + cluster - 1) % cluster;
      for (uint32_t tid = 0; tid < kThreads; ++tid) {
        const uint32_t* r = &out[(block * kThreads + tid) * 7];
        const uint32_t v = previous * 1000 + tid;
        const std::vector<uint32_t> got(r, r + 7), want = {v, 7, v, v, v + 1, v + 2, v + 3};
        ASSERT_EQ(got, want) << "block " << block << " thread " << tid;
      }
    }
  }
}

TEST_F(AsyncProxy, RedAsyncReducesIntoTheNeighbourAndCompletesItsMbarrier) {
  const jit::KernelInfo* k = kernel(kReduceRingPtx, "reduce_ring");
  ASSERT_NE(k, nullptr);
  constexpr uint32_t kBlocks = 8, kThreads = 32, kCluster = 4;
  struct Counters {
    uint32_t sum, min;
    uint64_t wide;
    uint32_t inc, bits;
  };
  static_assert(sizeof(Counters) == 24);
  std::vector<Counters> out(kBlocks);
  ASSERT_TRUE(run(*k, shape(kBlocks, kThreads, kCluster), out.data()));
  for (uint32_t block = 0; block < kBlocks; ++block) {
    const uint32_t previous = (block % kCluster + kCluster - 1) % kCluster;
    SCOPED_TRACE("block " + std::to_string(block));
    EXPECT_EQ(out[block].sum, kThreads * (previous + 1));
    EXPECT_EQ(static_cast<int32_t>(out[block].min), -static_cast<int32_t>(previous * 100 + kThreads - 1));
    EXPECT_EQ(out[block].wide, uint64_t{kThreads} << 32);
    EXPECT_EQ(out[block].inc, kThreads);  // below the bound 1000: every inc adds one
    EXPECT_EQ(out[block].bits, 0xffffffffu);
  }
}

TEST_F(AsyncProxy, BulkReduceIntoGlobalMemory) {
  const jit::KernelInfo* k = kernel(kBulkReducePtx, "bulk_reduce");
  ASSERT_NE(k, nullptr);
  constexpr uint32_t kBlocks = 5;
  std::vector<uint32_t> u(64, 100);
  std::vector<int32_t> s(64, 0);
  std::vector<float> f(64, 0.5f);
  std::vector<uint64_t> l(64, ~uint64_t{0});
  ASSERT_TRUE(run(*k, shape(kBlocks, 64, 1), u.data(), s.data(), f.data(), l.data()));
  for (uint32_t i = 0; i < 64; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    EXPECT_EQ(u[i], 100 + kBlocks * (i + 1));
    EXPECT_EQ(s[i], -static_cast<int32_t>((i + 1) * kBlocks));
    EXPECT_EQ(f[i], 0.5f + kBlocks * (i + 1.0f));
    EXPECT_EQ(l[i], ~uint64_t{0} << kBlocks);  // each block clears its bit
  }
}

TEST_F(AsyncProxy, BulkReduceOfHalvesAndWithACacheHint) {
  const jit::KernelInfo* k = kernel(kHalfReducePtx, "half_reduce");
  ASSERT_NE(k, nullptr);
  constexpr uint32_t kBlocks = 3;
  std::vector<uint16_t> h(32, 0x3c00);  // 1.0
  std::vector<uint16_t> m(32, 0xc000);  // bf16 -2.0
  std::vector<uint32_t> d(16);
  for (uint32_t i = 0; i < 16; ++i) d[i] = i;
  ASSERT_TRUE(run(*k, shape(kBlocks, 32, 1), h.data(), m.data(), d.data()));
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(h[i], 0x4580) << i;  // 1 + 3 * 1.5 = 5.5
    const float want = std::max(-2.0f, static_cast<float>(static_cast<int>(i) - 8));
    EXPECT_EQ(m[i], static_cast<uint16_t>(std::bit_cast<uint32_t>(want) >> 16)) << i;
  }
  // dec: old == 0 or old > 5 becomes 5, else old - 1; three times.
  for (uint32_t i = 0; i < 16; ++i) {
    uint32_t want = i;
    for (uint32_t n = 0; n < kBlocks; ++n) want = (want == 0 || want > 5) ? 5 : want - 1;
    EXPECT_EQ(d[i], want) << i;
  }
}

TEST_F(AsyncProxy, BulkReduceIntoTheNeighboursSharedMemory) {
  const jit::KernelInfo* k = kernel(kClusterBulkReducePtx, "cluster_bulk_reduce");
  ASSERT_NE(k, nullptr);
  constexpr uint32_t kBlocks = 4, kCluster = 2;
  std::vector<uint32_t> out(kBlocks * 16, 0);
  ASSERT_TRUE(run(*k, shape(kBlocks, 16, kCluster), out.data()));
  for (uint32_t block = 0; block < kBlocks; ++block) {
    const uint32_t previous = (block % kCluster + kCluster - 1) % kCluster;
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(out[block * 16 + i], 1000 + previous * 16 + i) << block << " " << i;
  }
}

TEST_F(AsyncProxy, FencesAndCacheHintsRunWithoutEffect) {
  const jit::KernelInfo* k = kernel(kFencesPtx, "fences");
  ASSERT_NE(k, nullptr);
  std::vector<uint32_t> out(64, 0);
  ASSERT_TRUE(run(*k, shape(1, 64, 1), out.data()));
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(out[i], i + 1);
  const jit::KernelInfo* d = kernel(kDiscardPtx, "discard_line");
  ASSERT_NE(d, nullptr);
  alignas(128) uint32_t line[32] = {};
  EXPECT_TRUE(run(*d, shape(1, 32, 1), line));
}

TEST_F(AsyncProxy, MalformedFormsAreCompileErrors) {
  // st.async needs its mbarrier operand; cp.reduce.async.bulk has no .and on floats.
  const char* bad[] = {
      ".visible .entry a(.param .u64 p) { .reg .b32 %r<3>; "
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r1], %r2; ret; }",
      ".visible .entry a(.param .u64 p) { .reg .b64 %rd<3>; .shared .b8 s[64]; "
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.and.f32 [%rd1], [s], 64; ret; }",
  };
  for (const char* ptx : bad) {
    auto module = ptx::parse(std::string(kHeader) + ptx, "bad");
    if (!module) continue;  // rejected by the parser: also an error
    jit::CompileOptions options;
    options.runtime = exec::GridExecutor::runtime_symbols();
    EXPECT_FALSE(jit::compile_module(*module, options)) << ptx;
  }
}

}  // namespace
}  // namespace cucpu
