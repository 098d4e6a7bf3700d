// Floating-point arithmetic on .f32/.f64: add/sub/mul/mad/fma/div with the rounding
// modifiers, neg/abs/min/max, sqrt/rcp/rsqrt, the .approx transcendentals and copysign.
// rsqrt.approx and sin/cos/ex2/lg2.approx.f32 are the H100's MUFU models (special_function_unit.h);
// the other .approx functions are the host's correctly rounded or libm results, within the
// PTX ISA's bounds.
//
// .rn (and no modifier) is the host's IEEE arithmetic, which is correctly rounded and,
// on x86-64, true single precision. .rz/.rm/.rp call helpers that switch the host
// rounding mode around one operation (rounding_helpers.cpp). .ftz flushes subnormal
// f32 inputs and results to sign-preserving zero; .sat clamps results to [0, 1].
// min/max return the non-NaN operand and order -0 below +0, as the GPU does. An f32
// result that is NaN is the canonical NaN 0x7fffffff, neg and abs included. f64 keeps NaN
// payloads the way an H200 does (tests/isa/isa_f64): add/sub/mul/fma return their last
// NaN operand quieted (x86 returns the first), neg/abs return a NaN operand quieted with
// its sign unchanged, min/max of two NaNs return the second quieted.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include "jit/directed_rounding.h"
#include "jit/function_lowering.h"
#include "jit/nan_bits.h"
#include "jit/special_function_ir.h"

namespace cucpu::jit {
namespace {

// `operation` ("add", "mul", "div", "fma", "sqrt") in a directed rounding mode: f32 add, mul
// and fma in IR (directed_rounding.h), the others through their helpers.
llvm::Value* call_rounding_helper(FunctionLowering& fl, const char* operation, int mode,
                                  std::vector<llvm::Value*> args) {
  llvm::Type* t = args[0]->getType();
  if (t->getScalarType()->isFloatTy()) {
    const std::string_view op = operation;
    if (op == "add") return directed_f32_add(fl, args[0], args[1], mode);
    if (op == "mul") return directed_f32_mul(fl, args[0], args[1], mode);
    if (op == "fma") return directed_f32_fma(fl, args[0], args[1], args[2], mode);
  }
  std::string name = fmt::format("__cucpu_jit_{}_{}", operation, t->getScalarType()->isFloatTy() ? "f32" : "f64");
  args.push_back(fl.b.getInt32(static_cast<uint32_t>(mode)));
  return fl.call_pure_helper(name.c_str(), t, args);
}

// An f64 NaN operand, quieted: the result the GPU gives for it.
llvm::Value* quiet_nan(FunctionLowering& fl, llvm::Value* v) {
  llvm::Value* bits = fl.to_bits(v);
  return fl.b.CreateBitCast(fl.b.CreateOr(bits, llvm::ConstantInt::get(bits->getType(), 0x0008000000000000ULL)),
                            v->getType());
}

// The last NaN among `operands`, quieted, in place of `result` (f64 only; see above).
llvm::Value* propagate_last_nan(FunctionLowering& fl, llvm::Value* result, std::vector<llvm::Value*> operands) {
  if (!result->getType()->getScalarType()->isDoubleTy()) return result;
  for (llvm::Value* operand : operands) {
    result = fl.b.CreateSelect(fl.b.CreateFCmpUNO(operand, operand), quiet_nan(fl, operand), result);
  }
  return result;
}

// One arithmetic instruction's modifiers, applied around its core operation.
struct FloatModifiers {
  FunctionLowering& fl;
  const ptx::Instruction& inst;
  int mode = 0;

