// The float operations that are IR of their own rather than one LLVM instruction
// (src/jit/directed_rounding.cpp, src/jit/special_function_ir.cpp) against their references
// over a million inputs each: the host in the directed rounding mode, and the C++ MUFU models
// (which special_function_unit_test checks against the H100). Both shapes of the IR run: the
// kernel's scalar entry thread by thread, and its compiled block function (vectors of 32
// lanes, table lookups as gathers) through the executor.
#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "compile_with_executor.h"
#include "exec/grid.h"
#include "jit/special_function_unit.h"

namespace cucpu::exec {
namespace {

// out[16 i + k] = operation k of in[3 i .. 3 i + 2] (a, b, c) and in64[i] (d).
constexpr const char* kModelsPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry models(.param .u64 in, .param .u64 in64, .param .u64 out, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<20>;
  .reg .f64 %fd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  ld.param.u32 %r5, [n];
  setp.ge.u32 %p, %r4, %r5;
  @%p bra DONE;
  ld.param.u64 %rd1, [in];
  mul.wide.u32 %rd2, %r4, 12;
  add.u64 %rd1, %rd1, %rd2;
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
  ld.global.f32 %f3, [%rd1+8];
  ld.param.u64 %rd3, [in64];
  mul.wide.u32 %rd4, %r4, 8;
  add.u64 %rd3, %rd3, %rd4;
  ld.global.f64 %fd1, [%rd3];
  rsqrt.approx.f32 %f4, %f1;
  rsqrt.approx.ftz.f32 %f5, %f1;
  ex2.approx.f32 %f6, %f1;
  ex2.approx.ftz.f32 %f7, %f1;
  add.rz.f32 %f8, %f1, %f2;
  add.rm.f32 %f9, %f1, %f2;
  add.rp.f32 %f10, %f1, %f2;
  mul.rz.f32 %f11, %f1, %f2;
  mul.rm.f32 %f12, %f1, %f2;
  mul.rp.f32 %f13, %f1, %f2;
  fma.rz.f32 %f14, %f1, %f2, %f3;
  fma.rm.f32 %f15, %f1, %f2, %f3;
  fma.rp.f32 %f16, %f1, %f2, %f3;
  cvt.rz.f32.f64 %f17, %fd1;
  cvt.rm.f32.f64 %f18, %fd1;
  cvt.rp.f32.f64 %f19, %fd1;
  ld.param.u64 %rd5, [out];
  mul.wide.u32 %rd6, %r4, 64;
  add.u64 %rd5, %rd5, %rd6;
  st.global.v4.f32 [%rd5], {%f4, %f5, %f6, %f7};
  st.global.v4.f32 [%rd5+16], {%f8, %f9, %f10, %f11};
  st.global.v4.f32 [%rd5+32], {%f12, %f13, %f14, %f15};
  st.global.v4.f32 [%rd5+48], {%f16, %f17, %f18, %f19};
DONE:
  ret;
}
)";
constexpr int kOperations = 16;
const char* const kNames[kOperations] = {"rsqrt.approx.f32", "rsqrt.approx.ftz.f32", "ex2.approx.f32",
                                         "ex2.approx.ftz.f32", "add.rz.f32", "add.rm.f32", "add.rp.f32",
                                         "mul.rz.f32", "mul.rm.f32", "mul.rp.f32", "fma.rz.f32", "fma.rm.f32",
                                         "fma.rp.f32", "cvt.rz.f32.f64", "cvt.rm.f32.f64", "cvt.rp.f32.f64"};

struct Params {
  const float* in;
  const double* in64;
  float* out;
  uint32_t n;
};

float flushed(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// The host's result of `operation` in the mode fesetround was given (volatiles: no folding).
template <typename Operation>
float in_mode(int mode, Operation operation) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile float result = operation();
  std::fesetround(saved);
  return result;
}

std::vector<float> references(float a, float b, float c, double d) {
  volatile float va = a, vb = b, vc = c;
  volatile double vd = d;
  std::vector<float> r = {jit::mufu_rsqrt(a), jit::mufu_rsqrt(flushed(a)), jit::ex2_approx_f32(a),
                          jit::mufu_ex2(flushed(a))};
  for (int mode : {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD}) r.push_back(in_mode(mode, [&] { return va + vb; }));
  for (int mode : {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD}) r.push_back(in_mode(mode, [&] { return va * vb; }));
  for (int mode : {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD})
    r.push_back(in_mode(mode, [&] { return std::fma(float(va), float(vb), float(vc)); }));
  for (int mode : {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD})
    r.push_back(in_mode(mode, [&] { return static_cast<float>(vd); }));
  return r;
}

// A NaN compares as any NaN (the f32 arithmetic results are the canonical NaN, cvt keeps a payload).
uint32_t comparable(float x) { return std::isnan(x) ? 0x7fffffffu : std::bit_cast<uint32_t>(x); }

// Inputs that reach every path: random bit patterns (NaNs, infinities, subnormals), floats of
// every magnitude, the special values, exact cancellations a*b + c, sums of far-apart terms,
// and doubles at and between float neighbours (halfway points, the float range's ends).
struct Inputs {
  std::vector<float> abc;
  std::vector<double> d;
};

Inputs make_inputs(uint32_t n) {
  std::mt19937_64 random(2026);
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 0x1p-149f, -0x1p-149f,
                            0x1p-126f, 0x1.fffffep127f, -0x1.fffffep127f, 0x1p127f, 256.0f, -256.0f, -126.0f,
                            -126.5f, 4.0f, 0x1.8p-140f, 127.99999f, -149.0f};
  auto any_float = [&] {
    switch (random() % 4) {
      case 0:
        return std::bit_cast<float>(static_cast<uint32_t>(random()));
      case 1:
        return specials[random() % std::size(specials)];
      default: {  // magnitudes around 1 and across the range
        const int exponent = random() % 2 == 0 ? static_cast<int>(random() % 20) - 10 : static_cast<int>(random() % 300) - 150;
        return std::ldexp(static_cast<float>(random() % (1u << 24)) / 0x1p24f, exponent) * (random() % 2 ? 1.0f : -1.0f);
      }
    }
  };
  Inputs in;
  for (uint32_t i = 0; i < n; ++i) {
    float a = any_float(), b = any_float(), c = any_float();
    if (i % 5 == 0) c = -(a * b);                                   // cancellation, exact or nearly
    if (i % 7 == 0) c = std::ldexp(c, -40);                         // a far-apart addend
    if (i % 11 == 0) b = -a;                                        // a + b = 0
    double d = std::bit_cast<double>(random());
    if (i % 2 == 0) d = static_cast<double>(any_float()) + (random() % 3 - 1.0) * std::ldexp(std::fabs(double(a)), -25);
    if (i % 13 == 0) d = std::ldexp(static_cast<double>(random() % 16), -153);  // below the subnormals
    if (i % 17 == 0) d = 0x1.fffffefp127 * (random() % 2 ? 1 : -1);             // past the largest float
    in.abc.insert(in.abc.end(), {a, b, c});
    in.d.push_back(d);
  }
  return in;
}

