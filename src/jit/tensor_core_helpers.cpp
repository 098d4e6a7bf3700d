// What generated code calls for the tensor-core instructions (lower_tensor_core.cpp):
// wmma.load / wmma.store move one lane's fragment between its registers (64-bit slots)
// and memory; the matrix product and ldmatrix / stmatrix / movmatrix are warp steps,
// run once for the whole warp by the executor's __cucpu_warp_step with every lane's
// buffer (kernel_abi.h). Fragment layouts: matrix_fragments.h.
//
// Products: integer ones are exact (wrapping to s32, or clamping with .satfinite); b1
// ones count the set bits of a AND/XOR b; f64 ones are a chain of fused multiply-adds
// over k in order; f16, bf16 and tf32 inputs with an f32 accumulator follow the tensor
// cores' block sums with truncation (block_sum); the others (an f16 accumulator, fp8
// inputs) form each product exactly and add them and C in double, rounding once to the
// result type, which is what the H100 prints for them (tests/isa/tensor_core_rounding).
// mma.m8n8k4 with .f16 inputs (one product per quad pair) has no tensor-core instruction
// on sm_90: ptxas emulates it, and an f32 D is emulated_m8n8k4_sum's f32 arithmetic; an f16
// D is one rounding, as the other f16 forms (both match the H100: tensor_core_rounding).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "jit/function_lowering.h"
#include "jit/matrix_fragments.h"
#include "jit/narrow_float_format.h"