  bool check() {
    mode = rounding_mode_argument(inst.q.rounding);
    if (mode < 0) {
      fl.fail("rounding modifier not supported here");
      return false;
    }
    return true;
  }
  llvm::Value* in(size_t index) {
    llvm::Value* v = fl.read(inst.operands[index], inst.q.type);
    return inst.q.ftz ? fl.flush_subnormal(v) : v;
  }
  // host_nan_unseen: a NaN result may keep the host's bits, which no reader of the
  // destination looks at (nan_bits.h): round-to-nearest f32 add/sub/mul/fma only.
  void out(llvm::Value* v, bool host_nan_unseen = false) {
    if (!host_nan_unseen) v = fl.canonicalize_nan(v);
    if (inst.q.ftz) v = fl.flush_subnormal(v);
    if (inst.q.sat) v = fl.saturate_unit(v);
    fl.write(inst.operands[0], inst.q.type, v);
  }
};

void lower_basic(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  bool fused = inst.opcode == ptx::Opcode::Fma || inst.opcode == ptx::Opcode::Mad;
  if (!fl.expect_operands(inst, fused ? 4 : 3)) return;
  FloatModifiers mods{fl, inst};
  if (!mods.check()) return;
  llvm::Value* x = mods.in(1);
  llvm::Value* y = mods.in(2);
  llvm::Value* result = nullptr;
  bool directed = mods.mode > 0;
  switch (inst.opcode) {
    case ptx::Opcode::Add:
      result = directed ? call_rounding_helper(fl, "add", mods.mode, {x, y}) : b.CreateFAdd(x, y);
      break;
    case ptx::Opcode::Sub:
      result = directed ? call_rounding_helper(fl, "add", mods.mode, {x, b.CreateFNeg(y)}) : b.CreateFSub(x, y);
      break;
    case ptx::Opcode::Mul:
      result = directed ? call_rounding_helper(fl, "mul", mods.mode, {x, y}) : b.CreateFMul(x, y);
      break;
    case ptx::Opcode::Div:
      // .approx and .full may be less exact than .rn; exact is within their bounds.
      result = directed ? call_rounding_helper(fl, "div", mods.mode, {x, y}) : b.CreateFDiv(x, y);
      break;
    default: {  // fma, mad: one rounding
      llvm::Value* z = mods.in(3);
      result = directed ? call_rounding_helper(fl, "fma", mods.mode, {x, y, z})
                        : b.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, z});
      result = propagate_last_nan(fl, result, {x, y, z});
      break;
    }
  }
  if (inst.opcode != ptx::Opcode::Div && !fused) result = propagate_last_nan(fl, result, {x, y});
  mods.out(result, is_nearest_f32_arithmetic(inst) && !fl.nan_bits_seen(inst.operands[0]));
}

// min/max: NaN loses to a number; equal operands (only ±0 differ) merge their sign bits
// so that min(-0, +0) = -0 and max(-0, +0) = +0. With .NaN, a NaN operand wins.
void lower_min_max(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  FloatModifiers mods{fl, inst};
  llvm::Value* x = mods.in(1);
  llvm::Value* y = mods.in(2);
  // .xorsign.abs: compare the magnitudes; the result takes the xor of the signs.
  llvm::Value* sign_xor = b.CreateXor(fl.to_bits(x), fl.to_bits(y));
  if (inst.q.xorsign_abs) {
    x = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
    y = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y);
  }
  bool is_min = inst.opcode == ptx::Opcode::Min;
  llvm::Value* x_bits = fl.to_bits(x);
  llvm::Value* y_bits = fl.to_bits(y);
  llvm::Value* merged =
      b.CreateBitCast(is_min ? b.CreateOr(x_bits, y_bits) : b.CreateAnd(x_bits, y_bits), x->getType());
  llvm::Value* x_wins = is_min ? b.CreateFCmpOLT(x, y) : b.CreateFCmpOGT(x, y);
  llvm::Value* y_wins = is_min ? b.CreateFCmpOLT(y, x) : b.CreateFCmpOGT(y, x);
  llvm::Value* result = b.CreateSelect(x_wins, x, b.CreateSelect(y_wins, y, merged));
  if (inst.q.nan) {
    const bool f32 = x->getType()->getScalarType()->isFloatTy();
    llvm::Value* canonical = b.CreateBitCast(
        llvm::ConstantInt::get(fl.int_like(x, f32 ? 32 : 64), f32 ? 0x7fffffffULL : 0x7fffffffffffffffULL),
        x->getType());
    result = b.CreateSelect(b.CreateFCmpUNO(x, y), canonical, result);
  } else {
    result = b.CreateSelect(b.CreateFCmpUNO(x, x), y, b.CreateSelect(b.CreateFCmpUNO(y, y), x, result));
    if (x->getType()->getScalarType()->isDoubleTy())
      result = b.CreateSelect(b.CreateAnd(b.CreateFCmpUNO(x, x), b.CreateFCmpUNO(y, y)), quiet_nan(fl, y), result);
  }
  if (inst.q.xorsign_abs) {
    llvm::Value* sign =
        llvm::ConstantInt::get(sign_xor->getType(), llvm::APInt::getSignMask(ptx::bit_width(inst.q.type)));
    result = b.CreateBitCast(
        b.CreateOr(b.CreateAnd(fl.to_bits(result), b.CreateNot(sign)), b.CreateAnd(sign_xor, sign)), x->getType());
  }
  mods.out(result);
}

