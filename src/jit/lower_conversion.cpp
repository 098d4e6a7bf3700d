// cvt between every pair of integer and float types (PTX ISA 9.7.9.21):
// - int -> int: truncate or extend by the source's signedness; .sat clamps to the
//   destination's range.
// - float -> int: round to integral by .rni/.rzi/.rmi/.rpi, then saturate to the
//   destination's range with NaN -> 0 (always, .sat or not).
// - int -> float, f64 -> f32: .rn is the host conversion; .rz/.rm/.rp call helpers.
// - float -> float of the same width: .rni/... round to integral; f32 -> f64 is exact.
// - f16 and bf16 take part through f32 (f16: the host's half conversions, .rn only).
// .ftz flushes f32 subnormal inputs and results; .sat clamps float results to [0, 1].
// A NaN converted to f32 is the canonical NaN 0x7fffffff, as on the GPU.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include "jit/directed_rounding.h"
#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

llvm::Value* round_to_integral(FunctionLowering& fl, llvm::Value* v, ptx::Rounding rounding) {
  switch (rounding) {
    case ptx::Rounding::IntNearestEven:
      return fl.b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, v);
    case ptx::Rounding::IntZero:
      return fl.b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, v);
    case ptx::Rounding::IntDown:
      return fl.b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, v);
    case ptx::Rounding::IntUp:
      return fl.b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, v);
    default:
      return v;
  }
}

bool is_integral_rounding(ptx::Rounding r) {
  return r == ptx::Rounding::IntNearestEven || r == ptx::Rounding::IntZero || r == ptx::Rounding::IntDown ||
         r == ptx::Rounding::IntUp;
}

// The source as an f32/f64 value (f16 and bf16 widen exactly to f32).
llvm::Value* float_source(FunctionLowering& fl, ptx::Type type, llvm::Value* raw) {
  auto& b = fl.b;
  if (type == ptx::Type::F16) return b.CreateFPExt(b.CreateBitCast(raw, b.getHalfTy()), b.getFloatTy());
  if (type == ptx::Type::BF16)
    return b.CreateBitCast(b.CreateShl(b.CreateZExt(raw, b.getInt32Ty()), 16), b.getFloatTy());
  return raw;
}

// f32 -> bf16 bits, round to nearest even; NaN stays a (quiet) NaN.
llvm::Value* to_bf16_bits(FunctionLowering& fl, llvm::Value* v) {
  auto& b = fl.b;
  llvm::Value* bits = b.CreateBitCast(v, b.getInt32Ty());
  llvm::Value* lsb = b.CreateAnd(b.CreateLShr(bits, 16), 1);
  llvm::Value* rounded = b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(b.getInt32(0x7fff), lsb)), 16);
  llvm::Value* nan = b.CreateOr(b.CreateLShr(bits, 16), b.getInt32(0x40));
  return b.CreateTrunc(b.CreateSelect(b.CreateFCmpUNO(v, v), nan, rounded), b.getInt16Ty());
}

