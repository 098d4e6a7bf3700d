// The arithmetic of a tensor-core product (__cucpu_jit_mma, tensor_core_helpers.cpp): the
// lanes' fragments gathered into whole matrices, D = A * B + C computed as the H100 does,
// and D scattered back into the lanes' registers.
//
// Products: integer ones are exact (wrapping to s32, or clamping with .satfinite); b1
// ones count the set bits of a AND/XOR b; f64 ones are a chain of fused multiply-adds
// over k in order; f16, bf16 and tf32 inputs with an f32 accumulator follow the tensor
// cores' block sums with truncation (block_fma_products); the others (an f16 accumulator,
// fp8 inputs) form each product exactly and add them and C in double, rounding once to the
// result type, which is what the H100 prints for them (tests/isa/tensor_core_rounding).
// mma.m8n8k4 with .f16 inputs (one product per quad pair) has no tensor-core instruction
// on sm_90: ptxas emulates it, and an f32 D is emulated_m8n8k4_sum's f32 arithmetic; an f16
// D is one rounding, as the other f16 forms (both match the H100: tensor_core_rounding).
//
// A tensor-core kernel runs this millions of times (cudaTensorCoreGemm: 16.8 million
// m16n16k16 products), so where each lane's elements go is worked out once per form
// (ProductPlan) and the block sums are vector code across eight columns of D.
#include "jit/matrix_product.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "jit/matrix_product_kernels.h"
#include "jit/narrow_float_format.h"

