// The tables of cuRAND's Sobol generators, made as NVIDIA's libcurand holds them (equal to the
// H200's and to NVIDIA's host library's in all 20000 dimensions), and the functions that hand
// them out (curandGetDirectionVectors32/64, curandGetScrambleConstants32/64):
//
// - CURAND_DIRECTION_VECTORS_64_JOEKUO6: dimension 0 is van der Corput's (vector i is bit
//   63 - i); dimension d > 0 follows row d + 1 of Joe and Kuo's new-joe-kuo-6.21201
//   (joe_kuo_6.inc): v_i = m_{i+1} << (63 - i) for i < s, then v_i = v_{i-s} ^ (v_{i-s} >> s)
//   ^ the v_{i-k} whose coefficient a_k is set. The 32-bit set is their upper halves (the
//   recurrence only shifts right, so each upper half is what the 32-bit recurrence makes).
// - The scrambled sets, Matousek's linear matrix scrambling: vector i of dimension d is
//   L_d v_i over GF(2), bit 63 being row 0, with L_d lower triangular of unit diagonal whose
//   row j holds, left of the diagonal, the upper j bits of random word 64 d + j.
// - The scramble constants (the points' digital shift): random word 64 * 20000 + d.
//
// The random words are those of NVIDIA's host-API XORWOW generator with its default seed 0,
// after an offset of 1: word k is its results 2k (low half) and 2k + 1 (high half). That was
// found by looking the tables' words up in that sequence (NVIDIA's host library hands out the
// same tables without a GPU); the 32-bit tables are the upper halves of the 64-bit ones.
#include "libs/curand/sobol_tables.h"

#include <bit>
#include <mutex>
#include <string_view>
#include <vector>

#include "libs/curand/generator.h"

namespace cucpu::curand {
namespace {

constexpr char joe_kuo_packed[] =
#include "libs/curand/joe_kuo_6.inc"
    ;

// Reads the bit stream of joe_kuo_6.inc (base64; values least significant bit first).
class PackedBits {
 public:
  explicit PackedBits(std::string_view base64) {
    unsigned buffer = 0, buffered = 0;
    for (char c : base64) {
      int digit = c >= 'A' && c <= 'Z'   ? c - 'A'
                  : c >= 'a' && c <= 'z' ? c - 'a' + 26
                  : c >= '0' && c <= '9' ? c - '0' + 52
                  : c == '+'             ? 62
                  : c == '/'             ? 63
                                         : -1;
      if (digit < 0) continue;  // the padding
      buffer = (buffer << 6) | unsigned(digit);
      buffered += 6;
      if (buffered >= 8) {
        buffered -= 8;
        bytes_.push_back((unsigned char)(buffer >> buffered));
      }
    }
  }

  unsigned take(unsigned bits) {
    unsigned value = 0;
    for (unsigned i = 0; i < bits; ++i, ++position_)
      value |= unsigned(bytes_[position_ / 8] >> (position_ % 8) & 1) << i;
    return value;
  }

 private:
  std::vector<unsigned char> bytes_;
  size_t position_ = 0;
};

// One width's tables of one set.
struct Tables {
  std::vector<unsigned long long> vectors64;  // 64 per dimension
  std::vector<unsigned> vectors32;            // 32 per dimension: the upper halves
  std::vector<unsigned long long> constants64;
  std::vector<unsigned> constants32;