class FloatModelsInIr : public ::testing::Test {
 protected:
  static constexpr uint32_t kCount = 1u << 20;
  static constexpr uint32_t kBlock = 256;

  void SetUp() override {
    compiled_ = test::compile_with_executor(kModelsPtx, "models.ptx");
    ASSERT_TRUE(compiled_) << compiled_.error().message;
    kernel_ = (*compiled_)->find_kernel("models");
    ASSERT_NE(kernel_, nullptr);
    inputs_ = make_inputs(kCount);
    out_.assign(size_t{kCount} * kOperations, 0.0f);
  }

  Params params() { return {inputs_.abc.data(), inputs_.d.data(), out_.data(), kCount}; }

  void expect_references(const char* shape) {
    int mismatches = 0;
    for (uint32_t i = 0; i < kCount && mismatches < 20; ++i) {
      const std::vector<float> want = references(inputs_.abc[3 * i], inputs_.abc[3 * i + 1], inputs_.abc[3 * i + 2], inputs_.d[i]);
      for (int k = 0; k < kOperations; ++k) {
        const float got = out_[size_t{i} * kOperations + k];
        if (comparable(got) == comparable(want[k])) continue;
        ++mismatches;
        ADD_FAILURE() << shape << " " << kNames[k] << " of a=" << std::hexfloat << inputs_.abc[3 * i]
                      << " b=" << inputs_.abc[3 * i + 1] << " c=" << inputs_.abc[3 * i + 2] << " d=" << inputs_.d[i]
                      << ": got " << got << " (0x" << std::hex << comparable(got) << "), want " << std::hexfloat
                      << want[k] << " (0x" << std::hex << comparable(want[k]) << ")";
      }
    }
  }

  Result<std::unique_ptr<jit::CompiledModule>> compiled_ = Error{};
  const jit::KernelInfo* kernel_ = nullptr;
  Inputs inputs_;
  std::vector<float> out_;
};

TEST_F(FloatModelsInIr, ScalarEntryMatchesTheReferences) {
  const Params p = params();
  for (uint32_t i = 0; i < kCount; ++i) {
    jit::ThreadContext ctx{};
    ctx.tid[0] = i % kBlock;
    ctx.ctaid[0] = i / kBlock;
    ctx.ntid[0] = kBlock, ctx.ntid[1] = 1, ctx.ntid[2] = 1;
    ctx.nctaid[0] = kCount / kBlock, ctx.nctaid[1] = 1, ctx.nctaid[2] = 1;
    ctx.laneid = i % 32;
    ctx.params = reinterpret_cast<const uint8_t*>(&p);
    kernel_->entry(&ctx);
  }
  expect_references("scalar");
}

TEST_F(FloatModelsInIr, CompiledBlocksMatchTheReferences) {
  ASSERT_NE(kernel_->block_compiler, nullptr) << "the kernel should run as compiled blocks";
  const Params p = params();
  LaunchShape shape;
  shape.grid = {kCount / kBlock, 1, 1};
  shape.block = {kBlock, 1, 1};
  ASSERT_TRUE(GridExecutor::instance().run_grid(*kernel_, shape, &p));
  expect_references("32 lanes");
}

}  // namespace
}  // namespace cucpu::exec
