// Tensor-core instructions compiled by the JIT and run on the executor, checked against
// the fragment layouts as the PTX ISA 9.0 writes them (§9.7.14.5.8 mma.m16n8k16 .f16,
// §9.7.14.5.9 mma.m16n8k32 .s8, §9.7.14.5.15 ldmatrix, §9.7.14.5.17 movmatrix), coded
// here independently of src/jit/matrix_fragments.cpp: lanes load fragments from memory
// ([lane][register]), run one instruction, and store what they get back.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "exec/grid.h"
#include "jit/compile.h"
#include "ptx/parse.h"
#include "compile_with_executor.h"

namespace cucpu::exec {
namespace {

std::unique_ptr<jit::CompiledModule> compile(const std::string& text) {
  auto compiled = test::compile_with_executor(text, "tensor_core_test.ptx");
  EXPECT_TRUE(compiled) << compiled.error().message;
  return compiled ? std::move(*compiled) : nullptr;
}

// One warp; the kernel's parameters are `pointers`.
void run_warp(const std::string& ptx, const char* name, std::vector<void*> pointers) {
  auto compiled = compile(ptx);
  ASSERT_TRUE(compiled);
  const jit::KernelInfo* kernel = compiled->find_kernel(name);
  ASSERT_NE(kernel, nullptr);
  LaunchShape shape;
  shape.grid = {1, 1, 1};
  shape.block = {32, 1, 1};
  std::vector<uint8_t> params(pointers.size() * 8);
  std::memcpy(params.data(), pointers.data(), params.size());
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel, shape, params.data()));
}

// Loads `count` b32 registers %a<count> from [base + lane * 4 * count].
std::string load_registers(const char* prefix, const char* base, int count) {
  std::string text = "  mul.wide.u32 %rd9, %r0, " + std::to_string(4 * count) + ";\n  add.s64 %rd9, " + base + ", %rd9;\n";
  for (int i = 0; i < count; ++i)
    text += "  ld.global.b32 %" + std::string(prefix) + std::to_string(i) + ", [%rd9+" + std::to_string(4 * i) + "];\n";
  return text;
}
std::string store_registers(const char* prefix, const char* base, int count) {
  std::string text = "  mul.wide.u32 %rd9, %r0, " + std::to_string(4 * count) + ";\n  add.s64 %rd9, " + base + ", %rd9;\n";
  for (int i = 0; i < count; ++i)
    text += "  st.global.b32 [%rd9+" + std::to_string(4 * i) + "], %" + std::string(prefix) + std::to_string(i) + ";\n";
  return text;
}
std::string list(const char* prefix, int count) {
  std::string text = "{";
  for (int i = 0; i < count; ++i) text += (i ? ", %" : "%") + std::string(prefix) + std::to_string(i);
  return text + "}";
}

std::string product_kernel(const char* name, const char* instruction, int a, int b, int c) {
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry ") + name +
         "(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
         "  .reg .b32 %r<2>;\n  .reg .b32 %a<8>;\n  .reg .b32 %b<8>;\n  .reg .b32 %c<8>;\n  .reg .b32 %d<8>;\n"
         "  .reg .b64 %rd<10>;\n"
         "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n  ld.param.u64 %rd4, [pd];\n"
         "  mov.u32 %r0, %laneid;\n" +
         load_registers("a", "%rd1", a) + load_registers("b", "%rd2", b) + load_registers("c", "%rd3", c) + "  " +
         instruction + " " + list("d", c) + ", " + list("a", a) + ", " + list("b", b) + ", " + list("c", c) + ";\n" +
         store_registers("d", "%rd4", c) + "  ret;\n}\n";
}

