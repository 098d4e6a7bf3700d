// The JIT end to end on small PTX: parse, compile_module, then call each kernel's
// entry directly with ThreadContexts filled here. A tiny launcher below runs a grid
// block by block; kernels that use barriers get one OS thread per CUDA thread and a
// std::barrier behind the fake __cucpu_bar_sync. PTX from nvcc lives in tests/jit/
// (the .cu beside each .ptx); corner-case kernels are written inline.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <barrier>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <csetjmp>
#include <thread>
#include <vector>

#include "jit/compile.h"
#include "ptx/parse.h"

namespace cucpu::jit {
namespace {

// --- fake runtime -----------------------------------------------------------------

void fake_bar_sync(ThreadContext* ctx, uint32_t, uint32_t) {
  if (ctx->executor != nullptr) static_cast<std::barrier<>*>(ctx->executor)->arrive_and_wait();
}
// A warp of one thread: the reduction of one value is that value.
uint32_t fake_redux_sync(ThreadContext*, uint32_t, uint32_t value, uint32_t) { return value; }
// bar.arrive / bar.red / yield points: each call recorded, bar.red answers a warp of one.
struct BarrierCall {
  uint32_t barrier, thread_count, op, predicate;
};
std::vector<BarrierCall> fake_barrier_calls;
uint32_t fake_yields = 0;
void fake_bar_arrive(ThreadContext*, uint32_t barrier, uint32_t count) {
  fake_barrier_calls.push_back({barrier, count, 0, 0});
}
uint32_t fake_bar_red(ThreadContext*, uint32_t barrier, uint32_t count, uint32_t op, uint32_t predicate) {
  fake_barrier_calls.push_back({barrier, count, op, predicate});
  return predicate;
}
void fake_yield(ThreadContext*) { ++fake_yields; }

// Every global/shared/generic ld and st calls this on a misaligned address; the tests
// here only make aligned accesses (exec_test and e2e check the error).
[[noreturn]] void fake_misaligned(ThreadContext*, const void* address, uint32_t bytes) {
  std::fprintf(stderr, "misaligned %u-byte access at %p\n", bytes, address);
  std::abort();
}

CompileOptions test_options() {
  CompileOptions options;
  options.runtime[kMisaligned] = reinterpret_cast<void*>(&fake_misaligned);
  options.runtime[kBarSync] = reinterpret_cast<void*>(&fake_bar_sync);
  options.runtime[kReduxSyncU32] = reinterpret_cast<void*>(&fake_redux_sync);
  options.runtime[kBarArrive] = reinterpret_cast<void*>(&fake_bar_arrive);
  options.runtime[kBarRed] = reinterpret_cast<void*>(&fake_bar_red);
  options.runtime[kYield] = reinterpret_cast<void*>(&fake_yield);
  return options;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<std::unique_ptr<CompiledModule>> compile_text(const std::string& text) {
  auto module = ptx::parse(text, "test.ptx");
  if (!module) return module.error();
  return compile_module(*module, test_options());
}

std::unique_ptr<CompiledModule> compile_ok(const std::string& text) {
  auto compiled = compile_text(text);
  EXPECT_TRUE(compiled.has_value()) << (compiled ? "" : compiled.error().message);
  return compiled ? std::move(*compiled) : nullptr;
}

// --- launching --------------------------------------------------------------------

struct Dim {
  uint32_t x = 1, y = 1, z = 1;
};

// A parameter buffer laid out as the kernel's KernelInfo::params says.
class Params {
 public:
  explicit Params(const KernelInfo& kernel) : kernel_(kernel), bytes_(kernel.param_bytes + 16) {}
  template <typename T>
  Params& set(size_t index, const T& value) {
    EXPECT_EQ(kernel_.params.at(index).size, sizeof(T)) << "parameter " << index;
    std::memcpy(reinterpret_cast<uint8_t*>(bytes_.data()) + kernel_.params.at(index).offset, &value, sizeof(T));
    return *this;
  }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(bytes_.data()); }

 private:
  const KernelInfo& kernel_;
  std::vector<uint64_t> bytes_;  // 8-byte aligned
};

void launch(const KernelInfo& kernel, Dim grid, Dim block, const Params& params, uint32_t dynamic_shared = 0) {
  uint32_t threads = block.x * block.y * block.z;
  uint32_t shared_bytes = kernel.dynamic_shared_offset + dynamic_shared;
  const uint32_t window_bytes = kReservedSharedBytes + shared_bytes;  // as the executor's windows
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx) {
        std::vector<uint64_t> shared((window_bytes + 7) / 8 + 1, 0);
        std::barrier<> barrier(threads);
        std::vector<ThreadContext> contexts(threads);
        for (uint32_t t = 0; t < threads; ++t) {
          ThreadContext& c = contexts[t];
          c = ThreadContext{};
          c.tid[0] = t % block.x;
          c.tid[1] = t / block.x % block.y;
          c.tid[2] = t / (block.x * block.y);
          c.ntid[0] = block.x, c.ntid[1] = block.y, c.ntid[2] = block.z;
          c.ctaid[0] = bx, c.ctaid[1] = by, c.ctaid[2] = bz;
          c.nctaid[0] = grid.x, c.nctaid[1] = grid.y, c.nctaid[2] = grid.z;
          c.laneid = t % 32;
          c.warpid = t / 32;
          c.nwarpid = (threads + 31) / 32;
          c.nsmid = 1;
          c.dynamic_smem_size = dynamic_shared;
          c.total_smem_size = shared_bytes;
          c.shared_base = reinterpret_cast<uint8_t*>(shared.data());
          c.params = params.data();
          c.executor = kernel.uses_barriers ? &barrier : nullptr;
        }
        if (!kernel.uses_barriers) {
          for (ThreadContext& c : contexts) kernel.entry(&c);
        } else {
          std::vector<std::thread> workers;
          for (ThreadContext& c : contexts) workers.emplace_back([&kernel, &c] { kernel.entry(&c); });
          for (std::thread& w : workers) w.join();
        }
      }
}

// A one-thread kernel `k(.param .u64 out, .param .u64 in)` around `body`, with registers
// %r (b32), %rd (b64), %f (f32), %fd (f64), %p (pred), %rs (b16); %rd1 = out, %rd2 = in.
std::string unary_kernel(const std::string& body) {
  return R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<40>;
  .reg .f32 %f<40>;
  .reg .f64 %fd<40>;
  .reg .pred %p<10>;
  .reg .b16 %rs<10>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
)" + body +
         "\n  ret;\n}\n";
}

// Runs a unary kernel once per input; returns the outputs.
template <typename Out, typename In>
std::vector<Out> run_each(const std::string& body, const std::vector<In>& inputs) {
  auto module = compile_ok(unary_kernel(body));
  std::vector<Out> outputs;
  if (!module) return outputs;
  const KernelInfo* k = module->find_kernel("k");
  for (const In& input : inputs) {
    In in = input;
    Out out{};
    Params p(*k);
    p.set(0, reinterpret_cast<uint64_t>(&out)).set(1, reinterpret_cast<uint64_t>(&in));
    launch(*k, {}, {}, p);
    outputs.push_back(out);
  }
  return outputs;
}

uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

// --- nvcc output --------------------------------------------------------------------

TEST(Jit, VectorAddFromNvcc) {
  auto module = compile_ok(read_file(CUCPU_TEST_DATA "/jit/vector_add.ptx"));
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("vector_add");
  ASSERT_NE(k, nullptr);
  EXPECT_FALSE(k->uses_barriers);
  ASSERT_EQ(k->params.size(), 4u);
  EXPECT_EQ(k->params[3].offset, 24u);
  EXPECT_EQ(k->param_bytes, 28u);
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n + 24, -1.0f);
  for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 1000.0f - i;
  Params p(*k);
  p.set(0, a.data()).set(1, b.data()).set(2, c.data()).set(3, n);
  launch(*k, {4}, {256}, p);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  EXPECT_EQ(c[n], -1.0f);  // the guard kept the tail untouched
}

