// Dynamic parallelism through the whole stack below the API: the kernels of
// dynamic_parallelism_kernels.cu (CDP2) and dynamic_parallelism_appendix_d_kernels.cu (the
// guide's Appendix D ABI, device-side cudaDeviceSynchronize), compiled to PTX by nvcc when
// the test starts, JIT-compiled and run on the worker pool. Checks the ordering and
// completion rules of launch_tree.h, suspended blocks, the limits and the errors a
// launching thread sees.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "exec/device_heap.h"
#include "exec/device_limits.h"
#include "exec/grid.h"
#include "jit/compile.h"
#include "ptx/parse.h"
#include "compile_with_executor.h"

namespace cucpu::exec {
namespace {

constexpr uint32_t kErrorInvalidValue = 1;                 // driver_types.h
constexpr uint32_t kErrorInvalidConfiguration = 9;         // driver_types.h
constexpr uint32_t kErrorLaunchMaxDepthExceeded = 65;      // driver_types.h
constexpr uint32_t kErrorLaunchPendingCountExceeded = 69;  // driver_types.h

// Two workers unless CUCPU_WORKERS says otherwise, set before the pool starts: the tests of
// suspended blocks want far more waiting blocks than workers.
[[maybe_unused]] const bool two_workers = setenv("CUCPU_WORKERS", "2", 0) == 0;

// Compiles tests/unit/NAME.cu to PTX with nvcc and the given flags, then for the executor.
jit::CompiledModule* compile_kernels(const std::string& name, const std::string& flags) {
  // One file per process: ctest runs each test of this suite in a process of its own, several
  // at a time, and a shared path let one process read the PTX another was still writing.
  const std::string ptx_path = ::testing::TempDir() + name + "." + std::to_string(getpid()) + ".ptx";
  const std::string command = std::string(CUCPU_NVCC) + " -ptx -rdc=true " + flags + " -o " + ptx_path + " " +
                              CUCPU_TEST_DATA "/unit/" + name + ".cu";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream file(ptx_path);
  std::stringstream text;
  text << file.rdbuf();
  std::remove(ptx_path.c_str());
  auto compiled = test::compile_with_executor(text.str(), (name + ".ptx").c_str());
  EXPECT_TRUE(compiled) << compiled.error().message;
  return compiled ? std::move(*compiled).release() : nullptr;
}

class DynamicParallelism : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { compiled_ = compile_kernels("dynamic_parallelism_kernels", "-arch=compute_90"); }
  static void TearDownTestSuite() {
    delete compiled_;
    compiled_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(compiled_, nullptr);
    *sequence() = 0;
  }

  static const jit::KernelInfo& kernel(const char* name) {
    const jit::KernelInfo* k = compiled_->find_kernel(name);
    EXPECT_NE(k, nullptr) << name;
    return *k;
  }
  static uint32_t* sequence() { return static_cast<uint32_t*>(compiled_->find_global("g_seq")->address); }

  // Runs a one-block grid; params are the kernel's parameters, each 8 bytes apart.
  static Result<void> run(const char* name, Dim3 grid, Dim3 block, std::vector<uint64_t> params) {
    return GridExecutor::instance().run_grid(kernel(name), LaunchShape{grid, block, 0}, params.data());
  }
  static uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

