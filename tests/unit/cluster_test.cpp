// Thread block clusters: PTX kernels compiled against the executor (cluster special
// registers, barrier.cluster, distributed shared memory through mapa, ld/st/atom/red
// .shared::cluster, getctarank, isspacep, cvta), the executor's cluster shape checks, and
// the API layer's launch validation and cluster occupancy (core/cluster_launch.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compile_with_executor.h"
#include "core/cluster_launch.h"
#include "core/device.h"
#include "core/module_registry.h"
#include "exec/cluster_runner.h"
#include "exec/grid.h"

namespace cucpu {
namespace {

using exec::Dim3;
using exec::LaunchShape;

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// Thread 0 of each block records its cluster registers: 13 words per block.
constexpr const char* kIdsPtx = R"(
.visible .entry ids(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [out];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ctaid.y;
  mov.u32 %r4, %nctaid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  mul.lo.u32 %r5, %r5, 13;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd3, %rd1, %rd2;
  mov.u32 %r6, %cluster_ctarank;
  st.global.u32 [%rd3], %r6;
  mov.u32 %r6, %cluster_nctarank;
  st.global.u32 [%rd3+4], %r6;
  mov.u32 %r6, %cluster_ctaid.x;
  st.global.u32 [%rd3+8], %r6;
  mov.u32 %r6, %cluster_ctaid.y;
  st.global.u32 [%rd3+12], %r6;
  mov.u32 %r6, %cluster_nctaid.x;
  st.global.u32 [%rd3+16], %r6;
  mov.u32 %r6, %cluster_nctaid.y;
  st.global.u32 [%rd3+20], %r6;
  mov.u32 %r6, %clusterid.x;
  st.global.u32 [%rd3+24], %r6;
  mov.u32 %r6, %clusterid.y;
  st.global.u32 [%rd3+28], %r6;
  mov.u32 %r6, %nclusterid.x;
  st.global.u32 [%rd3+32], %r6;
  mov.u32 %r6, %nclusterid.y;
  st.global.u32 [%rd3+36], %r6;
  mov.pred %p2, %is_explicit_cluster;
  selp.u32 %r6, 1, 0, %p2;
  st.global.u32 [%rd3+40], %r6;
  mov.u32 %r6, %smid;
  st.global.u32 [%rd3+44], %r6;
  mov.u32 %r6, %cluster_ctaid.z;
  st.global.u32 [%rd3+48], %r6;
DONE:
  ret;
}
)";

// Every thread stores rank * 1000 + tid in its block's buf[tid]; after barrier.cluster,
// each reads the next rank's buf[tid] three ways (mapa.shared::cluster + ld.shared::cluster,
// generic mapa + ld, and getctarank of both addresses) and stores 4 words.
constexpr const char* kNeighbourPtx = R"(
.visible .entry neighbour(.param .u64 out)
{
  .shared .align 4 .b8 buf[256];
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  mad.lo.u32 %r4, %r2, 1000, %r1;
  mov.u32 %r5, buf;
  shl.b32 %r6, %r1, 2;
  add.u32 %r7, %r5, %r6;
  st.shared.u32 [%r7], %r4;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  add.u32 %r8, %r2, 1;
  rem.u32 %r8, %r8, %r3;
  mapa.shared::cluster.u32 %r9, %r7, %r8;
  ld.shared::cluster.u32 %r10, [%r9];
  cvt.u64.u32 %rd1, %r7;
  cvta.shared.u64 %rd2, %rd1;
  mapa.u64 %rd3, %rd2, %r8;
  ld.u32 %r11, [%rd3];
  getctarank.shared::cluster.u32 %r12, %r9;
  getctarank.u64 %r13, %rd3;
  ld.param.u64 %rd4, [out];
  mov.u32 %r14, %ctaid.x;
  mov.u32 %r15, %ntid.x;
  mad.lo.u32 %r16, %r14, %r15, %r1;
  mul.wide.u32 %rd5, %r16, 16;
  add.u64 %rd6, %rd4, %rd5;
  st.global.v4.u32 [%rd6], {%r10, %r11, %r12, %r13};
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";

// Every thread adds 1 to rank 0's counter with atom.shared::cluster and 2 with
// red.shared::cluster and generic atom on the mapped address; rank 0's thread 0 stores it.
constexpr const char* kAtomicsPtx = R"(
.visible .entry atomics(.param .u64 out)
{
  .shared .align 4 .u32 counter;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  setp.eq.u32 %p1, %r1, 0;
  @!%p1 bra ZEROED;
  st.shared.u32 [counter], 0;
ZEROED:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  mapa.shared::cluster.u32 %r3, counter, 0;
  atom.shared::cluster.add.u32 %r4, [%r3], 1;
  red.shared::cluster.add.u32 [%r3], 1;
  mov.u64 %rd1, counter;
  cvta.shared.u64 %rd2, %rd1;
  mapa.u64 %rd3, %rd2, 0;
  atom.add.u32 %r5, [%rd3], 1;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  setp.eq.u32 %p2, %r2, 0;
  and.pred %p2, %p2, %p1;
  @!%p2 bra DONE;
  ld.shared.u32 %r6, [counter];
  ld.param.u64 %rd4, [out];
  mov.u32 %r7, %clusterid.x;
  mul.wide.u32 %rd5, %r7, 4;
  add.u64 %rd4, %rd4, %rd5;
  st.global.u32 [%rd4], %r6;
DONE:
  ret;
}
)";

// Threads with an odd tid in rank 1 exit at once; the rest meet at barrier.cluster twice
// and count how many got past it.
constexpr const char* kExitedPtx = R"(
.visible .entry exited(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<3>;
  .reg .pred %p<3>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r2, 1;
  setp.eq.u32 %p2, %r3, 1;
  and.pred %p1, %p1, %p2;
  @%p1 bra DONE;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  barrier.cluster.arrive.relaxed;
  barrier.cluster.wait;
  ld.param.u64 %rd1, [out];
  atom.global.add.u32 %r4, [%rd1], 1;
DONE:
  ret;
}
)";

