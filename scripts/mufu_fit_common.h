// What scripts/fit_mufu_ex2.cpp and fit_mufu_lg2.cpp share: reading the H100 probe's result
// files, the folded squarer of the MUFU interpolator, and the search for one segment's
// coefficients. Header-only: each fitting program is still one g++ command.
//
// The interpolator (Oberman & Siu, ARITH 2005; see src/jit/special_function_unit.cpp): the top
// 6 bits of a 23-bit argument pick one of 64 segments, l = the low 17 bits, and in fixed point
//   V = C + c1*l + c2*S(l),
// S(l) = l^2 from a folded squarer that leaves out its columns below 2^19 (kept bits, in units
// of 2^19), as for MUFU.RSQ and MUFU.SIN. The programs know for each l an interval V must lie
// in (the GPU's result, truncated); fit_segment finds the (c1, c2) for which some C fits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace mufu_fit {

constexpr uint32_t kBinade = 1u << 23, kSegments = 64, kSegmentSize = 1u << 17;

inline float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The results of one probe file, decoded through `gzip -dc`. A .d16.gz file (sfu_probe_run.cu,
// sfu_probe2.cu) holds 2^23 results as int16 deltas of the result bits from the previous
// result's bits (the first from 0), a delta outside ±32767 written as -32768 then the bits as
// two int16 (low, high half); a .u32.gz file holds the results as raw little-endian uint32.
inline std::vector<uint32_t> read_probe(const std::string& path) {
  FILE* f = popen(("gzip -dc '" + path + "'").c_str(), "r");
  std::vector<uint32_t> out;
  if (f && path.ends_with(".u32.gz")) {
    uint32_t u;
    while (std::fread(&u, 4, 1, f) == 1) out.push_back(u);
  } else if (f) {
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
  }
  if (!f || pclose(f) != 0 || out.empty()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  return out;
}

// The input bits of result i of a probe file: base | i for a binade file, and for the sparse
// file (sfu_probe2.cu) i << 12 | ((i * 2654435761) >> 20 & 0xfff), spread over all bit patterns.
inline uint32_t probe_input(bool sparse, uint32_t base, uint32_t i) {
  return sparse ? i << 12 | ((i * 2654435761u) >> 20 & 0xfffu) : base | i;
}

// l^2 without the folded squarer's columns below 2^19, in units of 2^19.
inline int64_t kept_square(uint32_t l) {
  uint64_t dropped = 0;
  for (int a = 0; a < 17; ++a) {
    if ((l >> a & 1) == 0) continue;
    if (2 * a < 19) dropped += uint64_t{1} << (2 * a);
    for (int b = a + 1; a + b + 1 < 19 && b < 17; ++b)
      if (l >> b & 1) dropped += uint64_t{1} << (a + b + 1);
  }
  return static_cast<int64_t>((uint64_t{l} * l - dropped) >> 19);
}

// Coefficients c1, c2 of a segment and the range [low, high] of constants C that fit.
struct SegmentFit {
  int64_t c1, c2, low, high;
};

// Every (c1, c2) within 4 of a least-squares quadratic through the interval middles for which
// some C puts V(l) in [low[l], high[l]] for all l of the segment.
inline std::vector<SegmentFit> fit_segment(const int64_t* low, const int64_t* high) {
  long double s[5] = {}, rhs[3] = {};
  for (uint32_t l = 0; l < kSegmentSize; ++l) {
    long double p = 1, y = (low[l] + high[l]) / 2.0L;
    for (int k = 0; k < 5; ++k, p *= l) {
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
  int64_t c1_guess = std::llround(m[1][3] / m[1][1]);
  int64_t c2_guess = std::llround(m[2][3] / m[2][2] * 0x1p19);  // S(l) ~ l^2 / 2^19
  std::vector<SegmentFit> fits;
  for (int64_t c1 = c1_guess - 4; c1 <= c1_guess + 4; ++c1)
    for (int64_t c2 = c2_guess - 4; c2 <= c2_guess + 4; ++c2) {
      int64_t lo = INT64_MIN, hi = INT64_MAX;
      for (uint32_t l = 0; l < kSegmentSize && lo <= hi; ++l) {
        int64_t rest = c1 * l + c2 * kept_square(l);
        lo = std::max(lo, low[l] - rest);
        hi = std::min(hi, high[l] - rest);
      }
      if (lo <= hi) fits.push_back({c1, c2, lo, hi});
    }
  return fits;
}

// The table: one fit per segment (the programs stop if a segment has none or several), and
// C = c0 * 2^shift + offset with the largest shift for which one offset serves every segment.
struct Table {
  int shift = 0;
  int64_t offset = 0;
  std::vector<SegmentFit> segments;
  std::vector<int64_t> c0;
};

inline Table fit_table(const std::vector<int64_t>& low, const std::vector<int64_t>& high) {
  Table t;
  for (uint32_t i = 0; i < kSegments; ++i) {
    std::vector<SegmentFit> fits = fit_segment(&low[i * kSegmentSize], &high[i * kSegmentSize]);
    if (fits.size() != 1) {
      std::fprintf(stderr, "segment %u: %zu candidate coefficient pairs, want 1\n", i, fits.size());
      std::exit(1);
    }
    t.segments.push_back(fits[0]);
  }
  for (int shift = 20; shift >= 0 && t.c0.empty(); --shift) {
    int64_t unit = int64_t{1} << shift;
    for (int64_t offset = 0; offset < unit; ++offset) {
      bool all = true;
      for (const SegmentFit& s : t.segments) {  // some C = offset (mod unit) in [low, high]?
        int64_t c = s.low + (((offset - s.low) % unit) + unit) % unit;
        all = all && c <= s.high;
        if (!all) break;
      }
      if (!all) continue;
      t.shift = shift;
      t.offset = offset;
      for (const SegmentFit& s : t.segments)
        t.c0.push_back((s.low + (((offset - s.low) % unit) + unit) % unit - offset) >> shift);
      break;
    }
  }
  return t;
}

// The table as a header: struct `type` {c0, c1, c2} rows named `table`, plus the constants.
inline void write_table(const char* path, const Table& t, const char* preamble, const char* type, const char* table,
                        const char* prefix) {
  FILE* h = std::fopen(path, "w");
  if (!h) {
    std::fprintf(stderr, "cannot write %s\n", path);
    std::exit(1);
  }
  std::fprintf(h, "%s#pragma once\n\n#include <cstdint>\n\nnamespace cucpu::jit {\n\n", preamble);
  std::fprintf(h, "inline constexpr int k%sShift = %d;\ninline constexpr int64_t k%sOffset = %lld;\n\n", prefix,
               t.shift, prefix, (long long)t.offset);
  std::fprintf(h, "struct %s {\n  int32_t c0;\n  int32_t c1;\n  int32_t c2;\n};\n\n", type);
  std::fprintf(h, "inline constexpr %s %s[64] = {\n", type, table);
  for (uint32_t i = 0; i < kSegments; ++i)
    std::fprintf(h, "    {%lld, %lld, %lld},%s", (long long)t.c0[i], (long long)t.segments[i].c1,
                 (long long)t.segments[i].c2, i % 3 == 2 ? "\n" : "");
  std::fprintf(h, "\n};\n\n}  // namespace cucpu::jit\n");
  std::fclose(h);
}

// Checks `model` (input bits -> result bits) against every result of `files` (each with
// .path, .sparse, .base) and writes the sample to `sample_path` after `header`: every 65521st
// result of each binade, every 1021st of the sparse file, as "instruction input result".
// Returns the number of mismatches; says per file how many on stderr.
template <typename File, typename Model>
long check_and_sample(const std::vector<File>& files, Model model, const char* instruction, const char* sample_path,
                      const char* header) {
  FILE* t = std::fopen(sample_path, "w");
  if (!t) {
    std::fprintf(stderr, "cannot write %s\n", sample_path);
    std::exit(1);
  }
  std::fputs(header, t);
  long mismatches = 0, total = 0;
  for (const File& file : files) {
    std::vector<uint32_t> results = read_probe(file.path);
    long before = mismatches;
    for (uint32_t n = 0; n < results.size(); ++n, ++total) {
      uint32_t x = probe_input(file.sparse, file.base, n);
      mismatches += model(x) != results[n];
      if (n % (file.sparse ? 1021 : 65521) == 0) std::fprintf(t, "%s\t%08x\t%08x\n", instruction, x, results[n]);
    }
    std::fprintf(stderr, "%s: %ld mismatches of %zu\n", file.path.c_str(), mismatches - before, results.size());
  }
  std::fclose(t);
  std::fprintf(stderr, "the model reproduces the GPU with %ld mismatches of %ld\n", mismatches, total);
  return mismatches;
}

}  // namespace mufu_fit
