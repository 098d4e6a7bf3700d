// Fits the coefficient table of the H100's MUFU.SIN/COS (src/jit/mufu_sin_table.h) to what the
// GPU computed, checks the whole model of sin/cos.approx.f32 against every result, and takes
// the sample tests/data/mufu_sin_h100.tsv from the same data.
//
//   g++ -O2 -std=c++20 -o /tmp/fit scripts/fit_mufu_sin.cpp
//   gunzip -k sfu/*.d16.gz && /tmp/fit sfu src/jit/mufu_sin_table.h tests/data/mufu_sin_h100.tsv
//
// sfu/ holds the probe's files (tests/data/README.md): <sin|cos>_<p|n><biased exponent>.d16 =
// sin/cos.approx.f32 of every float x = ±2^(e-127) * 1.m (m = 0 .. 2^23-1 in order) for e =
// 124..129 and, negative, 127; int16 deltas of the result bits from the previous result's bits
// (the first from 0), a delta outside ±32767 written as -32768 then the bits as two int16 (low,
// high half).
//
// The model. ptxas turns sin.approx.f32 x into r = x * 0x1.45f306p-3 (1/(2 pi), rounded toward
// zero) and MUFU.SIN r. The unit takes F = the fraction of |r| truncated to 25 bits; its top two
// bits are the quadrant q, the low 23 give j, complemented (~j) in the odd quadrants, and the
// result is ±Q(j) with Q(j) ~ sin(pi/2 * j / 2^23), negative in quadrants 2 and 3 and for r < 0.
// MUFU.COS is MUFU.SIN of F + 2^23 (even in r). Q is piecewise quadratic (Oberman & Siu, ARITH
// 2005): the top 6 bits of j pick segment i of 64, l = the low 17 bits, and in units of 2^-37
//   V = C0*2^12 + c1*l - c2*S(l),   Q = V * 2^-37 truncated to a float,
// C0 (25 bits, units of 2^-25), c1 (15 bits) and c2 (11 bits); S(l) is l^2 from a folded
// squarer that leaves out its columns below 2^19 (kept bits, in units of 2^19), as for MUFU.RSQ.
// The fit: a least-squares quadratic per segment gives c1 and c2 to within a unit; of the
// candidates around them, the one for which some C0 reproduces every Q of the segment is
// taken (each segment has exactly one); C0 is the lowest value in the window that leaves.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kQuarter = 1u << 23, kSegmentSize = 1u << 17;
constexpr uint32_t kUnknown = 0xffffffffu;

struct Segment {
  int64_t c0, c1, c2;
};

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

std::vector<uint32_t> read_d16(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::vector<uint32_t> out;
  uint32_t previous = 0;
  int16_t v, half[2];
  while (std::fread(&v, 2, 1, f) == 1) {
    if (v == -32768) {
      if (std::fread(half, 2, 2, f) != 2) break;
      previous = uint32_t(uint16_t(half[0])) | uint32_t(uint16_t(half[1])) << 16;
    } else {
      previous += static_cast<uint32_t>(int32_t{v});
    }
    out.push_back(previous);
  }
  std::fclose(f);
  if (out.size() != (size_t{1} << 23)) {
    std::fprintf(stderr, "%s: %zu results, want 2^23\n", path.c_str(), out.size());
    std::exit(1);
  }
  return out;
}

// x * 0x1.45f306p-3 rounded toward zero (the product is exact in double).
float revolutions(float x) {
  double p = double{x} * double{0x1.45f306p-3f};
  float r = static_cast<float>(p);
  return std::fabs(double{r}) > std::fabs(p) ? std::nextafter(r, 0.0f) : r;
}

// The 25-bit fraction of |r|, turned a quarter turn on for cos.
uint32_t phase(float r, bool cos) {
  double a = std::fabs(double{r});
  auto f = static_cast<uint32_t>(std::floor((a - std::floor(a)) * 0x1p25));
  return cos ? (f + kQuarter) & (4 * kQuarter - 1) : f;
}