// isspacep and cvta with .shared::cluster on the own block's and a neighbour's memory.
constexpr const char* kSpacesPtx = R"(
.visible .entry spaces(.param .u64 out)
{
  .shared .align 4 .u32 word;
  .local .align 4 .u32 slot;
  .reg .b32 %r<10>;
  .reg .b64 %rd<12>;
  .reg .pred %p<8>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %cluster_ctarank;
  mov.u64 %rd1, word;
  cvta.shared.u64 %rd2, %rd1;
  xor.b32 %r3, %r2, 1;
  mapa.u64 %rd3, %rd2, %r3;
  ld.param.u64 %rd4, [out];
  isspacep.shared %p2, %rd2;
  isspacep.shared %p3, %rd3;
  isspacep.shared::cluster %p4, %rd3;
  isspacep.global %p5, %rd4;
  isspacep.global %p6, %rd3;
  mov.u64 %rd5, slot;
  cvta.local.u64 %rd6, %rd5;
  isspacep.local %p7, %rd6;
  selp.u32 %r4, 1, 0, %p2;
  selp.u32 %r5, 2, 0, %p3;
  or.b32 %r4, %r4, %r5;
  selp.u32 %r5, 4, 0, %p4;
  or.b32 %r4, %r4, %r5;
  selp.u32 %r5, 8, 0, %p5;
  or.b32 %r4, %r4, %r5;
  selp.u32 %r5, 16, 0, %p6;
  or.b32 %r4, %r4, %r5;
  selp.u32 %r5, 32, 0, %p7;
  or.b32 %r4, %r4, %r5;
  cvta.to.shared::cluster.u64 %rd7, %rd3;
  cvt.u32.u64 %r6, %rd7;
  cvt.u64.u32 %rd8, %r6;
  cvta.shared::cluster.u64 %rd9, %rd8;
  setp.eq.u64 %p2, %rd9, %rd3;
  selp.u32 %r5, 64, 0, %p2;
  or.b32 %r4, %r4, %r5;
  mov.u32 %r7, %ctaid.x;
  mul.wide.u32 %rd10, %r7, 4;
  add.u64 %rd11, %rd4, %rd10;
  st.global.u32 [%rd11], %r4;
DONE:
  ret;
}
)";