  static inline jit::CompiledModule* compiled_ = nullptr;
};

TEST(DeviceRuntimeSymbols, EveryExternTheJitAcceptsHasARuntimeFunction) {
  const jit::RuntimeSymbols symbols = GridExecutor::runtime_symbols();
  for (const char* name : jit::kDeviceRuntimeFunctions)
    EXPECT_EQ(symbols.count(std::string(jit::kDeviceRuntimePrefix) + name), 1u) << name;
}

TEST_F(DynamicParallelism, NullStreamRunsInOrderAndTailLaunchesRunAfterEverythingElse) {
  constexpr uint32_t kBlocks = 8;
  std::vector<uint32_t> out(3 * kBlocks, ~0u);
  uint32_t errors = 0;
  ASSERT_TRUE(run("ordered", {kBlocks, 1, 1}, {32, 1, 1}, {address(out.data()), address(&errors)}));
  // The launch returned: every child and tail grid is complete.
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(*sequence(), 3 * kBlocks);
  uint32_t latest_child = 0, earliest_tail = ~0u;
  for (uint32_t b = 0; b < kBlocks; ++b) {
    EXPECT_LT(out[3 * b], out[3 * b + 1]) << "block " << b << ": NULL-stream launches out of order";
    latest_child = std::max(latest_child, out[3 * b + 1]);
    earliest_tail = std::min(earliest_tail, out[3 * b + 2]);
  }
  EXPECT_LT(latest_child, earliest_tail) << "a tail launch ran before the parent grid's other work completed";
}

TEST_F(DynamicParallelism, ChainOf2000NestedLaunchesCompletes) {
  // CDP2 has no nesting limit on an H100 (conformance dp_depth_limits); blocks end as soon
  // as they launched, so only small grid records wait.
  constexpr uint32_t kDepth = 2000;
  std::vector<uint32_t> reached(kDepth + 1, ~0u);
  ASSERT_TRUE(run("chain", {1, 1, 1}, {1, 1, 1}, {kDepth, address(reached.data())}));
  for (uint32_t i = 0; i <= kDepth; ++i) ASSERT_EQ(reached[i], kDepth - i) << i;
}

TEST_F(DynamicParallelism, LaunchesBeyondThePendingLaunchCountFail) {
  constexpr uint32_t kLimit = 4, kCount = 8;
  set_kept_limit(KeptLimit::PendingLaunchCount, kLimit);
  std::vector<uint32_t> codes(2 * kCount, ~0u);
  uint32_t gate = 0;
  Result<void> result = run("flood", {1, 1, 1}, {1, 1, 1}, {kCount, address(codes.data()), address(&gate)});
  set_kept_limit(KeptLimit::PendingLaunchCount, kDefaultPendingLaunchCount);
  ASSERT_TRUE(result);
  // The first grid waits for the gate, so the launches behind it stay pending.
  for (uint32_t i = 0; i < kCount; ++i)
    EXPECT_EQ(codes[i], i < kLimit ? 0u : kErrorLaunchPendingCountExceeded) << "launch " << i;
  EXPECT_EQ(*sequence(), kLimit);  // only the accepted launches ran
}

TEST_F(DynamicParallelism, BadConfigurationIsTheLaunchingThreadsLastError) {
  uint32_t codes[3] = {~0u, ~0u, ~0u};
  ASSERT_TRUE(run("bad_config", {1, 1, 1}, {1, 1, 1}, {address(codes)}));
  EXPECT_EQ(codes[0], ~0u);  // the child never ran
  EXPECT_EQ(codes[1], kErrorInvalidConfiguration);
  EXPECT_EQ(codes[2], 0u);  // cudaGetLastError reset it
}

TEST_F(DynamicParallelism, StreamWaitEventOrdersTwoDeviceStreams) {
  constexpr uint32_t kErrorInvalidResourceHandle = 400;  // driver_types.h
  uint32_t gate = 0;
  uint32_t slots[3] = {~0u, ~0u, ~0u};
  std::vector<uint32_t> codes(11, ~0u);
  ASSERT_TRUE(run("streams_and_events", {1, 1, 1}, {1, 1, 1}, {address(&gate), address(slots), address(codes.data())}));
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(codes[i], 0u) << "call " << i;
  EXPECT_EQ(codes[8], kErrorInvalidValue);            // a blocking device stream
  EXPECT_EQ(codes[9], kErrorInvalidResourceHandle);   // destroyed already
  EXPECT_EQ(codes[10], kErrorInvalidResourceHandle);  // a launch into it
  EXPECT_EQ(slots[2], ~0u);
  EXPECT_LT(slots[0], slots[1]) << "the grid behind the event ran before the event's work";
  EXPECT_EQ(*sequence(), 2u);
}

TEST_F(DynamicParallelism, PassingSharedMemoryToAChildIsAnError) {
  uint32_t codes[2] = {~0u, ~0u};
  ASSERT_TRUE(run("pass_shared_pointer", {1, 1, 1}, {1, 1, 1}, {address(codes)}));
  EXPECT_EQ(codes[0], kErrorInvalidValue);
  EXPECT_EQ(codes[1], 0u);  // the launch after it, with a global pointer, ran
  EXPECT_EQ(*sequence(), 1u);
}

TEST_F(DynamicParallelism, QueriesReportTheHostsSettings) {
  constexpr uint32_t kErrorUnsupportedLimit = 215;  // driver_types.h
  uint64_t values[4] = {};
  uint32_t codes[5] = {~0u, ~0u, ~0u, ~0u, ~0u};
  ASSERT_TRUE(run("queries", {1, 1, 1}, {1, 1, 1}, {address(values), address(codes)}));
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(codes[i], 0u) << "query " << i;
  EXPECT_EQ(values[0], thread_stack_bytes());
  EXPECT_EQ(values[1], device_heap_bytes());
  EXPECT_EQ(values[2], kept_limit(KeptLimit::PendingLaunchCount));
  EXPECT_EQ(values[3], 13000u);  // CUDA 13.0 on device 0
  EXPECT_EQ(codes[4], kErrorUnsupportedLimit);
}

TEST_F(DynamicParallelism, FailureOfAChildIsTheErrorOfTheHostLaunch) {
  Result<void> result = run("launch_trapping", {1, 1, 1}, {1, 1, 1}, {});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::LaunchFailure) << result.error().message;
}

