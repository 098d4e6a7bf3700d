// Fragment layouts of the tensor-core instructions and the packing of their forms
// (see matrix_fragments.h for the layouts and where they come from).
#include "jit/matrix_fragments.h"

namespace cucpu::jit {

MatrixDims matrix_dims(ptx::Shape shape) {
  using S = ptx::Shape;
  switch (shape) {
    case S::M16n16k16: return {16, 16, 16};
    case S::M32n8k16: return {32, 8, 16};
    case S::M8n32k16: return {8, 32, 16};
    case S::M16n16k8: return {16, 16, 8};
    case S::M8n8k4: return {8, 8, 4};
    case S::M8n8k16: return {8, 8, 16};
    case S::M8n8k32: return {8, 8, 32};
    case S::M8n8k128: return {8, 8, 128};
    case S::M16n8k4: return {16, 8, 4};
    case S::M16n8k8: return {16, 8, 8};
    case S::M16n8k16: return {16, 8, 16};
    case S::M16n8k32: return {16, 8, 32};
    case S::M16n8k64: return {16, 8, 64};
    case S::M16n8k128: return {16, 8, 128};
    case S::M16n8k256: return {16, 8, 256};
    default: return {0, 0, 0};
  }
}

MatrixPosition operand_size(MatrixDims dims, MatrixOperand operand) {
  switch (operand) {
    case MatrixOperand::A: return {dims.m, dims.k};
    case MatrixOperand::B: return {dims.k, dims.n};
    case MatrixOperand::C: return {dims.m, dims.n};
  }
  return {0, 0};
}

uint32_t elements_per_register(ptx::Type type) {
  const unsigned bits = ptx::bit_width(type);
  if (bits == 0 || bits >= 32) return 1;  // tf32, f32, s32 (32-bit), f64 (64-bit registers)
  return 32 / bits;
}

uint32_t element_bits(ptx::Type type) { return type == ptx::Type::TF32 ? 32 : ptx::bit_width(type); }

MatrixPosition fragment_element(MatrixDims dims, MatrixOperand operand, ptx::Type type, uint32_t lane, uint32_t i) {
  const MatrixPosition size = operand_size(dims, operand);
  const uint32_t g = lane / 4, t = lane % 4;
  const uint32_t unique = size.row * size.col / 32;
  if (unique != 0) i %= unique;
  if (operand == MatrixOperand::C) {
    if (size.row >= 16) {  // m16n8 tiles, four elements each, in row order
      const uint32_t tile = i / 4, tiles_per_row = size.col / 8;
      return {(tile / tiles_per_row) * 16 + g + 8 * ((i % 4) / 2), (tile % tiles_per_row) * 8 + 2 * t + i % 2};
    }
    return {g, (i / 2) * 8 + 2 * t + i % 2};  // m8n8 tiles, two elements each
  }
  const uint32_t chunk = elements_per_register(type);
  if (operand == MatrixOperand::A) {
    if (size.row >= 16) {  // 16-row tiles stacked down
      const uint32_t per_tile = 16 * size.col / 32, tile = i / per_tile, within = i % per_tile;
      const uint32_t r = within / chunk, j = within % chunk;
      return {tile * 16 + g + 8 * (r % 2), t * chunk + j + (r / 2) * 4 * chunk};
    }
    const uint32_t r = i / chunk, j = i % chunk;  // one 8-row tile
    return {g, t * chunk + j + r * 4 * chunk};
  }
  // B: K x 8 tiles side by side.
  const uint32_t per_tile = size.row * 8 / 32, tile = i / per_tile, within = i % per_tile;
  const uint32_t r = within / chunk, j = within % chunk;
  return {t * chunk + j + r * 4 * chunk, tile * 8 + g};
}

bool is_quad_pair_form(const MatrixForm& form) { return form.shape == ptx::Shape::M8n8k4 && form.a == ptx::Type::F16; }

uint32_t product_count(const MatrixForm& form) { return is_quad_pair_form(form) ? 4 : 1; }

uint32_t product_lanes(const MatrixForm& form, uint32_t product) {
  return is_quad_pair_form(form) ? 0x000f000fu << (4 * product) : 0xffffffffu;
}

uint32_t product_elements_per_lane(const MatrixForm& form, MatrixOperand operand) {
  const MatrixPosition size = operand_size(matrix_dims(form.shape), operand);
  return size.row * size.col / (is_quad_pair_form(form) ? 8 : 32);
}

namespace {

// The quad-pair fragments of PTX ISA 9.0 §9.7.14.5.1 (figures 46 to 52): the high group
// (lanes 16..31) holds rows 4..7 of A, C and D and columns 4..7 of B.
MatrixPosition quad_pair_element(const MatrixForm& form, MatrixOperand operand, ptx::Type type, uint32_t lane,
                                 uint32_t i) {
  const uint32_t t = lane % 4, high = lane >= 16 ? 4 : 0;
  switch (operand) {
    case MatrixOperand::A:
      return form.a_column_major ? MatrixPosition{i + high, t} : MatrixPosition{t + high, i};
    case MatrixOperand::B:
      return form.b_column_major ? MatrixPosition{i, t + high} : MatrixPosition{t, i + high};
    case MatrixOperand::C:
      if (type == ptx::Type::F16) return {t + high, i};
      return {(lane & 1) + (i & 2) + high, (i & 4) + (lane & 2) + (i & 1)};
  }
  return {0, 0};
}

}  // namespace

MatrixPosition product_element(const MatrixForm& form, MatrixOperand operand, ptx::Type type, uint32_t lane,
                               uint32_t i) {
  if (is_quad_pair_form(form)) return quad_pair_element(form, operand, type, lane, i);
  return fragment_element(matrix_dims(form.shape), operand, type, lane, i);
}

// Bits: shape 0..7, a 8..15, b 16..23, c 24..31, d 32..39, operand 40..41, column_major
// 42, satfinite 43, bit_op 44..45, a_column_major 46, b_column_major 47.
uint64_t encode(const MatrixForm& form) {
  return uint64_t{static_cast<uint8_t>(form.shape)} | uint64_t{static_cast<uint8_t>(form.a)} << 8 |
         uint64_t{static_cast<uint8_t>(form.b)} << 16 | uint64_t{static_cast<uint8_t>(form.c)} << 24 |
         uint64_t{static_cast<uint8_t>(form.d)} << 32 | uint64_t{static_cast<uint8_t>(form.operand)} << 40 |
         uint64_t{form.column_major} << 42 | uint64_t{form.satfinite} << 43 |
         uint64_t{static_cast<uint8_t>(form.bit_op)} << 44 | uint64_t{form.a_column_major} << 46 |
         uint64_t{form.b_column_major} << 47;
}

MatrixForm decode_matrix_form(uint64_t word) {
  MatrixForm form;
  form.shape = static_cast<ptx::Shape>(word & 0xff);
  form.a = static_cast<ptx::Type>((word >> 8) & 0xff);
  form.b = static_cast<ptx::Type>((word >> 16) & 0xff);
  form.c = static_cast<ptx::Type>((word >> 24) & 0xff);
  form.d = static_cast<ptx::Type>((word >> 32) & 0xff);
  form.operand = static_cast<MatrixOperand>((word >> 40) & 3);
  form.column_major = ((word >> 42) & 1) != 0;
  form.satfinite = ((word >> 43) & 1) != 0;
  form.bit_op = static_cast<ptx::BoolOp>((word >> 44) & 3);
  form.a_column_major = ((word >> 46) & 1) != 0;
  form.b_column_major = ((word >> 47) & 1) != 0;
  return form;
}

}  // namespace cucpu::jit
