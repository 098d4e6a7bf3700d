// Fits the coefficient table of the H100's MUFU.EX2 (src/jit/mufu_ex2_table.h) to what the GPU
// computed, checks the whole model of ex2.approx.ftz.f32 against every result, and takes the
// sample tests/data/mufu_ex2_h100.tsv from the same data.
//
//   g++ -O2 -std=c++20 -o /tmp/fit_ex2 scripts/fit_mufu_ex2.cpp
//   /tmp/fit_ex2 src/jit/mufu_ex2_table.h tests/data/mufu_ex2_h100.tsv sfu/ex2_*.d16.gz sfu2/ex2_*.gz
//
// The files (tests/data/README.md): ex2_<p|n><biased exponent>.d16.gz = ex2.approx.ftz.f32 of
// every float of that sign and binade; ex2_sparse.u32.gz = of 2^20 floats over all bit patterns
// (mufu_fit_common.h reads both).
//
// The model. The unit turns |x| into fixed point with 23 fraction bits, truncated; for x < 0
// with a nonzero fraction G it takes the integer part one lower and the fraction ~G (23-bit
// ones' complement: 1 - G - 2^-23), so 2^x = 2^I * 2^(F / 2^23) with the integer I and the
// 23-bit fraction F. 2^(F / 2^23) is piecewise quadratic (mufu_fit_common.h): in units of 2^-38
//   V = c0 * 2^shift + offset + c1*l + c2*S(l),   significand (units of 2^-23) = V >> 15,
// and the result 2^I times that, +0 below 2^-126 (the unit flushes), +inf from 2^128 on. A
// subnormal x counts as 0; NaN gives 0x7fffffff, +inf +inf and -inf +0.
// The fit: each F's significand comes from a result (x = 1 + F/2^23 gives all of them); every
// segment has exactly one (c1, c2) for which some constant fits, and one offset below
// 2^shift serves all 64 constants (fit_table). The 2^-38 units are the coarsest for which
// that happens.
#include <string>
#include <vector>

#include "mufu_fit_common.h"

namespace {

using namespace mufu_fit;

// x (normal or zero, |x| < 256) as 2^whole * 2^(fraction / 2^23).
void reduce(float x, int& whole, uint32_t& fraction) {
  auto fixed = static_cast<uint32_t>(std::fabs(x) * 0x1p23f);  // exact, then truncated
  whole = static_cast<int>(fixed >> 23);
  fraction = fixed & (kBinade - 1);
  if (std::signbit(x) && fraction != 0) {
    whole = -whole - 1;
    fraction = ~fraction & (kBinade - 1);
  } else if (std::signbit(x)) {
    whole = -whole;
  }
}

uint32_t model(const Table& t, uint32_t input) {
  float x = as_float(input);
  if (std::isnan(x)) return 0x7fffffffu;
  if (std::fpclassify(x) == FP_SUBNORMAL) x = 0;
  if (std::fabs(x) >= 256) return x > 0 ? 0x7f800000u : 0;
  int whole;
  uint32_t f;
  reduce(x, whole, f);
  uint32_t i = f / kSegmentSize, l = f % kSegmentSize;
  int64_t v = (t.c0[i] << t.shift) + t.offset + t.segments[i].c1 * l + t.segments[i].c2 * kept_square(l);
  double y = std::ldexp(static_cast<double>(v >> 15), whole - 23);
  return y < 0x1p-126 ? 0 : bits_of(static_cast<float>(y));  // float(y) is exact or +inf
}

struct File {
  std::string path;
  bool sparse;
  uint32_t base;
};

File describe(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.find("sparse") != std::string::npos) return {path, true, 0};
  uint32_t sign = name[4] == 'n' ? 0x80000000u : 0;
  return {path, false, sign | static_cast<uint32_t>(std::stoi(name.substr(5))) << 23};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s table.h samples.tsv ex2_files...\n", argv[0]);
    return 2;
  }
  std::vector<File> files;
  for (int a = 3; a < argc; ++a) files.push_back(describe(argv[a]));

  // The significand of 2^(F / 2^23) from every normal result, with F as the model reduces x.
  constexpr int64_t kUnknown = -1;
  std::vector<int64_t> significand(kBinade, kUnknown);
  long conflicts = 0;
  for (const File& file : files) {
    std::vector<uint32_t> results = read_probe(file.path);
    for (uint32_t n = 0; n < results.size(); ++n) {
      float x = as_float(probe_input(file.sparse, file.base, n));
      uint32_t y = results[n], exponent = y >> 23 & 0xff;
      if (!std::isnormal(x) || std::fabs(x) >= 256 || exponent == 0 || exponent == 0xff) continue;
      int whole;
      uint32_t f;
      reduce(x, whole, f);
      if (static_cast<int>(exponent) - 127 != whole) continue;  // 2^(F/2^23) rounded up to 2
      int64_t s = (y & 0x7fffffu) | 0x800000u;
      conflicts += significand[f] != kUnknown && significand[f] != s;
      significand[f] = s;
    }
  }
  long missing = std::count(significand.begin(), significand.end(), kUnknown);
  if (conflicts != 0 || missing != 0) {
    std::fprintf(stderr, "the results are no function of F: %ld conflicts, %ld values missing\n", conflicts, missing);
    return 1;
  }
  std::vector<int64_t> low(kBinade), high(kBinade);
  for (uint32_t f = 0; f < kBinade; ++f) {
    low[f] = significand[f] << 15;
    high[f] = low[f] + (1 << 15) - 1;
  }
  Table table = fit_table(low, high);
  if (table.c0.empty()) {
    std::fprintf(stderr, "no constant offset serves every segment\n");
    return 1;
  }

  // Check every result and take the sample.
  const long mismatches = check_and_sample(
      files, [&](uint32_t x) { return model(table, x); }, "ex2", argv[2],
               "# ex2.approx.ftz.f32 on an H100 (CUDA 13.0, driver 580; tests/data/README.md): instruction, input\n"
               "# bits, result bits (hex). Every 65521st result of each probed binade, every 1021st of the sparse\n"
               "# probe over all bit patterns; taken by scripts/fit_mufu_ex2.cpp.\n");
  if (mismatches != 0) return 1;

  write_table(argv[1], table,
              "// Generated by scripts/fit_mufu_ex2.cpp from the H100's ex2.approx.ftz.f32 results (see there\n"
              "// and tests/data/README.md); do not edit. MUFU.EX2's 64 segments of 2^f, f in [0, 1):\n"
              "// {c0, c1, c2}, V = c0 * 2^kMufuEx2Shift + kMufuEx2Offset + c1*l + c2*S(l) in units of 2^-38.\n",
              "MufuEx2Segment", "kMufuEx2Table", "MufuEx2");
}
