// The device runtime's queries of the device model and its pitched copies and sets
// (exec/device_runtime_model_calls.h), and its launches through a parameter buffer the
// kernel names only at launch: the kernels of device_runtime_queries_kernels.cu, compiled
// by nvcc when the test starts, in both ABIs (compute_90: __cudaCDP2*; compute_80 with
// CUDA_FORCE_CDP1_IF_SUPPORTED: the guide's Appendix D names), JIT-compiled and run on the
// worker pool with core's device model behind them. Device-side answers must be the host
// API's: the test asks core the same questions.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compile_with_executor.h"
#include "core/device.h"
#include "core/device_model_queries.h"
#include "core/device_settings.h"
#include "core/function_attributes.h"
#include "core/memory_registry.h"
#include "core/occupancy.h"
#include "exec/device_model_queries.h"
#include "exec/grid.h"

namespace cucpu::exec {
namespace {

// cudaError_t values (driver_types.h).
constexpr int kSuccess = 0;
constexpr int kErrorInvalidValue = 1;
constexpr int kErrorInvalidPitchValue = 12;
constexpr int kErrorInvalidMemcpyDirection = 21;
constexpr int kErrorInvalidDeviceFunction = 98;
constexpr int kErrorInvalidResourceHandle = 400;
constexpr int kUntouched = -1;

constexpr const char* kCdp2 = "-arch=compute_90";
constexpr const char* kAppendixD = "-arch=compute_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED";

class DeviceRuntimeQueries : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    core::provide_device_model_queries();
    auto& compiled = modules()[GetParam()];
    if (!compiled) compiled = compile(GetParam());
    ASSERT_TRUE(compiled);
    module_ = compiled.get();
  }

  bool cdp2() const { return std::string(GetParam()) == kCdp2; }

  const jit::KernelInfo& kernel(const char* name) const {
    const jit::KernelInfo* k = module_->find_kernel(name);
    EXPECT_NE(k, nullptr) << name;
    return *k;
  }

  // Runs a one-thread grid of `name` with pointer parameters.
  void run(const char* name, std::vector<const void*> params) const {
    std::vector<uint64_t> words;
    for (const void* p : params) words.push_back(reinterpret_cast<uint64_t>(p));
    Result<void> result =
        GridExecutor::instance().run_grid(kernel(name), LaunchShape{{1, 1, 1}, {1, 1, 1}, 0}, words.data());
    ASSERT_TRUE(result) << result.error().message;
  }

  // One module per set of nvcc flags, kept for the whole run: device-side launches find
  // their kernels among the loaded modules.
  static std::map<std::string, std::unique_ptr<jit::CompiledModule>>& modules() {
    static std::map<std::string, std::unique_ptr<jit::CompiledModule>> compiled;
    return compiled;
  }

  static std::unique_ptr<jit::CompiledModule> compile(const std::string& flags) {
    const std::string ptx_path =
        ::testing::TempDir() + "device_runtime_queries_kernels." + std::to_string(getpid()) + ".ptx";
    const std::string command = std::string(CUCPU_NVCC) + " -ptx -rdc=true " + flags + " -o " + ptx_path + " " +
                                CUCPU_TEST_DATA "/unit/device_runtime_queries_kernels.cu";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::ifstream file(ptx_path);
    std::stringstream text;
    text << file.rdbuf();
    std::remove(ptx_path.c_str());
    auto compiled = test::compile_with_executor(text.str(), "device_runtime_queries_kernels.ptx");
    EXPECT_TRUE(compiled) << compiled.error().message;
    return compiled ? std::move(*compiled) : nullptr;
  }

  const jit::CompiledModule* module_ = nullptr;
};

TEST_P(DeviceRuntimeQueries, DeviceQueriesAnswerAsTheHostApi) {
  int values[6] = {kUntouched, kUntouched, kUntouched, kUntouched, kUntouched, kUntouched};
  std::vector<int> codes(11, kUntouched);
  run("device_queries", {values, codes.data()});
  EXPECT_EQ(values[0], core::device_count());
  EXPECT_EQ(values[1], core::device_attribute(core::DeviceAttribute::cudaDevAttrMaxThreadsPerBlock));
  EXPECT_EQ(values[2], core::device_attribute(core::DeviceAttribute::cudaDevAttrMultiProcessorCount));
  EXPECT_EQ(values[3], core::device_settings(0).cache_config);
  EXPECT_EQ(values[5], core::device_attribute(core::DeviceAttribute::cudaDevAttrWarpSize));
  for (int i : {0, 1, 2, 3, 5}) EXPECT_EQ(codes[i], kSuccess) << "query " << i;
  if (cdp2()) {
    EXPECT_EQ(codes[4], kSuccess);
    EXPECT_EQ(values[4], 1);  // cudaSharedMemBankSizeFourByte
  }
  EXPECT_EQ(codes[6], kSuccess);             // one past the last device: the H100 answers
  EXPECT_EQ(codes[7], kErrorInvalidValue);   // no such attribute
  EXPECT_EQ(codes[8], kErrorInvalidValue);   // a null output
  EXPECT_EQ(codes[9], kErrorInvalidValue);   // the last error: the last failure
  EXPECT_EQ(codes[10], kSuccess);            // cleared by reading it
}