// Reads `offset` bytes past the neighbour's word through .shared::cluster (volatile: the
// value is unused): far outside the cluster's windows for large offsets.
constexpr const char* kOutOfRangePtx = R"(
.visible .entry out_of_range(.param .u32 offset)
{
  .shared .align 4 .u32 word;
  .reg .b32 %r<6>;
  ld.param.u32 %r1, [offset];
  mapa.shared::cluster.u32 %r2, word, 1;
  add.u32 %r3, %r2, %r1;
  ld.volatile.shared::cluster.u32 %r4, [%r3];
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";

class Clusters : public ::testing::Test {
 protected:
  const jit::KernelInfo& kernel(const char* ptx, const char* name) {
    auto compiled = test::compile_with_executor(std::string(kHeader) + ptx, name);
    EXPECT_TRUE(compiled) << (compiled ? "" : compiled.error().message);
    modules_.push_back(std::move(*compiled));
    return *modules_.back()->find_kernel(name);
  }

  static LaunchShape shape(Dim3 grid, Dim3 block, Dim3 cluster) {
    LaunchShape s;
    s.grid = grid;
    s.block = block;
    s.cluster = cluster;
    s.explicit_cluster = true;
    return s;
  }

  template <typename T>
  static Result<void> run(const jit::KernelInfo& k, const LaunchShape& s, T argument) {
    return exec::GridExecutor::instance().run_grid(k, s, &argument);
  }

  std::vector<std::unique_ptr<jit::CompiledModule>> modules_;
};

TEST_F(Clusters, RanksAndIdsIn2DClusters) {
  const jit::KernelInfo& k = kernel(kIdsPtx, "ids");
  std::vector<uint32_t> out(8 * 13, 0xffffffff);
  ASSERT_TRUE(run(k, shape({4, 2, 1}, {64, 1, 1}, {2, 2, 1}), out.data()));
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t* r = &out[(y * 4 + x) * 13];
      SCOPED_TRACE("block " + std::to_string(x) + "," + std::to_string(y));
      EXPECT_EQ(r[0], x % 2 + 2 * (y % 2));  // %cluster_ctarank: x fastest
      EXPECT_EQ(r[1], 4u);
      EXPECT_EQ(r[2], x % 2);
      EXPECT_EQ(r[3], y % 2);
      EXPECT_EQ(r[4], 2u);
      EXPECT_EQ(r[5], 2u);
      EXPECT_EQ(r[6], x / 2);
      EXPECT_EQ(r[7], y / 2);
      EXPECT_EQ(r[8], 2u);
      EXPECT_EQ(r[9], 1u);
      EXPECT_EQ(r[10], 1u);
      EXPECT_EQ(r[12], 0u);
    }
  }
  // A cluster's blocks run on one worker (they are resident together).
  EXPECT_EQ(out[0 * 13 + 11], out[1 * 13 + 11]);
  EXPECT_EQ(out[0 * 13 + 11], out[4 * 13 + 11]);
  EXPECT_EQ(out[0 * 13 + 11], out[5 * 13 + 11]);
}

TEST_F(Clusters, WithoutAClusterEachBlockIsItsOwn) {
  const jit::KernelInfo& k = kernel(kIdsPtx, "ids");
  std::vector<uint32_t> out(3 * 13, 0xffffffff);
  LaunchShape s;
  s.grid = {3, 1, 1};
  s.block = {32, 1, 1};
  ASSERT_TRUE(run(k, s, out.data()));
  for (uint32_t b = 0; b < 3; ++b) {
    const uint32_t* r = &out[b * 13];
    EXPECT_EQ(r[0], 0u);
    EXPECT_EQ(r[1], 1u);
    EXPECT_EQ(r[2], 0u);
    EXPECT_EQ(r[4], 1u);
    EXPECT_EQ(r[6], b);
    EXPECT_EQ(r[8], 3u);
    EXPECT_EQ(r[10], 0u);  // %is_explicit_cluster
  }
}

TEST_F(Clusters, DistributedSharedMemoryReadsTheNextRank) {
  const jit::KernelInfo& k = kernel(kNeighbourPtx, "neighbour");
  EXPECT_TRUE(k.waits_for_cluster);
  constexpr uint32_t kBlocks = 8, kThreads = 64, kCluster = 4;
  std::vector<uint32_t> out(kBlocks * kThreads * 4, 0);
  ASSERT_TRUE(run(k, shape({kBlocks, 1, 1}, {kThreads, 1, 1}, {kCluster, 1, 1}), out.data()));
  for (uint32_t block = 0; block < kBlocks; ++block) {
    for (uint32_t tid = 0; tid < kThreads; ++tid) {
      const uint32_t next = (block % kCluster + 1) % kCluster;
      const uint32_t* r = &out[(block * kThreads + tid) * 4];
      ASSERT_EQ(r[0], next * 1000 + tid) << "block " << block << " thread " << tid;
      ASSERT_EQ(r[1], next * 1000 + tid) << "block " << block << " thread " << tid;
      ASSERT_EQ(r[2], next);
      ASSERT_EQ(r[3], next);
    }
  }
}