namespace cucpu::jit {
namespace {

using ptx::Type;

uint32_t element_bits(Type type) { return type == Type::TF32 ? 32 : ptx::bit_width(type); }

// Element j of a register whose elements are `bits` wide (element_bits).
uint64_t element_of(uint64_t reg, uint32_t bits, uint32_t j) {
  if (bits >= 32) return reg;
  return (reg >> (j * bits)) & ((1ull << bits) - 1);
}

void set_element(uint64_t& reg, uint32_t bits, uint32_t j, uint64_t value) {
  if (bits >= 64) {
    reg = value;
    return;
  }
  const uint64_t mask = ((1ull << bits) - 1) << (j * bits);
  reg = (reg & ~mask) | ((value << (j * bits)) & mask);
}

double to_double(Type type, uint64_t bits) {
  switch (type) {
    case Type::F16: {
      // A finite half by its fields (the conversion is a library call on hosts without F16C).
      const uint64_t exponent = bits >> 10 & 0x1f, fraction = bits & 0x3ff;
      const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
      if (exponent == 0) return sign * (static_cast<double>(fraction) * 0x1p-24);  // zero, subnormal
      if (exponent != 0x1f) {
        const uint64_t widened = (bits & 0x8000) << 48 | (exponent + 1008) << 52 | fraction << 42;
        double v;
        std::memcpy(&v, &widened, 8);
        return v;
      }
      _Float16 h;
      const uint16_t b16 = static_cast<uint16_t>(bits);
      std::memcpy(&h, &b16, 2);
      return static_cast<double>(h);
    }
    case Type::BF16: {
      const uint32_t b32 = static_cast<uint32_t>(bits) << 16;
      float f;
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case Type::TF32:
    case Type::F32: {
      // A .tf32 operand's low 13 bits are not read (PTX ISA 9.0 §9.7.14.5).
      const uint32_t b32 = static_cast<uint32_t>(bits) & (type == Type::TF32 ? 0xffffe000u : ~0u);
      float f;
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case Type::F64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case Type::E4m3: return decode_narrow(kE4m3, static_cast<uint32_t>(bits));
    case Type::E5m2: return decode_narrow(kE5m2, static_cast<uint32_t>(bits));
    default: return 0;
  }
}

int64_t to_integer(Type type, uint64_t bits) {
  const uint32_t width = element_bits(type);
  if (ptx::is_signed_int(type) || type == Type::S4) {
    return static_cast<int64_t>(bits << (64 - width)) >> (64 - width);
  }
  return static_cast<int64_t>(bits);
}

uint64_t from_double(Type type, double v) {
  switch (type) {
    case Type::F16: {
      const _Float16 h = static_cast<_Float16>(v);
      uint16_t b16;
      std::memcpy(&b16, &h, 2);
      return b16;
    }
    case Type::F32: {
      if (std::isnan(v)) return 0x7fffffffu;  // the GPU's canonical f32 NaN
      const float f = static_cast<float>(v);
      uint32_t b32;
      std::memcpy(&b32, &f, 4);
      return b32;
    }
    case Type::F64: {
      uint64_t b64;
      std::memcpy(&b64, &v, 8);
      return b64;
    }
    default: return 0;
  }
}

constexpr uint32_t kWarpLanes = 32;

bool is_integer_input(Type type) {
  return type == Type::S8 || type == Type::U8 || type == Type::S4 || type == Type::U4 || type == Type::B1;
}

// The position of element `i` in memory, in elements from the base.
uint64_t element_index(MatrixPosition p, uint32_t stride, bool column_major) {
  return column_major ? uint64_t{p.col} * stride + p.row : uint64_t{p.row} * stride + p.col;
}

// Sizes known to the compiler: a memcpy of a variable size is a call.
template <typename T>
uint64_t load_as(const uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

uint64_t load_element(const uint8_t* base, uint64_t index, uint32_t bits) {
  switch (bits) {
    case 8: return load_as<uint8_t>(base + index);
    case 16: return load_as<uint16_t>(base + index * 2);
    case 32: return load_as<uint32_t>(base + index * 4);
    case 64: return load_as<uint64_t>(base + index * 8);
    default: break;
  }
  const uint64_t bit = index * bits;
  return (base[bit / 8] >> (bit % 8)) & ((1u << bits) - 1);
}

template <typename T>
void store_as(uint8_t* at, uint64_t value) {
  const T narrow = static_cast<T>(value);
  std::memcpy(at, &narrow, sizeof narrow);
}

void store_element(uint8_t* base, uint64_t index, uint32_t bits, uint64_t value) {
  switch (bits) {
    case 8: return store_as<uint8_t>(base + index, value);
    case 16: return store_as<uint16_t>(base + index * 2, value);
    case 32: return store_as<uint32_t>(base + index * 4, value);
    case 64: return store_as<uint64_t>(base + index * 8, value);
    default: break;
  }
  const uint64_t bit = index * bits;
  const uint8_t mask = static_cast<uint8_t>(((1u << bits) - 1) << (bit % 8));
  base[bit / 8] = static_cast<uint8_t>((base[bit / 8] & ~mask) | ((value << (bit % 8)) & mask));
}

// The exponent of a finite nonzero double that is normal, as every value here is (an f16,
// bf16, tf32 or f32 value, or the product of two such inputs): ilogb without the call.
int normal_exponent(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return static_cast<int>((bits >> 52) & 0x7ff) - 1023;
}

// The exponent a tensor core gives a finite nonzero input: its biased exponent field
// unbiased, so a subnormal counts as the smallest normal exponent.
int input_exponent(Type type, double v) { return std::max(normal_exponent(v), type == Type::F16 ? -14 : -126); }

// v (finite) as f32 rounded toward zero; past the f32 range +-inf.
double round_to_f32_toward_zero(double v) {
  if (std::fabs(v) >= 0x1p128) return std::copysign(INFINITY, v);
  float f = static_cast<float>(v);
  if (std::fabs(static_cast<double>(f)) > std::fabs(v)) {  // rounded away from zero: one step back
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    --bits;
    std::memcpy(&f, &bits, 4);
  }
  return f;
}

// Fraction bits kept below the largest exponent of a block (see block_sum).
constexpr int kBlockFractionBits = 25;

// The k of one block of block_sum: the whole k of an mma.sync (4, 8 or 16), and for
// wmma the k of the instruction ptxas splits it into: m16n16k8 tf32 runs as two k = 4
// steps (the H100's wmma tf32 output fits blocks of 4, not 8), f16 and bf16 as k = 16.
uint32_t block_fma_group(const MatrixForm& form) {
  return form.a == Type::TF32 && form.shape == ptx::Shape::M16n16k8 ? 4 : 16;
}

// C + sum over k < 4 of a[k] * b[k] as ptxas emulates mma.m8n8k4 with an f32 D on sm_90
// (its SASS: FFMA from 0 in k order, then one FADD of C; the H100's output for every layout
// and C type, tests/isa/tensor_core_rounding): f32 arithmetic rounding to nearest.
double emulated_m8n8k4_sum(double acc, const double* a_row, const double* b_col, uint32_t b_stride) {
  float sum = 0;
  for (uint32_t k = 0; k < 4; ++k)
    sum = std::fma(static_cast<float>(a_row[k]), static_cast<float>(b_col[size_t{k} * b_stride]), sum);
  return static_cast<float>(acc) + sum;
}

// A tensor-core exponent for a zero input, and for an infinite or NaN one: far enough
// below (above) every real exponent that a product's sum of two stays below kNoProduct
// (at or above kNonFinite).
constexpr int kZeroExponent = -(1 << 20);
constexpr int kNoProduct = -(1 << 19);
constexpr int kNonFiniteExponent = 1 << 22;
constexpr int kNonFinite = 1 << 21;

// The exponent block_sum counts for an input of type `type`.
int block_exponent(Type type, double v) {
  if (!std::isfinite(v)) return kNonFiniteExponent;
  return v != 0 ? input_exponent(type, v) : kZeroExponent;
}

// Eight doubles or 64-bit integers as one value: GCC's vector extensions, so that the
// block sums below are vector code on any host (one AVX-512 register where there is one).
using Doubles8 = double __attribute__((vector_size(64)));
using Bits8 = uint64_t __attribute__((vector_size(64)));
using Ints8 = int64_t __attribute__((vector_size(64)));

// v (each lane finite, zero or a normal double) truncated toward zero to a multiple of
// 2^q: the fraction bits below 2^q cleared, lane by lane (ldexp(trunc(ldexp(v, -q)), q)).
// In place: a 64-byte vector argument or result would change the ABI between clones.
[[gnu::always_inline]] inline void truncate_below(Doubles8& v, int64_t q) {
  const Bits8 bits = reinterpret_cast<Bits8>(v);
  const Ints8 cleared = 52 - (reinterpret_cast<Ints8>((bits >> 52) & 0x7ff) - 1023 - q);
  const Bits8 keep = cleared > 52 ? Bits8{} : cleared <= 0 ? ~Bits8{} : ~Bits8{} << reinterpret_cast<Bits8>(cleared);
  v = reinterpret_cast<Doubles8>(bits & keep);
}

// One block of `count` products of an f32-accumulating tensor core
// added to the accumulator, as the H100 computes it for f16, bf16 and tf32 inputs
// (tests/isa/tensor_core_rounding): the exact products and the accumulator are aligned
// to the largest of their exponents (a product's is the sum of its inputs' exponents, its
// significand being in [1, 4)), each is truncated toward zero below 2^(largest - 25), the
// truncated terms are added exactly and the sum is truncated to f32. This is the model
// of Fasi et al. 2021 ("Numerical behavior of NVIDIA tensor cores") with the Hopper
// parameters these outputs show; infinities and NaN add in double. x and y are the
// inputs, ex and ey their block_exponents.
[[gnu::always_inline]] inline double block_sum(double acc, const double* x, const double* y, const int* ex,
                                               const int* ey, uint32_t count) {
  int largest = acc != 0 ? input_exponent(Type::F32, acc) : kZeroExponent;
  for (uint32_t k = 0; k < count; ++k) largest = std::max(largest, ex[k] + ey[k]);
  // Only zeros: +0, whatever their signs (the H200's output, tests/e2e/tensor_core_special_values).
  if (largest < kNoProduct) return 0.0;
  if (largest >= kNonFinite || !std::isfinite(acc)) {  // not all finite
    for (uint32_t k = 0; k < count; ++k) acc += x[k] * y[k];
    return acc;
  }
  // Every term is below 2^(largest + 2), so truncated it has at most 27 significant bits:
  // the 17 terms add exactly in double, in any order (here eight at a time).
  const int64_t q = largest - kBlockFractionBits;
  Doubles8 sum{};
  sum[0] = acc;
  truncate_below(sum, q);
  for (uint32_t k0 = 0; k0 < count; k0 += 8) {
    Doubles8 xs{}, ys{};
    for (uint32_t k = k0; k < std::min(count, k0 + 8); ++k) xs[k - k0] = x[k], ys[k - k0] = y[k];
    Doubles8 products = xs * ys;
    truncate_below(products, q);
    sum += products;
  }
  double total = 0;
  for (uint32_t i = 0; i < 8; ++i) total += sum[i];
  return round_to_f32_toward_zero(total);
}

// The f32-accumulating products of f16, bf16 and tf32 inputs for a whole m x n result, in
// blocks of `group` k: a is m x k and b_t (B transposed) n x k, each with its inputs'
// block_exponents. Cloned for AVX-512 hosts, where block_sum's vectors are registers.
[[gnu::target_clones("arch=x86-64-v4", "default")]] void block_fma_products(
    uint32_t group, const MatrixDims& dims, const double* a, const int* a_exponents, const double* b_t,
    const int* b_exponents, const double* c, uint64_t* d) {
  for (uint32_t row = 0; row < dims.m; ++row) {
    for (uint32_t col = 0; col < dims.n; ++col) {
      const size_t x = size_t{row} * dims.k, y = size_t{col} * dims.k;
      double acc = c[size_t{row} * dims.n + col];
      for (uint32_t k = 0; k < dims.k; k += group) {
        acc = block_sum(acc, a + x + k, b_t + y + k, a_exponents + x + k, b_exponents + y + k,
                        std::min(group, dims.k - k));
      }
      d[size_t{row} * dims.n + col] = from_double(Type::F32, acc);
    }
  }
}

// Where every lane's fragment elements lie in their matrix, for one form, operand and
// element type: [lane * per_lane + i], from product_element (else fragment_element). Made
// once per worker and form: a tensor-core kernel runs these helpers millions of times, and
// the layout functions are arithmetic per element.
struct ElementTableKey {
  uint64_t form = 0;  // encode(form)
  MatrixOperand operand = MatrixOperand::A;
  Type type = Type::None;
  uint32_t per_lane = 0;
  bool product = false;
  bool operator==(const ElementTableKey&) const = default;
};

const MatrixPosition* element_table(const ElementTableKey& key) {
  // A kernel uses a handful of forms: a short list searched in order.
  thread_local std::vector<std::pair<ElementTableKey, std::vector<MatrixPosition>>> tables;
  for (const auto& [k, table] : tables)
    if (k == key) return table.data();
  const MatrixForm form = decode_matrix_form(key.form);
  const MatrixDims dims = matrix_dims(form.shape);
  std::vector<MatrixPosition> table(size_t{kWarpLanes} * key.per_lane);
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    for (uint32_t i = 0; i < key.per_lane; ++i) {
      table[size_t{lane} * key.per_lane + i] = key.product ? product_element(form, key.operand, key.type, lane, i)
                                                           : fragment_element(dims, key.operand, key.type, lane, i);
    }
  }
  tables.emplace_back(key, std::move(table));
  return tables.back().second.data();
}

// wmma.load / wmma.store: the positions of `lane`'s first `elements` elements.
const MatrixPosition* lane_positions(uint64_t encoded, const MatrixForm& form, uint32_t lane, uint32_t elements) {
  return element_table({encoded, form.operand, form.a, elements, false}) + size_t{lane} * elements;
}

}  // namespace
}  // namespace cucpu::jit

using cucpu::jit::MatrixForm;
using cucpu::jit::MatrixOperand;

// wmma.load: `count` registers of `lane`'s fragment (form.a is the element type).
extern "C" void __cucpu_jit_wmma_load(uint64_t* slots, const uint8_t* base, uint32_t stride, uint64_t encoded,
                                      uint32_t lane, uint32_t count) {
  using namespace cucpu::jit;
  const MatrixForm form = decode_matrix_form(encoded);
  const uint32_t chunk = elements_per_register(form.a), bits = element_bits(form.a);
  const MatrixPosition* positions = lane_positions(encoded, form, lane, count * chunk);
  for (uint32_t r = 0; r < count; ++r) {
    uint64_t reg = 0;
    for (uint32_t j = 0; j < chunk; ++j) {
      const MatrixPosition p = positions[r * chunk + j];
      set_element(reg, bits, j, load_element(base, element_index(p, stride, form.column_major), bits));
    }
    slots[r] = reg;
  }
}

extern "C" void __cucpu_jit_wmma_store(const uint64_t* slots, uint8_t* base, uint32_t stride, uint64_t encoded,
                                       uint32_t lane, uint32_t count) {
  using namespace cucpu::jit;
  const MatrixForm form = decode_matrix_form(encoded);
  const uint32_t chunk = elements_per_register(form.a), bits = element_bits(form.a);
  const MatrixPosition* positions = lane_positions(encoded, form, lane, count * chunk);
  for (uint32_t r = 0; r < count; ++r) {
    for (uint32_t j = 0; j < chunk; ++j) {
      const MatrixPosition p = positions[r * chunk + j];
      store_element(base, element_index(p, stride, form.column_major), bits, element_of(slots[r], bits, j));
    }
  }
}

namespace cucpu::jit {
namespace {

// One product of a warp's instruction (the whole warp's, or one quad pair's): `members`
// are the lanes of the product that take part.
void multiply(const MatrixForm& form, void* const* lanes, uint32_t members) {
  const uint64_t word = encode(form);
  const MatrixDims dims = matrix_dims(form.shape);
  const bool integer = is_integer_input(form.a);
  // Reused per worker: a tensor-core kernel runs this once per warp per instruction.
  thread_local std::vector<double> a, b, c;
  thread_local std::vector<int64_t> ai, bi, ci;
  thread_local std::vector<uint64_t> d;
  a.assign(dims.m * dims.k, 0);
  b.assign(dims.k * dims.n, 0);
  c.assign(dims.m * dims.n, 0);
  ai.assign(a.size(), 0);
  bi.assign(b.size(), 0);
  ci.assign(c.size(), 0);
  // Scatter every lane's fragments into whole matrices.
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    if (!(members >> lane & 1)) continue;
    const auto* slots = static_cast<const uint64_t*>(lanes[lane]);
    struct Source {
      MatrixOperand operand;
      Type type;
      uint32_t slot, cols;
      std::vector<double>& values;
      std::vector<int64_t>& integers;
    };
    const Source sources[] = {{MatrixOperand::A, form.a, kSlotA, dims.k, a, ai},
                              {MatrixOperand::B, form.b, kSlotB, dims.n, b, bi},
                              {MatrixOperand::C, form.c, kSlotC, dims.n, c, ci}};
    for (const Source& s : sources) {
      const uint32_t chunk = elements_per_register(s.type), unique = product_elements_per_lane(form, s.operand);
      const uint32_t width = element_bits(s.type);
      const MatrixPosition* positions = element_table({word, s.operand, s.type, unique, true}) + size_t{lane} * unique;
      for (uint32_t i = 0; i < unique; ++i) {
        const MatrixPosition p = positions[i];
        const uint64_t bits = element_of(slots[s.slot + i / chunk], width, i % chunk);
        const size_t at = size_t{p.row} * s.cols + p.col;
        if (integer || s.type == Type::S32) {
          s.integers[at] = to_integer(s.type, bits);
        } else {
          s.values[at] = to_double(s.type, bits);
        }
      }
    }
  }
  // D, then back into every lane's D registers.
  d.assign(dims.m * dims.n, 0);
  // f16, bf16 and tf32 products into f32 (but not the emulated m8n8k4): tensor-core block sums.
  const bool block_sums = form.d == Type::F32 && form.shape != cucpu::ptx::Shape::M8n8k4 &&
                          (form.a == Type::F16 || form.a == Type::BF16 || form.a == Type::TF32);
  if (block_sums) {
    thread_local std::vector<double> b_t;
    thread_local std::vector<int> a_exponents, b_exponents;
    a_exponents.resize(a.size());
    for (size_t i = 0; i < a.size(); ++i) a_exponents[i] = block_exponent(form.a, a[i]);
    b_t.resize(b.size());
    b_exponents.resize(b.size());
    for (uint32_t k = 0; k < dims.k; ++k) {
      for (uint32_t col = 0; col < dims.n; ++col) {
        b_t[size_t{col} * dims.k + k] = b[size_t{k} * dims.n + col];
        b_exponents[size_t{col} * dims.k + k] = block_exponent(form.a, b[size_t{k} * dims.n + col]);
      }
    }
    block_fma_products(block_fma_group(form), dims, a.data(), a_exponents.data(), b_t.data(), b_exponents.data(),
                       c.data(), d.data());
  } else {
    for (uint32_t row = 0; row < dims.m; ++row) {
      for (uint32_t col = 0; col < dims.n; ++col) {
        const size_t at = size_t{row} * dims.n + col;
        if (integer) {
          int64_t sum = ci[at];
          for (uint32_t k = 0; k < dims.k; ++k) {
            const int64_t x = ai[size_t{row} * dims.k + k], y = bi[size_t{k} * dims.n + col];
            if (form.a == Type::B1) {
              sum += form.bit_op == cucpu::ptx::BoolOp::And ? (x & y) : (x ^ y);
            } else {
              sum += x * y;
            }
          }
          if (form.satfinite) sum = std::min<int64_t>(std::max<int64_t>(sum, INT32_MIN), INT32_MAX);
          d[at] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<uint32_t>(sum)));
        } else if (form.a == Type::F64) {
          double sum = c[at];
          for (uint32_t k = 0; k < dims.k; ++k)
            sum = std::fma(a[size_t{row} * dims.k + k], b[size_t{k} * dims.n + col], sum);
          d[at] = from_double(Type::F64, sum);
        } else if (form.shape == cucpu::ptx::Shape::M8n8k4 && form.d == Type::F32) {
          d[at] = from_double(Type::F32, emulated_m8n8k4_sum(c[at], &a[size_t{row} * dims.k], &b[col], dims.n));
        } else {
          double sum = c[at];
          for (uint32_t k = 0; k < dims.k; ++k) sum += a[size_t{row} * dims.k + k] * b[size_t{k} * dims.n + col];
          d[at] = from_double(form.d, sum);
        }
      }
    }
  }
  const Type d_type = integer ? Type::S32 : form.d;
  const uint32_t chunk = elements_per_register(d_type), unique = product_elements_per_lane(form, MatrixOperand::C);
  const uint32_t d_width = element_bits(d_type);
  const MatrixPosition* d_positions = element_table({word, MatrixOperand::C, d_type, unique, true});
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    if (!(members >> lane & 1)) continue;
    auto* slots = static_cast<uint64_t*>(lanes[lane]);
    for (uint32_t i = 0; i < unique; ++i) {
      const MatrixPosition p = d_positions[size_t{lane} * unique + i];
      set_element(slots[kSlotD + i / chunk], d_width, i % chunk, d[size_t{p.row} * dims.n + p.col]);
    }
  }
}

}  // namespace
}  // namespace cucpu::jit