TEST(Jit, SharedMemoryStaticAndDynamicFromNvcc) {
  auto module = compile_ok(read_file(CUCPU_TEST_DATA "/jit/shared_reverse.ptx"));
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("shared_reverse");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->uses_barriers);
  EXPECT_EQ(k->static_shared_bytes, 260u);  // tile[64] and total
  EXPECT_EQ(k->dynamic_shared_offset, 272u);
  const int threads = 64, blocks = 2;
  std::vector<int> in(threads * blocks), out(threads * blocks), sums(blocks);
  for (int i = 0; i < threads * blocks; ++i) in[i] = i * 3 + 1;
  Params p(*k);
  p.set(0, in.data()).set(1, out.data()).set(2, sums.data());
  launch(*k, {blocks}, {threads}, p, threads * sizeof(int));
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int t = 0; t < threads; ++t) {
      int mirrored = in[b * threads + threads - 1 - t];
      EXPECT_EQ(out[b * threads + t], 3 * mirrored) << b << ":" << t;
      sum += in[b * threads + t];
    }
    EXPECT_EQ(sums[b], sum);
  }
}

TEST(Jit, DeviceFunctionCallsFromNvcc) {
  auto module = compile_ok(read_file(CUCPU_TEST_DATA "/jit/device_call.ptx"));
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("device_call");
  ASSERT_NE(k, nullptr);
  std::vector<long long> in = {0x0000000500000007LL, -2LL, 0x7fffffff00000001LL, 42};
  std::vector<int> out(8);
  std::vector<float> f = {1.0f, -2.0f, 0.5f, 3.0f};
  Params p(*k);
  p.set(0, in.data()).set(1, out.data()).set(2, f.data());
  launch(*k, {}, {4}, p);
  const int factorial[] = {1, 2, 6, 24};
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(out[2 * t], static_cast<int>(in[t] & 0xffffffff) + factorial[t]) << t;
    EXPECT_EQ(out[2 * t + 1], static_cast<int>(in[t] >> 32)) << t;
  }
  EXPECT_EQ(f[0], 2.5f);
  EXPECT_EQ(f[1], -4.0f);
  EXPECT_EQ(f[2], 3.25f);
  EXPECT_EQ(f[3], 10.5f);
}

TEST(Jit, AtomicsFromNvcc) {
  auto module = compile_ok(read_file(CUCPU_TEST_DATA "/jit/atomics.ptx"));
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("atomics");
  ASSERT_NE(k, nullptr);
  const unsigned threads = 8;
  int i[4] = {0, 100, 7, -3};
  unsigned u[8] = {0, 3, 0xffffffffu, 0, 0, 0, 0, 0};
  unsigned long long ull[2] = {0, 0};
  float f = 0;
  double d = 0;
  std::vector<int> old(threads, -1);
  Params p(*k);
  p.set(0, &i[0]).set(1, &u[0]).set(2, &ull[0]).set(3, &f).set(4, &d).set(5, old.data());
  launch(*k, {}, {threads}, p);
  EXPECT_EQ(i[0], 8);
  EXPECT_EQ(i[1], 100 - 16);
  EXPECT_EQ(i[2], -35);
  EXPECT_EQ(i[3], 7);
  EXPECT_EQ(u[0], 2u);  // inc wraps to 0 after reaching 2: 8 increments from 0 -> 2
  EXPECT_EQ(u[1], 1u);  // dec from 3: 2, 1, 0, then wraps to 5, 4, 3, 2, 1
  EXPECT_EQ(u[2], 0xffffff00u);
  EXPECT_EQ(u[3], 0xffu);
  EXPECT_EQ(u[4], 0u);  // xor 3 an even number of times
  EXPECT_GE(u[5], 100u);
  EXPECT_GE(u[6], 1u);  // the CAS chain 0 -> 1 -> ... goes as far as the threads' order lets it
  EXPECT_LE(u[6], 8u);
  EXPECT_EQ(ull[0], 8ull << 40);
  EXPECT_EQ(ull[1], 7ull << 33);
  EXPECT_EQ(f, 4.0f);
  EXPECT_EQ(d, 2.0);
  EXPECT_EQ(u[7], 28u);
  std::vector<int> sorted = old;
  std::sort(sorted.begin(), sorted.end());
  for (unsigned t = 0; t < threads; ++t) EXPECT_EQ(sorted[t], static_cast<int>(t));
}

TEST(Jit, MathLibraryFromNvcc) {
  auto module = compile_ok(read_file(CUCPU_TEST_DATA "/jit/math_functions.ptx"));
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("math_functions");
  ASSERT_NE(k, nullptr);
  std::vector<float> x = {0.5f, -1.25f, 3.0f, 10.0f, -0.1f, 20.0f, 1e-3f, 77.7f};
  std::vector<double> y = {0.5, -1.25, 3.0, 10.0, -0.1, 123.456, 1e-3, 700.25};
  const int n = static_cast<int>(x.size());
  std::vector<float> f(8 * n);
  std::vector<double> d(4 * n);
  Params p(*k);
  p.set(0, x.data()).set(1, y.data()).set(2, f.data()).set(3, d.data()).set(4, n);
  launch(*k, {2}, {4}, p);
  auto near = [](double got, double want, double tolerance) {
    return std::abs(got - want) <= tolerance * std::max(1.0, std::abs(want));
  };
  for (int i = 0; i < n; ++i) {
    float a = x[i];
    double b = y[i];
    const float fwant[8] = {
        std::sin(a),
        std::exp(a),
        std::log(std::fabs(a) + 1.0f),
        std::pow(std::fabs(a), 1.5f),
        std::sqrt(std::fabs(a)),
        std::tanh(a),
        a / 3.0f + 1.0f / std::sqrt(std::fabs(a) + 1.0f),
        static_cast<float>(static_cast<long long>(a * 1000.0f)) / 7 + static_cast<unsigned>(a * a) % 5u};
    for (int j = 0; j < 8; ++j)
      EXPECT_TRUE(near(f[8 * i + j], fwant[j], 2e-6)) << i << "," << j << ": " << f[8 * i + j] << " vs " << fwant[j];
    const double dwant[4] = {std::sin(b), std::exp(b), std::sqrt(std::fabs(b)) + std::cbrt(b),
                             static_cast<double>(static_cast<long long>(b * 1e6) / 3) + std::fmod(b, 0.7)};
    for (int j = 0; j < 4; ++j)
      EXPECT_TRUE(near(d[4 * i + j], dwant[j], 1e-14)) << i << "," << j << ": " << d[4 * i + j] << " vs " << dwant[j];
  }
}

TEST(Jit, CornerCasesMatchTheGpu) {
  auto module = compile_ok(read_file(CUCPU_TEST_DATA "/jit/corner_cases.ptx"));
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("corner_cases");
  ASSERT_NE(k, nullptr);
  const uint32_t in[10] = {7, 0, 0xfffffff9u, 0x80000000u, 0xffffffffu, 0x80000000u, 0, 0x7fc00000u, 0xbfc00000u, 40};
  uint32_t out[64] = {};
  Params p(*k);
  p.set(0, &in[0]).set(1, &out[0]);
  launch(*k, {}, {}, p);
  std::istringstream expected(read_file(CUCPU_TEST_DATA "/jit/corner_cases.expected"));
  std::string line;
  uint32_t i = 0;
  while (std::getline(expected, line)) {
    EXPECT_EQ(out[i], std::stoul(line, nullptr, 16)) << "result " << i << " (order as in corner_cases.cu)";
    ++i;
  }
  EXPECT_EQ(i, out[63]);
}

// --- parameters, memory spaces ------------------------------------------------------

