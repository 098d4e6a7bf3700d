// Dynamic parallelism (CDP2) through the whole stack below the API: the kernels of
// dynamic_parallelism_kernels.cu, compiled to PTX by nvcc when the test starts, JIT-compiled
// and run on the worker pool. Checks the ordering and completion rules of launch_tree.h and
// the errors a launching thread sees.
#include <gtest/gtest.h>

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

constexpr uint32_t kErrorInvalidConfiguration = 9;         // driver_types.h
constexpr uint32_t kErrorLaunchPendingCountExceeded = 69;  // driver_types.h

class DynamicParallelism : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string ptx_path = ::testing::TempDir() + "dynamic_parallelism_kernels.ptx";
    const std::string command = std::string(CUCPU_NVCC) + " -ptx -rdc=true -arch=compute_90 -o " + ptx_path + " " +
                                CUCPU_TEST_DATA "/unit/dynamic_parallelism_kernels.cu";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream file(ptx_path);
    std::stringstream text;
    text << file.rdbuf();
    auto compiled = test::compile_with_executor(text.str(), "dynamic_parallelism_kernels.ptx");
    ASSERT_TRUE(compiled) << compiled.error().message;
    compiled_ = std::move(*compiled).release();
  }
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
  constexpr uint32_t kErrorInvalidValue = 1, kErrorInvalidResourceHandle = 400;  // driver_types.h
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
  constexpr uint32_t kErrorInvalidValue = 1;  // driver_types.h
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

}  // namespace
}  // namespace cucpu::exec