// The matrix products of one warp's instruction: every member lane's buffer
// (matrix_fragments.h slots); each product (one, or one per quad pair) on its lanes.
extern "C" void __cucpu_jit_mma(void* const* lanes, uint32_t members) {
  using namespace cucpu::jit;
  if (members == 0) return;
  const auto* first = static_cast<const uint64_t*>(lanes[__builtin_ctz(members)]);
  const MatrixForm form = decode_matrix_form(first[kSlotForm]);
  for (uint32_t product = 0; product < product_count(form); ++product) {
    const uint32_t group = members & product_lanes(form, product);
    if (group != 0) multiply(form, lanes, group);
  }
}

// ldmatrix / stmatrix / movmatrix (PTX ISA 9.0 §9.7.14.5.15-17) on 8x8 matrices of b16.
// A lane's buffer: [0] the host address of the row it supplies, [1] matrices | trans << 8
// | kind << 16 (0 ldmatrix, 1 stmatrix, 2 movmatrix), [2..5] its registers (movmatrix: [2]
// in, [3] out). Lane L's register for matrix m holds row L/4, columns 2(L%4) and +1
// (transposed with .trans); the rows of matrix m are at the addresses of lanes 8m..8m+7.
extern "C" void __cucpu_jit_matrix_move(void* const* lanes, uint32_t members) {
  if (members == 0) return;
  const auto* first = static_cast<const uint64_t*>(lanes[__builtin_ctz(members)]);
  const uint32_t matrices = first[1] & 0xff, kind = (first[1] >> 16) & 0xff;
  const bool trans = ((first[1] >> 8) & 1) != 0;
  auto slots = [&](uint32_t lane) { return static_cast<uint64_t*>(lanes[lane]); };
  // The address of element (row, col) of matrix m; null when its lane is not a member.
  auto element = [&](uint32_t m, uint32_t row, uint32_t col) -> uint16_t* {
    const uint32_t lane = m * 8 + row;
    if (!(members >> lane & 1)) return nullptr;
    return reinterpret_cast<uint16_t*>(slots(lane)[0]) + col;
  };
  for (uint32_t lane = 0; lane < cucpu::jit::kWarpLanes; ++lane) {
    if (!(members >> lane & 1)) continue;
    const uint32_t row = lane / 4, col = 2 * (lane % 4);
    if (kind == 2) {  // movmatrix: the transpose, from the registers of the lanes holding it
      uint32_t out = 0;
      for (uint32_t h = 0; h < 2; ++h) {
        // Element (row, col + h) of the result is (col + h, row) of the source.
        const uint32_t source_row = col + h, source_col = row, holder = source_row * 4 + source_col / 2;
        const uint32_t value = (members >> holder & 1)
                                   ? static_cast<uint32_t>(slots(holder)[2] >> (16 * (source_col % 2))) & 0xffff
                                   : 0;
        out |= value << (16 * h);
      }
      slots(lane)[3] = out;
      continue;
    }
    for (uint32_t m = 0; m < matrices; ++m) {
      if (kind == 0) slots(lane)[2 + m] = 0;
      for (uint32_t h = 0; h < 2; ++h) {
        uint16_t* p = trans ? element(m, col + h, row) : element(m, row, col + h);
        if (p == nullptr) continue;
        uint64_t& reg = slots(lane)[2 + m];
        if (kind == 0) {
          reg = (reg & ~(0xffffull << (16 * h))) | (uint64_t{*p} << (16 * h));
        } else {
          *p = static_cast<uint16_t>(reg >> (16 * h));
        }
      }
    }
  }
}

namespace cucpu::jit {

RuntimeSymbols tensor_core_helper_symbols() {
  return {
      {"__cucpu_jit_wmma_load", reinterpret_cast<void*>(&__cucpu_jit_wmma_load)},
      {"__cucpu_jit_wmma_store", reinterpret_cast<void*>(&__cucpu_jit_wmma_store)},
      {"__cucpu_jit_mma", reinterpret_cast<void*>(&__cucpu_jit_mma)},
      {"__cucpu_jit_matrix_move", reinterpret_cast<void*>(&__cucpu_jit_matrix_move)},
  };
}

}  // namespace cucpu::jit
