// Half-precision and vector atomics (PTX ISA 9.7.13.4 atom/red: add.noftz on .f16 .bf16
// .f16x2 .bf16x2; .v2/.v4 .f32 add; .v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2
// add/min/max; cas.b16), compiled against the executor and run on it: the value stored and
// the old value returned, for rounding ties, subnormals (kept: .noftz), overflow, NaN and
// signed zeros, and sums from many threads at once. Expected values are IEEE arithmetic
// rounded to nearest even; a NaN result is 0x7fff, what the H100 gives for every f16/bf16
// arithmetic NaN (lower_half_precision.cpp); min/max follow min.f16 (a NaN loses to a
// number, -0 < +0). tests/e2e/half_atomics.cu checks the same cases against a GPU.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compile_with_executor.h"
#include "exec/grid.h"

namespace cucpu::exec {
namespace {

// What one thread's instruction sees and leaves: operands %h1..%h8 (b16), %r1..%r4 (b32)
// and %f1..%f4 (the same bits as %r1..%r4); results %h11..%h18, %r11..%r14, %f11..%f14.
struct Operands {
  uint16_t h[8] = {};
  uint32_t r[4] = {};
};
struct Results {
  uint16_t h[8] = {};
  uint32_t r[4] = {};
  uint32_t f[4] = {};
};

std::string one_thread_kernel(const std::string& body) {
  std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 cell, .param .u64 in, .param .u64 out)
{
  .reg .b16 %h<20>;
  .reg .b32 %r<20>;
  .reg .f32 %f<20>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [cell];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [out];
)";
  for (int i = 0; i < 8; ++i) text += "  ld.global.b16 %h" + std::to_string(i + 1) + ", [%rd2+" + std::to_string(2 * i) + "];\n";
  for (int i = 0; i < 4; ++i) {
    text += "  ld.global.b32 %r" + std::to_string(i + 1) + ", [%rd2+" + std::to_string(16 + 4 * i) + "];\n";
    text += "  mov.b32 %f" + std::to_string(i + 1) + ", %r" + std::to_string(i + 1) + ";\n";
  }
  text += "  " + body + "\n";
  for (int i = 0; i < 8; ++i) text += "  st.global.b16 [%rd3+" + std::to_string(2 * i) + "], %h" + std::to_string(i + 11) + ";\n";
  for (int i = 0; i < 4; ++i) {
    text += "  st.global.b32 [%rd3+" + std::to_string(16 + 4 * i) + "], %r" + std::to_string(i + 11) + ";\n";
    text += "  st.global.f32 [%rd3+" + std::to_string(32 + 4 * i) + "], %f" + std::to_string(i + 11) + ";\n";
  }
  return text + "  ret;\n}\n";
}

LaunchShape threads(uint32_t count, uint32_t blocks = 1) {
  LaunchShape shape;
  shape.grid = Dim3{blocks, 1, 1};
  shape.block = Dim3{count, 1, 1};
  return shape;
}

// Runs `body` once on `cell` (16 bytes) with `in`; returns the results.
template <typename Cell>
Results run_once(const std::string& body, Cell& cell, const Operands& in) {
  Results out;
  auto compiled = test::compile_with_executor(one_thread_kernel(body), "atomics.ptx");
  EXPECT_TRUE(compiled) << compiled.error().message;
  if (!compiled) return out;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("k");
  struct {
    void* cell;
    const Operands* in;
    Results* out;
  } params{&cell, &in, &out};
  EXPECT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(1), &params));
  return out;
}

struct HalfCase {
  uint16_t stored, added, expected;
};

// 1 + 1; 1 + 2^-11 and 1.0009765625 + 2^-11 (ties to even); subnormals kept; -tiny + tiny
// is +0; overflow to infinity; inf + -inf, NaN + 1 and 1 + NaN give the NaN 0x7fff;
// -0 + -0 = -0, -0 + +0 = +0; -5 + 2.5.
const HalfCase kF16Cases[] = {
    {0x3c00, 0x3c00, 0x4000}, {0x3c00, 0x1000, 0x3c00}, {0x3c01, 0x1000, 0x3c02}, {0x0001, 0x0001, 0x0002},
    {0x8001, 0x0001, 0x0000}, {0x7bff, 0x7bff, 0x7c00}, {0x7c00, 0xfc00, 0x7fff}, {0x7e01, 0x3c00, 0x7fff},
    {0x3c00, 0xfe03, 0x7fff}, {0x8000, 0x8000, 0x8000}, {0x8000, 0x0000, 0x0000}, {0xc500, 0x4100, 0xc100},
};
const HalfCase kBF16Cases[] = {
    {0x3f80, 0x3f80, 0x4000}, {0x3f80, 0x3b80, 0x3f80}, {0x3f81, 0x3b80, 0x3f82}, {0x0001, 0x0001, 0x0002},
    {0x8001, 0x0001, 0x0000}, {0x7f7f, 0x7f7f, 0x7f80}, {0x7f80, 0xff80, 0x7fff}, {0x7fc1, 0x3f80, 0x7fff},
    {0x3f80, 0xffc3, 0x7fff}, {0x8000, 0x8000, 0x8000}, {0x8000, 0x0000, 0x0000}, {0xc0a0, 0x4020, 0xc020},
};