TEST(Jit, ParameterLayoutWithAlignedStruct) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u8 flag, .param .align 8 .b8 s[24], .param .u32 c, .param .u64 out)
{
  .reg .b16 %rs<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.v2.u32 {%r1, %r2}, [s+8];
  ld.param.u64 %rd2, [s+16];
  ld.param.u32 %r3, [c];
  ld.param.u8 %rs1, [flag];
  cvt.u32.u16 %r4, %rs1;
  st.global.v2.u32 [%rd1], {%r1, %r2};
  st.global.u64 [%rd1+8], %rd2;
  st.global.u32 [%rd1+16], %r3;
  st.global.u32 [%rd1+20], %r4;
  mov.u64 %rd3, s;
  ld.u32 %r5, [%rd3];
  st.global.u32 [%rd1+24], %r5;
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->params.size(), 4u);
  EXPECT_EQ(k->params[0].offset, 0u);
  EXPECT_EQ(k->params[1].offset, 8u);
  EXPECT_EQ(k->params[1].size, 24u);
  EXPECT_EQ(k->params[1].align, 8u);
  EXPECT_EQ(k->params[2].offset, 32u);
  EXPECT_EQ(k->params[3].offset, 40u);
  EXPECT_EQ(k->param_bytes, 48u);
  struct S {
    uint32_t a, b, x, y;
    uint64_t z;
  } s{11, 12, 0xdeadbeef, 0x12345678, 0x1122334455667788ull};
  uint32_t out[7] = {};
  Params p(*k);
  p.set(0, uint8_t{200}).set(1, s).set(2, 77u).set(3, reinterpret_cast<uint64_t>(out));
  launch(*k, {}, {}, p);
  EXPECT_EQ(out[0], 0xdeadbeefu);
  EXPECT_EQ(out[1], 0x12345678u);
  EXPECT_EQ(out[2] | uint64_t{out[3]} << 32, 0x1122334455667788ull);
  EXPECT_EQ(out[4], 77u);
  EXPECT_EQ(out[5], 200u);  // ld.param.u8 zero-extends
  EXPECT_EQ(out[6], 11u);   // the parameter's address, read generically
}

TEST(Jit, SharedMemoryOffsetsWith32BitRegisters) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 first[12];
.shared .align 8 .b8 second[16];
.extern .shared .align 16 .b8 dynamic[];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, second;
  mov.u32 %r2, dynamic;
  mov.u32 %r3, first;
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %r3;
  st.shared.u32 [%r1+4], 1234;
  st.shared.u32 [dynamic+8], 99;
  st.shared.u32 [first], 5;
  cvta.shared.u64 %rd2, %r2;
  ld.u32 %r4, [%rd2+8];
  st.global.u32 [%rd1+12], %r4;
  mov.u64 %rd3, second;
  cvta.shared.u64 %rd4, %rd3;
  st.u32 [%rd4+8], 4321;
  cvta.to.shared.u64 %rd5, %rd4;
  cvt.u32.u64 %r5, %rd5;
  ld.shared.u32 %r6, [%r5+8];
  st.global.u32 [%rd1+16], %r6;
  mov.u32 %r7, %dynamic_smem_size;
  st.global.u32 [%rd1+20], %r7;
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->static_shared_bytes, 32u);
  EXPECT_EQ(k->dynamic_shared_offset, 32u);
  uint32_t out[6] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(out));
  launch(*k, {}, {}, p, 64);
  // .shared addresses count from the window's start: the reserved 1 KiB comes first (as on
  // an H100, where the first variable's address is 0x400).
  EXPECT_EQ(out[0], kReservedSharedBytes + 16u);  // second: after first[12], aligned to 8
  EXPECT_EQ(out[1], kReservedSharedBytes + 32u);
  EXPECT_EQ(out[2], kReservedSharedBytes);
  EXPECT_EQ(out[3], 99u);
  EXPECT_EQ(out[4], 4321u);
  EXPECT_EQ(out[5], 64u);
}

TEST(Jit, GlobalsConstantsAndAddressInitializers) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.global .align 4 .u32 counter = 5;
.const .align 4 .b32 table[4] = {10, 20, 30, 40};
.global .align 8 .u64 where = counter;
.global .align 8 .u64 table_end = generic(table) + 12;
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  ld.global.u64 %rd2, [where];
  ld.u32 %r1, [%rd2];
  add.s32 %r2, %r1, 1;
  st.u32 [%rd2], %r2;
  ld.const.u32 %r3, [table+8];
  st.global.u32 [%rd1], %r3;
  ld.global.u64 %rd3, [table_end];
  ld.u32 %r4, [%rd3];
  st.global.u32 [%rd1+4], %r4;
  mov.u64 %rd4, table;
  cvta.const.u64 %rd5, %rd4;
  ld.u32 %r5, [%rd5+4];
  st.global.u32 [%rd1+8], %r5;
  ret;
}
)");
  ASSERT_TRUE(module);
  const GlobalInfo* counter = module->find_global("counter");
  const GlobalInfo* table = module->find_global("table");
  ASSERT_NE(counter, nullptr);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(counter->size, 4u);
  EXPECT_EQ(table->space, ptx::StateSpace::Const);
  EXPECT_EQ(*static_cast<uint32_t*>(counter->address), 5u);
  const KernelInfo* k = module->find_kernel("k");
  uint32_t out[3] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(out));
  launch(*k, {}, {}, p);
  launch(*k, {}, {}, p);
  EXPECT_EQ(*static_cast<uint32_t*>(counter->address), 7u);
  EXPECT_EQ(out[0], 30u);
  EXPECT_EQ(out[1], 40u);
  EXPECT_EQ(out[2], 20u);
}

TEST(Jit, LocalMemoryWith64And32BitAddresses) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .local .align 8 .b8 __local_depot0[32];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  st.local.u32 [%SPL+4], 17;
  ld.u32 %r1, [%SP+4];
  mov.u32 %r2, __local_depot0;
  st.local.u32 [%r2+12], 23;
  ld.local.u32 %r3, [%SPL+12];
  add.s64 %rd2, %SP, 12;
  cvta.to.local.u64 %rd3, %rd2;
  ld.local.u32 %r4, [%rd3];
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r3;
  st.global.u32 [%rd1+8], %r4;
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  EXPECT_EQ(k->local_bytes, 32u);
  uint32_t out[3] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(out));
  launch(*k, {}, {}, p);
  EXPECT_EQ(out[0], 17u);
  EXPECT_EQ(out[1], 23u);
  EXPECT_EQ(out[2], 23u);
}

TEST(Jit, LoadWidthsAndVectors) {
  struct In {
    uint8_t byte = 0x80;
    int8_t pad[1] = {};
    int16_t half = -2;
    alignas(16) float v[4] = {1.5f, 2.5f, 3.5f, 4.5f};  // ld.v4 needs its 16-byte alignment
  };
  auto out = run_each<std::array<uint32_t, 8>, In>(R"(
  ld.global.s8 %r1, [%rd2];
  ld.global.u8 %r2, [%rd2];
  ld.global.s16 %r3, [%rd2+2];
  ld.global.s8 %rs1, [%rd2];
  cvt.u32.u16 %r4, %rs1;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];
  add.f32 %f5, %f1, %f4;
  mov.b32 %r5, %f5;
  mov.b64 %rd3, {%r1, %r2};
  mov.b64 {%r6, %r7}, %rd3;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v2.u32 [%rd1+16], {%r5, %r6};
  st.global.u32 [%rd1+24], %r7;
  st.global.u8 [%rd1+28], %r2;
)",
                                                   std::vector<In>{In{}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0][0], 0xffffff80u);  // ld.s8 sign-extends
  EXPECT_EQ(out[0][1], 0x80u);
  EXPECT_EQ(out[0][2], 0xfffffffeu);
  EXPECT_EQ(out[0][3], 0xff80u);  // sign-extended into the 16-bit register
  EXPECT_EQ(out[0][4], bits_of(6.0f));
  EXPECT_EQ(out[0][5], 0xffffff80u);
  EXPECT_EQ(out[0][6], 0x80u);
  EXPECT_EQ(out[0][7], 0x80u);
}

// --- control flow -------------------------------------------------------------------

TEST(Jit, BranchesLoopsAndPredicates) {
  // sum of 1..n with a loop; predicate logic and two-destination setp.
  auto out = run_each<std::array<uint32_t, 4>, uint32_t>(R"(
  ld.global.u32 %r1, [%rd2];
  mov.u32 %r2, 0;
  mov.u32 %r3, 1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
LOOP:
  add.s32 %r2, %r2, %r3;
  add.s32 %r3, %r3, 1;
  setp.le.u32 %p2, %r3, %r1;
  @%p2 bra.uni LOOP;
DONE:
  setp.gt.s32 %p3|%p4, %r1, 5;
  selp.u32 %r4, 1, 0, %p3;
  selp.u32 %r5, 1, 0, %p4;
  setp.lt.u32.and %p5, %r1, 10, !%p3;
  selp.b32 %r6, 100, 200, %p5;
  and.pred %p6, %p3, %p4;
  or.pred %p7, %p6, %p1;
  not.pred %p8, %p7;
  @!%p8 add.u32 %r6, %r6, 1;
  xor.pred %p9, %p3, %p1;
  selp.u32 %r7, 10, 0, %p9;
  add.u32 %r6, %r6, %r7;
  st.global.u32 [%rd1], %r2;
  st.global.u32 [%rd1+4], %r4;
  st.global.u32 [%rd1+8], %r5;
  st.global.u32 [%rd1+12], %r6;
)",
                                                         std::vector<uint32_t>{0, 1, 5, 6, 100});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0], (std::array<uint32_t, 4>{0, 0, 1, 111}));
  EXPECT_EQ(out[1], (std::array<uint32_t, 4>{1, 0, 1, 100}));
  EXPECT_EQ(out[2], (std::array<uint32_t, 4>{15, 0, 1, 100}));
  EXPECT_EQ(out[3], (std::array<uint32_t, 4>{21, 1, 0, 210}));
  EXPECT_EQ(out[4], (std::array<uint32_t, 4>{5050, 1, 0, 210}));
}