int64_t kept_square(uint32_t l) {
  uint64_t dropped = 0;
  for (int a = 0; a < 17; ++a) {
    if ((l >> a & 1) == 0) continue;
    if (2 * a < 19) dropped += uint64_t{1} << (2 * a);
    for (int b = a + 1; a + b + 1 < 19 && b < 17; ++b)
      if (l >> b & 1) dropped += uint64_t{1} << (a + b + 1);
  }
  return static_cast<int64_t>((uint64_t{l} * l - dropped) >> 19);
}

// V * 2^-37 truncated to 24 significant bits.
float truncated(int64_t v) {
  auto u = static_cast<uint64_t>(v);
  int drop = std::max(0, 64 - __builtin_clzll(u | 1) - 24);
  return std::ldexp(static_cast<float>(u >> drop << drop), -37);
}

float model(const std::vector<Segment>& table, float x, bool cos) {
  float r = revolutions(x);
  if (std::isnan(r) || std::isinf(r)) return as_float(0x7fffffffu);
  uint32_t f = phase(r, cos), quadrant = f >> 23, j = f & (kQuarter - 1);
  if (quadrant & 1) j = ~j & (kQuarter - 1);
  const Segment& s = table[j / kSegmentSize];
  uint32_t l = j % kSegmentSize;
  float q = truncated(s.c0 * 4096 + s.c1 * l - s.c2 * kept_square(l));
  bool negative = (quadrant & 2) != 0;
  if (!cos && std::signbit(r)) negative = !negative;
  return negative ? -q : q;
}

// Q(j) in units of 2^-37 (always whole: V truncated) and the unit of its last place (at least 1).
int64_t units(uint32_t bits) { return static_cast<int64_t>(std::ldexp(double{as_float(bits)}, 37)); }
int64_t ulp_units(uint32_t bits) {
  int e = int(bits >> 23) - 150 + 37;
  return e > 0 ? int64_t{1} << e : 1;
}

