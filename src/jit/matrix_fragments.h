// Which lane of a warp holds which element of a tensor-core matrix, and the forms of
// the wmma / mma instructions as plain data that generated code hands to the helpers
// (tensor_core_helpers.cpp) in one 64-bit word.
//
// mma.sync's fragments are the PTX ISA's (9.0 §9.7.14.5, "Matrix Fragments for mma"):
// with g = lane / 4 and t = lane % 4, a register of A holds `chunk` consecutive elements
// of row g or g + 8, B's of column g, and C/D's pairs of row g or g + 8. wmma's layout is
// unspecified (§9.7.14.4); cucpu uses the same tiles: A as 16-row (or 8-row) mma A
// tiles stacked down, B as K x 8 mma B tiles side by side, accumulators as m16n8 (or
// m8n8) C tiles in row order. A wmma fragment with more elements than its share of the
// matrix (f16 A and B fragments are always 16 halves) repeats them: element i is element
// i mod (rows * cols / 32).
//
// mma.m8n8k4 with .f16 inputs is different (§9.7.14.5.1): the warp computes four
// independent m8n8k4 products, one per "quad pair" (lanes 4q..4q+3, the low group, with
// 4q+16..4q+19, the high group), and each lane holds a whole row or column of A and B
// (which one depends on their .row/.col layouts) and a row, or for .f32 a scattered
// 2x4 block, of C/D. The product_* functions cover both kinds of form.
#pragma once

#include <cstdint>

#include "ptx/module.h"

namespace cucpu::jit {

enum class MatrixOperand : uint8_t { A, B, C };  // C also stands for D

struct MatrixPosition {
  uint32_t row, col;
};

// Matrix dimensions (m, n, k) of a shape; {0, 0, 0} for the ldmatrix-only shapes.
struct MatrixDims {
  uint32_t m, n, k;
};
MatrixDims matrix_dims(ptx::Shape shape);

// rows x cols of an operand: A is m x k, B is k x n, C/D are m x n.
MatrixPosition operand_size(MatrixDims dims, MatrixOperand operand);

// Elements one 32-bit (64-bit for f64) register holds: 2 for f16, 4 for s8, 32 for b1...
uint32_t elements_per_register(ptx::Type type);

// The bits of one element in a fragment register (tf32 elements are 32 bits).
uint32_t element_bits(ptx::Type type);

constexpr uint32_t kWarpLanes = 32;

// Element `i` (0-based, across the lane's registers in order) of `lane`'s fragment.
MatrixPosition fragment_element(MatrixDims dims, MatrixOperand operand, ptx::Type type, uint32_t lane, uint32_t i);

// One tensor-core form, packed into the 64-bit word the helpers get.
struct MatrixForm {
  ptx::Shape shape = ptx::Shape::None;
  ptx::Type a = ptx::Type::None, b = ptx::Type::None, c = ptx::Type::None, d = ptx::Type::None;
  MatrixOperand operand = MatrixOperand::A;  // wmma.load/store: which matrix
  bool column_major = false;                 // wmma.load/store: the memory's layout
  bool satfinite = false;                    // integer results clamp instead of wrapping
  ptx::BoolOp bit_op = ptx::BoolOp::None;    // b1: .xor.popc / .and.popc
  bool a_column_major = false;               // mma.m8n8k4 .f16: .col A (its fragments follow it)
  bool b_column_major = false;               // mma.m8n8k4 .f16: .col B
};
uint64_t encode(const MatrixForm& form);
MatrixForm decode_matrix_form(uint64_t word);

// mma.m8n8k4 with .f16 inputs: four products a warp, one per quad pair.
bool is_quad_pair_form(const MatrixForm& form);

// The independent products one instruction of `form` computes (1, or 4 for quad pairs)
// and the lanes (a mask) that hold product `product`'s fragments.
uint32_t product_count(const MatrixForm& form);
uint32_t product_lanes(const MatrixForm& form, uint32_t product);

// The elements of an operand each lane of a product holds (once each).
uint32_t product_elements_per_lane(const MatrixForm& form, MatrixOperand operand);

// Element `i` of `lane`'s fragment of an operand of type `type` (C's or D's type for
// MatrixOperand::C): its position in the matrices of the lane's product.
MatrixPosition product_element(const MatrixForm& form, MatrixOperand operand, ptx::Type type, uint32_t lane,
                               uint32_t i);

// A lane's buffer for a matrix product, in 64-bit slots: its A, B, C and D registers,
// each zero-extended into one slot, then the encoded form.
constexpr uint32_t kSlotsPerOperand = 16;
constexpr uint32_t kSlotA = 0, kSlotB = 16, kSlotC = 32, kSlotD = 48, kSlotForm = 64, kMatrixSlots = 65;

}  // namespace cucpu::jit
