// What generated code calls for the tensor-core instructions (lower_tensor_core.cpp):
// wmma.load / wmma.store move one lane's fragment between its registers (64-bit slots)
// and memory; the matrix product and ldmatrix / stmatrix / movmatrix are warp steps,
// run once for the whole warp by the executor's __cucpu_warp_step with every lane's
// buffer (kernel_abi.h). Fragment layouts: matrix_fragments.h.
//
// The products' arithmetic is matrix_product.cpp's.
#include <cstdint>
#include <cstring>
#include <vector>

#include "jit/function_lowering.h"
#include "jit/matrix_fragments.h"
#include "jit/matrix_product.h"

namespace cucpu::jit {
namespace {

using ptx::Type;

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

// Where every lane's wmma fragment elements lie in their matrix, for one form, operand and
// element type: [lane * per_lane + i]. Made once per worker and form: a tensor-core kernel
// runs these helpers millions of times, and fragment_element is arithmetic per element.
struct ElementTableKey {
  uint64_t form = 0;  // encode(form)
  MatrixOperand operand = MatrixOperand::A;
  Type type = Type::None;
  uint32_t per_lane = 0;
  bool operator==(const ElementTableKey&) const = default;
};

const MatrixPosition* element_table(const ElementTableKey& key) {
  // A kernel uses a handful of forms: a short list searched in order.
  thread_local std::vector<std::pair<ElementTableKey, std::vector<MatrixPosition>>> tables;
  for (const auto& [k, table] : tables)
    if (k == key) return table.data();
  const MatrixDims dims = matrix_dims(decode_matrix_form(key.form).shape);
  std::vector<MatrixPosition> table(size_t{kWarpLanes} * key.per_lane);
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
    for (uint32_t i = 0; i < key.per_lane; ++i) {
      table[size_t{lane} * key.per_lane + i] = fragment_element(dims, key.operand, key.type, lane, i);
    }
  }
  tables.emplace_back(key, std::move(table));
  return tables.back().second.data();
}

// wmma.load / wmma.store: the positions of `lane`'s first `elements` elements.
const MatrixPosition* lane_positions(uint64_t encoded, const MatrixForm& form, uint32_t lane, uint32_t elements) {
  return element_table({encoded, form.operand, form.a, elements}) + size_t{lane} * elements;
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

// The matrix products of one warp's instruction: every member lane's buffer
// (matrix_fragments.h slots); each product (one, or one per quad pair) on its lanes.
extern "C" void __cucpu_jit_mma(void* const* lanes, uint32_t members) { cucpu::jit::matrix_product(lanes, members); }

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