Segment fit_segment(const std::vector<uint32_t>& q, int i) {
  // Least squares in t = l / 2^17: Q ~ a + b t + c t^2, with b = c1 2^17, c = -c2 2^15.
  long double s[5] = {}, rhs[3] = {};
  for (uint32_t l = 0; l < kSegmentSize; ++l) {
    long double t = static_cast<long double>(l) / kSegmentSize, p = 1, y = units(q[i * kSegmentSize + l]);
    for (int k = 0; k < 5; ++k, p *= t) {
      s[k] += p;
      if (k < 3) rhs[k] += p * y;
    }
  }
  long double m[3][4] = {{s[0], s[1], s[2], rhs[0]}, {s[1], s[2], s[3], rhs[1]}, {s[2], s[3], s[4], rhs[2]}};
  for (int p = 0; p < 3; ++p)
    for (int k = 0; k < 3; ++k)
      if (k != p) {
        long double f = m[k][p] / m[p][p];
        for (int c = 0; c < 4; ++c) m[k][c] -= f * m[p][c];
      }
  int64_t c1_guess = std::llround(m[1][3] / m[1][1] / kSegmentSize);
  int64_t c2_guess = std::llround(-m[2][3] / m[2][2] / 0x1p15);
  for (int64_t c1 = c1_guess - 2; c1 <= c1_guess + 2; ++c1)
    for (int64_t c2 = c2_guess - 2; c2 <= c2_guess + 2; ++c2) {
      // Q <= V < Q + ulp for every l bounds C0*2^12 from both sides.
      int64_t low = INT64_MIN, high = INT64_MAX;
      for (uint32_t l = 0; l < kSegmentSize && low <= high; ++l) {
        uint32_t y = q[i * kSegmentSize + l];
        int64_t rest = c1 * l - c2 * kept_square(l);
        low = std::max(low, units(y) - rest);
        high = std::min(high, units(y) + ulp_units(y) - 1 - rest);
      }
      int64_t c0 = low <= 0 ? -(-low / 4096) : (low + 4095) / 4096;
      if (c0 * 4096 <= high) return {c0, c1, c2};
    }
  std::fprintf(stderr, "segment %d: no coefficients fit\n", i);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s probe_dir table.h samples.tsv\n", argv[0]);
    return 2;
  }
  struct File {
    std::string name;
    uint32_t base;
    bool cos;
    std::vector<uint32_t> results;
  };
  std::vector<File> files;
  for (std::string fn : {"sin", "cos"}) {
    for (int e = 124; e <= 129; ++e)
      files.push_back({fn + "_p" + std::to_string(e), uint32_t(e) << 23, fn == "cos", {}});
    files.push_back({fn + "_n127", 0x80000000u | 127u << 23, fn == "cos", {}});
  }
  // Q(j) from every result: its magnitude, with j as the model derives it from x.
  std::vector<uint32_t> q(kQuarter, kUnknown);
  long conflicts = 0;
  for (File& file : files) {
    file.results = read_d16(std::string(argv[1]) + "/" + file.name + ".d16");
    for (uint32_t m = 0; m < (1u << 23); ++m) {
      uint32_t f = phase(revolutions(as_float(file.base | m)), file.cos), j = f & (kQuarter - 1);
      if (f >> 23 & 1) j = ~j & (kQuarter - 1);
      uint32_t y = file.results[m] & 0x7fffffffu;
      conflicts += q[j] != kUnknown && q[j] != y;
      q[j] = y;
    }
  }
  long missing = std::count(q.begin(), q.end(), kUnknown);
  if (conflicts != 0 || missing != 0) {
    std::fprintf(stderr, "the results are no function of j: %ld conflicts, %ld values of j missing\n", conflicts,
                 missing);
    return 1;
  }
  std::vector<Segment> table;
  for (int i = 0; i < 64; ++i) table.push_back(fit_segment(q, i));
  long mismatches = 0, total = 0;
  for (const File& file : files)
    for (uint32_t m = 0; m < (1u << 23); ++m, ++total)
      mismatches += bits_of(model(table, as_float(file.base | m), file.cos)) != file.results[m];
  std::fprintf(stderr, "the model reproduces the GPU with %ld mismatches of %ld\n", mismatches, total);
  if (mismatches != 0) return 1;

  FILE* h = std::fopen(argv[2], "w");
  std::fprintf(h,
               "// Generated by scripts/fit_mufu_sin.cpp from the H100's sin/cos.approx.f32 results (see there\n"
               "// and tests/data/README.md); do not edit. MUFU.SIN's 64 segments of the quarter wave:\n"
               "// {C0 in units of 2^-25, c1, c2}, V = C0*2^12 + c1*l - c2*S(l) in units of 2^-37.\n"
               "#pragma once\n\n#include <cstdint>\n\nnamespace cucpu::jit {\n\n"
               "struct MufuSinSegment {\n  int32_t c0;\n  int32_t c1;\n  int32_t c2;\n};\n\n"
               "inline constexpr MufuSinSegment kMufuSinTable[64] = {\n");
  for (int i = 0; i < 64; ++i)
    std::fprintf(h, "    {%lld, %lld, %lld},%s", (long long)table[i].c0, (long long)table[i].c1, (long long)table[i].c2,
                 i % 3 == 2 ? "\n" : "");
  std::fprintf(h, "\n};\n\n}  // namespace cucpu::jit\n");
  std::fclose(h);

  // The sample: every 65521st result of each file (129 a file, 1806 in all).
  FILE* t = std::fopen(argv[3], "w");
  std::fprintf(t, "# sin/cos.approx.f32 on an H100: instruction, input bits, result bits (hex)\n");
  for (const File& file : files)
    for (uint32_t m = 0; m < (1u << 23); m += 65521)
      std::fprintf(t, "%s\t%08x\t%08x\n", file.cos ? "cos" : "sin", file.base | m, file.results[m]);
  std::fclose(t);
}
