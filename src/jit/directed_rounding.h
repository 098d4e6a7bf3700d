// Internal to src/jit: f32 results in a directed rounding mode (.rz .rm .rp) as plain IR, the
// same for one lane or a vector of them, so that lane-wise code needs no helper call per lane
// and no switch of the host's rounding mode. Exact: the operation is carried out in double
// precision, where its exact result is the sum of two doubles, and that sum is rounded to
// float in the mode (see directed_rounding.cpp). The other directed operations (f64, div,
// sqrt, integer conversions) call the helpers of rounding_helpers.cpp.
#pragma once

#include <llvm/IR/Value.h>

namespace cucpu::jit {

class FunctionLowering;

// `mode` as rounding_mode_argument gives it: 1 .rz, 2 .rm, 3 .rp. Operands are f32 (the last
// of directed_f32_from_f64 f64), scalars or vectors; NaN results are the host's, which the
// caller canonicalizes as for any f32 result.
llvm::Value* directed_f32_fma(FunctionLowering& fl, llvm::Value* a, llvm::Value* b, llvm::Value* c, int mode);
llvm::Value* directed_f32_add(FunctionLowering& fl, llvm::Value* a, llvm::Value* b, int mode);
llvm::Value* directed_f32_mul(FunctionLowering& fl, llvm::Value* a, llvm::Value* b, int mode);
llvm::Value* directed_f32_from_f64(FunctionLowering& fl, llvm::Value* x, int mode);

}  // namespace cucpu::jit