uint16_t to_half_bits(float v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
uint32_t float_bits(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits;
}

TEST(TensorCores, MmaM16n8k16F16MatchesTheIsaFragments) {
  std::mt19937 random(7);
  std::uniform_int_distribution<int> small(-8, 8);
  float A[16][16], B[16][8], C[16][8];
  for (auto& row : A)
    for (float& v : row) v = small(random) * 0.25f;
  for (auto& row : B)
    for (float& v : row) v = small(random) * 0.5f;
  for (auto& row : C)
    for (float& v : row) v = static_cast<float>(small(random));
  std::vector<uint32_t> a(32 * 4), b(32 * 2), c(32 * 4), d(32 * 4, 0);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t g = lane >> 2, t = lane % 4;
    for (uint32_t i = 0; i < 8; ++i) {  // a0..a7, two per register
      const uint32_t row = (i == 0 || i == 1 || i == 4 || i == 5) ? g : g + 8;
      const uint32_t col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
      a[lane * 4 + i / 2] |= uint32_t{to_half_bits(A[row][col])} << (16 * (i & 1));
    }
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
      b[lane * 2 + i / 2] |= uint32_t{to_half_bits(B[row][g])} << (16 * (i & 1));
    }
    for (uint32_t i = 0; i < 4; ++i) c[lane * 4 + i] = float_bits(C[i < 2 ? g : g + 8][t * 2 + (i & 1)]);
  }
  run_warp(product_kernel("mma_f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4), "mma_f16",
           {a.data(), b.data(), c.data(), d.data()});
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t g = lane >> 2, t = lane % 4;
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t row = i < 2 ? g : g + 8, col = t * 2 + (i & 1);
      float expected = C[row][col];
      for (int k = 0; k < 16; ++k) expected += A[row][k] * B[k][col];  // exact: small multiples of 1/8
      EXPECT_EQ(d[lane * 4 + i], float_bits(expected)) << "lane " << lane << " d" << i;
    }
  }
}

TEST(TensorCores, MmaM16n8k32S8MatchesTheIsaFragments) {
  std::mt19937 random(11);
  std::uniform_int_distribution<int> byte(-128, 127);
  int A[16][32], B[32][8], C[16][8];
  for (auto& row : A)
    for (int& v : row) v = byte(random);
  for (auto& row : B)
    for (int& v : row) v = byte(random);
  for (auto& row : C)
    for (int& v : row) v = byte(random) * 1000;
  std::vector<uint32_t> a(32 * 4, 0), b(32 * 2, 0), c(32 * 4), d(32 * 4, 0);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t g = lane >> 2, t = lane % 4;
    for (uint32_t i = 0; i < 16; ++i) {
      const uint32_t row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8, col = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
      a[lane * 4 + i / 4] |= (static_cast<uint32_t>(A[row][col]) & 0xff) << (8 * (i & 3));
    }
    for (uint32_t i = 0; i < 8; ++i) {
      const uint32_t row = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
      b[lane * 2 + i / 4] |= (static_cast<uint32_t>(B[row][g]) & 0xff) << (8 * (i & 3));
    }
    for (uint32_t i = 0; i < 4; ++i) c[lane * 4 + i] = static_cast<uint32_t>(C[i < 2 ? g : g + 8][t * 2 + (i & 1)]);
  }
  run_warp(product_kernel("mma_s8", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 4), "mma_s8",
           {a.data(), b.data(), c.data(), d.data()});
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t g = lane >> 2, t = lane % 4;
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t row = i < 2 ? g : g + 8, col = t * 2 + (i & 1);
      int expected = C[row][col];
      for (int k = 0; k < 32; ++k) expected += A[row][k] * B[k][col];
      EXPECT_EQ(static_cast<int32_t>(d[lane * 4 + i]), expected) << "lane " << lane << " d" << i;
    }
  }
}

// Four 8x8 b16 matrices in shared memory, element (m, r, c) = m * 64 + r * 8 + c; lane L
// supplies row L % 8 of matrix L / 8. out: ldmatrix.x4, ldmatrix.x4.trans, movmatrix of
// the first, stmatrix.x4 back into shared (read out again), each [lane][4].
constexpr const char* kMatrixMovesPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry moves(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 tile[512];
  .shared .align 16 .b8 back[512];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %laneid;
  shl.b32 %r1, %r0, 4;
  mov.u32 %r2, tile;
  add.u32 %r3, %r2, %r1;
  shl.b32 %r4, %r0, 3;
  add.u32 %r5, %r4, 1;
  prmt.b32 %r6, %r4, %r5, 0x5410;
  add.u32 %r7, %r6, 0x00020002;
  add.u32 %r8, %r7, 0x00020002;
  add.u32 %r9, %r8, 0x00020002;
  st.shared.v4.u32 [%r3], {%r6, %r7, %r8, %r9};
  bar.warp.sync -1;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%r3];
  ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r14, %r15, %r16, %r17}, [%r3];
  movmatrix.sync.aligned.m8n8.trans.b16 %r18, %r10;
  mov.u32 %r19, back;
  add.u32 %r20, %r19, %r1;
  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r20], {%r10, %r11, %r12, %r13};
  bar.warp.sync -1;
  ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r20];
  mul.wide.u32 %rd2, %r0, 64;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};
  st.global.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};
  st.global.u32 [%rd3+32], %r18;
  st.global.v4.u32 [%rd3+48], {%r6, %r7, %r8, %r9};
  ret;
}
)";

