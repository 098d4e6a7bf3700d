// Internal to src/jit: MUFU models of special_function_unit.h as IR, the same for one lane or a
// vector of lanes, so that lane-wise code computes them on vectors rather than calling the
// C++ model once per lane. Bit for bit the C++ models (special_function_ir_test checks them
// against each other); the table lookups become gathers.
#pragma once

#include <llvm/IR/Value.h>

namespace cucpu::jit {

class FunctionLowering;

// rsqrt.approx.f32: mufu_rsqrt (a NaN result is the host's quiet NaN, canonicalized by the caller).
llvm::Value* rsqrt_approx_f32_ir(FunctionLowering& fl, llvm::Value* x);
// ex2.approx.ftz.f32 (mufu_ex2) and ex2.approx.f32 (ex2_approx_f32).
llvm::Value* ex2_approx_f32_ir(FunctionLowering& fl, llvm::Value* x, bool ftz);

}  // namespace cucpu::jit