TEST(Jit, FunctionWithGuardedReturn) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 result) clamp_add(.param .b32 x, .param .b32 y)
{
  .reg .b32 %r<4>;
  .reg .pred %p1;
  ld.param.b32 %r1, [x];
  ld.param.b32 %r2, [y];
  add.s32 %r3, %r1, %r2;
  st.param.b32 [result], %r3;
  setp.lt.s32 %p1, %r3, 100;
  @%p1 ret;
  st.param.b32 [result], 100;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r2, %r1, 40;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r2;
  .param .b32 param1;
  st.param.b32 [param1], 7;
  .param .b32 retval0;
  call.uni (retval0), clamp_add, (param0, param1);
  ld.param.b32 %r3, [retval0];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  uint32_t out[4] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(out));
  launch(*k, {}, {4}, p);
  EXPECT_EQ(out[0], 7u);
  EXPECT_EQ(out[1], 47u);
  EXPECT_EQ(out[2], 87u);
  EXPECT_EQ(out[3], 100u);
}

// exit two calls deep ends the thread: neither the caller's nor the kernel's code after
// the calls runs (out[t] keeps the 1 the kernel stored before), other threads go on.
TEST(Jit, ExitInsideANestedFunctionEndsTheThread) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.func maybe_exit(.param .b32 x)
{
  .reg .b32 %r<2>;
  .reg .pred %p1;
  ld.param.b32 %r1, [x];
  setp.eq.s32 %p1, %r1, 2;
  @%p1 exit;
  ret;
}
.func (.param .b32 result) middle(.param .b64 slot, .param .b32 x)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [slot];
  ld.param.b32 %r1, [x];
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  call.uni maybe_exit, (param0);
  }
  st.global.u32 [%rd1+16], 3;
  st.param.b32 [result], 4;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], 1;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd3;
  .param .b32 param1;
  st.param.b32 [param1], %r1;
  .param .b32 retval0;
  call.uni (retval0), middle, (param0, param1);
  ld.param.b32 %r3, [retval0];
  }
  st.global.u32 [%rd3], %r3;
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  uint32_t out[8] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(out));
  launch(*k, {}, {4}, p);
  EXPECT_EQ(out[0], 4u);
  EXPECT_EQ(out[1], 4u);
  EXPECT_EQ(out[2], 1u);  // exited in maybe_exit
  EXPECT_EQ(out[3], 4u);
  EXPECT_EQ(out[4], 3u);
  EXPECT_EQ(out[5], 3u);
  EXPECT_EQ(out[6], 0u);  // middle of thread 2 stopped before this store
  EXPECT_EQ(out[7], 3u);
}

// --- integer corner cases -----------------------------------------------------------

TEST(Jit, IntegerDivisionByZeroIsDefined) {
  struct In {
    int32_t a, b;
  };
  auto out = run_each<std::array<uint32_t, 4>, In>(R"(
  ld.global.u32 %r1, [%rd2];
  ld.global.u32 %r2, [%rd2+4];
  div.u32 %r3, %r1, %r2;
  rem.u32 %r4, %r1, %r2;
  div.s32 %r5, %r1, %r2;
  rem.s32 %r6, %r1, %r2;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
)",
                                                   std::vector<In>{{7, 0}, {-7, 0}, {INT32_MIN, -1}, {-7, 2}, {7, -2}});
  ASSERT_EQ(out.size(), 5u);
  // As the GPU computes it: x/0 and x%0 are all ones.
  EXPECT_EQ(out[0], (std::array<uint32_t, 4>{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}));
  EXPECT_EQ(out[1], (std::array<uint32_t, 4>{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}));
  EXPECT_EQ(out[2], (std::array<uint32_t, 4>{0, 0x80000000u, 0x80000000u, 0}));
  EXPECT_EQ(out[3], (std::array<uint32_t, 4>{0x7ffffffcu, 1, static_cast<uint32_t>(-3), static_cast<uint32_t>(-1)}));
  EXPECT_EQ(out[4], (std::array<uint32_t, 4>{0, 7, static_cast<uint32_t>(-3), 1}));
}

TEST(Jit, IntegerArithmeticAndBits) {
  auto out = run_each<std::array<uint32_t, 24>, uint32_t>(R"(
  ld.global.u32 %r1, [%rd2];
  shl.b32 %r2, %r1, 32;
  shr.s32 %r3, %r1, 40;
  shr.u32 %r4, %r1, 33;
  shl.b32 %r5, %r1, 4;
  popc.b32 %r6, %r1;
  clz.b32 %r7, %r1;
  brev.b32 %r8, %r1;
  bfe.u32 %r9, %r1, 4, 8;
  bfe.s32 %r10, %r1, 28, 8;
  bfi.b32 %r11, %r1, 0, 8, 4;
  prmt.b32 %r12, %r1, 0x11223344, 0x8654;
  add.sat.s32 %r13, %r1, 0x7fffffff;
  mul.hi.u32 %r14, %r1, %r1;
  mul.hi.s32 %r15, %r1, %r1;
  mul.wide.s32 %rd3, %r1, -3;
  cvt.u32.u64 %r16, %rd3;
  shr.u64 %rd4, %rd3, 32;
  cvt.u32.u64 %r17, %rd4;
  min.s32 %r18, %r1, -1;
  max.u32 %r19, %r1, 1000;
  abs.s32 %r20, %r1;
  neg.s32 %r21, %r1;
  bfind.u32 %r22, %r1;
  cnot.b32 %r23, %r1;
  mad.lo.s32 %r24, %r1, 3, 5;
  mul24.lo.u32 %r25, %r1, 0x1000;
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r9};
  st.global.v4.u32 [%rd1+32], {%r10, %r11, %r12, %r13};
  st.global.v4.u32 [%rd1+48], {%r14, %r15, %r16, %r17};
  st.global.v4.u32 [%rd1+64], {%r18, %r19, %r20, %r21};
  st.global.v4.u32 [%rd1+80], {%r22, %r23, %r24, %r25};
)",
                                                          std::vector<uint32_t>{0x80000f0fu, 0});
  ASSERT_EQ(out.size(), 2u);
  const auto& a = out[0];
  uint32_t x = 0x80000f0fu;
  EXPECT_EQ(a[0], 0u);
  EXPECT_EQ(a[1], 0xffffffffu);
  EXPECT_EQ(a[2], 0u);
  EXPECT_EQ(a[3], x << 4);
  EXPECT_EQ(a[4], 9u);
  EXPECT_EQ(a[5], 0u);
  EXPECT_EQ(a[6], 0xf0f00001u);
  EXPECT_EQ(a[7], 0xf0u);
  EXPECT_EQ(a[8], 0xfffffff8u);   // bits 28..31 = 0x8, field clipped at bit 31, sign from bit 31
  EXPECT_EQ(a[9], 0xf00u);        // bfi: the low 4 bits of x at bit 8 of 0
  EXPECT_EQ(a[10], 0x00223344u);  // selectors 4, 5, 6 from b; 8: byte 0 of a, sign-replicated
  EXPECT_EQ(a[11], static_cast<uint32_t>(static_cast<int32_t>(x) + 0x7fffffff));
  EXPECT_EQ(a[12], static_cast<uint32_t>((uint64_t{x} * x) >> 32));
  EXPECT_EQ(a[13], static_cast<uint32_t>((int64_t{static_cast<int32_t>(x)} * static_cast<int32_t>(x)) >> 32));
  int64_t wide = int64_t{static_cast<int32_t>(x)} * -3;
  EXPECT_EQ(a[14], static_cast<uint32_t>(wide));
  EXPECT_EQ(a[15], static_cast<uint32_t>(static_cast<uint64_t>(wide) >> 32));
  EXPECT_EQ(a[16], x);
  EXPECT_EQ(a[17], x);
  EXPECT_EQ(a[18], 0x7ffff0f1u);
  EXPECT_EQ(a[19], 0x7ffff0f1u);
  EXPECT_EQ(a[20], 31u);
  EXPECT_EQ(a[21], 0u);
  EXPECT_EQ(a[22], x * 3 + 5);
  EXPECT_EQ(a[23], (x & 0xffffff) * 0x1000);
  const auto& z = out[1];
  EXPECT_EQ(z[5], 32u);  // clz(0)
  EXPECT_EQ(z[8], 0u);
  EXPECT_EQ(z[11], 0x7fffffffu);  // saturated
  EXPECT_EQ(z[20], 0xffffffffu);  // bfind(0)
  EXPECT_EQ(z[21], 1u);           // cnot(0)
}

