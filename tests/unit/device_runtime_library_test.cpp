// NVIDIA's device runtime library (libcudadevrt.a) run on cucpu: its PTX, taken from the
// toolkit's archive when the test starts (ar, then cucpu's fatbin reader), linked with the
// kernels of device_runtime_library_kernels.cu (nvcc, at test time), JIT-compiled and run
// on the worker pool. The library's functions call the driver's entry points, which are
// cucpu's (exec/device_runtime_driver.cpp): the kernels' answers show each does what the
// library expects, in both of its ABIs (compute_90: __cudaCDP2* over the cnpv2 entry
// points; compute_80 with CUDA_FORCE_CDP1_IF_SUPPORTED: plain names over cnp*).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/device_model_queries.h"
#include "core/device_settings.h"
#include "core/occupancy.h"
#include "device_runtime_library_answers.h"
#include "exec/device_limits.h"
#include "exec/grid.h"
#include "fatbin/fatbin.h"
#include "jit/compile.h"
#include "ptx/link.h"
#include "ptx/parse.h"

namespace cucpu::exec {
namespace {

constexpr int kErrorInvalidValue = 1;     // driver_types.h
constexpr int kLimitStackSize = 0;        // cudaLimitStackSize

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The PTX of every object of the library (one in CUDA 13.0): the first fatbin with PTX in
// each object, read with cucpu's fatbin reader.
std::vector<std::string> library_ptx(std::string& failure) {
  const std::filesystem::path work = ::testing::TempDir() + "cudadevrt." + std::to_string(getpid());
  std::filesystem::create_directories(work);
  const std::string command = "cd " + work.string() + " && ar x " CUCPU_CUDADEVRT;
  std::vector<std::string> texts;
  if (std::system(command.c_str()) != 0) failure = command + " failed";
  for (const auto& object : std::filesystem::directory_iterator(work)) {
    const std::string bytes = read_file(object.path());
    bool found = false;
    for (size_t offset = 0; !found && offset + 4 <= bytes.size(); offset += 8) {
      uint32_t magic;
      std::memcpy(&magic, bytes.data() + offset, sizeof magic);
      if (magic != fatbin::kFatbinMagic) continue;
      auto entries = fatbin::read_entries(bytes.data() + offset, bytes.size() - offset);
      if (!entries) continue;
      auto text = fatbin::select_ptx(*entries, 1000);  // the newest: the library has one arch
      if (!text) continue;
      texts.push_back(std::move(*text));
      found = true;
    }
    if (!found) failure = object.path().filename().string() + ": no fatbin with PTX";
  }
  std::filesystem::remove_all(work);
  return texts;
}

// Compiles tests/unit/device_runtime_library_kernels.cu with nvcc and `flags`, links it
// with the library's PTX and compiles the whole for the executor.
std::unique_ptr<jit::CompiledModule> compile_with_library(const std::string& flags, std::string& failure) {
  std::vector<std::string> texts = library_ptx(failure);
  if (!failure.empty()) return nullptr;
  const std::string ptx_path =
      ::testing::TempDir() + "device_runtime_library_kernels." + std::to_string(getpid()) + ".ptx";
  const std::string command = std::string(CUCPU_NVCC) + " -ptx -rdc=true " + flags + " -o " + ptx_path + " " +
                              CUCPU_TEST_DATA "/unit/device_runtime_library_kernels.cu";
  if (std::system(command.c_str()) != 0) {
    failure = command + " failed";
    return nullptr;
  }
  texts.push_back(read_file(ptx_path));
  std::remove(ptx_path.c_str());
  std::vector<ptx::Module> units;
  for (const std::string& text : texts) {
    auto unit = ptx::parse(text, "ptx");
    if (!unit) {
      failure = unit.error().message;
      return nullptr;
    }
    units.push_back(std::move(*unit));
  }
  auto linked = ptx::link_modules(std::move(units));
  if (!linked) {
    failure = linked.error().message;
    return nullptr;
  }
  core::provide_device_model_queries();
  jit::CompileOptions options;
  options.runtime = GridExecutor::runtime_symbols();
  auto compiled = jit::compile_module(*linked, options);
  if (!compiled) {
    failure = compiled.error().message;
    return nullptr;
  }
  return std::move(*compiled);
}

class DeviceRuntimeLibrary : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(CUCPU_CUDADEVRT)) GTEST_SKIP() << CUCPU_CUDADEVRT " is missing";
    auto& compiled = modules()[GetParam()];
    if (!compiled) {
      std::string failure;
      compiled = compile_with_library(GetParam(), failure);
      ASSERT_TRUE(compiled) << failure;
    }
    module_ = compiled.get();
  }

  const jit::KernelInfo& kernel(const char* name) const {
    const jit::KernelInfo* k = module_->find_kernel(name);
    EXPECT_NE(k, nullptr) << name;
    return *k;
  }
  static uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

  // One module per set of nvcc flags, kept for the whole run: device-side launches find
  // their kernels among the loaded modules.
  static std::map<std::string, std::unique_ptr<jit::CompiledModule>>& modules() {
    static std::map<std::string, std::unique_ptr<jit::CompiledModule>> compiled;
    return compiled;
  }

  const jit::CompiledModule* module_ = nullptr;
};

TEST(DeviceRuntimeDriverSymbols, EveryDriverEntryPointHasARuntimeFunction) {
  const jit::RuntimeSymbols symbols = GridExecutor::runtime_symbols();
  for (const char* name : jit::kDeviceRuntimeDriverFunctions)
    EXPECT_EQ(symbols.count(std::string(jit::kDeviceRuntimePrefix) + name), 1u) << name;
}

