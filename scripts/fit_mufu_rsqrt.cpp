// Fits the coefficient table of the H100's MUFU.RSQ (src/jit/mufu_rsqrt_table.h) to what the
// GPU computed, and takes the sample tests/data/mufu_rsqrt_h100.tsv from the same data.
//
//   g++ -O2 -std=c++20 -o /tmp/fit scripts/fit_mufu_rsqrt.cpp
//   /tmp/fit r32.bin r64.bin src/jit/mufu_rsqrt_table.h tests/data/mufu_rsqrt_h100.tsv
//
// r32.bin: rsqrt.approx.ftz.f32 of every float with exponent 127 (index k < 2^23, mantissa k)
// and 126 (k >= 2^23), 2^24 little-endian u32 results. r64.bin: rsqrt.approx.ftz.f64 of every
// high word with exponent 0x3ff (i < 2^20) and 0x3fe, low word 0: (hi, lo) u32 pairs. Both came
// from an H100 (CUDA 13.0) running the probe kept in tests/data/README.md.
//
// The model (Oberman & Siu, ARITH 2005: piecewise quadratic interpolation): X in [1, 4) (an odd
// exponent uses the binade [2, 4)); the top 6 mantissa bits and the exponent's parity pick
// segment i of 128; j = the low 17 bits. In units of 2^-16 of the result's last place (2^-24
// of a result in [0.5, 1)):
//   V = C0*2^14 - c1*j - 1 + 4*c2*S(j),   result bits = V >> 16,
// C0 in quarter ulps (26 bits), c1 (16 bits) and c2 (10 bits); the term -c1*j - 1 is the
// ones' complement of c1*j; S(j) is j^2 from a folded squarer whose columns below 2^19 are
// left out (kept bits, in units of 2^19). The fit: a least-squares quadratic per segment
// gives c1 and c2 to within a unit; of the candidates around them, the one for which some C0
// reproduces all 2^17 results of the segment is taken (every segment has exactly one), and C0
// is the quarter-ulp value inside the window that leaves. c1 equals the minimax quadratic's
// linear coefficient rounded to its unit in all 128 segments; c2 and C0 are the sequential
// minimax ones (c2 refitted for the rounded c1, C0 the midrange plus half an ulp) rounded in
// 122 and 125 segments and one unit off in the others, which is why the table is stored.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using i128 = __int128;
constexpr uint32_t kSegmentSize = 1u << 17;

// j^2 from the folded squarer minus its columns below 2^19 (j_a^2 sits in column 2a, the
// pair j_a j_b, a < b, in column a + b + 1), in units of 2^19.
int64_t kept_square(uint32_t j) {
  uint64_t dropped = 0;
  for (int a = 0; a < 17; ++a) {
    if ((j >> a & 1) == 0) continue;
    if (2 * a < 19) dropped += uint64_t{1} << (2 * a);
    for (int b = a + 1; a + b + 1 < 19 && b < 17; ++b)
      if (j >> b & 1) dropped += uint64_t{1} << (a + b + 1);
  }
  return static_cast<int64_t>((uint64_t{j} * j - dropped) >> 19);
}

std::vector<uint32_t> read_words(const char* path, size_t count) {
  std::vector<uint32_t> words(count);
  FILE* f = std::fopen(path, "rb");
  if (!f || std::fread(words.data(), 4, count, f) != count) {
    std::fprintf(stderr, "cannot read %zu words from %s\n", count, path);
    std::exit(1);
  }
  std::fclose(f);
  return words;
}

struct Segment {
  int64_t c0_quarters, c1, c2;
};

// The GPU's result for segment i (parity = i / 64), in units of 2^-24 of 1/sqrt(X), X in [1, 4).
int64_t gpu_result(const std::vector<uint32_t>& r32, int i, uint32_t j) {
  uint32_t k = uint32_t(i / 64) << 23 | uint32_t(i % 64) << 17 | j;
  float y;
  std::memcpy(&y, &r32[k], 4);
  return static_cast<int64_t>(std::ldexp(y, i < 64 ? 24 : 23));
}