TEST(Jit, SetpEveryComparison) {
  struct In {
    float a, b;
  };
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = run_each<uint32_t, In>(R"(
  ld.global.f32 %f1, [%rd2];
  ld.global.f32 %f2, [%rd2+4];
  mov.u32 %r1, 0;
  setp.eq.f32 %p1, %f1, %f2;  selp.u32 %r2, 1, 0, %p1;   or.b32 %r1, %r1, %r2;
  setp.ne.f32 %p1, %f1, %f2;  selp.u32 %r2, 2, 0, %p1;   or.b32 %r1, %r1, %r2;
  setp.lt.f32 %p1, %f1, %f2;  selp.u32 %r2, 4, 0, %p1;   or.b32 %r1, %r1, %r2;
  setp.le.f32 %p1, %f1, %f2;  selp.u32 %r2, 8, 0, %p1;   or.b32 %r1, %r1, %r2;
  setp.gt.f32 %p1, %f1, %f2;  selp.u32 %r2, 16, 0, %p1;  or.b32 %r1, %r1, %r2;
  setp.ge.f32 %p1, %f1, %f2;  selp.u32 %r2, 32, 0, %p1;  or.b32 %r1, %r1, %r2;
  setp.equ.f32 %p1, %f1, %f2; selp.u32 %r2, 64, 0, %p1;  or.b32 %r1, %r1, %r2;
  setp.neu.f32 %p1, %f1, %f2; selp.u32 %r2, 128, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.ltu.f32 %p1, %f1, %f2; selp.u32 %r2, 256, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.leu.f32 %p1, %f1, %f2; selp.u32 %r2, 512, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.gtu.f32 %p1, %f1, %f2; selp.u32 %r2, 1024, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.geu.f32 %p1, %f1, %f2; selp.u32 %r2, 2048, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.num.f32 %p1, %f1, %f2; selp.u32 %r2, 4096, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.nan.f32 %p1, %f1, %f2; selp.u32 %r2, 8192, 0, %p1; or.b32 %r1, %r1, %r2;
  mov.b32 %r3, %f1;
  mov.b32 %r4, %f2;
  setp.lt.s32 %p1, %r3, %r4;  selp.u32 %r2, 16384, 0, %p1; or.b32 %r1, %r1, %r2;
  setp.lo.u32 %p1, %r3, %r4;  selp.u32 %r2, 32768, 0, %p1; or.b32 %r1, %r1, %r2;
  set.gt.u32.f32 %r5, %f1, %f2;
  and.b32 %r5, %r5, 65536;
  or.b32 %r1, %r1, %r5;
  st.global.u32 [%rd1], %r1;
)",
                                    std::vector<In>{{1, 2}, {2, 2}, {3, 2}, {nan, 2}, {-1, 1}});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0], 2u | 4 | 8 | 128 | 256 | 512 | 4096 | 16384 | 32768);
  EXPECT_EQ(out[1], 1u | 8 | 32 | 64 | 512 | 2048 | 4096);
  EXPECT_EQ(out[2], 2u | 16 | 32 | 128 | 1024 | 2048 | 4096 | 65536);
  EXPECT_EQ(out[3], 64u | 128 | 256 | 512 | 1024 | 2048 | 8192);
  // -1.0f is 0xbf800000: a negative int, a large unsigned one.
  EXPECT_EQ(out[4], 2u | 4 | 8 | 128 | 256 | 512 | 4096 | 16384);
}

// --- conversions --------------------------------------------------------------------

TEST(Jit, CvtFloatToIntRoundsAndSaturates) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto out =
      run_each<std::array<int32_t, 6>, float>(R"(
  ld.global.f32 %f1, [%rd2];
  cvt.rzi.s32.f32 %r1, %f1;
  cvt.rni.s32.f32 %r2, %f1;
  cvt.rmi.s32.f32 %r3, %f1;
  cvt.rpi.s32.f32 %r4, %f1;
  cvt.rzi.u32.f32 %r5, %f1;
  cvt.rni.s16.f32 %rs1, %f1;
  cvt.s32.s16 %r6, %rs1;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v2.u32 [%rd1+16], {%r5, %r6};
)",
                                              std::vector<float>{-1.5f, 2.5f, 3e9f, -3e9f, nan, 0.49999997f, 40000.0f});
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0], (std::array<int32_t, 6>{-1, -2, -2, -1, 0, -2}));
  EXPECT_EQ(out[1], (std::array<int32_t, 6>{2, 2, 2, 3, 2, 2}));
  EXPECT_EQ(out[2], (std::array<int32_t, 6>{INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX, -1294967296, 32767}));
  EXPECT_EQ(out[3], (std::array<int32_t, 6>{INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 0, -32768}));
  EXPECT_EQ(out[4], (std::array<int32_t, 6>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(out[5], (std::array<int32_t, 6>{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(out[6], (std::array<int32_t, 6>{40000, 40000, 40000, 40000, 40000, 32767}));
}

TEST(Jit, CvtIntegerAndFloatRounding) {
  auto out = run_each<std::array<uint32_t, 12>, int32_t>(R"(
  ld.global.s32 %r1, [%rd2];
  cvt.sat.s8.s32 %r2, %r1;
  cvt.u8.s32 %r3, %r1;
  cvt.sat.u16.s32 %r4, %r1;
  cvt.s32.s8 %r5, %r1;
  cvt.rn.f32.s32 %f1, %r1;
  cvt.rz.f32.s32 %f2, %r1;
  cvt.rp.f32.s32 %f3, %r1;
  cvt.rm.f32.s32 %f4, %r1;
  mov.b32 %r6, %f1;
  mov.b32 %r7, %f2;
  mov.b32 %r8, %f3;
  mov.b32 %r9, %f4;
  cvt.rn.f32.u32 %f5, %r1;
  mov.b32 %r10, %f5;
  cvt.f64.f32 %fd1, %f1;
  add.f64 %fd2, %fd1, 0d3FE0000000000000;
  cvt.rz.f32.f64 %f6, %fd2;
  cvt.rp.f32.f64 %f7, %fd2;
  mov.b32 %r11, %f6;
  mov.b32 %r12, %f7;
  cvt.sat.s32.u32 %r13, %r1;
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r9};
  st.global.v4.u32 [%rd1+32], {%r10, %r11, %r12, %r13};
)",
                                                         std::vector<int32_t>{300, -300, 16777217, -16777217});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0][0], 127u);
  EXPECT_EQ(out[0][1], 44u);
  EXPECT_EQ(out[0][2], 300u);
  EXPECT_EQ(out[0][3], 44u);
  EXPECT_EQ(out[1][0], static_cast<uint32_t>(-128));
  EXPECT_EQ(out[1][1], 212u);
  EXPECT_EQ(out[1][2], 0u);
  EXPECT_EQ(out[1][3], static_cast<uint32_t>(-44));
  EXPECT_EQ(out[1][11], 0x7fffffffu);  // 0xfffffed4 as .u32 saturates to INT_MAX
  // 16777217 is not a float: nearest-even and toward zero give 2^24, up gives 2^24 + 2.
  EXPECT_EQ(out[2][4], bits_of(16777216.0f));
  EXPECT_EQ(out[2][5], bits_of(16777216.0f));
  EXPECT_EQ(out[2][6], bits_of(16777218.0f));
  EXPECT_EQ(out[2][7], bits_of(16777216.0f));
  EXPECT_EQ(out[3][5], bits_of(-16777216.0f));
  EXPECT_EQ(out[3][6], bits_of(-16777216.0f));
  EXPECT_EQ(out[3][7], bits_of(-16777218.0f));
  EXPECT_EQ(out[3][4], bits_of(-16777216.0f));
  EXPECT_EQ(out[3][8], bits_of(4278190080.0f));  // 0xfeffffff as unsigned
  // 2^24 + 0.5 in f64 -> f32: toward zero 2^24, up 2^24 + 2.
  EXPECT_EQ(out[2][9], bits_of(16777216.0f));
  EXPECT_EQ(out[2][10], bits_of(16777218.0f));
}

