// Which f32 registers' NaN bits some instruction may look at (nan_bits.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/module.h"

namespace cucpu::jit {

// Per register of `kernel`: 1 when an instruction may see the bits of a NaN it holds (a
// store, a move to an integer register, a conversion, ...), 0 when every reader sees only
// that it is NaN. An f32 add/sub/mul/fma in round-to-nearest that gives NaN must give the
// GPU's canonical 0x7fffffff only into a register of the first kind (lower_float_arithmetic).
std::vector<uint8_t> registers_whose_nan_bits_are_seen(const ptx::Function& kernel);

// An f32 add, sub, mul, fma or mad in round-to-nearest (no .relu): as a reader it sees only
// whether an operand is NaN, and as a writer its NaN result may keep the host's bits where
// none of its destination's readers sees them.
bool is_nearest_f32_arithmetic(const ptx::Instruction& inst);

}  // namespace cucpu::jit