TEST_F(Clusters, AtomicsOnAnotherRanksSharedMemory) {
  const jit::KernelInfo& k = kernel(kAtomicsPtx, "atomics");
  constexpr uint32_t kClusters = 3, kCluster = 8, kThreads = 96;
  std::vector<uint32_t> out(kClusters, 0);
  ASSERT_TRUE(run(k, shape({kClusters * kCluster, 1, 1}, {kThreads, 1, 1}, {kCluster, 1, 1}), out.data()));
  for (uint32_t c = 0; c < kClusters; ++c) EXPECT_EQ(out[c], 3 * kCluster * kThreads) << "cluster " << c;
}

TEST_F(Clusters, ExitedThreadsDoNotHoldTheBarrier) {
  const jit::KernelInfo& k = kernel(kExitedPtx, "exited");
  uint32_t passed = 0;
  ASSERT_TRUE(run(k, shape({4, 1, 1}, {64, 1, 1}, {2, 1, 1}), &passed));
  EXPECT_EQ(passed, 4 * 64 - 2 * 32);
}

TEST_F(Clusters, BarrierWithoutAClusterLaunchIsABlockOfOne) {
  const jit::KernelInfo& k = kernel(kExitedPtx, "exited");
  uint32_t passed = 0;
  LaunchShape s;
  s.grid = {5, 1, 1};
  s.block = {64, 1, 1};
  ASSERT_TRUE(run(k, s, &passed));  // rank 0 everywhere: nobody exits early
  EXPECT_EQ(passed, 5 * 64);
}

TEST_F(Clusters, SharedClusterAddressSpaces) {
  const jit::KernelInfo& k = kernel(kSpacesPtx, "spaces");
  std::vector<uint32_t> out(4, 0);
  ASSERT_TRUE(run(k, shape({4, 1, 1}, {32, 1, 1}, {2, 1, 1}), out.data()));
  // own word is .shared; the neighbour's is .shared::cluster but not .shared (of this
  // block) nor .global; the parameter is global; .local is local; cvta round-trips.
  for (uint32_t block : out) EXPECT_EQ(block, 1u | 4u | 8u | 32u | 64u);
}

TEST_F(Clusters, AccessesOutsideTheClusterFault) {
  const jit::KernelInfo& k = kernel(kOutOfRangePtx, "out_of_range");
  ASSERT_TRUE(run(k, shape({2, 1, 1}, {32, 1, 1}, {2, 1, 1}), uint32_t{0}));
  for (uint32_t offset : {16u << 20, 0u - (16u << 20)}) {
    Result<void> result = run(k, shape({2, 1, 1}, {32, 1, 1}, {2, 1, 1}), offset);
    ASSERT_FALSE(result) << offset;
    EXPECT_EQ(result.error().code, ErrorCode::IllegalAddress) << result.error().message;
    EXPECT_NE(result.error().message.find("shared memory"), std::string::npos) << result.error().message;
  }
  // The pool goes on running clusters afterwards.
  ASSERT_TRUE(run(k, shape({4, 1, 1}, {32, 1, 1}, {2, 1, 1}), uint32_t{0}));
}

TEST_F(Clusters, ExecutorRejectsShapesItCannotRun) {
  const jit::KernelInfo& k = kernel(kIdsPtx, "ids");
  std::vector<uint32_t> out(64 * 13);
  Result<void> result = run(k, shape({6, 1, 1}, {32, 1, 1}, {4, 1, 1}), out.data());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::InvalidClusterSize);
  result = run(k, shape({32, 1, 1}, {32, 1, 1}, {32, 1, 1}), out.data());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::InvalidClusterSize);
  result = exec::GridExecutor::instance().run_cooperative_grid(k, shape({4, 1, 1}, {32, 1, 1}, {2, 1, 1}),
                                                               &out);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::NotSupported);
}

