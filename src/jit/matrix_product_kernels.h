// The vector kernels of the tensor-core products (matrix_product.cpp): reading the inputs'
// fields, the tensor cores' block sums and the integer products, eight lanes at a time
// with GCC's vector extensions. matrix_product_kernels.cpp is built twice, for AVX-512 hosts (x86-64-v4) and
// for any x86-64, and matrix_product_kernels() picks the build the host runs. (Not
// target_clones: GCC lowers the vector comparisons for the baseline before it clones, so
// the clone for AVX-512 gets them lane by lane. An AVX2 build, lacking 64-bit integer
// max and conversions, was no faster than the baseline on cpp-kernels' machine.)
#pragma once

#include <cstddef>
#include <cstdint>

#include "jit/matrix_fragments.h"

namespace cucpu::jit {

// A tensor-core exponent for a zero input, and for an infinite or NaN one: far enough
// below (above) every real exponent that a block with an infinite or NaN term (0 * inf
// included) has its largest exponent at or above kNonFinite, and one of zeros alone far
// below any other.
inline constexpr int64_t kZeroExponent = -(1 << 20);
inline constexpr int64_t kNonFiniteExponent = 1 << 22;
inline constexpr int64_t kNonFinite = 1 << 21;

// The fields of an input type's floating-point format, for its exponents and values.
struct FloatFields {
  uint32_t fraction_bits, exponent_bits, low_ignored;  // low_ignored: tf32's 13 unread bits
};

// One product straight from a warp step's buffer (matrix_product.cpp's flat offsets: a
// 32-bit read at lanes + offset has the element in its low bits; D's elements are f32).
struct ExactFlatProduct {
  uint8_t* lanes;
  const uint32_t *a, *b, *c, *d;
  MatrixDims dims;
  ptx::Type a_type, b_type;  // f16, bf16 or tf32, C and D f32
};

struct MatrixProductKernels {
  // `count` (a multiple of 8) inputs in the format `f` from their bits (in place) to doubles,
  // and, when `exponents` is given, their exponents as the block sums count them: the
  // unbiased exponent field (a subnormal's the smallest normal one), kZeroExponent for a
  // zero, kNonFiniteExponent for an infinity or NaN. A NaN keeps its payload and becomes
  // quiet, as the host's conversion makes it.
  void (*decode_inputs)(FloatFields f, size_t count, uint64_t* values, int64_t* exponents);
  // D (f32 bits) = A * B + C in the tensor cores' block sums of `group` k (the comment at
  // the definition); a is m x k and b k x n, row-major, with their decode_inputs exponents;
  // n is a multiple of 8.
  void (*block_fma_products)(uint32_t group, const MatrixDims& dims, const double* a, const int64_t* a_exponents,
                             const double* b, const int64_t* b_exponents, const double* c, uint64_t* d);
  // D (s32 bits) = A * B + C of integers (s8, u8, s4 or u4 inputs, s32 C), exact, then
  // wrapped to s32 or, with `satfinite`, clamped to it; a is m x k and b k x n, row-major; n
  // is a multiple of 8.
  void (*integer_products)(const MatrixDims& dims, const int64_t* a, const int64_t* b, const int64_t* c,
                           bool satfinite, uint64_t* d);
  // bits[i] = the 32 bits at byte offsets[i] of `lanes` & mask, for i < count: an operand's
  // elements from a warp step's buffer (matrix_product.cpp's flat offsets).
  void (*gather_flat)(const uint8_t* lanes, const uint32_t* offsets, size_t count, uint32_t mask, uint64_t* bits);
  // The 32 bits at byte offsets[i] of `lanes` = the low 32 bits of bits[i], for i < count, in
  // order: D's elements of 32 bits into a warp step's buffer (gather_flat's twin).
  void (*scatter_flat)(uint8_t* lanes, const uint32_t* offsets, size_t count, const uint64_t* bits);
  // D = A * B + C of f16, bf16 or tf32 inputs into f32, of a single block of the block sums
  // (block_fma_products' k <= group), when it can be had without truncating any term: the
  // results into D's places and true; else false, having written nothing.
  bool (*exact_flat_products)(const ExactFlatProduct& product);
};

// The build of matrix_product_kernels.cpp for this host.
const MatrixProductKernels& matrix_product_kernels();

namespace x86_64_v4 {
extern const MatrixProductKernels kKernels;
}
namespace x86_64 {
extern const MatrixProductKernels kKernels;
}

}  // namespace cucpu::jit
