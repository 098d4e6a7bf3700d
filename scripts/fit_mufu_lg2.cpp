// Fits the coefficient table of the H100's MUFU.LG2 (src/jit/mufu_lg2_table.h) to what the GPU
// computed, checks the whole model of lg2.approx.ftz.f32 against every result, and takes the
// sample tests/data/mufu_lg2_h100.tsv from the same data.
//
//   g++ -O2 -std=c++20 -o /tmp/fit_lg2 scripts/fit_mufu_lg2.cpp
//   /tmp/fit_lg2 src/jit/mufu_lg2_table.h tests/data/mufu_lg2_h100.tsv sfu/lg2_*.d16.gz sfu2/lg2_*.gz
//
// The files (tests/data/README.md): lg2_p<biased exponent>.d16.gz = lg2.approx.ftz.f32 of every
// positive float of that binade (lg2_p126 and lg2_p127 are needed for the fit); lg2_sparse.u32.gz
// = of 2^20 floats over all bit patterns (mufu_fit_common.h reads both).
//
// The model. For x = 2^E * 1.m the unit computes L(m) ~ log2(1.m) in fixed point with 36
// fraction bits and the result is E + L(m) (E >= 0) or -(|E| - L(m) - 2^-36) (E < 0: the ones'
// complement of L), in fixed point, truncated to a float. x = 1 gives +0 (L(0) is not 0); a
// subnormal or zero x gives -inf, x < 0 and NaN give 0x7fffffff, +inf +inf. L is piecewise
// quadratic (mufu_fit_common.h): in units of 2^-38
//   V = c0 * 2^shift + offset + c1*l + c2*S(l),   L = V >> 2.
// The fit: the results for x in [1, 2) (E + L with E = 0) and [1/2, 1) (1 - L - 2^-36) bound
// every L(m) from both sides (no other binade says more: their results are coarser); every
// segment has exactly one (c1, c2) for which some constant fits, and one offset below 2^shift
// serves all 64 constants (fit_table). The 36 bits are the finest any result shows; V has the
// fewest extra bits for which the fit succeeds.
#include <string>
#include <vector>

#include "mufu_fit_common.h"

namespace {

using namespace mufu_fit;

constexpr int64_t kOne = int64_t{1} << 36;  // 1 in L's units

// w * 2^-36 truncated to a float (w > 0), and the unit of its last place in units of 2^-36.
float truncated(int64_t w) {
  auto u = static_cast<uint64_t>(w);
  int drop = std::max(0, 64 - __builtin_clzll(u | 1) - 24);
  return std::ldexp(static_cast<float>(u >> drop << drop), -36);
}
int64_t ulp_units(float y) {
  int e;
  std::frexp(y, &e);
  return std::max<int64_t>(1, static_cast<int64_t>(std::ldexp(1.0, e - 24 + 36)));
}

uint32_t model(const Table& t, uint32_t input) {
  float x = as_float(input);
  if (std::isnan(x) || (x < 0 && std::isnormal(x)) || x == -INFINITY) return 0x7fffffffu;
  if (!std::isnormal(x) && !std::isinf(x)) return 0xff800000u;  // ±0 and subnormals: -inf
  if (std::isinf(x)) return 0x7f800000u;
  if (x == 1) return 0;
  int e = static_cast<int>(input >> 23) - 127;
  uint32_t m = input & (kBinade - 1), i = m / kSegmentSize, l = m % kSegmentSize;
  int64_t v = (t.c0[i] << t.shift) + t.offset + t.segments[i].c1 * l + t.segments[i].c2 * kept_square(l);
  int64_t fraction = v >> 2;
  return e >= 0 ? bits_of(truncated(e * kOne + fraction)) : bits_of(-truncated(-e * kOne - fraction - 1));
}

struct File {
  std::string path;
  bool sparse;
  uint32_t base;
  int exponent;
};

File describe(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.find("sparse") != std::string::npos) return {path, true, 0, 0};
  int biased = std::stoi(name.substr(5));
  return {path, false, static_cast<uint32_t>(biased) << 23, biased};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s table.h samples.tsv lg2_files...\n", argv[0]);
    return 2;
  }
  std::vector<File> files;
  for (int a = 3; a < argc; ++a) files.push_back(describe(argv[a]));

  // L(m) in units of 2^-36 lies in [low, high]: from x = 1.m (result L truncated) and from
  // x = 1.m / 2 (result -(1 - L - 2^-36) truncated).
  std::vector<int64_t> low(kBinade, 0), high(kBinade, kOne - 1);
  int bounded = 0;
  for (const File& file : files) {
    if (file.sparse || (file.exponent != 127 && file.exponent != 126)) continue;
    std::vector<uint32_t> results = read_probe(file.path);
    for (uint32_t m = 0; m < kBinade; ++m) {
      float y = std::fabs(as_float(results[m]));
      auto w = static_cast<int64_t>(std::ldexp(y, 36));  // exact: no result has bits below 2^-36
      int64_t lo = file.exponent == 127 ? w : kOne - w - ulp_units(y);
      int64_t hi = file.exponent == 127 ? w + ulp_units(y) - 1 : kOne - 1 - w;
      if (file.exponent == 127 && m == 0) continue;  // x = 1: exactly 0
      low[m] = std::max(low[m], lo);
      high[m] = std::min(high[m], hi);
    }
    ++bounded;
  }
  if (bounded != 2) {
    std::fprintf(stderr, "the fit needs lg2_p126 and lg2_p127\n");
    return 1;
  }
  long empty = 0;
  for (uint32_t m = 0; m < kBinade; ++m) {
    empty += low[m] > high[m];
    low[m] *= 4;  // V = L * 4 + (0..3)
    high[m] = high[m] * 4 + 3;
  }
  if (empty != 0) {
    std::fprintf(stderr, "the two binades disagree on %ld values of L\n", empty);
    return 1;
  }
  Table table = fit_table(low, high);
  if (table.c0.empty()) {
    std::fprintf(stderr, "no constant offset serves every segment\n");
    return 1;
  }

  // Check every result and take the sample.
  const long mismatches = check_and_sample(
      files, [&](uint32_t x) { return model(table, x); }, "lg2", argv[2],
               "# lg2.approx.ftz.f32 on an H100 (CUDA 13.0, driver 580; tests/data/README.md): instruction, input\n"
               "# bits, result bits (hex). Every 65521st result of each probed binade, every 1021st of the sparse\n"
               "# probe over all bit patterns; taken by scripts/fit_mufu_lg2.cpp.\n");
  if (mismatches != 0) return 1;

  write_table(argv[1], table,
              "// Generated by scripts/fit_mufu_lg2.cpp from the H100's lg2.approx.ftz.f32 results (see there\n"
              "// and tests/data/README.md); do not edit. MUFU.LG2's 64 segments of log2(1.m): {c0, c1, c2},\n"
              "// V = c0 * 2^kMufuLg2Shift + kMufuLg2Offset + c1*l + c2*S(l) in units of 2^-38.\n",
              "MufuLg2Segment", "kMufuLg2Table", "MufuLg2");
}