TEST(HalfAtomics, ScalarAddsRoundToNearestEvenWithoutFlushing) {
  for (const char* type : {"f16", "bf16"}) {
    const bool bf16 = std::string(type) == "bf16";
    for (const HalfCase& c : bf16 ? kBF16Cases : kF16Cases) {
      uint16_t cell[8] = {c.stored};
      Operands in;
      in.h[0] = c.added;
      Results out = run_once(std::string("atom.global.add.noftz.") + type + " %h11, [%rd1], %h1;", cell, in);
      EXPECT_EQ(out.h[0], c.stored) << type << " old, " << std::hex << c.stored << " + " << c.added;
      EXPECT_EQ(cell[0], c.expected) << type << " " << std::hex << c.stored << " + " << c.added;
    }
  }
}

TEST(HalfAtomics, PackedAddsEachLaneAndRedReturnsNothing) {
  for (const char* type : {"f16x2", "bf16x2"}) {
    const bool bf16 = std::string(type) == "bf16x2";
    const auto& cases = bf16 ? kBF16Cases : kF16Cases;
    for (size_t i = 0; i < std::size(kF16Cases); ++i) {
      const HalfCase& lo = cases[i];
      const HalfCase& hi = cases[(i + 5) % std::size(kF16Cases)];
      for (const char* form : {"atom", "red"}) {
        const bool red = std::string(form) == "red";
        uint32_t cell[4] = {lo.stored | uint32_t{hi.stored} << 16};
        Operands in;
        in.r[0] = lo.added | uint32_t{hi.added} << 16;
        // Generic addressing for atom, .global for red.
        std::string body = red ? std::string("red.global.add.noftz.") + type + " [%rd1], %r1;"
                               : std::string("atom.add.noftz.") + type + " %r11, [%rd1], %r1;";
        Results out = run_once(body, cell, in);
        EXPECT_EQ(cell[0], lo.expected | uint32_t{hi.expected} << 16) << type << " " << form << " case " << i;
        if (!red) {
          EXPECT_EQ(out.r[0], lo.stored | uint32_t{hi.stored} << 16) << type << " case " << i;
        }
      }
    }
  }
}

TEST(HalfAtomics, VectorF32AddIsOneAtomicAddPerElement) {
  float cell[4] = {1.0f, -2.5f, 1e30f, 0.0f};
  Operands in;
  const float add[4] = {0.5f, 2.5f, 1e30f, -0.0f};
  std::memcpy(in.r, add, sizeof(add));
  Results out = run_once("atom.global.add.v4.f32 {%f11,%f12,%f13,%f14}, [%rd1], {%f1,%f2,%f3,%f4};", cell, in);
  EXPECT_EQ(cell[0], 1.5f);
  EXPECT_EQ(cell[1], 0.0f);
  EXPECT_EQ(cell[2], 2e30f);
  EXPECT_EQ(cell[3], 0.0f);
  EXPECT_FALSE(std::signbit(cell[3]));
  const float old[4] = {1.0f, -2.5f, 1e30f, 0.0f};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(std::bit_cast<float>(out.f[i]), old[i]) << i;

  float pair[4] = {3.0f, 4.0f, 7.0f, 7.0f};
  Operands in2;
  const float add2[2] = {-1.0f, std::bit_cast<float>(0x7fc01234u)};
  std::memcpy(in2.r, add2, sizeof(add2));
  run_once("red.global.add.v2.f32 [%rd1], {%f1,%f2};", pair, in2);
  EXPECT_EQ(pair[0], 2.0f);
  EXPECT_EQ(std::bit_cast<uint32_t>(pair[1]), 0x7fffffffu);  // the canonical f32 NaN, as scalar atom.add.f32
  EXPECT_EQ(pair[2], 7.0f);                                  // beyond the vector: untouched
}