  void make_upper_halves() {
    for (size_t d = 0; d < sobol_dimensions; ++d)
      for (unsigned i = 0; i < 32; ++i) vectors32.push_back(unsigned(vectors64[d * 64 + i] >> 32));
    for (unsigned long long c : constants64) constants32.push_back(unsigned(c >> 32));
  }
};

// Joe and Kuo's rows, one dimension after another (see scripts/gen_joe_kuo_inc.py).
void make_direction_vectors(std::vector<unsigned long long>& vectors) {
  vectors.assign(size_t(sobol_dimensions) * 64, 0);
  for (unsigned i = 0; i < 64; ++i) vectors[i] = 1ull << (63 - i);
  PackedBits rows(joe_kuo_packed);
  unsigned s = 0;
  for (unsigned d = 1; d < sobol_dimensions; ++d) {
    s += rows.take(1);
    unsigned a = rows.take(s - 1);
    unsigned long long* v = &vectors[size_t(d) * 64];
    v[0] = 1ull << 63;  // m_1 = 1
    for (unsigned i = 1; i < s; ++i) v[i] = (unsigned long long)(rows.take(i) << 1 | 1) << (63 - i);
    for (unsigned i = s; i < 64; ++i) {
      unsigned long long x = v[i - s] ^ (v[i - s] >> s);
      for (unsigned k = 1; k < s; ++k)
        if ((a >> (s - 1 - k)) & 1) x ^= v[i - k];
      v[i] = x;
    }
  }
}

// The random words: NVIDIA's host-API XORWOW sequence, seed 0, from result 1 on.
std::vector<unsigned long long> random_words(size_t count) {
  std::vector<unsigned> results(2 * count);
  auto xorwow = make_xorwow_engine({CURAND_RNG_PSEUDO_XORWOW, CURAND_ORDERING_PSEUDO_DEFAULT, 0, 1});
  xorwow->fill({Output::bits32, results.data(), results.size()});
  std::vector<unsigned long long> words(count);
  for (size_t k = 0; k < count; ++k) words[k] = results[2 * k] | (unsigned long long)results[2 * k + 1] << 32;
  return words;
}

// L_d v for each vector v of each dimension d.
void scramble(const std::vector<unsigned long long>& vectors, const std::vector<unsigned long long>& words,
              std::vector<unsigned long long>& scrambled) {
  scrambled.resize(vectors.size());
  for (size_t d = 0; d < sobol_dimensions; ++d) {
    unsigned long long rows[64];
    for (unsigned j = 0; j < 64; ++j) rows[j] = (j ? words[d * 64 + j] & ~0ull << (64 - j) : 0) | 1ull << (63 - j);
    for (unsigned i = 0; i < 64; ++i) {
      unsigned long long v = vectors[d * 64 + i], w = 0;
      for (unsigned j = 0; j < 64; ++j) w |= (unsigned long long)(std::popcount(rows[j] & v) & 1) << (63 - j);
      scrambled[d * 64 + i] = w;
    }
  }
}

const Tables& plain_tables() {
  static Tables* made = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    auto* t = new Tables;
    make_direction_vectors(t->vectors64);
    t->make_upper_halves();
    made = t;
  });
  return *made;
}

const Tables& scrambled_tables() {
  static Tables* made = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    auto* t = new Tables;
    std::vector<unsigned long long> words = random_words(size_t(sobol_dimensions) * 65);
    scramble(plain_tables().vectors64, words, t->vectors64);
    t->constants64.assign(words.end() - sobol_dimensions, words.end());
    t->make_upper_halves();
    made = t;
  });
  return *made;
}

const Tables& tables(bool scrambled) { return scrambled ? scrambled_tables() : plain_tables(); }

}  // namespace

const curandDirectionVectors32_t* sobol_vectors32(bool scrambled) {
  return reinterpret_cast<const curandDirectionVectors32_t*>(tables(scrambled).vectors32.data());
}

const curandDirectionVectors64_t* sobol_vectors64(bool scrambled) {
  return reinterpret_cast<const curandDirectionVectors64_t*>(tables(scrambled).vectors64.data());
}

const unsigned* sobol_scramble_constants32() { return scrambled_tables().constants32.data(); }
const unsigned long long* sobol_scramble_constants64() { return scrambled_tables().constants64.data(); }

}  // namespace cucpu::curand

// An unknown set, or one of the other width, is OUT_OF_RANGE for NVIDIA's; a null pointer
// crashes NVIDIA's and is OUT_OF_RANGE here.
extern "C" {

curandStatus_t CURANDAPI curandGetDirectionVectors32(curandDirectionVectors32_t* vectors[],
                                                     curandDirectionVectorSet_t set) {
  if (!vectors) return CURAND_STATUS_OUT_OF_RANGE;
  if (set != CURAND_DIRECTION_VECTORS_32_JOEKUO6 && set != CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6)
    return CURAND_STATUS_OUT_OF_RANGE;
  bool scrambled = set == CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6;
  *vectors = const_cast<curandDirectionVectors32_t*>(cucpu::curand::sobol_vectors32(scrambled));
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetDirectionVectors64(curandDirectionVectors64_t* vectors[],
                                                     curandDirectionVectorSet_t set) {
  if (!vectors) return CURAND_STATUS_OUT_OF_RANGE;
  if (set != CURAND_DIRECTION_VECTORS_64_JOEKUO6 && set != CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6)
    return CURAND_STATUS_OUT_OF_RANGE;
  bool scrambled = set == CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6;
  *vectors = const_cast<curandDirectionVectors64_t*>(cucpu::curand::sobol_vectors64(scrambled));
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetScrambleConstants32(unsigned int** constants) {
  if (!constants) return CURAND_STATUS_OUT_OF_RANGE;
  *constants = const_cast<unsigned*>(cucpu::curand::sobol_scramble_constants32());
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetScrambleConstants64(unsigned long long** constants) {
  if (!constants) return CURAND_STATUS_OUT_OF_RANGE;
  *constants = const_cast<unsigned long long*>(cucpu::curand::sobol_scramble_constants64());
  return CURAND_STATUS_SUCCESS;
}

}  // extern "C"