TEST(Jit, CvtFloatModifiers) {
  float subnormal = std::numeric_limits<float>::denorm_min() * 5;
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = run_each<std::array<uint32_t, 5>, float>(R"(
  ld.global.f32 %f1, [%rd2];
  cvt.ftz.f32.f32 %f2, %f1;
  cvt.sat.f32.f32 %f3, %f1;
  cvt.rni.f32.f32 %f4, %f1;
  cvt.rn.f16.f32 %rs1, %f1;
  cvt.f32.f16 %f5, %rs1;
  mov.b32 %r1, %f2;
  mov.b32 %r2, %f3;
  mov.b32 %r3, %f4;
  mov.b32 %r4, %f5;
  cvt.u32.u16 %r5, %rs1;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.u32 [%rd1+16], %r5;
)",
                                                      std::vector<float>{subnormal, -subnormal, 1.5f, nan, -2.5f});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0][0], 0u);
  EXPECT_EQ(out[0][1], bits_of(subnormal));
  EXPECT_EQ(out[1][0], 0x80000000u);  // sign kept
  EXPECT_EQ(out[1][1], 0u);           // .sat: -x -> +0
  EXPECT_EQ(out[2][1], bits_of(1.0f));
  EXPECT_EQ(out[2][2], bits_of(2.0f));
  EXPECT_EQ(out[2][3], bits_of(1.5f));
  EXPECT_EQ(out[2][4], 0x3e00u);  // 1.5 as f16
  EXPECT_EQ(out[3][1], 0u);       // .sat: NaN -> 0
  EXPECT_EQ(out[4][2], bits_of(-2.0f));
  EXPECT_EQ(out[4][3], bits_of(-2.5f));
}

// --- float arithmetic ---------------------------------------------------------------

TEST(Jit, FloatArithmeticCornerCases) {
  struct In {
    float a, b;
  };
  float nan = std::numeric_limits<float>::quiet_NaN();
  float tiny = std::numeric_limits<float>::min() / 4;  // subnormal
  auto out = run_each<std::array<float, 12>, In>(
      R"(
  ld.global.f32 %f1, [%rd2];
  ld.global.f32 %f2, [%rd2+4];
  min.f32 %f3, %f1, %f2;
  max.f32 %f4, %f1, %f2;
  add.rz.f32 %f5, %f1, %f2;
  add.rp.f32 %f6, %f1, %f2;
  add.ftz.f32 %f7, %f1, %f2;
  div.rn.f32 %f8, %f1, %f2;
  sqrt.rn.f32 %f9, %f1;
  fma.rn.f32 %f10, %f1, %f2, %f1;
  mul.sat.f32 %f11, %f1, %f2;
  sub.f32 %f12, %f1, %f2;
  copysign.f32 %f13, %f2, %f1;
  mul.rm.f32 %f14, %f1, %f2;
  st.global.v4.f32 [%rd1], {%f3, %f4, %f5, %f6};
  st.global.v4.f32 [%rd1+16], {%f7, %f8, %f9, %f10};
  st.global.v4.f32 [%rd1+32], {%f11, %f12, %f13, %f14};
)",
      std::vector<In>{{nan, 2}, {1, 0x1p-30f}, {tiny, tiny}, {-0.0f, 0.0f}, {2, 3}, {5, -1}});
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0][0], 2.0f);  // min/max return the non-NaN operand
  EXPECT_EQ(out[0][1], 2.0f);
  EXPECT_TRUE(std::isnan(out[0][7]));
  EXPECT_EQ(out[0][8], 0.0f);  // .sat: NaN -> 0
  EXPECT_EQ(out[1][2], 1.0f);  // 1 + 2^-30 rounded toward zero
  EXPECT_EQ(out[1][3], std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(out[1][9], 1.0f);
  EXPECT_EQ(out[1][11], 0x1p-30f);
  EXPECT_EQ(out[2][4], 0.0f);  // .ftz flushes subnormal inputs
  EXPECT_EQ(out[2][2], tiny * 2);
  EXPECT_EQ(std::bit_cast<uint32_t>(out[3][0]), 0x80000000u);  // min(-0, +0) = -0
  EXPECT_EQ(std::bit_cast<uint32_t>(out[3][1]), 0u);           // max(-0, +0) = +0
  EXPECT_EQ(out[4][5], 2.0f / 3.0f);
  EXPECT_EQ(out[4][6], std::sqrt(2.0f));
  EXPECT_EQ(out[4][7], 8.0f);
  EXPECT_EQ(out[4][8], 1.0f);
  EXPECT_EQ(out[4][9], -1.0f);
  // copysign d, a, b: b with the sign of a (here a = %f2, b = %f1).
  EXPECT_EQ(out[4][10], 2.0f);
  EXPECT_EQ(out[5][10], -5.0f);
  EXPECT_FALSE(std::signbit(out[3][10]));
}

TEST(Jit, DoubleArithmeticAndTranscendentals) {
  auto out = run_each<std::array<double, 6>, double>(R"(
  ld.global.f64 %fd1, [%rd2];
  mul.f64 %fd2, %fd1, %fd1;
  div.rn.f64 %fd3, 1.0, %fd1;
  sqrt.rn.f64 %fd4, %fd1;
  rcp.rn.f64 %fd5, %fd1;
  cvt.rn.f32.f64 %f1, %fd1;
  ex2.approx.ftz.f32 %f2, %f1;
  lg2.approx.f32 %f3, %f2;
  cvt.f64.f32 %fd6, %f3;
  testp.normal.f64 %p1, %fd1;
  selp.f64 %fd7, 0d3FF0000000000000, 0d0000000000000000, %p1;
  st.global.v2.f64 [%rd1], {%fd2, %fd3};
  st.global.v2.f64 [%rd1+16], {%fd4, %fd5};
  st.global.v2.f64 [%rd1+32], {%fd6, %fd7};
)",
                                                     std::vector<double>{3.0});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0][0], 9.0);
  EXPECT_EQ(out[0][1], 1.0 / 3.0);
  EXPECT_EQ(out[0][2], std::sqrt(3.0));
  EXPECT_EQ(out[0][3], 1.0 / 3.0);
  EXPECT_NEAR(out[0][4], 3.0, 1e-5);
  EXPECT_EQ(out[0][5], 1.0);
}

// --- synchronization ---------------------------------------------------------------

TEST(Jit, BarrierAndReduxCallTheRuntime) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  bar.sync 0;
  barrier.sync.aligned 1, 32;
  redux.sync.add.u32 %r2, %r1, 0xffffffff;
  membar.gl;
  fence.acq_rel.gpu;
  st.global.u32 [%rd1], %r2;
  ret;
}
.visible .entry plain(.param .u64 out)
{
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  EXPECT_TRUE(k->uses_barriers);
  EXPECT_FALSE(module->find_kernel("plain")->uses_barriers);
  uint32_t out = 0;
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(&out));
  launch(*k, {}, {1}, p);
  EXPECT_EQ(out, 0u);
}