TEST(ClusterBarrier, PhasesCountArrivalsAndExits) {
  exec::ClusterBarrier barrier;
  barrier.reset(3);
  EXPECT_TRUE(barrier.passed(0));  // never arrived: nothing to wait for
  barrier.arrive(0);
  barrier.arrive(1);
  EXPECT_FALSE(barrier.passed(0));
  barrier.thread_exited(2);  // the last one exits instead of arriving
  EXPECT_TRUE(barrier.passed(0));
  EXPECT_TRUE(barrier.passed(1));
  EXPECT_EQ(barrier.phase(), 1u);
  barrier.arrive(0);
  EXPECT_FALSE(barrier.passed(0));
  barrier.arrive(1);  // two live threads now
  EXPECT_TRUE(barrier.passed(0));
  EXPECT_EQ(barrier.phase(), 2u);
  barrier.arrive(1);
  barrier.thread_exited(1);  // arrived, then exited: still counted in this phase
  EXPECT_FALSE(barrier.passed(1));
  barrier.arrive(0);
  EXPECT_TRUE(barrier.passed(1));
}

// --- the API layer's checks (H100 rules) -------------------------------------------

class ClusterLaunch : public ::testing::Test {
 protected:
  ClusterLaunch() : module_(nullptr) { kernel_.module = &module_; kernel_.device_name = "k"; }

  Result<Dim3> resolve(Dim3 grid, Dim3 cluster, bool explicit_cluster = true) {
    core::LaunchRequest request;
    request.grid = grid;
    request.block = {128, 1, 1};
    request.cluster = cluster;
    request.explicit_cluster = explicit_cluster;
    return core::resolve_cluster_dims(info_, kernel_, request);
  }

  core::FatbinModule module_;
  core::Kernel kernel_;
  jit::KernelInfo info_;
};

TEST_F(ClusterLaunch, PortableSizeIsEightNonPortableSixteen) {
  ASSERT_TRUE(resolve({16, 1, 1}, {8, 1, 1}));
  Result<Dim3> too_big = resolve({16, 1, 1}, {16, 1, 1});
  ASSERT_FALSE(too_big);
  EXPECT_EQ(too_big.error().code, ErrorCode::InvalidClusterSize);
  kernel_.non_portable_cluster_size_allowed = 2;  // any nonzero value allows
  Result<Dim3> allowed = resolve({4, 4, 1}, {4, 4, 1});
  ASSERT_TRUE(allowed);
  EXPECT_EQ(allowed->count(), 16u);
  EXPECT_FALSE(resolve({32, 1, 1}, {32, 1, 1}));
}

TEST_F(ClusterLaunch, GridMustBeAMultipleOfTheCluster) {
  Result<Dim3> result = resolve({6, 1, 1}, {4, 1, 1});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::InvalidClusterSize);
  EXPECT_FALSE(resolve({4, 3, 1}, {2, 2, 1}));
  EXPECT_FALSE(resolve({4, 1, 1}, {0, 1, 1}));
  ASSERT_TRUE(resolve({4, 4, 1}, {2, 2, 1}));
}

TEST_F(ClusterLaunch, CompileTimeShapeAppliesAndCannotBeReplaced) {
  info_.cluster_dims[0] = 2;
  info_.explicit_cluster = true;
  Result<Dim3> implied = resolve({8, 1, 1}, {}, false);
  ASSERT_TRUE(implied);
  EXPECT_EQ(implied->x, 2u);
  // A launch-time shape equal to the compile-time one is taken, another refused (as an H100).
  Result<Dim3> same = resolve({8, 1, 1}, {2, 1, 1});
  ASSERT_TRUE(same);
  EXPECT_EQ(same->x, 2u);
  Result<Dim3> other = resolve({8, 1, 1}, {4, 1, 1});
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, ErrorCode::InvalidClusterSize);
  EXPECT_FALSE(resolve({7, 1, 1}, {}, false));
  EXPECT_EQ(core::required_cluster_dims(info_, kernel_).count(), 2u);
}

TEST_F(ClusterLaunch, KernelsThatDemandAShapeNeedOne) {
  info_.explicit_cluster = true;  // __cluster_dims__ without a shape
  Result<Dim3> result = resolve({8, 1, 1}, {}, false);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::InvalidClusterSize);
  ASSERT_TRUE(resolve({8, 1, 1}, {2, 1, 1}));
}

