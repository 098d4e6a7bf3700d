// Calls through function pointers (PTX `call` through a register with a .callprototype),
// .func with .reg parameters, and address initializers in byte arrays, compiled against
// the executor's runtime functions and run on it: nvcc's device_calls.ptx, a table of
// functions in a .b8 struct image, one ABI for .param and .reg callers, and calls through
// pointers that are no function (a kernel fault, cudaErrorIllegalAddress).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compile_with_executor.h"
#include "exec/grid.h"

namespace cucpu::exec {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

LaunchShape threads(uint32_t count) {
  LaunchShape shape;
  shape.grid = Dim3{1, 1, 1};
  shape.block = Dim3{count, 1, 1};
  return shape;
}

// Parameters of one pointer-sized value after another, 8-byte aligned.
struct PointerParams {
  std::vector<uint64_t> values;
  const void* data() const { return values.data(); }
};

TEST(IndirectCalls, DeviceCallsFromNvccRun) {
  auto compiled = test::compile_with_executor(read_file(CUCPU_TEST_DATA "/ptx/inputs/device_calls.ptx"), "device_calls.ptx");
  ASSERT_TRUE(compiled) << compiled.error().message;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("_Z14call_functionsPfi");
  ASSERT_NE(kernel, nullptr);
  // call_functions(out, which): v = out[i]^2 + (i & 7)!; out[i] = table[which & 1](v) + v,
  // table = {square, twice}; out[64], out[65] = 1, 2.
  for (int which : {0, 1}) {
    std::vector<float> out(66, 0.0f);
    for (int i = 0; i < 16; ++i) out[i] = 0.5f * static_cast<float>(i);
    struct {
      float* out;
      int32_t which;
    } params{out.data(), which};
    ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(16), &params));
    const int factorial[] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int i = 0; i < 16; ++i) {
      const float x = 0.5f * static_cast<float>(i);
      const float v = x * x + static_cast<float>(factorial[i & 7]);
      const float expected = (which == 0 ? v * v : v + v) + v;
      EXPECT_EQ(out[i], expected) << "which " << which << " thread " << i;
    }
    EXPECT_EQ(out[64], 1.0f);
    EXPECT_EQ(out[65], 2.0f);
  }
}

// Functions with .reg parameters, in a table laid out as nvcc lays out a struct holding
// pointers (a .b8 array with byte-masked addresses), called directly with registers and
// through pointers with registers and with .param variables: one ABI for all.
constexpr const char* kTablePtx = R"(.version 8.0
.target sm_90
.address_size 64
.func (.reg .b32 out) add_one (.reg .b32 in);
.func (.reg .b32 out) times_three (.reg .b32 in);
// struct { int id; int (*fn)(int); } entries[2] = {{7, add_one}, {9, times_three}};
.global .align 8 .b8 entries[32] = {7, 0, 0, 0, 0, 0, 0, 0,
  0xFF(add_one), 0xFF00(add_one), 0xFF0000(add_one), 0xFF000000(add_one),
  0xFF00000000(add_one), 0xFF0000000000(add_one), 0xFF000000000000(add_one), 0xFF00000000000000(add_one),
  9, 0, 0, 0, 0, 0, 0, 0,
  0xFF(times_three), 0xFF00(times_three), 0xFF0000(times_three), 0xFF000000(times_three),
  0xFF00000000(times_three), 0xFF0000000000(times_three), 0xFF000000000000(times_three),
  0xFF00000000000000(times_three)};
// A packed struct { char tag; fn; }: the address at offset 1.
.global .align 1 .u8 packed[9] = {5, 0xFF(add_one), 0xFF00(add_one), 0xFF0000(add_one), 0xFF000000(add_one),
  0xFF00000000(add_one), 0xFF0000000000(add_one), 0xFF000000000000(add_one), 0xFF00000000000000(add_one)};

.func (.reg .b32 out) add_one (.reg .b32 in)
{
  add.s32 out, in, 1;
  ret;
}

// A guarded early ret and the fall-through ret both hand `out` back.
.func (.reg .b32 out) times_three (.reg .b32 in)
{
  .reg .pred %p;
  mul.lo.s32 out, in, 3;
  setp.gt.s32 %p, in, 10;
  @%p ret;
  add.s32 out, out, 1000;
}

.visible .entry k(.param .u64 out_ptr)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out_ptr];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 12;
  add.s64 %rd1, %rd1, %rd2;
  call.uni (%r2), add_one, (%r1);
  st.global.u32 [%rd1], %r2;
  and.b32 %r3, %r1, 1;
  mul.wide.u32 %rd3, %r3, 16;
  mov.u64 %rd4, entries;
  add.s64 %rd5, %rd4, %rd3;
  ld.global.u32 %r4, [%rd5];
  ld.global.u64 %rd6, [%rd5+8];
  reg_proto: .callprototype (.reg .b32 _) _ (.reg .b32 _);
  call (%r5), %rd6, (%r1), reg_proto;
  mad.lo.s32 %r6, %r4, 1000, %r5;
  st.global.u32 [%rd1+4], %r6;
  {
  .param .b32 param0;
  .param .b32 retval0;
  st.param.b32 [param0], %r1;
  param_proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd6, (param0), param_proto;
  ld.param.b32 %r7, [retval0];
  }
  st.global.u32 [%rd1+8], %r7;
  ret;
}
)";