// mma.m8n8k4 .f16 (PTX ISA 9.0 §9.7.14.5.1): four products, one per quad pair (lanes
// 4q..4q+3 and 4q+16..4q+19). .col A: lane holds column t = lane % 4, rows i (+4 in the high
// group); .row B: row t, columns i (+4); f32 C/D: row (lane & 1) + (i & 2) (+4), column
// (i & 4) + (lane & 2) + (i & 1). Quad pair q multiplies A[r][k] = (r - k + q) / 2 by
// B[k][c] = (k + c - 3) / 4 and adds C[r][c] = r - c.
TEST(TensorCores, MmaM8n8k4F16ComputesOneProductPerQuadPair) {
  auto A = [](uint32_t q, uint32_t r, uint32_t k) { return (static_cast<float>(r) - k + q) * 0.5f; };
  auto B = [](uint32_t k, uint32_t c) { return (static_cast<float>(k) + c - 3) * 0.25f; };
  auto C = [](uint32_t r, uint32_t c) { return static_cast<float>(r) - static_cast<float>(c); };
  std::vector<uint32_t> a(32 * 2, 0), b(32 * 2, 0), c(32 * 8), d(32 * 8, 0);
  struct Position {
    uint32_t row, col;
  };
  auto accumulator = [](uint32_t lane, uint32_t i) {
    return Position{(lane & 1) + (i & 2) + (lane >= 16 ? 4 : 0), (i & 4) + (lane & 2) + (i & 1)};
  };
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t q = (lane / 4) % 4, t = lane % 4, high = lane >= 16 ? 4 : 0;
    for (uint32_t i = 0; i < 4; ++i) {
      a[lane * 2 + i / 2] |= uint32_t{to_half_bits(A(q, i + high, t))} << (16 * (i & 1));
      b[lane * 2 + i / 2] |= uint32_t{to_half_bits(B(t, i + high))} << (16 * (i & 1));
    }
    for (uint32_t i = 0; i < 8; ++i)
      c[lane * 8 + i] = float_bits(C(accumulator(lane, i).row, accumulator(lane, i).col));
  }
  run_warp(product_kernel("mma_884", "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32", 2, 2, 8), "mma_884",
           {a.data(), b.data(), c.data(), d.data()});
  float D[4][8][8];  // each quad pair's D, gathered from its lanes
  for (uint32_t lane = 0; lane < 32; ++lane) {
    for (uint32_t i = 0; i < 8; ++i) {
      const Position p = accumulator(lane, i);
      std::memcpy(&D[(lane / 4) % 4][p.row][p.col], &d[lane * 8 + i], 4);
    }
  }
  // By hand: D0[0][0] = 0 + 0*(-3/4) + (-1/2)(-1/2) + (-1)(-1/4) + (-3/2)(0) = 1/2;
  // D0[7][7] = 0 + (7/2)(1) + 3(5/4) + (5/2)(3/2) + 2(7/4) = 29/2;
  // D3[2][5] = -3 + (5/2)(1/2) + 2(3/4) + (3/2)(1) + 1(5/4) = 5/2.
  EXPECT_EQ(D[0][0][0], 0.5f);
  EXPECT_EQ(D[0][7][7], 14.5f);
  EXPECT_EQ(D[3][2][5], 2.5f);
  for (uint32_t q = 0; q < 4; ++q) {
    for (uint32_t r = 0; r < 8; ++r) {
      for (uint32_t col = 0; col < 8; ++col) {
        float expected = C(r, col);
        for (uint32_t k = 0; k < 4; ++k) expected += A(q, r, k) * B(k, col);  // exact: multiples of 1/8
        EXPECT_EQ(D[q][r][col], expected) << "quad pair " << q << " D[" << r << "][" << col << "]";
      }
    }
  }
}