TEST_F(ClusterLaunch, RuntimeRequiredShapeMustMatch) {
  kernel_.required_cluster[0] = 4;
  kernel_.required_cluster[1] = 1;
  kernel_.required_cluster[2] = 1;
  ASSERT_TRUE(resolve({8, 1, 1}, {4, 1, 1}));
  EXPECT_FALSE(resolve({8, 1, 1}, {2, 1, 1}));
  Result<Dim3> implied = resolve({8, 1, 1}, {}, false);
  ASSERT_TRUE(implied);
  EXPECT_EQ(implied->x, 4u);
}

TEST_F(ClusterLaunch, WithoutClustersNothingChanges) {
  Result<Dim3> result = resolve({7, 3, 1}, {}, false);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->count(), 1u);
}

// Clusters at once as an H100 counts them (core/cluster_launch.cpp states the model; the
// numbers are lines of tests/e2e/expected/cluster_occupancy.out).
TEST(ClusterOccupancy, ClustersPerGpcOnAnH100) {
  struct Line {
    uint32_t cluster_blocks;
    int blocks_per_sm;
    int clusters;
  };
  const Line lines[] = {
      {1, 2, 264}, {2, 2, 132}, {3, 2, 79},  {4, 2, 62},  {7, 2, 32},  {8, 2, 30},  {11, 2, 16},
      {13, 2, 14}, {16, 2, 14}, {3, 4, 163}, {9, 4, 51},  {16, 4, 28}, {3, 8, 327}, {5, 8, 193},
      {9, 8, 102}, {14, 8, 65}, {16, 8, 58}, {1, 7, 924}, {4, 7, 216}, {8, 7, 107}, {16, 7, 49},
  };
  for (const Line& line : lines)
    EXPECT_EQ(core::max_active_clusters(line.cluster_blocks, line.blocks_per_sm), line.clusters)
        << line.cluster_blocks << " blocks, " << line.blocks_per_sm << " to an SM";
  EXPECT_EQ(core::max_active_clusters(4, 0), 0);
  EXPECT_EQ(core::max_active_clusters(0, 8), 0);
}

TEST(ClusterOccupancy, AnSmHoldsAtMostEightBlocksOfClusters) {
  // 64-thread blocks, 32 to an SM by the ordinary occupancy: 1056 = 132 x 8 clusters of 1.
  EXPECT_EQ(core::max_active_clusters(1, 32), 1056);
  EXPECT_EQ(core::max_active_clusters(1, 16), core::max_active_clusters(1, 8));
  EXPECT_EQ(core::max_active_clusters(16, 14), 58);
}

TEST(ClusterOccupancy, AClusterHasItsBlocksOnDistinctSmsOfOneGpc) {
  // One block to an SM: a cluster of 16 fits only the seven groups of 16 SMs or more, one
  // of 9 two to a group of 18 but none to the group of 8, one of 3 none to the four pairs.
  EXPECT_EQ(core::max_active_clusters(16, 1), 7);
  EXPECT_EQ(core::max_active_clusters(9, 1), 2 + 2 + 5 * 1);
  EXPECT_EQ(core::max_active_clusters(3, 1), 6 + 6 + 5 * 5 + 2);
  EXPECT_EQ(core::max_active_clusters(2, 1), 66);
}

TEST(ClusterOccupancy, PotentialClusterSize) {
  EXPECT_EQ(core::max_potential_cluster_size(1, 8), 8);
  EXPECT_EQ(core::max_potential_cluster_size(1, 16), 16);
  EXPECT_EQ(core::max_potential_cluster_size(16, 16), 16);
  EXPECT_EQ(core::max_potential_cluster_size(0, 8), 0);
}

TEST(ClusterOccupancy, NoClustersOnAProfileWithoutGpcs) {
  core::select_device_profile(*core::find_device_profile("sm_80"));
  EXPECT_EQ(core::max_active_clusters(1, 8), 0);
  EXPECT_EQ(core::max_potential_cluster_size(8, 8), 0);
  core::select_device_profile(*core::find_device_profile("sm_90"));
  EXPECT_EQ(core::max_active_clusters(1, 8), 1056);
}

}  // namespace
}  // namespace cucpu
