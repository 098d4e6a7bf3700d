// MT19937 in the order of NVIDIA's host API (found from its host generator's output, which
// the H200's device generator matches): 8192 generator threads, thread 0 the plain MT19937
// of the seed's low 32 bits (init_genrand) and thread t that sequence jumped ahead by
// t * 2^2048 values (x^(2^2048) mod MT19937's minimal polynomial, mt19937_jump.inc, made by
// scripts/gen_mt19937_jump.cpp, applied by Horner's rule to the state). Each thread writes 8
// values per row of 8192 * 8, so result g of the generator's life comes from thread
// (g / 8) mod 8192 as its value (g / 65536) * 8 + g mod 8. A thread's values come in blocks
// of 624 (one twist of its state) in a fixed order of their own: row 0 of the block's 78
// rows of 8 takes words 0, 113, 170, 283, 340, 397, 510 and 567, and each of 11 groups of
// 7 rows takes the next 56 words column by column (kMt19937Order). Every result takes one
// value; a call continues where the last ended; there is no offset (the H200 refuses one).
#include <array>
#include <cstdint>
#include <vector>

#include "libs/curand/device_api.h"
#include "libs/curand/generator.h"

namespace cucpu::curand {
namespace {

constexpr unsigned mt_n = 624, mt_m = 397;
constexpr unsigned threads = 8192;
constexpr unsigned per_row = 8;
constexpr unsigned long long row_size = threads * per_row;

constexpr uint64_t jump_2048[] = {
#include "libs/curand/mt19937_jump.inc"
};
constexpr unsigned jump_degree = 19937;

// Where in a block of 624 a thread's value s (mod 624) comes from: the 624 words in order
// are 11 chunks, chunk j beginning with the word for row 0, column m when j = ceil(11m / 8),
// then 56 words for rows 1 + 7j .. 7 + 7j, 7 consecutive words per column.
std::array<unsigned short, mt_n> make_order() {
  std::array<unsigned short, mt_n> order{};
  unsigned word = 0, single = 0;
  for (unsigned chunk = 0; chunk < 11; ++chunk) {
    if (single < per_row && (11 * single + 7) / 8 == chunk) order[single++] = word++;
    for (unsigned column = 0; column < per_row; ++column)
      for (unsigned r = 0; r < 7; ++r) order[(1 + 7 * chunk + r) * per_row + column] = word++;
  }
  return order;
}
const std::array<unsigned short, mt_n> kMt19937Order = make_order();

// An MT19937 state as the last 624 words made: `oldest` is the one the next word replaces.
struct Window {
  std::array<uint32_t, mt_n> word{};
  unsigned oldest = 0;

  void step() {
    unsigned next = oldest + 1 == mt_n ? 0 : oldest + 1;
    unsigned far = oldest + mt_m < mt_n ? oldest + mt_m : oldest + mt_m - mt_n;
    uint32_t y = (word[oldest] & 0x80000000u) | (word[next] & 0x7fffffffu);
    word[oldest] = word[far] ^ (y >> 1) ^ ((y & 1) ? 0x9908b0dfu : 0u);
    oldest = next;
  }
  // this += other, word by word from each one's oldest (`other` has oldest 0).
  void add(const Window& other) {
    unsigned tail = mt_n - oldest;
    for (unsigned i = 0; i < tail; ++i) word[oldest + i] ^= other.word[i];
    for (unsigned i = tail; i < mt_n; ++i) word[i - tail] ^= other.word[i];
  }
  Window normalized() const {
    Window w;
    for (unsigned i = 0; i < mt_n; ++i) w.word[i] = word[(oldest + i) % mt_n];
    return w;
  }
};

// The state jump_2048(M) applied to `base` (M: one step), 8 coefficients at a time.
Window jump(const Window& base) {
  std::vector<Window> table(256);
  Window power = base.normalized();
  for (unsigned k = 0; k < 8; ++k) {
    Window aligned = power.normalized();
    for (unsigned v = 1u << k; v < (2u << k); ++v) {
      table[v] = table[v - (1u << k)];
      table[v].add(aligned);
    }
    power.step();
  }
  Window r;
  for (int chunk = (jump_degree - 1) / 8; chunk >= 0; --chunk) {
    for (int k = 0; k < 8; ++k) r.step();
    unsigned bit = unsigned(chunk) * 8;
    unsigned v = unsigned(jump_2048[bit / 64] >> (bit % 64)) & 0xff;
    if (v) r.add(table[v]);
  }
  return r.normalized();
}

// NVIDIA's MT19937 uniforms: the value's middle of its 2^-32 step, rounded to float for floats.
double uniform_double(uint32_t x) { return x * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE / 2.0; }

uint32_t temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

class Mt19937Engine : public Engine {
 public:
  explicit Mt19937Engine(const EngineSettings& settings) {
    Window first;
    first.word[0] = uint32_t(settings.seed);
    for (unsigned i = 1; i < mt_n; ++i)
      first.word[i] = 1812433253u * (first.word[i - 1] ^ (first.word[i - 1] >> 30)) + i;
    threads_.push_back({first});
    last_start_ = first;
  }

  // Normals are the inverse normal CDF of each 32-bit value, as MTGP32's.
  Transform transform(Output output) const override { return inverse_cdf_transform(output); }

  void fill(const Request& request) override {
    for (size_t i = 0; i < request.count; ++i)
      store_raw_or_uniform(
          request, i, next(), [](unsigned x) { return float(uniform_double(x)); }, uniform_double);
  }

 private:
  struct Thread {
    Window state;  // holding block `made` of the thread's values once made
    long long made = -1;
  };

  uint32_t next() {
    unsigned long long g = at_++;
    unsigned t = unsigned(g / per_row % threads);
    unsigned long long s = g / row_size * per_row + g % per_row;
    while (threads_.size() <= t) {
      last_start_ = jump(last_start_);
      threads_.push_back({last_start_});
    }
    Thread& thread = threads_[t];
    for (long long block = (long long)(s / mt_n); thread.made < block; ++thread.made)
      for (unsigned i = 0; i < mt_n; ++i) thread.state.step();
    return temper(thread.state.word[kMt19937Order[s % mt_n]]);
  }

  std::vector<Thread> threads_;
  Window last_start_;  // the starting state of the last thread made
  unsigned long long at_ = 0;
};

}  // namespace

std::unique_ptr<Engine> make_mt19937_engine(const EngineSettings& settings) {
  return std::make_unique<Mt19937Engine>(settings);
}

}  // namespace cucpu::curand