namespace cucpu::jit {
namespace {

using ptx::Type;

// An input of the types decode_inputs does not read (f64 and fp8) as a double.
double to_double(Type type, uint64_t bits) {
  switch (type) {
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

// `count` elements of an integer type, as bits, to their values in place.
void to_integers(Type type, size_t count, int64_t* values) {
  if (!ptx::is_signed_int(type) && type != Type::S4) return;  // the bits are the value
  const uint32_t unused = 64 - element_bits(type);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<int64_t>(static_cast<uint64_t>(values[i]) << unused) >> unused;
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

bool is_integer_input(Type type) {
  return type == Type::S8 || type == Type::U8 || type == Type::S4 || type == Type::U4 || type == Type::B1;
}

// The k of one block of the block sums: the whole k of an mma.sync (4, 8 or 16), and for
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

// An element of a lane's fragment: its lane, its register's slot in the lane's buffer,
// its bits' place in the register, and its place in its matrix (row * columns + column).
struct FragmentElement {
  uint8_t lane, slot, shift;
  uint16_t at;
};

// Every element of the fragments of one operand of a form, lane by lane.
struct OperandPlan {
  Type type = Type::None;
  uint64_t mask = 0;  // of an element's bits
  std::vector<FragmentElement> elements;
  // Where each element of the matrix is (in matrix order) when the lanes' buffers are one
  // block, slot s of lane l at s * 32 + l (the compiled strategy's warp step): the byte
  // offset of a 32-bit read whose low bits are the element. Empty where some element is
  // in no lane's fragment or not whole bytes within the low 32 bits of its slot.
  std::vector<uint32_t> flat;
};

// The places of every lane's fragment elements for one form, worked out once per worker.
struct ProductPlan {
  uint64_t encoded = 0;
  MatrixForm form;
  MatrixDims dims{};
  bool integer = false;     // s8, u8, s4, u4 or b1 inputs: s32 C and D
  bool block_sums = false;  // f16, bf16 or tf32 inputs into f32, but the emulated m8n8k4
  bool exact_flat = false;  // block sums of a single block with every operand's flat places: exact_flat_products
  OperandPlan a, b, c, d;
};

OperandPlan plan_operand(const MatrixForm& form, MatrixOperand operand, Type type, uint32_t first_slot) {
  const MatrixDims dims = matrix_dims(form.shape);
  const uint32_t chunk = elements_per_register(type), unique = product_elements_per_lane(form, operand);
  const uint32_t width = element_bits(type), cols = operand_size(dims, operand).col;
  OperandPlan plan;
  plan.type = type;
  plan.mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    for (uint32_t i = 0; i < unique; ++i) {
      const MatrixPosition p = product_element(form, operand, type, lane, i);
      plan.elements.push_back({static_cast<uint8_t>(lane), static_cast<uint8_t>(first_slot + i / chunk),
                               static_cast<uint8_t>((i % chunk) * width), static_cast<uint16_t>(p.row * cols + p.col)});
    }
  }
  constexpr uint32_t kNowhere = ~0u;
  if (width % 8 != 0 || width > 32) return plan;
  plan.flat.assign(size_t{operand_size(dims, operand).row} * cols, kNowhere);
  for (const FragmentElement& e : plan.elements) {
    if (e.shift % 8 != 0 || e.shift + width > 32) return plan.flat.clear(), plan;
    plan.flat[e.at] = (e.slot * kWarpLanes + e.lane) * 8 + e.shift / 8;  // a later lane's, as gather keeps
  }
  if (std::find(plan.flat.begin(), plan.flat.end(), kNowhere) != plan.flat.end()) plan.flat.clear();
  return plan;
}

// A product's matrices, reused by a worker from one product to the next.
struct ProductScratch {
  std::vector<double> a, b, c;
  std::vector<int64_t> ai, bi, ci, a_exponents, b_exponents;
  std::vector<uint64_t> d;
};

// What a worker keeps between products: the plans of the forms it has met and the scratch
// matrices (one thread_local, since each access to one costs a call in a shared library).
struct WorkerState {
  std::vector<std::unique_ptr<ProductPlan>> plans;
  const ProductPlan* last = nullptr;
  ProductScratch scratch;
};

const ProductPlan& product_plan(WorkerState& worker, uint64_t encoded) {
  // A kernel uses a handful of forms: a short list searched in order, the last one found first.
  auto& plans = worker.plans;
  auto& last = worker.last;
  if (last != nullptr && last->encoded == encoded) return *last;
  for (const auto& plan : plans) {
    if (plan->encoded == encoded) return *(last = plan.get());
  }
  auto plan = std::make_unique<ProductPlan>();
  plan->encoded = encoded;
  plan->form = decode_matrix_form(encoded);
  const MatrixForm& form = plan->form;
  plan->dims = matrix_dims(form.shape);
  plan->integer = is_integer_input(form.a);
  plan->block_sums = form.d == Type::F32 && form.shape != ptx::Shape::M8n8k4 && plan->dims.n % 8 == 0 &&
                     (form.a == Type::F16 || form.a == Type::BF16 || form.a == Type::TF32);
  plan->a = plan_operand(form, MatrixOperand::A, form.a, kSlotA);
  plan->b = plan_operand(form, MatrixOperand::B, form.b, kSlotB);
  plan->c = plan_operand(form, MatrixOperand::C, form.c, kSlotC);
  plan->d = plan_operand(form, MatrixOperand::C, plan->integer ? Type::S32 : form.d, kSlotD);
  plan->exact_flat = plan->block_sums && block_fma_group(form) >= plan->dims.k && !plan->a.flat.empty() &&
                     !plan->b.flat.empty() && !plan->c.flat.empty() && !plan->d.flat.empty();
  plans.push_back(std::move(plan));
  return *(last = plans.back().get());
}

// Each member lane's elements of one operand, as bits, into `matrix` (uint64_t or int64_t).
template <typename T>
void gather(const OperandPlan& plan, void* const* lanes, uint32_t members, uint32_t stride, T* matrix) {
  const size_t per_lane = plan.elements.size() / kWarpLanes;
  for (uint32_t left = members; left != 0; left &= left - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(left));
    const auto* slots = static_cast<const uint64_t*>(lanes[lane]);
    const FragmentElement* e = plan.elements.data() + lane * per_lane;
    for (size_t i = 0; i < per_lane; ++i)
      matrix[e[i].at] = static_cast<T>((slots[e[i].slot * stride] >> e[i].shift) & plan.mask);
  }
}

// An operand's elements as bits, from `flat` (the lanes' buffers as one block, every lane
// a member) by the plan's flat offsets where it has them, else lane by lane.
void gather_bits(const OperandPlan& plan, void* const* lanes, uint32_t members, uint32_t stride, const uint8_t* flat,
                 uint64_t* bits) {
  if (flat == nullptr || plan.flat.empty()) return gather(plan, lanes, members, stride, bits);
  matrix_product_kernels().gather_flat(flat, plan.flat.data(), plan.flat.size(), static_cast<uint32_t>(plan.mask),
                                       bits);
}

// The formats decode_inputs reads; false for other types.
bool float_fields(Type type, FloatFields& f) {
  switch (type) {
    case Type::F16: f = {10, 5, 0}; return true;
    case Type::BF16: f = {7, 8, 0}; return true;
    case Type::TF32: f = {23, 8, 13}; return true;
    case Type::F32: f = {23, 8, 0}; return true;
    default: return false;
  }
}

// An operand's `size` elements (a multiple of 8, as every operand of every form is) as
// doubles; `exponents`, when given (the block sums' f16, bf16 and tf32 inputs), gets the
// exponents the block sums count.
void gather_values(const OperandPlan& plan, void* const* lanes, uint32_t members, uint32_t stride, const uint8_t* flat,
                   size_t size, double* values, int64_t* exponents) {
  auto* bits = reinterpret_cast<uint64_t*>(values);
  gather_bits(plan, lanes, members, stride, flat, bits);
  FloatFields f;
  if (float_fields(plan.type, f)) return matrix_product_kernels().decode_inputs(f, size, bits, exponents);
  for (size_t i = 0; i < size; ++i) values[i] = to_double(plan.type, bits[i]);
}

void gather_integers(const OperandPlan& plan, void* const* lanes, uint32_t members, uint32_t stride,
                     const uint8_t* flat, size_t size, int64_t* integers) {
  gather_bits(plan, lanes, members, stride, flat, reinterpret_cast<uint64_t*>(integers));
  to_integers(plan.type, size, integers);
}

// One product of a warp's instruction (the whole warp's, or one quad pair's): `members`
// are the lanes of the product that take part, `lanes` their buffers; `flat`, when not
// null, the same buffers as one block (OperandPlan::flat) with every lane a member.
void multiply(ProductScratch& scratch, const ProductPlan& plan, void* const* lanes, uint32_t members, uint32_t stride,
              bool partial, uint8_t* flat) {
  const MatrixForm& form = plan.form;
  const MatrixDims& dims = plan.dims;
  // Reused per worker. Elements of lanes that are not members are 0: the matrices are
  // cleared first unless every lane of the product takes part.
  auto& [a, b, c, ai, bi, ci, a_exponents, b_exponents, d] = scratch;
  if (plan.exact_flat && flat != nullptr &&
      matrix_product_kernels().exact_flat_products(
          {flat, plan.a.flat.data(), plan.b.flat.data(), plan.c.flat.data(), plan.d.flat.data(), dims, form.a, form.b}))
    return;
  const size_t a_size = size_t{dims.m} * dims.k, b_size = size_t{dims.k} * dims.n, c_size = size_t{dims.m} * dims.n;
  auto prepare = [partial](auto& matrix, size_t size) {
    if (partial) matrix.assign(size, 0);
    if (matrix.size() < size) matrix.resize(size);
  };
  prepare(d, c_size);
  if (plan.integer) {
    prepare(ai, a_size);
    prepare(bi, b_size);
    prepare(ci, c_size);
    gather_integers(plan.a, lanes, members, stride, flat, a_size, ai.data());
    gather_integers(plan.b, lanes, members, stride, flat, b_size, bi.data());
    gather_integers(plan.c, lanes, members, stride, flat, c_size, ci.data());
  } else {
    prepare(a, a_size);
    prepare(b, b_size);
    prepare(c, c_size);
    if (plan.block_sums) {
      prepare(a_exponents, a_size);
      prepare(b_exponents, b_size);
    }
    gather_values(plan.a, lanes, members, stride, flat, a_size, a.data(), plan.block_sums ? a_exponents.data() : nullptr);
    gather_values(plan.b, lanes, members, stride, flat, b_size, b.data(), plan.block_sums ? b_exponents.data() : nullptr);
    gather_values(plan.c, lanes, members, stride, flat, c_size, c.data(), nullptr);
  }
  if (plan.block_sums) {
    matrix_product_kernels().block_fma_products(block_fma_group(form), dims, a.data(), a_exponents.data(), b.data(),
                                                b_exponents.data(), c.data(), d.data());
  } else if (plan.integer && form.a != Type::B1 && dims.n % 8 == 0) {
    matrix_product_kernels().integer_products(dims, ai.data(), bi.data(), ci.data(), form.satfinite, d.data());
  } else {
    for (uint32_t row = 0; row < dims.m; ++row) {
      for (uint32_t col = 0; col < dims.n; ++col) {
        const size_t at = size_t{row} * dims.n + col;
        if (plan.integer) {
          int64_t sum = ci[at];
          for (uint32_t k = 0; k < dims.k; ++k) {
            const int64_t x = ai[size_t{row} * dims.k + k], y = bi[size_t{k} * dims.n + col];
            if (form.a == Type::B1) {
              sum += form.bit_op == ptx::BoolOp::And ? (x & y) : (x ^ y);
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
        } else if (form.shape == ptx::Shape::M8n8k4 && form.d == Type::F32) {
          d[at] = from_double(Type::F32, emulated_m8n8k4_sum(c[at], &a[size_t{row} * dims.k], &b[col], dims.n));
        } else {
          double sum = c[at];
          for (uint32_t k = 0; k < dims.k; ++k) sum += a[size_t{row} * dims.k + k] * b[size_t{k} * dims.n + col];
          d[at] = from_double(form.d, sum);
        }
      }
    }
  }
  // D into every member lane's D registers.
  if (flat != nullptr && !plan.d.flat.empty()) {
    // Little-endian: an element's bytes are the low ones of d[at].
    if (element_bits(plan.d.type) == 16) {
      for (size_t at = 0; at < plan.d.flat.size(); ++at) std::memcpy(flat + plan.d.flat[at], &d[at], 2);
      return;
    }
    return matrix_product_kernels().scatter_flat(flat, plan.d.flat.data(), plan.d.flat.size(), d.data());
  }
  for (const FragmentElement& e : plan.d.elements) {
    if (!(members >> e.lane & 1)) continue;
    uint64_t& reg = static_cast<uint64_t*>(lanes[e.lane])[e.slot * stride];
    reg = (reg & ~(plan.d.mask << e.shift)) | (d[e.at] & plan.d.mask) << e.shift;
  }
}

}  // namespace

const MatrixProductKernels& matrix_product_kernels() {
  static const MatrixProductKernels& kernels =
      __builtin_cpu_supports("x86-64-v4") ? x86_64_v4::kKernels : x86_64::kKernels;
  return kernels;
}

void matrix_product(void* const* lanes, uint32_t members, uint32_t stride) {
  if (members == 0) return;
  const auto* first = static_cast<const uint64_t*>(lanes[__builtin_ctz(members)]);
  thread_local WorkerState worker_state;
  WorkerState& worker = worker_state;
  const ProductPlan& plan = product_plan(worker, first[kSlotForm * stride]);
  // The compiled strategy's warp step: every lane's slots in one block.
  bool one_block = stride == kWarpLanes;
  for (uint32_t lane = 0; lane < kWarpLanes && one_block; ++lane)
    one_block = lanes[lane] == static_cast<const uint64_t*>(lanes[0]) + lane;
  for (uint32_t product = 0; product < product_count(plan.form); ++product) {
    const uint32_t all = product_lanes(plan.form, product), group = members & all;
    const bool partial = group != all;
    auto* flat = one_block && !partial && all == ~0u ? static_cast<uint8_t*>(lanes[0]) : nullptr;
    if (group != 0) multiply(worker.scratch, plan, lanes, group, stride, partial, flat);
  }
}

}  // namespace cucpu::jit