TEST(IndirectCalls, TableOfRegParameterFunctionsInAByteArray) {
  auto compiled = test::compile_with_executor(kTablePtx, "table.ptx");
  ASSERT_TRUE(compiled) << compiled.error().message;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("k");
  ASSERT_NE(kernel, nullptr);
  std::vector<uint32_t> out(3 * 16, 0);
  uint32_t* data = out.data();
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(16), &data));
  for (uint32_t t = 0; t < 16; ++t) {
    const uint32_t f = t % 2 == 0 ? t + 1 : (t > 10 ? 3 * t : 3 * t + 1000);
    EXPECT_EQ(out[3 * t], t + 1) << t;
    EXPECT_EQ(out[3 * t + 1], (t % 2 == 0 ? 7000 : 9000) + f) << t;
    EXPECT_EQ(out[3 * t + 2], f) << t;
  }
  // The address at offset 1 of the packed byte array is add_one's, as in `entries`.
  const jit::GlobalInfo* entries = (*compiled)->find_global("entries");
  const jit::GlobalInfo* packed = (*compiled)->find_global("packed");
  ASSERT_NE(entries, nullptr);
  ASSERT_NE(packed, nullptr);
  EXPECT_EQ(packed->size, 9u);
  const auto* packed_bytes = static_cast<const uint8_t*>(packed->address);
  EXPECT_EQ(packed_bytes[0], 5);
  EXPECT_EQ(std::memcmp(packed_bytes + 1, static_cast<const uint8_t*>(entries->address) + 8, 8), 0);
}

// A kernel calling through a pointer it is given; `pointers` holds the addresses the module
// takes (of a one-argument and a two-argument function).
constexpr const char* kCallThroughPtx = R"(.version 8.0
.target sm_90
.address_size 64
.func (.param .b32 r) negate (.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  neg.s32 %r2, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) sum (.param .b32 x, .param .b32 y)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  ld.param.b32 %r2, [y];
  add.s32 %r3, %r1, %r2;
  st.param.b32 [r], %r3;
  ret;
}
.global .align 8 .u64 pointers[2] = {negate, sum};
.visible .entry call_through(.param .u64 fn, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [fn];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 param0;
  .param .b32 retval0;
  st.param.b32 [param0], %r1;
  proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd1, (param0), proto;
  ld.param.b32 %r2, [retval0];
  }
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

TEST(IndirectCalls, CallThroughAPointerToNoFunctionIsAnInvalidPc) {
  auto compiled = test::compile_with_executor(kCallThroughPtx, "call_through.ptx");
  ASSERT_TRUE(compiled) << compiled.error().message;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("call_through");
  ASSERT_NE(kernel, nullptr);
  const jit::GlobalInfo* pointers = (*compiled)->find_global("pointers");
  ASSERT_NE(pointers, nullptr);
  uint64_t negate = 0, sum = 0;
  std::memcpy(&negate, pointers->address, 8);
  std::memcpy(&sum, static_cast<const uint8_t*>(pointers->address) + 8, 8);
  std::vector<int32_t> out(8, 0);

  PointerParams good{{negate, reinterpret_cast<uint64_t>(out.data())}};
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(8), good.data()));
  for (int32_t t = 0; t < 8; ++t) EXPECT_EQ(out[t], -t);

  int32_t data = 0;
  const std::pair<const char*, uint64_t> bad[] = {
      {"null", 0},
      {"host data", reinterpret_cast<uint64_t>(&data)},
      {"a function taking two arguments", sum},
      {"the kernel's own code", reinterpret_cast<uint64_t>(kernel->entry)},
  };
  for (const auto& [what, pointer] : bad) {
    PointerParams params{{pointer, reinterpret_cast<uint64_t>(out.data())}};
    Result<void> result = GridExecutor::instance().run_grid(*kernel, threads(8), params.data());
    ASSERT_FALSE(result) << what;
    EXPECT_EQ(result.error().code, ErrorCode::InvalidPc) << what;  // cudaErrorInvalidPc, as an H100
    EXPECT_NE(result.error().message.find("not the address of a device function"), std::string::npos)
        << what << ": " << result.error().message;
  }
  // The pool still runs kernels afterwards.
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(8), good.data()));
  EXPECT_EQ(out[7], -7);
}

// A barrier in a function only a pointer reaches: the kernel must run as one that waits.
TEST(IndirectCalls, BarrierBehindAPointerMakesTheKernelWait) {
  auto compiled = test::compile_with_executor(R"(.version 8.0
.target sm_90
.address_size 64
.func sync_block ()
{
  bar.sync 0;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 flag;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_wait;
  st.shared.u32 [flag], 42;
$L_wait:
  mov.u64 %rd1, sync_block;
  proto: .callprototype _ ();
  call %rd1, (), proto;
  ld.shared.u32 %r2, [flag];
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r2;
  ret;
}
)",
                                              "barrier_behind_pointer.ptx");
  ASSERT_TRUE(compiled) << compiled.error().message;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("k");
  ASSERT_NE(kernel, nullptr);
  EXPECT_TRUE(kernel->uses_barriers);
  std::vector<uint32_t> out(64, 0);
  uint32_t* data = out.data();
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(64), &data));
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], 42u) << t;
}

}  // namespace
}  // namespace cucpu::exec