TEST_P(DeviceRuntimeLibrary, QueriesStreamsEventsAndLaunchesWork) {
  Answers answers;
  std::memset(&answers, 0xff, sizeof answers);
  std::vector<int> child_out(4, -1), copy_out(4, -1);
  std::vector<uint64_t> params{address(&answers), address(child_out.data()), address(copy_out.data())};
  ASSERT_TRUE(GridExecutor::instance().run_grid(kernel("query"), LaunchShape{{1, 1, 1}, {1, 1, 1}, 0}, params.data()));

  EXPECT_EQ(answers.device_count_error, 0);
  EXPECT_EQ(answers.device_count, core::device_count());
  EXPECT_EQ(answers.attribute_error, 0);
  EXPECT_EQ(answers.max_threads_per_block,
            core::device_attribute(core::DeviceAttribute::cudaDevAttrMaxThreadsPerBlock));
  // Device code's attribute queries answer for its own device whatever ordinal they name,
  // as on an H100 (e2e dp_device_runtime_queries): no error to report.
  EXPECT_EQ(answers.bad_device_error, 0);
  EXPECT_EQ(answers.last_error, 0);
  EXPECT_EQ(answers.cleared_error, 0);
  EXPECT_EQ(answers.get_device_error, 0);
  EXPECT_EQ(answers.device, 0);
  EXPECT_EQ(answers.limit_error, 0);
  EXPECT_EQ(answers.stack_bytes, device_limit_value(kLimitStackSize).value());

  EXPECT_EQ(answers.stream_create_error, 0);
  EXPECT_EQ(answers.event_create_error, 0);
  EXPECT_EQ(answers.launch_error, 0);
  EXPECT_EQ(answers.memcpy_error, 0);
  EXPECT_EQ(answers.event_record_error, 0);
  EXPECT_EQ(answers.wait_event_error, 0);
  EXPECT_EQ(answers.event_destroy_error, 0);
  EXPECT_EQ(answers.stream_destroy_error, 0);
  // cudaErrorInvalidResourceHandle has no CNPerror: the closest the library can say.
  EXPECT_EQ(answers.bad_stream_destroy_error, kErrorInvalidValue);
  // The grid launched into the device stream ran before the host's launch returned.
  EXPECT_EQ(child_out, (std::vector<int>{10, 11, 12, 13}));
  EXPECT_EQ(copy_out, child_out) << "the library's copy kernel did not run after the child";

  EXPECT_EQ(answers.cache_config_error, 0);
  EXPECT_EQ(answers.cache_config, core::device_settings(0).cache_config);
  const jit::KernelInfo& child = kernel("child");
  EXPECT_EQ(answers.func_attributes_error, 0);
  EXPECT_EQ(answers.func_max_threads_per_block,
            static_cast<int>(core::max_threads_per_block(child.max_threads_per_block, core::kRegistersPerThread)));
  EXPECT_EQ(answers.func_local_bytes, static_cast<int>(child.local_bytes));
  EXPECT_EQ(answers.occupancy_error, 0);
  EXPECT_EQ(answers.occupancy_blocks,
            core::max_active_blocks_per_sm(128, child.dynamic_shared_offset, core::kRegistersPerThread));
  EXPECT_GT(answers.occupancy_blocks, 0);
}

TEST_P(DeviceRuntimeLibrary, GridGroupSynchronizesACooperativeLaunch) {
  constexpr uint32_t kBlocks = 4, kThreads = 32, kTotal = kBlocks * kThreads;
  std::vector<uint32_t> out(kTotal, ~0u);
  uint32_t arrived = 0;
  int errors = 0;
  std::vector<uint64_t> params{address(out.data()), address(&arrived), address(&errors)};
  ASSERT_TRUE(GridExecutor::instance().run_cooperative_grid(
      kernel("grid_group"), LaunchShape{{kBlocks, 1, 1}, {kThreads, 1, 1}, 0}, params.data()));
  EXPECT_EQ(errors, 0);
  // Every thread has its own rank and saw all others arrive before the barrier let it go.
  EXPECT_EQ(out, std::vector<uint32_t>(kTotal, kTotal));
}

TEST_P(DeviceRuntimeLibrary, GridGroupOutsideACooperativeLaunchFails) {
  constexpr uint32_t kBlocks = 2, kThreads = 32;
  std::vector<uint32_t> out(kBlocks * kThreads, ~0u);
  uint32_t arrived = 0;
  int errors = 0;
  std::vector<uint64_t> params{address(out.data()), address(&arrived), address(&errors)};
  ASSERT_TRUE(GridExecutor::instance().run_grid(kernel("grid_group"), LaunchShape{{kBlocks, 1, 1}, {kThreads, 1, 1}, 0},
                                                params.data()));
  // No grid group: every cudaCG* call fails (cudaErrorUnknown, the library's word for it)
  // and the sizes read 0, so no thread writes.
  EXPECT_EQ(errors, static_cast<int>(kBlocks * kThreads));
  EXPECT_EQ(out, std::vector<uint32_t>(kBlocks * kThreads, ~0u));
}

INSTANTIATE_TEST_SUITE_P(Abis, DeviceRuntimeLibrary,
                         ::testing::Values("-arch=compute_90", "-arch=compute_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.index == 0 ? "Cdp2" : "AppendixD");
                         });

}  // namespace
}  // namespace cucpu::exec
