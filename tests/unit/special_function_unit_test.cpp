// The MUFU models (src/jit/special_function_unit.h) against results taken on an H100:
// tests/data/mufu_rsqrt_h100.tsv, mufu_sin_h100.tsv, mufu_ex2_h100.tsv and mufu_lg2_h100.tsv
// (samples of the probes the tables were fitted to, see tests/data/README.md) and the rsqrt,
// __sinf and __expf lines of the math_precision conformance program.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "jit/special_function_unit.h"

namespace cucpu::jit {
namespace {

TEST(SpecialFunctionUnit, RsqrtMatchesTheH100Sample) {
  std::ifstream in(CUCPU_TEST_DATA "/data/mufu_rsqrt_h100.tsv");
  ASSERT_TRUE(in) << "tests/data/mufu_rsqrt_h100.tsv is missing";
  std::string line;
  int f32 = 0, f64 = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kind;
    uint64_t input = 0, expected = 0;
    fields >> kind >> std::hex >> input >> expected;
    ASSERT_TRUE(fields) << "bad line: " << line;
    if (kind == "f32") {
      float y = mufu_rsqrt(std::bit_cast<float>(static_cast<uint32_t>(input)));
      EXPECT_EQ(std::bit_cast<uint32_t>(y), expected) << "rsqrt.approx.f32 of " << line;
      ++f32;
    } else {
      ASSERT_EQ(kind, "f64") << line;
      double y = mufu_rsqrt64h(std::bit_cast<double>(input));
      EXPECT_EQ(std::bit_cast<uint64_t>(y), expected) << "rsqrt.approx.ftz.f64 of " << line;
      ++f64;
    }
  }
  EXPECT_GT(f32, 2000);
  EXPECT_GT(f64, 2000);
}

// math_precision.cu on the H100: rsqrtf(3) and rsqrt(3) (rsqrt.approx.f64, refined by ptxas).
TEST(SpecialFunctionUnit, RsqrtOfThreeAsInMathPrecision) {
  EXPECT_EQ(mufu_rsqrt(3.0f), 0x1.279a74p-1f);
  EXPECT_EQ(rsqrt_approx_f64(3.0), 0x1.279a74590331cp-1);
}

// The unit sees the mantissa and the exponent's parity only: scaling by 4^k scales by 2^-k.
TEST(SpecialFunctionUnit, RsqrtScalesWithTheExponent) {
  for (float x : {1.0f, 1.2345f, 1.9999999f, 2.5f, 3.75f}) {
    for (int k : {-74, -63, -20, -1, 1, 20, 63}) {
      if (std::ldexp(std::ldexp(x, 2 * k), -2 * k) != x) continue;  // a subnormal that lost bits
      EXPECT_EQ(mufu_rsqrt(std::ldexp(x, 2 * k)), std::ldexp(mufu_rsqrt(x), -k)) << x << " * 4^" << k;
    }
    double d = x;
    EXPECT_EQ(mufu_rsqrt64h(std::ldexp(d, 1000)), std::ldexp(mufu_rsqrt64h(d), -500));
    double subnormal = std::ldexp(d, -1050);
    ASSERT_EQ(std::ldexp(subnormal, 1050), d);
    EXPECT_EQ(mufu_rsqrt64h(subnormal), std::ldexp(mufu_rsqrt64h(d), 525));
    EXPECT_EQ(rsqrt_approx_f64(subnormal), std::ldexp(rsqrt_approx_f64(d), 525));
  }
}

TEST(SpecialFunctionUnit, RsqrtSpecialInputs) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(mufu_rsqrt(0.0f), inf);
  EXPECT_EQ(mufu_rsqrt(-0.0f), -inf);
  EXPECT_EQ(mufu_rsqrt(inf), 0.0f);
  EXPECT_TRUE(std::isnan(mufu_rsqrt(-1.0f)));
  EXPECT_TRUE(std::isnan(mufu_rsqrt(-inf)));
  EXPECT_TRUE(std::isnan(mufu_rsqrt(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(mufu_rsqrt(4.0f), 0.5f);  // a power of 4 is exact
  EXPECT_EQ(rsqrt_approx_f64(0.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(rsqrt_approx_f64(std::numeric_limits<double>::infinity()), 0.0);
  EXPECT_TRUE(std::isnan(rsqrt_approx_f64(-2.0)));
  // The seed has 20 mantissa bits; the refinement brings rsqrt.approx.f64 close to 1/sqrt.
  for (double x : {2.0, 3.0, 7.5, 1e-300, 1e300}) {
    EXPECT_EQ(std::bit_cast<uint64_t>(mufu_rsqrt64h(x)) & 0xffffffffu, 0u);
    EXPECT_NEAR(rsqrt_approx_f64(x) * std::sqrt(x), 1.0, 1e-15) << x;
  }
}

TEST(SpecialFunctionUnit, SinCosMatchTheH100Sample) {
  std::ifstream in(CUCPU_TEST_DATA "/data/mufu_sin_h100.tsv");
  ASSERT_TRUE(in) << "tests/data/mufu_sin_h100.tsv is missing";
  std::string line;
  int count = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kind;
    uint32_t input = 0, expected = 0;
    fields >> kind >> std::hex >> input >> expected;
    ASSERT_TRUE(fields && (kind == "sin" || kind == "cos")) << "bad line: " << line;
    float x = std::bit_cast<float>(input);
    float y = kind == "sin" ? sin_approx_f32(x) : cos_approx_f32(x);
    EXPECT_EQ(std::bit_cast<uint32_t>(y), expected) << kind << ".approx.f32 of " << line;
    ++count;
  }
  EXPECT_GT(count, 1800);
}

// math_precision.cu on the H100: __sinf(1) (sin.approx.f32).
TEST(SpecialFunctionUnit, SinOfOneAsInMathPrecision) { EXPECT_EQ(sin_approx_f32(1.0f), 0x1.aed546p-1f); }

// The unit sees the fraction of |r| only: whole turns vanish, sin is odd and cos even.
TEST(SpecialFunctionUnit, SinCosArePeriodicInRevolutions) {
  for (float r : {0.0f, 0.1f, 0.25f, 0.3f, 0.5f, 0.7f, 0.75f, 0.99f}) {
    for (float turns : {1.0f, 2.0f, 5.0f}) {
      EXPECT_EQ(mufu_sin(r + turns), mufu_sin(r + turns - std::floor(r + turns))) << r << " + " << turns;
      EXPECT_EQ(mufu_cos(r + turns), mufu_cos(r + turns - std::floor(r + turns))) << r << " + " << turns;
    }
    EXPECT_EQ(mufu_sin(-r), -mufu_sin(r)) << r;
    EXPECT_EQ(mufu_cos(-r), mufu_cos(r)) << r;
    EXPECT_NEAR(mufu_sin(r), std::sin(2 * M_PI * r), 0x1p-21) << r;
    EXPECT_NEAR(mufu_cos(r), std::cos(2 * M_PI * r), 0x1p-21) << r;
  }
}

TEST(SpecialFunctionUnit, SinCosSpecialInputs) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(std::bit_cast<uint32_t>(sin_approx_f32(0.0f)), 0u);
  EXPECT_EQ(std::bit_cast<uint32_t>(sin_approx_f32(-0.0f)), 0x80000000u);
  EXPECT_EQ(cos_approx_f32(0.0f), 1.0f);
  EXPECT_EQ(cos_approx_f32(-0.0f), 1.0f);
  EXPECT_EQ(mufu_sin(0.25f), 1.0f);
  EXPECT_EQ(mufu_cos(0.5f), -1.0f);
  for (float x : {inf, -inf, std::numeric_limits<float>::quiet_NaN()}) {
    EXPECT_TRUE(std::isnan(sin_approx_f32(x))) << x;
    EXPECT_TRUE(std::isnan(cos_approx_f32(x))) << x;
  }
}

// `kind input result` lines (hex bits) of a sample file, each checked with `model`.
void check_sample(const char* file, const std::string& kind, float (*model)(float), int at_least) {
  std::ifstream in(std::string(CUCPU_TEST_DATA "/data/") + file);
  ASSERT_TRUE(in) << "tests/data/" << file << " is missing";
  std::string line;
  int count = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string k;
    uint32_t input = 0, expected = 0;
    fields >> k >> std::hex >> input >> expected;
    ASSERT_TRUE(fields && k == kind) << "bad line: " << line;
    EXPECT_EQ(std::bit_cast<uint32_t>(model(std::bit_cast<float>(input))), expected) << kind << " of " << line;
    ++count;
  }
  EXPECT_GE(count, at_least);
}

// ex2/lg2.approx.ftz.f32 are MUFU.EX2/LG2 alone; the samples span all bit patterns too.
TEST(SpecialFunctionUnit, Ex2MatchesTheH100Sample) { check_sample("mufu_ex2_h100.tsv", "ex2", mufu_ex2, 4800); }
TEST(SpecialFunctionUnit, Lg2MatchesTheH100Sample) { check_sample("mufu_lg2_h100.tsv", "lg2", mufu_lg2, 2900); }

// math_precision.cu on the H100: __expf(1.5) is ex2.approx.ftz.f32 of 1.5 * log2(e).
TEST(SpecialFunctionUnit, ExpOfOneAndAHalfAsInMathPrecision) {
  EXPECT_EQ(mufu_ex2(1.5f * 0x1.715476p0f), 0x1.1ed3fep+2f);
}

TEST(SpecialFunctionUnit, Ex2Lg2AreCloseToExactAndExactAtPowersOfTwo) {
  for (int k = -126; k <= 127; ++k) EXPECT_EQ(mufu_ex2(static_cast<float>(k)), std::ldexp(1.0f, k)) << k;
  for (float x = -20.0f; x < 20.0f; x += 0.0137f) {
    double exact = std::exp2(static_cast<double>(x));
    EXPECT_NEAR(mufu_ex2(x), exact, 2 * std::ldexp(1.0, std::ilogb(exact) - 23)) << x;
  }
  for (float x = 0x1p-100f; x < 0x1p100f; x *= 1.0173f) {  // 2^-21 in fixed point, truncated to a float
    double exact = std::log2(double{x});
    EXPECT_NEAR(mufu_lg2(x), exact, 0x1p-21 + (exact == 0 ? 0 : std::ldexp(1.0, std::ilogb(exact) - 23))) << x;
  }
  EXPECT_EQ(mufu_lg2(1.0f), 0.0f);
  EXPECT_EQ(mufu_lg2(2.0f), 1.0f);
  EXPECT_EQ(mufu_lg2(0.5f), -0x1.fffffcp-1f);  // the ones' complement of log2(1) = 2^-23.15
}

TEST(SpecialFunctionUnit, Ex2Lg2SpecialInputs) {
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(mufu_ex2(0.0f), 1.0f);
  EXPECT_EQ(mufu_ex2(-0.0f), 1.0f);
  EXPECT_EQ(mufu_ex2(0x1p-149f), 1.0f);  // subnormal: 0
  EXPECT_EQ(mufu_ex2(inf), inf);
  EXPECT_EQ(mufu_ex2(128.0f), inf);
  EXPECT_EQ(std::bit_cast<uint32_t>(mufu_ex2(-inf)), 0u);
  EXPECT_EQ(std::bit_cast<uint32_t>(mufu_ex2(-127.0f)), 0u);  // 2^-127 flushed
  EXPECT_EQ(std::bit_cast<uint32_t>(mufu_ex2(nan)), 0x7fffffffu);
  EXPECT_EQ(mufu_lg2(0.0f), -inf);
  EXPECT_EQ(mufu_lg2(-0.0f), -inf);
  EXPECT_EQ(mufu_lg2(-0x1p-140f), -inf);  // subnormal: -0
  EXPECT_EQ(mufu_lg2(inf), inf);
  for (float x : {-1.0f, -inf, nan}) EXPECT_EQ(std::bit_cast<uint32_t>(mufu_lg2(x)), 0x7fffffffu) << x;
}

// Without .ftz, ptxas rescales around the unit: subnormal results and inputs work.
TEST(SpecialFunctionUnit, Ex2Lg2WithoutFtzRescale) {
  EXPECT_EQ(ex2_approx_f32(-130.0f), 0x1p-130f);
  EXPECT_EQ(ex2_approx_f32(-149.0f), 0x1p-149f);
  EXPECT_EQ(ex2_approx_f32(-150.5f), 0.0f);
  EXPECT_EQ(ex2_approx_f32(-126.0f), mufu_ex2(-126.0f));
  float y = mufu_ex2(-65.25f);
  EXPECT_EQ(ex2_approx_f32(-130.5f), y * y);
  EXPECT_EQ(lg2_approx_f32(0x1p-140f), mufu_lg2(0x1p-116f) - 24.0f);
  EXPECT_EQ(lg2_approx_f32(0x1p-126f), mufu_lg2(0x1p-126f));
  EXPECT_EQ(lg2_approx_f32(0.0f), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(lg2_approx_f32(-0x1p-140f)));
}

}  // namespace
}  // namespace cucpu::jit