TEST_P(DeviceRuntimeQueries, FuncGetAttributesIsTheHostsAnswerForTheKernel) {
  FunctionAttributes attributes[2];
  std::memset(static_cast<void*>(attributes), 0x7f, sizeof(attributes));
  std::vector<int> codes(3, kUntouched);
  run("function_queries", {attributes, codes.data()});
  EXPECT_EQ(codes[0], kSuccess);
  EXPECT_EQ(codes[1], kSuccess);  // no kernel: the H100 succeeds too
  EXPECT_EQ(codes[2], kErrorInvalidValue);
  // What the host's cudaFuncGetAttributes reports for a kernel nothing was set for, but for
  // the two fields the H100's device side reports as 0.
  FunctionAttributes expected = core::function_attributes(core::Kernel{}, kernel("target"));
  expected.max_dynamic_shared_size_bytes = 0;
  expected.preferred_shmem_carveout = 0;
  // Every field (the struct's tail padding is no field).
  constexpr size_t kFieldBytes = offsetof(FunctionAttributes, reserved) + sizeof(FunctionAttributes::reserved);
  EXPECT_EQ(std::memcmp(&attributes[0], &expected, kFieldBytes), 0);
  EXPECT_EQ(attributes[0].shared_size_bytes, 1000u);    // int staged[250]
  EXPECT_EQ(attributes[0].max_threads_per_block, 256);  // __launch_bounds__(256)
  EXPECT_EQ(attributes[0].num_regs, core::kRegistersPerThread);
  EXPECT_EQ(attributes[1].num_regs, 0);  // no kernel: zeros
}

TEST_P(DeviceRuntimeQueries, OccupancyIsTheHostsCalculator) {
  int blocks[5] = {kUntouched, kUntouched, kUntouched, kUntouched, kUntouched};
  std::vector<int> codes(7, kUntouched);
  run("occupancy_queries", {blocks, codes.data()});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(codes[i], kSuccess) << "query " << i;
  const jit::KernelInfo& target = kernel("target");
  const int plain = core::max_active_blocks_per_sm(128, target.dynamic_shared_offset, core::kRegistersPerThread);
  const int with_shared =
      core::max_active_blocks_per_sm(128, target.dynamic_shared_offset + 32768, core::kRegistersPerThread);
  EXPECT_GT(plain, 0);
  EXPECT_LT(with_shared, plain);
  EXPECT_EQ(blocks[0], plain);
  EXPECT_EQ(blocks[1], with_shared);
  EXPECT_EQ(blocks[2], plain);                       // cudaOccupancyDisableCachingOverride
  // 512 threads, beyond the kernel's bounds: counted all the same, as on an H100.
  EXPECT_EQ(blocks[3], core::max_active_blocks_per_sm(512, target.dynamic_shared_offset, core::kRegistersPerThread));
  EXPECT_EQ(codes[4], kErrorInvalidValue);           // block size 0
  EXPECT_EQ(codes[5], kErrorInvalidValue);           // an unknown flag
  EXPECT_EQ(codes[6], kErrorInvalidDeviceFunction);  // no kernel
  EXPECT_EQ(blocks[4], kUntouched);
}

TEST_P(DeviceRuntimeQueries, PitchedCopiesAndSetsRunInTheBlocksStream) {
  constexpr size_t kBytes = 4096;
  auto allocated = core::memory().allocate(kBytes, core::MemoryKind::Device);
  ASSERT_TRUE(allocated);
  auto* memory = static_cast<unsigned char*>(*allocated);
  std::memset(memory, 0, kBytes);
  std::vector<int> codes(12, kUntouched);
  run("pitched_memory", {memory, codes.data()});
  // What each call should have written, byte by byte.
  std::vector<unsigned char> expected(kBytes, 0);
  for (int i = 0; i < 256; ++i) expected[i] = static_cast<unsigned char>(i);
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 8; ++column) expected[256 + row * 32 + column] = expected[row * 16 + column];
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 4; ++column) expected[512 + row * 8 + column] = 0xab;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x)
        expected[1024 + (1 + z) * 32 + (1 + y) * 8 + 2 + x] = expected[z * 64 + (1 + y) * 16 + 1 + x];
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 5; ++x) expected[2048 + z * 24 + y * 8 + x] = 0x5a;
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(memory[i], expected[i]) << "byte " << i;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(codes[i], kSuccess) << "call " << i;
  EXPECT_EQ(codes[4], kErrorInvalidPitchValue);       // width above the pitch
  EXPECT_EQ(codes[5], kErrorInvalidMemcpyDirection);  // host to device, as on an H100
  EXPECT_EQ(codes[6], kErrorInvalidMemcpyDirection);  // no cudaMemcpyKind
  EXPECT_EQ(codes[7], kErrorInvalidValue);            // no description
  EXPECT_EQ(codes[8], kErrorInvalidValue);            // a box past its slice
  EXPECT_EQ(codes[9], kErrorInvalidValue);            // local memory
  EXPECT_EQ(codes[10], kErrorInvalidResourceHandle);  // no such stream
  EXPECT_EQ(codes[11], kErrorInvalidResourceHandle);  // the last error
  ASSERT_TRUE(core::memory().release(memory, {core::MemoryKind::Device}));
}

TEST_P(DeviceRuntimeQueries, LaunchDeviceRunsTheKernelItNames) {
  int out[2] = {kUntouched, kUntouched};
  std::vector<int> codes(4, kUntouched);
  run("launch_through_buffer", {out, codes.data()});
  EXPECT_EQ(codes[0], kSuccess);
  EXPECT_EQ(codes[1], kSuccess);
  EXPECT_EQ(out[0], 42);
  if (cdp2()) {
    EXPECT_EQ(codes[2], kSuccess);  // a tail launch, which CDP2 has
    EXPECT_EQ(out[1], 3);
  }
  EXPECT_EQ(codes[3], kErrorInvalidValue);  // a buffer larger than a kernel's parameters may be
}

INSTANTIATE_TEST_SUITE_P(Abis, DeviceRuntimeQueries, ::testing::Values(kCdp2, kAppendixD),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param) == kCdp2 ? "Cdp2" : "AppendixD";
                         });

}  // namespace
}  // namespace cucpu::exec
