// The multiply-add contraction ptxas applies. A mul and an add/sub written without a
// rounding modifier may be fused by the code generator (PTX ISA, "add": "mul/add
// sequences with no rounding modifiers may be optimized to use fused-multiply-add
// instructions"), and ptxas does fuse them: on an H200, a*b - c*d written as mul.f32,
// mul.f32, sub.f32 is fma(a, b, -(c*d)) for 65,536 random inputs out of 65,536. The GPU's
// results are the reference, so cucpu makes the same fma instructions before it
// translates, following what a probe of ptxas showed (multiply_add_contraction.cpp).
#pragma once

#include "ptx/module.h"

namespace cucpu::jit {

// The module with every mul/add pair ptxas would fuse rewritten as fma.rn.
ptx::Module contract_multiply_adds(const ptx::Module& module);

// The same for one function, in place.
void contract_multiply_adds(ptx::Function& function);

}  // namespace cucpu::jit