void lower_unary(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  FloatModifiers mods{fl, inst};
  if (!mods.check()) return;
  llvm::Value* x = mods.in(1);
  llvm::Type* t = x->getType();
  const bool f32 = t->getScalarType()->isFloatTy();
  bool directed = mods.mode > 0;
  llvm::Value* one = llvm::ConstantFP::get(t, 1.0);
  llvm::Value* result = nullptr;
  switch (inst.opcode) {
    case ptx::Opcode::Neg:
      result = propagate_last_nan(fl, b.CreateFNeg(x), {x});
      break;
    case ptx::Opcode::Abs:
      result = propagate_last_nan(fl, b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), {x});
      break;
    case ptx::Opcode::Sqrt:
      result = directed ? call_rounding_helper(fl, "sqrt", mods.mode, {x})
                        : b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
      break;
    case ptx::Opcode::Rcp:
      result = directed ? call_rounding_helper(fl, "div", mods.mode, {one, x}) : b.CreateFDiv(one, x);
      break;
    case ptx::Opcode::Rsqrt: {  // the H100's MUFU.RSQ, bit for bit (special_function_unit.cpp)
      if (f32) {
        result = rsqrt_approx_f32_ir(fl, x);
      } else {
        const char* name = inst.q.ftz ? "__cucpu_jit_rsqrt_approx_ftz_f64" : "__cucpu_jit_rsqrt_approx_f64";
        result = fl.call_pure_helper(name, t, {x});
      }
      break;
    }
    case ptx::Opcode::Ex2:
    case ptx::Opcode::Lg2: {  // f32: MUFU.EX2/LG2 (with ptxas's subnormal rescaling without .ftz)
      bool ex2 = inst.opcode == ptx::Opcode::Ex2;
      if (f32 && ex2) {
        result = ex2_approx_f32_ir(fl, x, inst.q.ftz);
      } else if (f32) {
        result = fl.call_pure_helper(inst.q.ftz ? "__cucpu_jit_lg2_approx_ftz_f32" : "__cucpu_jit_lg2_approx_f32", t, {x});
      } else {
        result = b.CreateUnaryIntrinsic(ex2 ? llvm::Intrinsic::exp2 : llvm::Intrinsic::log2, x);
      }
      break;
    }
    case ptx::Opcode::Sin:
    case ptx::Opcode::Cos: {  // f32: FMUL.RZ by 1/(2 pi) and MUFU.SIN/COS, bit for bit
      bool sin = inst.opcode == ptx::Opcode::Sin;
      if (f32) {
        const char* name = sin ? "__cucpu_jit_sin_approx_f32" : "__cucpu_jit_cos_approx_f32";
        result = fl.call_pure_helper(name, t, {x});
      } else {
        result = b.CreateUnaryIntrinsic(sin ? llvm::Intrinsic::sin : llvm::Intrinsic::cos, x);
      }
      break;
    }
    default: {  // tanh: libm
      result = fl.call_pure_helper(f32 ? "__cucpu_jit_tanh_f32" : "__cucpu_jit_tanh_f64", t, {x});
      break;
    }
  }
  mods.out(result);
}

// copysign d, a, b: b with the sign of a.
void lower_copysign(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (!fl.expect_operands(inst, 3)) return;
  llvm::Value* sign = fl.read(inst.operands[1], inst.q.type);
  llvm::Value* magnitude = fl.read(inst.operands[2], inst.q.type);
  fl.write(inst.operands[0], inst.q.type, fl.b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, magnitude, sign));
}

}  // namespace

bool lower_float_arithmetic(FunctionLowering& fl, const ptx::Instruction& inst) {
  ptx::Type t = inst.q.type;
  switch (inst.opcode) {
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Mul:
    case ptx::Opcode::Mad:
    case ptx::Opcode::Fma:
    case ptx::Opcode::Div:
    case ptx::Opcode::Neg:
    case ptx::Opcode::Abs:
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
    case ptx::Opcode::Sqrt:
    case ptx::Opcode::Rcp:
    case ptx::Opcode::Rsqrt:
    case ptx::Opcode::Ex2:
    case ptx::Opcode::Lg2:
    case ptx::Opcode::Sin:
    case ptx::Opcode::Cos:
    case ptx::Opcode::Tanh:
    case ptx::Opcode::Copysign:
      break;
    default:
      return false;
  }
  if (t != ptx::Type::F32 && t != ptx::Type::F64) {
    fl.fail(fmt::format("{} arithmetic is not supported yet", ptx::spelling(t)));
    return true;
  }
  switch (inst.opcode) {
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
      lower_min_max(fl, inst);
      break;
    case ptx::Opcode::Copysign:
      lower_copysign(fl, inst);
      break;
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Mul:
    case ptx::Opcode::Mad:
    case ptx::Opcode::Fma:
    case ptx::Opcode::Div:
      lower_basic(fl, inst);
      break;
    default:
      lower_unary(fl, inst);
      break;
  }
  return true;
}

}  // namespace cucpu::jit
