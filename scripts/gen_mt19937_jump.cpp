// Prints the jump polynomial cuRAND's MT19937 generator threads are spaced by (see
// src/libs/curand/mt19937_engine.cpp): x^(2^2048) modulo the minimal polynomial of
// MT19937, as the words of src/libs/curand/mt19937_jump.inc. The minimal polynomial is
// found by Berlekamp-Massey from the lowest bit of std::mt19937's outputs (degree 19937);
// x^(2^2048) by 2048 squarings modulo it.
//   c++ -O2 -o gen_mt19937_jump scripts/gen_mt19937_jump.cpp && ./gen_mt19937_jump > src/libs/curand/mt19937_jump.inc
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

constexpr int degree = 19937;
constexpr int words = (degree + 63) / 64;

using Poly = std::vector<uint64_t>;

int bit(const Poly& p, int i) { return int(p[i >> 6] >> (i & 63)) & 1; }
void flip(Poly& p, int i) { p[i >> 6] ^= 1ull << (i & 63); }

// The connection polynomial C (C_0 = 1) of the shortest LFSR making s, and its length.
Poly berlekamp_massey(const std::vector<uint8_t>& s, int& length) {
  size_t size = s.size() / 64 + 2;
  Poly c(size), b(size);
  flip(c, 0);
  flip(b, 0);
  length = 0;
  int m = 1;
  for (int i = 0; i < int(s.size()); ++i) {
    int d = s[i];
    for (int j = 1; j <= length; ++j) d ^= bit(c, j) & s[i - j];
    if (!d) {
      ++m;
      continue;
    }
    Poly t = c;
    for (int j = 0; j + m < int(size) * 64; ++j)
      if (bit(b, j)) flip(c, j + m);
    if (2 * length <= i) {
      length = i + 1 - length;
      b = t;
      m = 1;
    } else {
      ++m;
    }
  }
  return c;
}

// a^2 mod p (p of degree `degree`).
Poly square_mod(const Poly& a, const Poly& p) {
  Poly r(2 * words + 2);
  for (int i = 0; i < degree; ++i)
    if (bit(a, i)) flip(r, 2 * i);
  for (int i = 2 * degree - 2; i >= degree; --i) {
    if (!bit(r, i)) continue;
    int shift = i - degree, ws = shift >> 6, bs = shift & 63;
    for (int w = 0; w <= words; ++w) {
      uint64_t pw = p[w];
      r[w + ws] ^= pw << bs;
      if (bs) r[w + ws + 1] ^= pw >> (64 - bs);
    }
  }
  r.resize(words);
  return r;
}

}  // namespace

int main() {
  std::mt19937 mt(5489u);
  std::vector<uint8_t> s(2 * degree + 64);
  for (auto& b : s) b = mt() & 1;
  int length;
  Poly c = berlekamp_massey(s, length);
  if (length != degree) {
    std::fprintf(stderr, "minimal polynomial of degree %d, not %d\n", length, degree);
    return 1;
  }
  Poly p(words + 1);  // p_i = c_(degree - i)
  for (int i = 0; i <= degree; ++i)
    if (bit(c, degree - i)) flip(p, i);
  Poly q(words);
  flip(q, 1);
  for (int k = 0; k < 2048; ++k) q = square_mod(q, p);
  std::printf("// x^(2^2048) mod the minimal polynomial of MT19937: coefficient i is bit i %% 64 of word i / 64.\n");
  std::printf("// Made by scripts/gen_mt19937_jump.cpp; do not edit.\n");
  for (int w = 0; w < words; ++w) std::printf("0x%016llxull,%s", (unsigned long long)q[w], w % 4 == 3 ? "\n" : " ");
  std::printf("\n");
}