TEST(TensorCores, LdmatrixStmatrixAndMovmatrixFollowTheIsaFragments) {
  std::vector<uint32_t> out(32 * 16, 0);
  run_warp(kMatrixMovesPtx, "moves", {out.data()});
  auto element = [](uint32_t m, uint32_t r, uint32_t c) { return m * 64 + r * 8 + c; };
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t row = lane / 4, col = 2 * (lane % 4);
    const uint32_t* o = &out[lane * 16];
    for (uint32_t m = 0; m < 4; ++m) {
      EXPECT_EQ(o[m], element(m, row, col) | element(m, row, col + 1) << 16) << lane << " x4 " << m;
      EXPECT_EQ(o[4 + m], element(m, col, row) | element(m, col + 1, row) << 16) << lane << " trans " << m;
    }
    EXPECT_EQ(o[8], element(0, col, row) | element(0, col + 1, row) << 16) << lane << " movmatrix";
    // stmatrix wrote the matrices back where ldmatrix read them: lane L's row is row L % 8
    // of matrix L / 8, i.e. elements L * 8 .. L * 8 + 7.
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(o[12 + i], (lane * 8 + 2 * i) | (lane * 8 + 2 * i + 1) << 16) << lane;
  }
}

// cvt to and from fp8 and the .satfinite forms, against values worked out from the PTX
// ISA 9.0 format definitions (§5.2.5.1): e4m3 max 448 = 0x7e, -2 = 0xc0, NaN 0x7f;
// e5m2 448 = 0x5f; f16 448 = 0x5f00, max 0x7bff; tf32 max 0x7f7fe000.
constexpr const char* kNarrowFloatPtx = R"(.version 8.6
.target sm_90
.address_size 64
.visible .entry narrow(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b16 %h<10>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f43E00000;
  mov.f32 %f2, 0fC0000000;
  mov.f32 %f3, 0f49742400;
  mov.f32 %f4, 0f7F800000;
  mov.f32 %f5, 0f7FC00000;
  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;
  cvt.rn.satfinite.relu.e5m2x2.f32 %h2, %f1, %f2;
  cvt.rn.f16x2.e4m3x2 %r1, %h1;
  cvt.rn.satfinite.e4m3x2.f32 %h3, %f3, %f5;
  cvt.rna.satfinite.tf32.f32 %r2, %f4;
  cvt.rn.satfinite.f16x2.f32 %r3, %f3, %f2;
  cvt.rn.satfinite.e2m1x2.f32 %h4, %f3, %f2;
  cvt.rz.satfinite.ue8m0x2.f32 %h5, %f1, %f2;
  st.global.u16 [%rd1], %h1;
  st.global.u16 [%rd1+2], %h2;
  st.global.u32 [%rd1+4], %r1;
  st.global.u16 [%rd1+8], %h3;
  st.global.u32 [%rd1+12], %r2;
  st.global.u32 [%rd1+16], %r3;
  st.global.u16 [%rd1+20], %h4;
  st.global.u16 [%rd1+22], %h5;
  ret;
}
)";

TEST(NarrowFloats, Fp8Fp4Ue8m0AndSatfiniteConversions) {
  uint8_t out[24] = {};
  run_warp(kNarrowFloatPtx, "narrow", {out});
  auto u16 = [&](int at) { return static_cast<uint32_t>(out[at] | out[at + 1] << 8); };
  auto u32 = [&](int at) { return u16(at) | u16(at + 2) << 16; };
  EXPECT_EQ(u16(0), 0x7ec0u);          // e4m3x2 {448, -2}
  EXPECT_EQ(u16(2), 0x5f00u);          // e5m2x2 {448, relu(-2) = +0}
  EXPECT_EQ(u32(4), 0x5f00c000u);      // back to f16x2, exactly
  EXPECT_EQ(u16(8), 0x7e7fu);          // 1e6 saturates to 448; NaN stays NaN
  EXPECT_EQ(u32(12), 0x7f7fe000u);     // tf32 .satfinite: inf -> largest finite
  EXPECT_EQ(u32(16), 0x7bffc000u);     // f16 .satfinite: 1e6 -> 65504
  EXPECT_EQ(u16(20) & 0xff, 0x7cu);    // e2m1x2 {1e6 -> 6 (0x7), -2 (0xc)}
  EXPECT_EQ(u16(22), 0x8700u);         // ue8m0x2 .rz {448 -> 2^8 (0x87), -2 -> 0}
}

}  // namespace
}  // namespace cucpu::exec