TEST(HalfAtomics, VectorMinMaxOnHalves) {
  // max against 1, -2, NaN, -0, +0, tiny, NaN, 65504.
  uint16_t cell[8] = {0x3800, 0x3800, 0x3c00, 0x0000, 0x8000, 0x8001, 0x7e00, 0x7c00};
  Operands in;
  const uint16_t values[8] = {0x3c00, 0xc000, 0x7e00, 0x8000, 0x0000, 0x0001, 0x7e00, 0x7bff};
  std::memcpy(in.h, values, sizeof(values));
  Results out = run_once(
      "atom.global.max.noftz.v8.f16 {%h11,%h12,%h13,%h14,%h15,%h16,%h17,%h18}, [%rd1], "
      "{%h1,%h2,%h3,%h4,%h5,%h6,%h7,%h8};",
      cell, in);
  const uint16_t old[8] = {0x3800, 0x3800, 0x3c00, 0x0000, 0x8000, 0x8001, 0x7e00, 0x7c00};
  // a NaN loses to a number; +0 > -0; two NaNs give 0x7fff.
  const uint16_t now[8] = {0x3c00, 0x3800, 0x3c00, 0x0000, 0x0000, 0x0001, 0x7fff, 0x7c00};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out.h[i], old[i]) << i;
    EXPECT_EQ(cell[i], now[i]) << i;
  }

  // min on two bf16x2 pairs: lanes (1, NaN), (-0, -inf) against (0.5, 2), (+0, 1).
  uint32_t pairs[4] = {0x7fc03f80u, 0xff808000u};
  Operands in2;
  in2.r[0] = 0x40003f00u;
  in2.r[1] = 0x3f800000u;
  Results out2 = run_once("atom.global.min.noftz.v2.bf16x2 {%r11,%r12}, [%rd1], {%r1,%r2};", pairs, in2);
  EXPECT_EQ(out2.r[0], 0x7fc03f80u);
  EXPECT_EQ(out2.r[1], 0xff808000u);
  EXPECT_EQ(pairs[0], 0x40003f00u);
  EXPECT_EQ(pairs[1], 0xff808000u);
}

TEST(HalfAtomics, CompareAndSwapOn16Bits) {
  uint16_t cell[8] = {0x1234, 0xabcd};
  Operands in;
  in.h[0] = 0x1234;
  in.h[1] = 0xbeef;
  in.h[2] = 0x5555;
  Results out = run_once("atom.global.cas.b16 %h11, [%rd1], %h1, %h2; atom.global.cas.b16 %h12, [%rd1], %h1, %h3;",
                         cell, in);
  EXPECT_EQ(out.h[0], 0x1234);
  EXPECT_EQ(out.h[1], 0xbeef);
  EXPECT_EQ(cell[0], 0xbeef);
  EXPECT_EQ(cell[1], 0xabcd);  // the neighbouring half is untouched
}

// Many threads on one cell: sums of exactly representable values, the same in any order.
TEST(HalfAtomics, ContendedSumsAreExact) {
  auto compiled = test::compile_with_executor(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry sums(.param .u64 cells)
{
  .reg .pred %p<2>;
  .reg .b16 %h<4>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [cells];
  mov.b16 %h1, 0x3c00;
  atom.global.add.noftz.f16 %h2, [%rd1], %h1;
  // bf16 holds the integers up to 256 exactly: one thread in four adds.
  mov.u32 %r2, %tid.x;
  and.b32 %r2, %r2, 3;
  setp.eq.u32 %p1, %r2, 0;
  mov.b16 %h1, 0x3f80;
  @%p1 red.global.add.noftz.bf16 [%rd1+2], %h1;
  mov.b32 %r1, 0xc0003800;
  red.global.add.noftz.f16x2 [%rd1+4], %r1;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0fBE800000;
  atom.global.add.v2.f32 {%f3, _}, [%rd1+8], {%f1, %f2};
  ret;
}
)",
                                              "sums.ptx");
  ASSERT_TRUE(compiled) << compiled.error().message;
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("sums");
  ASSERT_NE(kernel, nullptr);
  alignas(16) uint8_t cells[16] = {};
  void* data = cells;
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, threads(128, 8), &data));  // 1024 threads
  uint16_t halves[4];
  float floats[2];
  std::memcpy(halves, cells, 8);
  std::memcpy(floats, cells + 8, 8);
  EXPECT_EQ(halves[0], 0x6400);  // 1024 in f16
  EXPECT_EQ(halves[1], 0x4380);  // 256 in bf16
  EXPECT_EQ(halves[2], 0x6000);  // 1024 * 0.5 = 512 in f16
  EXPECT_EQ(halves[3], 0xe800);  // 1024 * -2 = -2048 in f16
  EXPECT_EQ(floats[0], 1024.0f);
  EXPECT_EQ(floats[1], -256.0f);
}

TEST(HalfAtomics, FormsPtxLacksAreCompileErrors) {
  const std::pair<const char*, const char*> bad[] = {
      {"atom.shared.add.v2.f32 {%f11,%f12}, [%rd1], {%f1,%f2};", "global"},
      {"atom.global.add.v8.f32 {%f11,%f12,%f13,%f14,%f1,%f2,%f3,%f4}, [%rd1], {%f1,%f2,%f3,%f4,%f1,%f2,%f3,%f4};",
       "at most 4"},
      {"atom.global.min.v2.f32 {%f11,%f12}, [%rd1], {%f1,%f2};", "no such atomic"},
      {"atom.global.xor.noftz.f16 %h11, [%rd1], %h1;", "no such atomic"},
  };
  for (const auto& [body, why] : bad) {
    auto compiled = test::compile_with_executor(one_thread_kernel(body), "bad.ptx");
    if (compiled) {
      ADD_FAILURE() << body << " compiled";
      continue;
    }
    EXPECT_NE(compiled.error().message.find(why), std::string::npos) << body << ": " << compiled.error().message;
  }
}

}  // namespace
}  // namespace cucpu::exec
