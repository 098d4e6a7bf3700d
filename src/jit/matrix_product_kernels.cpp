// The vector kernels of the tensor-core products (matrix_product_kernels.h). Built twice:
// CUCPU_KERNELS_ISA names the namespace of this build (x86_64_v4 or x86_64).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "jit/matrix_product_kernels.h"

#ifndef CUCPU_KERNELS_ISA
#error "built by src/jit/CMakeLists.txt with CUCPU_KERNELS_ISA set"
#endif

namespace cucpu::jit::CUCPU_KERNELS_ISA {
namespace {

using ptx::Type;

// Fraction bits kept below the largest exponent of a block (see block_fma_products).
constexpr int64_t kBlockFractionBits = 25;

// Eight doubles or 64-bit integers as one value (one AVX-512 register where there is one).
using Doubles8 = double __attribute__((vector_size(64)));
using Bits8 = uint64_t __attribute__((vector_size(64)));
using Ints8 = int64_t __attribute__((vector_size(64)));

// v (each lane finite, zero or a normal double) truncated toward zero to a multiple of
// 2^q: the fraction bits below 2^q cleared, lane by lane (ldexp(trunc(ldexp(v, -q)), q)).
[[gnu::always_inline]] inline void truncate_below(Doubles8& v, const Ints8& q) {
  const Bits8 bits = reinterpret_cast<Bits8>(v);
  const Ints8 cleared = 52 - (reinterpret_cast<Ints8>((bits >> 52) & 0x7ff) - 1023 - q);
  const Bits8 keep = cleared > 52 ? Bits8{} : cleared <= 0 ? ~Bits8{} : ~Bits8{} << reinterpret_cast<Bits8>(cleared);
  v = reinterpret_cast<Doubles8>(bits & keep);
}

// An f32 result's bits: a NaN is the GPU's canonical 0x7fffffff.
uint64_t f32_bits(double v) {
  if (std::isnan(v)) return 0x7fffffffu;
  const float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

using Floats8 = float __attribute__((vector_size(32)));
using Words8 = uint32_t __attribute__((vector_size(32)));

// Eight results (each exactly an f32, or, where `may_be_nan`, a NaN) as f32 bits into d[0..7].
[[gnu::always_inline]] inline void store_f32_bits(const Doubles8& v, bool may_be_nan, uint64_t* d) {
  if (may_be_nan) {  // lane by lane, for a NaN's canonical bits
    for (uint32_t i = 0; i < 8; ++i) d[i] = f32_bits(v[i]);
    return;
  }
  const Bits8 bits = __builtin_convertvector(reinterpret_cast<Words8>(__builtin_convertvector(v, Floats8)), Bits8);
  std::memcpy(d, &bits, sizeof bits);
}

// Each lane (finite, or an infinity) rounded toward zero to f32, as a double: the fraction
// bits below f32's last place cleared (below 2^-149 in f32's subnormal range, the sign
// kept); past the f32 range +-inf.
[[gnu::always_inline]] inline void round_to_f32_toward_zero(Doubles8& v) {
  const Bits8 bits = reinterpret_cast<Bits8>(v);
  const Bits8 sign = bits & (uint64_t{1} << 63);
  const Ints8 exponent = reinterpret_cast<Ints8>((bits >> 52) & 0x7ff) - 1023;
  const Ints8 cleared = exponent < -126 ? 52 - (exponent + 149) : Ints8{} + 29;
  const Bits8 keep = cleared > 52 ? Bits8{} : ~Bits8{} << reinterpret_cast<Bits8>(cleared);
  const Bits8 rounded = exponent >= 128 ? Bits8{} + 0x7ff0000000000000 : bits & keep;
  v = reinterpret_cast<Doubles8>(rounded | sign);
}

// The largest of eight exponents. (GCC has no reduction builtin for vector extensions.)
int64_t largest_lane(const Ints8& v) {
  int64_t top = v[0];
  for (uint32_t i = 1; i < 8; ++i) top = std::max(top, v[i]);
  return top;
}

// One block of `count` products added to an f32 accumulator where some term is infinite
// or NaN: they add in double.
double non_finite_block_sum(double acc, const double* a_row, const double* b_col, uint32_t b_stride, uint32_t count) {
  for (uint32_t k = 0; k < count; ++k) acc += a_row[k] * b_col[size_t{k} * b_stride];
  return acc;
}

// The f32-accumulating products of f16, bf16 and tf32 inputs for a whole m x n result, in
// blocks of `group` k, as the H100 computes them (tests/isa/tensor_core_rounding): in each
// block the exact products and the accumulator are aligned to the largest of their
// exponents (a product's is the sum of its inputs' exponents, its significand being in [1,
// 4)), each is truncated toward zero below 2^(largest - 25), the truncated terms are added
// exactly and the sum is truncated to f32. This is the model of Fasi et al. 2021
// ("Numerical behavior of NVIDIA tensor cores") with the Hopper parameters these outputs
// show. Only zeros give +0, whatever their signs (the H200's output,
// tests/e2e/tensor_core_special_values); infinities and NaN add in double. a is m x k and
// b k x n, row-major, each with its inputs' exponents (decode_inputs); n is a multiple of 8: eight
// columns of D are one vector.
void block_fma_products(
    uint32_t group, const MatrixDims& dims, const double* a, const int64_t* a_exponents, const double* b,
    const int64_t* b_exponents, const double* c, uint64_t* d) {
  for (uint32_t row = 0; row < dims.m; ++row) {
    const double* a_row = a + size_t{row} * dims.k;
    const int64_t* a_row_exponents = a_exponents + size_t{row} * dims.k;
    for (uint32_t col = 0; col < dims.n; col += 8) {
      Doubles8 acc;
      std::memcpy(&acc, c + size_t{row} * dims.n + col, sizeof acc);
      bool non_finite = false;  // some block had an infinite or NaN term: a NaN result is possible
      for (uint32_t k0 = 0; k0 < dims.k; k0 += group) {
        const uint32_t count = std::min(group, dims.k - k0);
        const Ints8 acc_field = reinterpret_cast<Ints8>((reinterpret_cast<Bits8>(acc) >> 52) & 0x7ff);
        const Ints8 acc_exponent = acc_field < 897 ? Ints8{} - 126 : acc_field - 1023;  // 897 - 1023 = -126
        Ints8 largest = acc_field == 0x7ff ? Ints8{} + kNonFiniteExponent : acc_exponent;
        largest = acc == 0 ? Ints8{} + kZeroExponent : largest;
        for (uint32_t k = k0; k < k0 + count; ++k) {
          Ints8 e;
          std::memcpy(&e, b_exponents + size_t{k} * dims.n + col, sizeof e);
          e += a_row_exponents[k];
          largest = e > largest ? e : largest;
        }
        // Every term is below 2^(largest + 2), so truncated it has at most 27 significant
        // bits: the 17 terms add exactly in double, in any order (two sums, for speed).
        const Ints8 q = largest - kBlockFractionBits;
        Doubles8 sums[2] = {acc, Doubles8{}};
        truncate_below(sums[0], q);
        for (uint32_t k = k0; k < k0 + count; ++k) {
          Doubles8 products;
          std::memcpy(&products, b + size_t{k} * dims.n + col, sizeof products);
          products *= a_row[k];
          truncate_below(products, q);
          sums[k & 1] += products;
        }
        // Zeros alone give +0 whatever their signs: sums[1] starts at +0.
        Doubles8 sum = sums[0] + sums[1];
        round_to_f32_toward_zero(sum);
        if (largest_lane(largest) >= kNonFinite) {
          non_finite = true;
          for (uint32_t i = 0; i < 8; ++i) {
            if (largest[i] >= kNonFinite)
              sum[i] = non_finite_block_sum(acc[i], a_row + k0, b + size_t{k0} * dims.n + col + i, dims.n, count);
          }
        }
        acc = sum;
      }
      store_f32_bits(acc, non_finite, d + size_t{row} * dims.n + col);
    }
  }
}

// The inputs' fields as the tensor core reads them. (Each comparison is the condition of a
// ?: of its own: GCC then makes vector selects of them.)
void decode_inputs(FloatFields f, size_t count, uint64_t* values,
                                                                      int64_t* exponents) {
  const int64_t bias = (int64_t{1} << (f.exponent_bits - 1)) - 1, all_ones = (int64_t{1} << f.exponent_bits) - 1;
  const uint64_t fraction_mask = (uint64_t{1} << f.fraction_bits) - 1;
  const uint64_t kept = ~((uint64_t{1} << f.low_ignored) - 1);
  const double subnormal_scale = std::ldexp(1.0, static_cast<int>(1 - bias - f.fraction_bits));
  for (size_t i = 0; i < count; i += 8) {
    Bits8 bits;
    std::memcpy(&bits, values + i, sizeof bits);
    bits &= kept;
    const Bits8 sign = (bits >> (f.fraction_bits + f.exponent_bits)) << 63;
    const Ints8 field = reinterpret_cast<Ints8>((bits >> f.fraction_bits) & all_ones);
    const Ints8 fraction = reinterpret_cast<Ints8>(bits & fraction_mask);
    // Normal (and infinite or NaN): the fields widened; subnormal: the fraction times 2^(1 - bias - fraction_bits).
    const Ints8 widened_field = field == all_ones ? Ints8{} + 0x7ff : field + (1023 - bias);
    const Ints8 nan_quiet_bit = fraction != 0 ? Ints8{} + (int64_t{1} << 51) : Ints8{};
    const Ints8 quiet = field == all_ones ? nan_quiet_bit : Ints8{};
    const Ints8 normal = widened_field << 52 | fraction << (52 - f.fraction_bits) | quiet;
    const Doubles8 scaled = __builtin_convertvector(fraction, Doubles8) * subnormal_scale;
    const Bits8 decoded = sign | reinterpret_cast<Bits8>(field == 0 ? reinterpret_cast<Ints8>(scaled) : normal);
    std::memcpy(values + i, &decoded, sizeof decoded);
    if (exponents == nullptr) continue;
    const Ints8 zero_or_subnormal = fraction == 0 ? Ints8{} + kZeroExponent : Ints8{} + (1 - bias);
    const Ints8 other = field == all_ones ? Ints8{} + kNonFiniteExponent : field - bias;
    const Ints8 exponent = field == 0 ? zero_or_subnormal : other;
    std::memcpy(exponents + i, &exponent, sizeof exponent);
  }
}


void integer_products(const MatrixDims& dims, const int64_t* a, const int64_t* b, const int64_t* c, bool satfinite,
                      uint64_t* d) {
  for (uint32_t row = 0; row < dims.m; ++row) {
    for (uint32_t col = 0; col < dims.n; col += 8) {
      Ints8 sum;
      std::memcpy(&sum, c + size_t{row} * dims.n + col, sizeof sum);
      for (uint32_t k = 0; k < dims.k; ++k) {
        Ints8 y;
        std::memcpy(&y, b + size_t{k} * dims.n + col, sizeof y);
        sum += a[size_t{row} * dims.k + k] * y;
      }
      if (satfinite) {
        sum = sum < INT32_MIN ? Ints8{} + INT32_MIN : sum;
        sum = sum > INT32_MAX ? Ints8{} + INT32_MAX : sum;
      }
      const Bits8 bits = reinterpret_cast<Bits8>(sum) & 0xffffffffu;
      std::memcpy(d + size_t{row} * dims.n + col, &bits, sizeof bits);
    }
  }
}

// words[i] = the 32 bits at byte offsets[i] of `lanes`, for i < count.
void gather_words(const uint8_t* lanes, const uint32_t* offsets, size_t count, uint32_t* words) {
  size_t i = 0;
#ifdef __AVX512F__
  // GCC makes no gathers of the loop below: sixteen elements an instruction.
  // (The masked form: GCC 12 warns of the unmasked one's undefined source.)
  for (; i + 16 <= count; i += 16) {
    const __m512i at = _mm512_loadu_si512(offsets + i);
    _mm512_storeu_si512(words + i, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xffff, at, lanes, 1));
  }
#endif
  for (; i < count; ++i) std::memcpy(&words[i], lanes + offsets[i], 4);
}

// The 32 bits at byte offsets[i] of `lanes` = words[i], for i < count, in order.
void scatter_words(uint8_t* lanes, const uint32_t* offsets, size_t count, const uint32_t* words) {
  size_t i = 0;
#ifdef __AVX512F__
  for (; i + 16 <= count; i += 16)  // a scatter's lanes write lowest first, as the loop below does
    _mm512_i32scatter_epi32(lanes, _mm512_loadu_si512(offsets + i), _mm512_loadu_si512(words + i), 1);
#endif
  for (; i < count; ++i) std::memcpy(lanes + offsets[i], &words[i], 4);
}

// gather_flat and scatter_flat go through 32-bit words this many at a time.
constexpr size_t kWordChunk = 256;

void gather_flat(const uint8_t* lanes, const uint32_t* offsets, size_t count, uint32_t mask, uint64_t* bits) {
  uint32_t words[kWordChunk];
  for (size_t first = 0; first < count; first += kWordChunk) {
    const size_t n = std::min(kWordChunk, count - first);
    gather_words(lanes, offsets + first, n, words);
    for (size_t i = 0; i < n; ++i) bits[first + i] = words[i] & mask;
  }
}

void scatter_flat(uint8_t* lanes, const uint32_t* offsets, size_t count, const uint64_t* bits) {
  uint32_t words[kWordChunk];
  for (size_t first = 0; first < count; first += kWordChunk) {
    const size_t n = std::min(kWordChunk, count - first);
    for (size_t i = 0; i < n; ++i) words[i] = static_cast<uint32_t>(bits[first + i]);
    scatter_words(lanes, offsets + first, n, words);
  }
}

// Sixteen f32 values (or their bits) as one value.
using Floats16 = float __attribute__((vector_size(64)));
using Words16 = uint32_t __attribute__((vector_size(64)));
using SignedWords16 = int32_t __attribute__((vector_size(64)));

// The smallest of sixteen lanes, by halving (the largest: the smallest of their negations).
int32_t smallest_lane(SignedWords16 v) {
  for (uint32_t half = 8; half != 0; half /= 2) {
    SignedWords16 moved;
    for (uint32_t i = 0; i < 16; ++i) moved[i] = v[(i + half) % 16];
    v = moved < v ? moved : v;
  }
  return v[0];
}

// What the exact products need to know of an operand's f32 values: whether one is infinite
// or NaN, the largest exponent as block_fma_products counts exponents (no smaller than
// `smallest_exponent`, the format's subnormals' and zeros' at most), and the exponent of
// the lowest set bit of any nonzero value (every value is a multiple of 2^that).
struct OperandBounds {
  bool finite;
  int32_t largest_exponent, lowest_bit;
};

OperandBounds operand_bounds(const uint32_t* f32, size_t count, int32_t smallest_exponent) {
  constexpr int32_t kNoBit = 1 << 28;
  SignedWords16 top_field{}, lowest = SignedWords16{} + kNoBit;
  for (size_t i = 0; i < count; i += 16) {
    Words16 bits;
    std::memcpy(&bits, f32 + i, sizeof bits);
    const SignedWords16 field = reinterpret_cast<SignedWords16>((bits >> 23) & 0xff);
    const SignedWords16 fraction = reinterpret_cast<SignedWords16>(bits & 0x7fffff);
    const SignedWords16 significand = field == 0 ? fraction : fraction | (1 << 23);
    // The lowest set bit alone, a power of two: as a float its exponent field counts the zeros below it.
    const Words16 low = reinterpret_cast<Words16>(__builtin_convertvector(significand & -significand, Floats16));
    const SignedWords16 zeros_below = reinterpret_cast<SignedWords16>(low >> 23) - 127;
    const SignedWords16 bit = (field == 0 ? SignedWords16{} + 1 : field) - 127 - 23 + zeros_below;
    lowest = significand == 0 ? lowest : bit < lowest ? bit : lowest;
    top_field = field > top_field ? field : top_field;
  }
  const int32_t field = -smallest_lane(-top_field);
  return {field != 0xff, std::max(field - 127, smallest_exponent), smallest_lane(lowest)};
}

// An operand's elements (ExactFlatProduct) as f32 bits into `f32`: f16 widened, bf16 and tf32
// as the f32 bits they are (tf32's 13 low bits cleared, as the tensor core ignores them).
void operand_as_f32(const ExactFlatProduct& p, const uint32_t* offsets, size_t count, Type type, uint32_t* f32) {
  gather_words(p.lanes, offsets, count, f32);
  for (size_t i = 0; i < count; i += 16) {
    Words16 bits;
    std::memcpy(&bits, f32 + i, sizeof bits);
    if (type == Type::F16) {
      using Halves16 = _Float16 __attribute__((vector_size(32)));
      using HalfBits16 = uint16_t __attribute__((vector_size(32)));
      const Halves16 halves = reinterpret_cast<Halves16>(__builtin_convertvector(bits, HalfBits16));
      bits = reinterpret_cast<Words16>(__builtin_convertvector(halves, Floats16));
    } else if (type == Type::BF16) {
      bits = (bits & 0xffff) << 16;
    } else if (type == Type::TF32) {
      bits &= ~uint32_t{0x1fff};
    }
    std::memcpy(f32 + i, &bits, sizeof bits);
  }
}

// The f32-accumulating product of f16, bf16 or tf32 inputs in one block (block_fma_products)
// where the truncation can change no term: every term a multiple of 2^q for the largest q
// any element of D can have, that is the products' lowest bits (A's and B's added) and C's at
// or above (the largest C exponent, or A's and B's largest added) - 25. Then each result is
// the exact sum of its terms, which double arithmetic gives in any order (multiples of 2^q
// below 2^(q + 27), seventeen of them: 32 bits), from +0 so that zeros alone give +0, and
// truncated to f32. The common case of integer-valued inputs (the samples' GEMMs) is such.
bool exact_flat_products(const ExactFlatProduct& p) {
  const MatrixDims& dims = p.dims;
  const size_t a_size = size_t{dims.m} * dims.k, b_size = size_t{dims.k} * dims.n, c_size = size_t{dims.m} * dims.n;
  constexpr size_t kMost = 512;
  if (a_size > kMost || b_size > kMost || c_size > kMost || a_size % 16 || b_size % 16 || c_size % 16 ||
      dims.n % 8 || dims.m % 8)
    return false;
  alignas(64) uint32_t a[kMost], b[kMost], c[kMost], d[kMost];
  operand_as_f32(p, p.a, a_size, p.a_type, a);
  operand_as_f32(p, p.b, b_size, p.b_type, b);
  operand_as_f32(p, p.c, c_size, Type::F32, c);
  const int32_t input_smallest = p.a_type == Type::F16 ? -14 : -126;
  const OperandBounds ab = operand_bounds(a, a_size, input_smallest), bb = operand_bounds(b, b_size, input_smallest);
  const OperandBounds cb = operand_bounds(c, c_size, -126);
  if (!ab.finite || !bb.finite || !cb.finite) return false;
  const int32_t top_q = std::max(cb.largest_exponent, ab.largest_exponent + bb.largest_exponent) - kBlockFractionBits;
  if (ab.lowest_bit + bb.lowest_bit < top_q || cb.lowest_bit < top_q) return false;
  alignas(64) double b_values[kMost];
  for (size_t i = 0; i < b_size; ++i) b_values[i] = std::bit_cast<float>(b[i]);
  alignas(64) double a_values[kMost];
  for (size_t i = 0; i < a_size; ++i) a_values[i] = std::bit_cast<float>(a[i]);
  // Eight rows at a time (every m is a multiple of 8): eight independent sums, so that the
  // additions overlap rather than wait for each other.
  constexpr uint32_t kRows = 8;
  for (uint32_t col = 0; col < dims.n; col += 8) {
    for (uint32_t row0 = 0; row0 < dims.m; row0 += kRows) {
      Doubles8 sums[kRows];
      for (uint32_t r = 0; r < kRows; ++r) {
        for (uint32_t i = 0; i < 8; ++i) sums[r][i] = std::bit_cast<float>(c[size_t{row0 + r} * dims.n + col + i]);
        sums[r] += 0.0;  // -0 to +0
      }
      for (uint32_t k = 0; k < dims.k; ++k) {
        Doubles8 b_row;
        std::memcpy(&b_row, b_values + size_t{k} * dims.n + col, sizeof b_row);
        for (uint32_t r = 0; r < kRows; ++r) sums[r] += a_values[size_t{row0 + r} * dims.k + k] * b_row;
      }
      for (uint32_t r = 0; r < kRows; ++r) {
        round_to_f32_toward_zero(sums[r]);
        const Words8 bits = reinterpret_cast<Words8>(__builtin_convertvector(sums[r], Floats8));
        std::memcpy(d + size_t{row0 + r} * dims.n + col, &bits, sizeof bits);
      }
    }
  }
  scatter_words(p.lanes, p.d, c_size, d);
  return true;
}

}  // namespace

const MatrixProductKernels kKernels = {decode_inputs, block_fma_products, integer_products, gather_flat,
                                       scatter_flat, exact_flat_products};

}  // namespace cucpu::jit::CUCPU_KERNELS_ISA