// --- the guide's Appendix D ABI ------------------------------------------------------------

class AppendixD : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    compiled_ = compile_kernels(
        "dynamic_parallelism_appendix_d_kernels",
        "-arch=compute_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED -D__CDPRT_SUPPRESS_SYNC_DEPRECATION_WARNING");
  }
  static void TearDownTestSuite() {
    delete compiled_;
    compiled_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(compiled_, nullptr); }
  void TearDown() override { set_kept_limit(KeptLimit::DevRuntimeSyncDepth, kDefaultDevRuntimeSyncDepth); }

  static Result<void> run(const char* name, Dim3 grid, Dim3 block, std::vector<uint64_t> params) {
    const jit::KernelInfo* k = compiled_->find_kernel(name);
    if (!k) return make_error(ErrorCode::InvalidDeviceFunction, name);
    return GridExecutor::instance().run_grid(*k, LaunchShape{grid, block, 0}, params.data());
  }
  static uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

  static inline jit::CompiledModule* compiled_ = nullptr;
};

TEST_F(AppendixD, KernelsThatSynchronizeRunAsFibers) {
  // Only fiber blocks can be suspended; add_to_each never waits and keeps the fast path.
  EXPECT_TRUE(compiled_->find_kernel("coherent_parent")->uses_barriers);
  EXPECT_TRUE(compiled_->find_kernel("nest")->uses_barriers);
  EXPECT_FALSE(compiled_->find_kernel("add_to_each")->uses_barriers);
}

TEST_F(AppendixD, SynchronizeSeesTheChildsWrites) {
  constexpr uint32_t kThreads = 64;
  std::vector<int> data(kThreads, -1), seen(kThreads, -1);
  uint32_t codes[2] = {~0u, ~0u};
  ASSERT_TRUE(run("coherent_parent", {1, 1, 1}, {kThreads, 1, 1}, {address(data.data()), address(seen.data()),
                                                                      address(codes)}));
  EXPECT_EQ(codes[0], 0u);
  EXPECT_EQ(codes[1], 0u);
  for (uint32_t i = 0; i < kThreads; ++i) EXPECT_EQ(seen[i], static_cast<int>(i) + 100) << "thread " << i;
}

TEST_F(AppendixD, ManyMoreSyncingParentBlocksThanWorkersDoNotDeadlock) {
  ASSERT_LT(GridExecutor::instance().worker_count(), 64u);
  constexpr uint32_t kBlocks = 64, kThreads = 64;
  for (int round = 0; round < 3; ++round) {
    std::vector<int> data(kBlocks * kThreads, 0);
    uint32_t seen = 0, failed_syncs = 0;
    ASSERT_TRUE(run("many_syncing_parents", {kBlocks, 1, 1}, {kThreads, 1, 1},
                    {address(data.data()), address(&seen), address(&failed_syncs)}));
    EXPECT_EQ(failed_syncs, 0u);
    EXPECT_EQ(seen, kBlocks * kThreads) << "threads that saw their child's writes after the sync";
  }
}

TEST_F(AppendixD, NestingIsLimitedTo24Levels) {
  constexpr uint32_t kMax = 30;
  std::vector<uint32_t> reached(kMax + 1, 0), launch_codes(kMax + 1, ~0u), sync_codes(kMax + 1, ~0u);
  ASSERT_TRUE(run("nest", {1, 1, 1}, {1, 1, 1}, {0, kMax, 0, address(reached.data()), address(launch_codes.data()),
                                                 address(sync_codes.data())}));
  // Levels 1..24 are depths 0..23: the launch from depth 23 would make a 25th level.
  for (uint32_t depth = 0; depth <= kMax; ++depth) EXPECT_EQ(reached[depth], depth < 24 ? 1u : 0u) << depth;
  for (uint32_t depth = 0; depth < 24; ++depth)
    EXPECT_EQ(launch_codes[depth], depth < 23 ? 0u : kErrorLaunchMaxDepthExceeded) << depth;
}