TEST(Jit, BarArriveAndBarRedCallTheRuntime) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 5;
  mov.u32 %r2, 64;
  setp.eq.u32 %p1, %r1, 5;
  bar.arrive %r1, %r2;
  barrier.arrive.aligned 3, 32;
  bar.red.popc.u32 %r3, 0, %p1;
  bar.red.and.pred %p2, 15, 96, !%p1;
  barrier.red.or.pred.aligned %p3, %r1, %r2, %p1;
  selp.u32 %r4, 1, 0, %p2;
  selp.u32 %r5, 1, 0, %p3;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r1};
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* k = module->find_kernel("k");
  EXPECT_TRUE(k->uses_barriers);
  fake_barrier_calls.clear();
  alignas(16) uint32_t out[4] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(&out));
  launch(*k, {}, {1}, p);
  EXPECT_EQ(out[0], 1u);  // popc of one true predicate
  EXPECT_EQ(out[1], 0u);  // and over !%p1
  EXPECT_EQ(out[2], 1u);
  const auto popc = static_cast<uint32_t>(ptx::AtomicOp::Popc);
  const auto op_and = static_cast<uint32_t>(ptx::AtomicOp::And);
  const auto op_or = static_cast<uint32_t>(ptx::AtomicOp::Or);
  ASSERT_EQ(fake_barrier_calls.size(), 5u);
  const BarrierCall expected[] = {
      {5, 64, 0, 0}, {3, 32, 0, 0}, {0, 0, popc, 1}, {15, 96, op_and, 0}, {5, 64, op_or, 1}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(fake_barrier_calls[i].barrier, expected[i].barrier) << i;
    EXPECT_EQ(fake_barrier_calls[i].thread_count, expected[i].thread_count) << i;
    EXPECT_EQ(fake_barrier_calls[i].op, expected[i].op) << i;
    EXPECT_EQ(fake_barrier_calls[i].predicate, expected[i].predicate) << i;
  }
}

// A loop that reads memory other threads write gets a yield point on its back-edge (one
// call every 16 passes) and makes its kernel wait for other threads; other loops do not.
TEST(Jit, SpinLoopsGetYieldPoints) {
  auto module = compile_ok(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 counter)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [counter];
$L_again:
  atom.global.add.u32 %r1, [%rd1], 1;
  setp.lt.u32 %p1, %r1, 39;
  @%p1 bra $L_again;
  ret;
}
.visible .entry count(.param .u64 counter)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [counter];
  mov.u32 %r1, 0;
$L_again:
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 40;
  @%p1 bra $L_again;
  st.global.u32 [%rd1], %r1;
  ret;
}
)");
  ASSERT_TRUE(module);
  const KernelInfo* spin = module->find_kernel("spin");
  EXPECT_TRUE(spin->uses_barriers);
  EXPECT_FALSE(module->find_kernel("count")->uses_barriers);
  uint32_t counter = 0;
  Params p(*spin);
  p.set(0, reinterpret_cast<uint64_t>(&counter));
  fake_yields = 0;
  launch(*spin, {}, {1}, p);
  EXPECT_EQ(counter, 40u);
  EXPECT_EQ(fake_yields, 40u / 16);  // 40 passes over the back-edge
}

// A warp of one lane: each fake returns what one lane would get, with p set.
constexpr uint64_t kFakeP = uint64_t{1} << 32;
uint32_t fake_warp_calls = 0;
uint64_t fake_shfl_sync(ThreadContext*, uint32_t mode, uint32_t a, uint32_t b, uint32_t c, uint32_t mask) {
  ++fake_warp_calls;
  return (mode == static_cast<uint32_t>(ptx::ShuffleMode::Bfly) && b == 16 && c == 31 && mask == ~0u ? a : 0) | kFakeP;
}
uint32_t fake_vote_sync(ThreadContext*, uint32_t, uint32_t predicate, uint32_t) { return ++fake_warp_calls, predicate; }
uint64_t fake_match_sync(ThreadContext*, uint32_t, uint64_t, uint32_t mask) { return ++fake_warp_calls, mask | kFakeP; }
uint32_t fake_activemask(ThreadContext*, uint32_t) { return ++fake_warp_calls, 1; }
void fake_bar_warp_sync(ThreadContext*, uint32_t) { ++fake_warp_calls; }
uint64_t fake_elect_sync(ThreadContext*, uint32_t) { return ++fake_warp_calls, kFakeP; }

TEST(Jit, WarpCollectivesCallTheRuntime) {
  auto parsed = ptx::parse(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<6>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  shfl.sync.bfly.b32 %r2|%p1, %r1, 16, 31, -1;
  setp.eq.u32 %p2, %r1, 7;
  vote.sync.all.pred %p3, !%p2, -1;
  vote.sync.ballot.b32 %r3, %p2, -1;
  match.sync.any.b64 %r4, %rd1, 1;
  match.sync.all.b32 %r5|%p4, %r1, 1;
  activemask.b32 %r6;
  bar.warp.sync -1;
  elect.sync %r7|%p5, 1;
  selp.u32 %r8, 1, 0, %p1;
  selp.u32 %r9, 2, 0, %p3;
  selp.u32 %r10, 4, 0, %p4;
  selp.u32 %r11, 8, 0, %p5;
  add.u32 %r8, %r8, %r9;
  add.u32 %r8, %r8, %r10;
  add.u32 %r8, %r8, %r11;
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd1+16], {%r6, %r7, %r8, %r8};
  ret;
}
)",
                           "test.ptx");
  ASSERT_TRUE(parsed) << parsed.error().message;
  CompileOptions options = test_options();
  options.runtime[kShflSync] = reinterpret_cast<void*>(&fake_shfl_sync);
  options.runtime[kVoteSync] = reinterpret_cast<void*>(&fake_vote_sync);
  options.runtime[kMatchSync] = reinterpret_cast<void*>(&fake_match_sync);
  options.runtime[kActivemask] = reinterpret_cast<void*>(&fake_activemask);
  options.runtime[kBarWarpSync] = reinterpret_cast<void*>(&fake_bar_warp_sync);
  options.runtime[kElectSync] = reinterpret_cast<void*>(&fake_elect_sync);
  auto module = compile_module(*parsed, options);
  ASSERT_TRUE(module) << module.error().message;
  const KernelInfo* k = (*module)->find_kernel("k");
  EXPECT_TRUE(k->uses_barriers);
  alignas(16) uint32_t out[8] = {};
  Params p(*k);
  p.set(0, reinterpret_cast<uint64_t>(&out[0]));
  fake_warp_calls = 0;
  launch(*k, {}, {1}, p);
  EXPECT_EQ(fake_warp_calls, 8u);
  EXPECT_EQ(out[0], 7u);                 // shfl d
  EXPECT_EQ(out[1], 1u);                 // ballot of %p2
  EXPECT_EQ(out[2], 1u);                 // match.any: the mask
  EXPECT_EQ(out[3], 1u);                 // match.all d
  EXPECT_EQ(out[4], 1u);                 // activemask
  EXPECT_EQ(out[5], 0u);                 // elect d: lane 0
  EXPECT_EQ(out[6], 1u + 0u + 4u + 8u);  // p of shfl, !p2 voted (false), p of match.all, p of elect
}

// --- errors -------------------------------------------------------------------------