Segment fit_segment(const std::vector<uint32_t>& r32, int i) {
  // Least squares in t = j / 2^17: Y ~ a + b t + c t^2, with b = -2 c1, c = 2 c2.
  long double s[5] = {}, r[3] = {};
  for (uint32_t j = i == 0; j < kSegmentSize; ++j) {
    long double t = static_cast<long double>(j) / kSegmentSize, p = 1, y = gpu_result(r32, i, j);
    for (int q = 0; q < 5; ++q, p *= t) {
      s[q] += p;
      if (q < 3) r[q] += p * y;
    }
  }
  long double m[3][4] = {{s[0], s[1], s[2], r[0]}, {s[1], s[2], s[3], r[1]}, {s[2], s[3], s[4], r[2]}};
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q)
      if (q != p) {
        long double f = m[q][p] / m[p][p];
        for (int c = 0; c < 4; ++c) m[q][c] -= f * m[p][c];
      }
  int64_t c1_guess = std::llround(-m[1][3] / m[1][1] / 2), c2_guess = std::llround(m[2][3] / m[2][2] / 2);
  for (int64_t c1 = c1_guess - 2; c1 <= c1_guess + 2; ++c1)
    for (int64_t c2 = c2_guess - 2; c2 <= c2_guess + 2; ++c2) {
      // floor((C0*2^14 - c1 j - 1 + 4 c2 S) / 2^16) = Y for all j bounds C0*2^14 from both sides.
      i128 low = -(i128{1} << 100), high = i128{1} << 100;
      for (uint32_t j = i == 0; j < kSegmentSize; ++j) {
        i128 rest = -i128{c1} * j - 1 + 4 * i128{c2} * kept_square(j);
        i128 y = gpu_result(r32, i, j);
        low = std::max(low, (y << 16) - rest);
        high = std::min(high, (y << 16) + 65535 - rest);
      }
      i128 quarters = (high >> 14) << 14;
      if (quarters >= low) return {static_cast<int64_t>(quarters >> 14), c1, c2};
    }
  std::fprintf(stderr, "segment %d: no coefficients fit\n", i);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s r32.bin r64.bin table.h samples.tsv\n", argv[0]);
    return 2;
  }
  std::vector<uint32_t> r32 = read_words(argv[1], size_t{1} << 24), r64 = read_words(argv[2], size_t{1} << 22);
  std::vector<Segment> table;
  for (int i = 0; i < 128; ++i) table.push_back(fit_segment(r32, i));
  // Check the whole table against every result (x = 1, mantissa 0 of an even exponent, is exact).
  long mismatches = 0;
  for (int i = 0; i < 128; ++i)
    for (uint32_t j = i == 0; j < kSegmentSize; ++j) {
      const Segment& g = table[i];
      int64_t v = (g.c0_quarters << 14) - g.c1 * j - 1 + 4 * g.c2 * kept_square(j);
      mismatches += (v >> 16) != gpu_result(r32, i, j);
    }
  std::fprintf(stderr, "table reproduces the GPU with %ld mismatches of 2^24\n", mismatches);
  if (mismatches != 0) return 1;

  FILE* h = std::fopen(argv[3], "w");
  std::fprintf(h,
               "// Generated by scripts/fit_mufu_rsqrt.cpp from the H100's rsqrt.approx results (see there and\n"
               "// tests/data/README.md); do not edit. MUFU.RSQ's 128 segments: {C0 in quarter ulps, c1, c2},\n"
               "// segments 0-63 for even exponents (X in [1, 2)), 64-127 for odd ones (X in [2, 4)).\n"
               "#pragma once\n\n#include <cstdint>\n\nnamespace cucpu::jit {\n\n"
               "struct MufuRsqrtSegment {\n  int32_t c0_quarters;\n  int32_t c1;\n  int32_t c2;\n};\n\n"
               "inline constexpr MufuRsqrtSegment kMufuRsqrtTable[128] = {\n");
  for (int i = 0; i < 128; ++i)
    std::fprintf(h, "    {%lld, %lld, %lld},%s", (long long)table[i].c0_quarters, (long long)table[i].c1,
                 (long long)table[i].c2, i % 3 == 2 ? "\n" : "");
  std::fprintf(h, "\n};\n\n}  // namespace cucpu::jit\n");
  std::fclose(h);

  // The sample: every 8191st f32 result (2049 of them) and every 1021st f64 one (2054).
  FILE* t = std::fopen(argv[4], "w");
  std::fprintf(t, "# rsqrt.approx.ftz on an H100: instruction, input bits, result bits (hex)\n");
  for (uint32_t k = 0; k < (1u << 24); k += 8191) {
    uint32_t x = (k >> 23 ? 0x3f000000u : 0x3f800000u) | (k & 0x7fffffu);
    std::fprintf(t, "f32\t%08x\t%08x\n", x, r32[k]);
  }
  for (uint32_t i = 0; i < (1u << 21); i += 1021) {
    uint64_t hi = (i >> 20 ? 0x3fe00000u : 0x3ff00000u) | (i & 0xfffffu);
    std::fprintf(t, "f64\t%016llx\t%08x%08x\n", (unsigned long long)(hi << 32), r64[2 * i], r64[2 * i + 1]);
  }
  std::fclose(t);
}