TEST_F(AppendixD, EveryLevelMaySynchronizeUpToTheSyncDepthLimit) {
  // Each level waits for the next: 24 blocks suspended one inside the other.
  set_kept_limit(KeptLimit::DevRuntimeSyncDepth, 24);
  constexpr uint32_t kMax = 23;
  std::vector<uint32_t> reached(kMax + 1, 0), launch_codes(kMax + 1, ~0u), sync_codes(kMax + 1, ~0u);
  ASSERT_TRUE(run("nest", {1, 1, 1}, {1, 1, 1}, {0, kMax, 1, address(reached.data()), address(launch_codes.data()),
                                                 address(sync_codes.data())}));
  for (uint32_t depth = 0; depth < kMax; ++depth) {
    EXPECT_EQ(launch_codes[depth], 0u) << depth;
    EXPECT_EQ(sync_codes[depth], 0u) << depth;
    // After its sync each level saw the count the levels below it had made.
    EXPECT_EQ(reached[depth], kMax + 1 - depth) << depth;
  }
}

TEST_F(AppendixD, SynchronizingDeeperThanTheSyncDepthFails) {
  // The default: two levels of grids (depths 0 and 1) may synchronise; then a limit of 3.
  for (uint32_t limit : {2u, 3u}) {
    set_kept_limit(KeptLimit::DevRuntimeSyncDepth, limit);
    constexpr uint32_t kMax = 5;
    std::vector<uint32_t> reached(kMax + 1, 0), launch_codes(kMax + 1, ~0u), sync_codes(kMax + 1, ~0u);
    ASSERT_TRUE(run("nest", {1, 1, 1}, {1, 1, 1}, {0, kMax, 1, address(reached.data()), address(launch_codes.data()),
                                                   address(sync_codes.data())}));
    for (uint32_t depth = 0; depth < kMax; ++depth) {
      EXPECT_EQ(launch_codes[depth], 0u) << depth;  // launches deeper than the limit are fine
      EXPECT_EQ(sync_codes[depth], depth < limit ? 0u : kErrorLaunchMaxDepthExceeded) << "limit " << limit << ", depth "
                                                                                       << depth;
      EXPECT_EQ(reached[depth], depth < limit ? limit + 1 - depth : 1u) << "limit " << limit << ", depth " << depth;
    }
    EXPECT_EQ(reached[kMax], 1u);
  }
}

struct Mixed {
  char c;
  double d;
  short s;
  int i;
  char c2;
  long long ll;
  float f;
};

TEST_F(AppendixD, ParameterBuffersAre64ByteAlignedWithEachArgumentAlignedToItsSize) {
  Mixed out[3] = {};
  uint32_t alignment[2] = {~0u, ~0u};
  uint32_t codes[4] = {~0u, ~0u, ~0u, ~0u};
  ASSERT_TRUE(run("parameter_buffers", {1, 1, 1}, {1, 1, 1}, {address(out), address(alignment), address(codes)}));
  EXPECT_EQ(alignment[0], 0u) << "cudaGetParameterBufferV2";
  EXPECT_EQ(alignment[1], 0u) << "cudaGetParameterBuffer";
  EXPECT_EQ(codes[0], 0u) << "cudaLaunchDeviceV2";
  EXPECT_EQ(codes[1], 0u) << "cudaLaunchDevice";
  EXPECT_EQ(codes[2], 0u) << "cudaDeviceSynchronize";
  EXPECT_EQ(codes[3], 1u) << "a buffer over 4 KB is refused";
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].c, 'a') << i;
    EXPECT_EQ(out[i].d, 2.5) << i;
    EXPECT_EQ(out[i].s, -3) << i;
    EXPECT_EQ(out[i].i, 40000) << i;
    EXPECT_EQ(out[i].c2, 'z') << i;
    EXPECT_EQ(out[i].ll, -5000000000LL) << i;
    EXPECT_EQ(out[i].f, 0.75f) << i;
  }
}

TEST_F(AppendixD, PassingLocalMemoryToAChildIsAnError) {
  int global = 10;
  uint32_t codes[4] = {~0u, ~0u, ~0u, ~0u};
  ASSERT_TRUE(run("pass_local_pointer", {1, 1, 1}, {1, 1, 1}, {address(&global), address(codes)}));
  EXPECT_EQ(codes[0], kErrorInvalidValue);
  EXPECT_EQ(codes[1], 0u);
  EXPECT_EQ(codes[2], 0u);
  EXPECT_EQ(codes[3], 1u);  // the refused child never ran
  EXPECT_EQ(global, 11);
}

}  // namespace
}  // namespace cucpu::exec