// add/min/max on .u16x2/.s16x2 and the SIMD video instructions, checked by hand against
// PTX ISA 9.0 §9.7.1 and §9.7.17.2 (tests/isa/isa_simd runs them all against a GPU).
TEST(Jit, PackedIntegersAndSimdVideo) {
  auto out = run_each<std::array<uint32_t, 16>, uint32_t>(R"(
  mov.b32 %r1, 0x7fff8000;
  mov.b32 %r2, 0x80017fff;
  mov.b32 %r3, 0x01ff7f80;
  mov.b32 %r4, 0x02008000;
  mov.b32 %r5, 0x00018001;
  mov.b32 %r6, 0xaaaaaaaa;
  mov.b32 %r7, 0xfffd0003;
  mov.b32 %r8, 10;
  mov.b32 %r9, 0;
  mov.b32 %r26, 100;
  add.u16x2 %r10, %r1, %r2;
  min.s16x2 %r11, %r1, %r2;
  min.u16x2 %r12, %r1, %r2;
  min.relu.s16x2 %r13, %r1, %r2;
  vabsdiff4.u32.u32.u32 %r14, %r3, %r4, %r6;
  vabsdiff4.u32.u32.u32.add %r15, %r3, %r4, %r8;
  vabsdiff4.s32.s32.s32 %r16, %r3, %r4, %r6;
  vabsdiff2.s32.s32.s32.add %r17, %r1, %r5, %r6;
  vadd2.s32.s32.s32.sat %r18, %r1, %r5, %r6;
  vadd2.s32.s32.s32 %r19, %r1, %r5, %r6;
  vset4.u32.u32.lt %r20.b20, %r3, %r4, %r6;
  vsub2.u32.u32.u32 %r21, %r1.h01, %r5.h23, %r6;
  vavrg2.s32.s32.s32 %r22, %r7, %r9, %r6;
  vmax4.u32.s32.u32.sat %r23.b3210, %r3.b0123, %r4, %r6;
  vset2.s32.u32.ge.add %r24, %r1, %r5, %r26;
  vmin4.s32.s32.s32 %r25.b1, %r3.b7777, %r4.b0000, %r6;
  st.global.v4.u32 [%rd1], {%r10, %r11, %r12, %r13};
  st.global.v4.u32 [%rd1+16], {%r14, %r15, %r16, %r17};
  st.global.v4.u32 [%rd1+32], {%r18, %r19, %r20, %r21};
  st.global.v4.u32 [%rd1+48], {%r22, %r23, %r24, %r25};
)",
                                                          std::vector<uint32_t>{0});
  ASSERT_EQ(out.size(), 1u);
  const std::array<uint32_t, 16> expected = {
      0x0000ffff,  // lanes wrap: 0x8000 + 0x7fff, 0x7fff + 0x8001
      0x80018000, 0x7fff7fff, 0x00000000,
      0x01ff0180,  // |0x80-0x00| |0x7f-0x80| |0xff-0x00| |0x01-0x02|
      0x18b,       // their sum plus c = 10
      0x0101ff80,  // signed bytes: 128 255 1 1, each truncated to its lane
      0xaaaaaaaa + 1 + 0x7ffe,  // signed halves: |-32768 - -32767| + |32767 - 1|, plus c
      0x7fff8000,  // -32768 + -32767 and 32767 + 1 clamped
      0x80000001,  // the same wrapped
      0xaa00aa00,  // lanes 2 and 0 take a < b (both false); 3 and 1 keep c
      0xffff7ffe,  // halves swapped: 0x7fff - 0x0001, 0x8000 - 0x8001
      0xfffe0002,  // (3 + 0 + 1) >> 1, -3 >> 1
      0x027f8001,  // a's bytes reversed (s8: 1 -1 127 -128) against b's (u8: 0 128 0 2)
      100 + 1,  // halves -32768 >= 32769 (b unsigned): no; 32767 >= 1: yes
      0xaaaa80aa,  // lane 1 only: min(a.b7 = b's top byte 0x02, a.b0 = 0x80 as s8) = -128
  };
  EXPECT_EQ(out[0], expected);
  // Forms ptxas refuses are refused at load, naming the instruction.
  for (const char* bad : {"vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", "vadd2.u32.u32.u32 %r1, %r2, 5, %r4;",
                          "vset2.u32.u32.lo %r1, %r2, %r3, %r4;", "vadd4.u32.u32.u32 %r1.b02, %r2, %r3, %r4;",
                          "vadd2.u32.u32.u32 %r1, %r2.b3210, %r3, %r4;", "sub.u16x2 %r1, %r2, %r3;",
                          "max.relu.u16x2 %r1, %r2, %r3;"}) {
    auto compiled = compile_text(unary_kernel(std::string("  ") + bad));
    ASSERT_FALSE(compiled.has_value()) << bad;
    EXPECT_EQ(compiled.error().code, ErrorCode::InvalidPtx) << bad;
    const std::string opcode = std::string(bad).substr(0, std::string(bad).find('.'));
    EXPECT_NE(compiled.error().message.find("`" + opcode + "."), std::string::npos)
        << compiled.error().message;
  }
}

TEST(Jit, UnsupportedInstructionNamesItAndItsLine) {
  auto compiled = compile_text(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .b64 %rd<4>;
  .reg .b16 %h<2>;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%rd1], [%rd2], 16, [%rd3], %h1;
  ret;
}
)");
  // Multicast bulk copies are sm_90a's (not in compute_90 PTX): cucpu refuses them at load.
  ASSERT_FALSE(compiled.has_value());
  EXPECT_EQ(compiled.error().code, ErrorCode::InvalidPtx);
  EXPECT_NE(compiled.error().message.find("multicast"), std::string::npos) << compiled.error().message;
  EXPECT_NE(compiled.error().message.find("line 8"), std::string::npos) << compiled.error().message;
}

// vprintf, __assertfail and trap call the runtime functions kernel_abi.h names.
const char* seen_format = nullptr;
const uint8_t* seen_args = nullptr;
int32_t fake_vprintf(ThreadContext*, const char* format, const uint8_t* args) {
  seen_format = format;
  seen_args = args;
  return 3;
}
std::jmp_buf fake_trap_return;
uint32_t seen_assert_line = 0;
[[noreturn]] void fake_trap(ThreadContext*) { std::longjmp(fake_trap_return, 1); }
[[noreturn]] void fake_assertfail(ThreadContext*, const char*, const char*, uint32_t line, const char*, uint64_t) {
  seen_assert_line = line;
  std::longjmp(fake_trap_return, 2);
}

TEST(Jit, DeviceLibraryCallsAndTrapCallTheRuntime) {
  CompileOptions options = test_options();
  options.runtime[kVprintf] = reinterpret_cast<void*>(&fake_vprintf);
  options.runtime[kTrap] = reinterpret_cast<void*>(&fake_trap);
  options.runtime[kAssertFail] = reinterpret_cast<void*>(&fake_assertfail);
  auto module = ptx::parse(R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);
.visible .entry k(.param .u64 out, .param .u64 fmt, .param .u32 mode)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<3>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [fmt];
  ld.param.u32 %r2, [mode];
  setp.eq.u32 %p1, %r2, 1;
  @%p1 trap;
  setp.eq.u32 %p2, %r2, 2;
  @!%p2 bra $L_print;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1], %rd2;
  .param .b32 param2;
  st.param.b32 [param2], 77;
  .param .b64 param3;
  st.param.b64 [param3], %rd2;
  .param .b64 param4;
  st.param.b64 [param4], 1;
  call.uni __assertfail, (param0, param1, param2, param3, param4);
  }
$L_print:
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1], %rd1;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r1, [retval0];
  }
  st.u32 [%rd1], %r1;
  ret;
}
)",
                           "test.ptx");
  ASSERT_TRUE(module.has_value()) << module.error().message;
  auto compiled = compile_module(*module, options);
  ASSERT_TRUE(compiled.has_value()) << compiled.error().message;
  const KernelInfo* k = (*compiled)->find_kernel("k");
  ASSERT_NE(k, nullptr);
  static const char kFormat[] = "x=%d\n";
  auto run = [&](uint32_t mode, uint32_t* out) -> int {
    Params p(*k);
    p.set(0, reinterpret_cast<uint64_t>(out)).set(1, reinterpret_cast<uint64_t>(kFormat)).set(2, mode);
    ThreadContext c{};
    c.ntid[0] = c.ntid[1] = c.ntid[2] = 1;
    c.nctaid[0] = c.nctaid[1] = c.nctaid[2] = 1;
    c.params = p.data();
    if (int jumped = setjmp(fake_trap_return); jumped != 0) return jumped;
    k->entry(&c);
    return 0;
  };
  uint32_t out = 0;
  EXPECT_EQ(run(0, &out), 0);
  EXPECT_EQ(out, 3u);
  EXPECT_EQ(seen_format, kFormat);
  EXPECT_EQ(seen_args, reinterpret_cast<const uint8_t*>(&out));
  EXPECT_EQ(run(1, &out), 1);  // trapped
  EXPECT_EQ(run(2, &out), 2);  // assert failed
  EXPECT_EQ(seen_assert_line, 77u);
}

// --- LLVM IR ------------------------------------------------------------------------

TEST(Jit, TranslatesToReadableLlvmIr) {
  auto module = ptx::parse(read_file(CUCPU_TEST_DATA "/jit/vector_add.ptx"));
  ASSERT_TRUE(module.has_value()) << module.error().message;
  auto ir = translate_to_llvm_ir(*module);
  ASSERT_TRUE(ir.has_value()) << ir.error().message;
  EXPECT_NE(ir->find("define void @vector_add(ptr %ctx)"), std::string::npos) << *ir;
  EXPECT_NE(ir->find("fadd float"), std::string::npos);
  EXPECT_NE(ir->find("\"$L__BB0_2\":"), std::string::npos);  // labels keep their PTX names
}

}  // namespace
}  // namespace cucpu::jit