void lower_cvt(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  ptx::Type dst = inst.q.type;
  ptx::Type src = inst.q.src_type;
  ptx::Rounding rounding = inst.q.rounding;
  if (dst == ptx::Type::None || src == ptx::Type::None || dst == ptx::Type::Pred || src == ptx::Type::Pred) {
    fl.fail("cvt needs a destination and a source type");
    return;
  }
  bool dst_float = ptx::is_float(dst);
  bool src_float = ptx::is_float(src);
  bool dst_supported =
      !dst_float || dst == ptx::Type::F32 || dst == ptx::Type::F64 || dst == ptx::Type::F16 || dst == ptx::Type::BF16;
  bool src_supported =
      !src_float || src == ptx::Type::F32 || src == ptx::Type::F64 || src == ptx::Type::F16 || src == ptx::Type::BF16;
  if (!dst_supported || !src_supported) {
    fl.fail("conversion between these types is not supported yet");
    return;
  }
  llvm::Value* raw = fl.read(inst.operands[1], src);
  const ptx::Operand& out = inst.operands[0];

  if (!dst_float && !src_float) {  // int -> int
    unsigned bits = ptx::bit_width(dst);
    llvm::Value* result;
    if (inst.q.sat) {
      llvm::Value* wide = fl.resize_int(raw, 128, ptx::is_signed_int(src));
      llvm::APInt low = ptx::is_signed_int(dst) ? llvm::APInt::getSignedMinValue(bits).sext(128) : llvm::APInt(128, 0);
      llvm::APInt high = ptx::is_signed_int(dst) ? llvm::APInt::getSignedMaxValue(bits).sext(128)
                                                 : llvm::APInt::getMaxValue(bits).zext(128);
      wide = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, wide, b.getInt(low));
      wide = b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, wide, b.getInt(high));
      result = b.CreateTrunc(wide, fl.int_type(bits));
    } else {
      result = fl.resize_int(raw, bits, ptx::is_signed_int(src));
    }
    fl.write(out, dst, result);
    return;
  }

  if (!src_float) {  // int -> float
    int mode = rounding_mode_argument(rounding);
    if (mode < 0 || (mode > 0 && (dst == ptx::Type::F16 || dst == ptx::Type::BF16))) {
      fl.fail("rounding modifier not supported for this conversion");
      return;
    }
    llvm::Type* target = fl.shaped(dst == ptx::Type::F64   ? b.getDoubleTy()
                                   : dst == ptx::Type::F16 ? b.getHalfTy()
                                                           : b.getFloatTy());
    bool is_signed = ptx::is_signed_int(src);
    llvm::Value* result;
    if (mode == 0) {
      result = is_signed ? b.CreateSIToFP(raw, target) : b.CreateUIToFP(raw, target);
    } else {
      bool via_u64 = !is_signed && ptx::bit_width(src) == 64;
      std::string name =
          fmt::format("__cucpu_jit_cvt_{}_{}", dst == ptx::Type::F64 ? "f64" : "f32", via_u64 ? "u64" : "s64");
      llvm::Value* wide = fl.resize_int(raw, 64, is_signed);
      result = fl.call_pure_helper(name.c_str(), target, {wide, b.getInt32(static_cast<uint32_t>(mode))});
    }
    if (inst.q.sat) result = fl.saturate_unit(result);
    if (dst == ptx::Type::BF16) {
      fl.write(out, dst, to_bf16_bits(fl, result));
    } else if (dst == ptx::Type::F16) {
      fl.write(out, dst, b.CreateBitCast(result, b.getInt16Ty()));
    } else {
      fl.write(out, dst, result);
    }
    return;
  }

  llvm::Value* v = float_source(fl, src, raw);
  if (inst.q.ftz) v = fl.flush_subnormal(v);

  if (!dst_float) {  // float -> int: round, then saturate (NaN -> 0)
    if (rounding != ptx::Rounding::None && !is_integral_rounding(rounding)) {
      fl.fail("float-to-integer conversion needs .rni, .rzi, .rmi or .rpi");
      return;
    }
    v = round_to_integral(fl, v, rounding == ptx::Rounding::None ? ptx::Rounding::IntZero : rounding);
    auto id = ptx::is_signed_int(dst) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    unsigned bits = ptx::bit_width(dst);
    llvm::Value* result = b.CreateIntrinsic(id, {fl.int_like(v, bits), v->getType()}, {v});
    // NaN gives 0 from f32 into 8..32 bits, else the top bit of the width alone, signed
    // or not (an H200, tests/isa/isa_convert).
    uint64_t nan_result = (src == ptx::Type::F64 || bits == 64) ? uint64_t{1} << (bits - 1) : 0;
    result = b.CreateSelect(b.CreateFCmpUNO(v, v), llvm::ConstantInt::get(result->getType(), nan_result), result);
    fl.write(out, dst, result);
    return;
  }

  // float -> float
  unsigned from = v->getType()->getScalarSizeInBits();
  llvm::Value* result = v;
  if (is_integral_rounding(rounding)) {
    if (ptx::bit_width(dst) != ptx::bit_width(src)) {
      fl.fail("integral rounding needs equal source and destination types");
      return;
    }
    result = round_to_integral(fl, v, rounding);
  } else {
    int mode = rounding_mode_argument(rounding);
    if (mode < 0) {
      fl.fail("rounding modifier not supported for this conversion");
      return;
    }
    if (dst == ptx::Type::F64 && from == 32) {
      result = b.CreateFPExt(v, fl.shaped(b.getDoubleTy()));
    } else if (dst == ptx::Type::F32 && from == 64) {
      result = mode == 0 ? b.CreateFPTrunc(v, fl.shaped(b.getFloatTy())) : directed_f32_from_f64(fl, v, mode);
    } else if ((dst == ptx::Type::F16 || dst == ptx::Type::BF16) && mode != 0) {
      fl.fail("only .rn conversions to f16/bf16 are supported yet");
      return;
    }
  }
  if (inst.q.sat) result = fl.saturate_unit(result);
  if (dst == ptx::Type::F16) {
    fl.write(out, dst, b.CreateBitCast(b.CreateFPTrunc(result, b.getHalfTy()), b.getInt16Ty()));
  } else if (dst == ptx::Type::BF16) {
    if (!result->getType()->isFloatTy()) {
      fl.fail("conversion to bf16 from this type is not supported yet");
      return;
    }
    fl.write(out, dst, to_bf16_bits(fl, result));
  } else {
    if (inst.q.ftz) result = fl.flush_subnormal(result);
    // NaN results (an H200, tests/isa/isa_convert): f64 -> f32 gives the default quiet NaN
    // with the source's sign; f32 -> f64 keeps the payload, but with .ftz gives the f32
    // canonical NaN widened (0x7fffffffe0000000); other f32 results are canonical.
    llvm::Value* is_nan = b.CreateFCmpUNO(result, result);
    if (dst == ptx::Type::F32 && from == 64) {
      llvm::Type* i32 = fl.int_like(result, 32);
      llvm::Value* sign = b.CreateAnd(fl.to_bits(result), llvm::ConstantInt::get(i32, 0x80000000));
      result = b.CreateSelect(
          is_nan, b.CreateBitCast(b.CreateOr(sign, llvm::ConstantInt::get(i32, 0x7fc00000)), result->getType()), result);
    } else if (dst == ptx::Type::F64 && from == 32 && inst.q.ftz) {
      llvm::Value* nan = llvm::ConstantInt::get(fl.int_like(result, 64), 0x7fffffffe0000000ULL);
      result = b.CreateSelect(is_nan, b.CreateBitCast(nan, result->getType()), result);
    }
    fl.write(out, dst, dst == ptx::Type::F32 && from == 64 ? result : fl.canonicalize_nan(result));
  }
}

}  // namespace

bool lower_conversion(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (inst.opcode != ptx::Opcode::Cvt) return false;
  if (inst.q.satfinite) {
    // Only conversions to f16/bf16/tf32 and the narrow formats take it (lower_half_precision,
    // lower_narrow_float); PTX ISA 9.0 §9.7.9.21.
    fl.fail(".satfinite is only for conversions to f16, bf16, tf32 and fp8/fp6/fp4 types");
    return true;
  }
  lower_cvt(fl, inst);
  return true;
}

int rounding_mode_argument(ptx::Rounding rounding) {
  switch (rounding) {
    case ptx::Rounding::None:
    case ptx::Rounding::NearestEven:
      return 0;
    case ptx::Rounding::Zero:
      return 1;
    case ptx::Rounding::Down:
      return 2;
    case ptx::Rounding::Up:
      return 3;
    default:
      return -1;
  }
}

}  // namespace cucpu::jit
