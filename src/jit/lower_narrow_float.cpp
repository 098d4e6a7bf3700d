// cvt to and from the narrow float formats (PTX ISA 9.0 §9.7.9.21 cvt, §5.2.5.1):
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}.f32   d, a, b  (a -> high half)
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f16x2,bf16x2}             d, a
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}           d, a     (exact)
//   cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2}  d, a{, b};  cvt.rn.bf16x2.ue8m0x2 d, a
// Each element goes through double (exact for every source here) and is rounded once
// by encode_narrow (narrow_float_format.h); .relu makes negative results and -0 +0, keeps NaN.
#include <cmath>
#include <cstring>

#include "jit/function_lowering.h"
#include "jit/narrow_float_format.h"

namespace {

using cucpu::jit::NarrowFloatFormat;

// Formats by number: 0 e4m3, 1 e5m2, 2 e2m3, 3 e3m2, 4 e2m1, 5 ue8m0.
const NarrowFloatFormat* format_of(uint32_t format) {
  static constexpr NarrowFloatFormat kFormats[] = {cucpu::jit::kE4m3, cucpu::jit::kE5m2, cucpu::jit::kE2m3,
                                                   cucpu::jit::kE3m2, cucpu::jit::kE2m1};
  return format < 5 ? &kFormats[format] : nullptr;
}

// ue8m0: 2^(e - 127), e = 0..254; 0xff is NaN. mode 1 rounds toward zero, 3 up.
uint32_t encode_ue8m0(double v, uint32_t mode, bool satfinite) {
  if (std::isnan(v)) return 0xff;
  if (v <= 0) return 0;
  if (std::isinf(v)) return satfinite ? 0xfe : 0xff;
  int e = std::ilogb(v);
  if (mode == 3 && std::ldexp(1.0, e) != v) ++e;
  e += 127;
  if (e < 0) return 0;
  if (e > 254) return satfinite ? 0xfe : 0xff;
  return static_cast<uint32_t>(e);
}

}  // namespace

// flags: bit 0 relu, bit 1 satfinite, bits 8..9 rounding mode (ue8m0 only).
extern "C" uint32_t __cucpu_jit_to_narrow_float(double v, uint32_t format, uint32_t flags) {
  // .relu is max(v, +0) on the GPU: negative values and -0 give +0 (H100: -0 -> 0x00); NaN
  // stays NaN.
  if ((flags & 1) && std::signbit(v) && !std::isnan(v)) v = 0;
  if (format == 5) return encode_ue8m0(v, (flags >> 8) & 3, (flags & 2) != 0);
  const NarrowFloatFormat* f = format_of(format);
  return f != nullptr ? cucpu::jit::encode_narrow(*f, v, (flags & 2) != 0) : 0;
}

extern "C" double __cucpu_jit_from_narrow_float(uint32_t bits, uint32_t format) {
  if (format == 5) return bits == 0xff ? NAN : std::ldexp(1.0, static_cast<int>(bits) - 127);
  const NarrowFloatFormat* f = format_of(format);
  return f != nullptr ? cucpu::jit::decode_narrow(*f, bits) : 0;
}

namespace cucpu::jit {
namespace {

using ptx::Type;

// The format number and the bits of one element of a packed narrow type.
bool narrow_format(Type type, uint32_t& format, unsigned& bits) {
  switch (type) {
    case Type::E4m3x2: format = 0, bits = 8; return true;
    case Type::E5m2x2: format = 1, bits = 8; return true;
    case Type::E2m3x2: format = 2, bits = 8; return true;
    case Type::E3m2x2: format = 3, bits = 8; return true;
    case Type::E2m1x2: format = 4, bits = 4; return true;
    case Type::Ue8m0x2: format = 5, bits = 8; return true;
    default: return false;
  }
}

// An f16 or bf16 element (i16 bits) as double.
llvm::Value* half_to_double(FunctionLowering& fl, llvm::Value* bits, bool bf16) {
  auto& b = fl.b;
  if (bf16) return b.CreateFPExt(b.CreateBitCast(b.CreateShl(b.CreateZExt(bits, b.getInt32Ty()), 16), b.getFloatTy()),
                                 b.getDoubleTy());
  return b.CreateFPExt(b.CreateBitCast(bits, b.getHalfTy()), b.getDoubleTy());
}

// A double (exactly representable) as f16 or bf16 bits; NaN as the canonical 0x7fff.
llvm::Value* double_to_half(FunctionLowering& fl, llvm::Value* v, bool bf16) {
  auto& b = fl.b;
  llvm::Value* bits = bf16 ? b.CreateTrunc(b.CreateLShr(b.CreateBitCast(b.CreateFPTrunc(v, b.getFloatTy()),
                                                                        b.getInt32Ty()),
                                                        16),
                                           b.getInt16Ty())
                           : b.CreateBitCast(b.CreateFPTrunc(v, b.getHalfTy()), b.getInt16Ty());
  return b.CreateSelect(b.CreateFCmpUNO(v, v), b.getInt16(0x7fff), bits);
}

void lower_narrow_cvt(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const ptx::Qualifiers& q = inst.q;
  uint32_t format;
  unsigned bits;
  llvm::Type* to_args[] = {b.getDoubleTy(), b.getInt32Ty(), b.getInt32Ty()};
  llvm::FunctionCallee to_narrow = fl.runtime_function("__cucpu_jit_to_narrow_float", b.getInt32Ty(), to_args);
  llvm::Type* from_args[] = {b.getInt32Ty(), b.getInt32Ty()};
  llvm::FunctionCallee from_narrow = fl.runtime_function("__cucpu_jit_from_narrow_float", b.getDoubleTy(), from_args);
  if (narrow_format(q.type, format, bits)) {  // to a narrow pair
    const bool ue8m0 = format == 5;
    const bool rounding_ok = ue8m0 ? (q.rounding == ptx::Rounding::Zero || q.rounding == ptx::Rounding::Up)
                                   : q.rounding == ptx::Rounding::NearestEven;
    if (!rounding_ok || (!ue8m0 && !q.satfinite)) {
      fl.fail(ue8m0 ? "cvt to .ue8m0x2 rounds with .rz or .rp" : "cvt to an fp8/fp6/fp4 pair is .rn.satfinite");
      return;
    }
    const uint32_t flags = (q.relu ? 1 : 0) | (q.satfinite ? 2 : 0) | (q.rounding == ptx::Rounding::Up ? 3u << 8 : 1u << 8);
    std::vector<llvm::Value*> elements;  // high, low
    if (q.src_type == Type::F32) {
      if (!fl.expect_operands(inst, 3)) return;
      for (int i = 1; i <= 2; ++i) elements.push_back(b.CreateFPExt(fl.read(inst.operands[i], Type::F32), b.getDoubleTy()));
    } else if (q.src_type == Type::F16x2 || q.src_type == Type::BF16x2) {
      if (!fl.expect_operands(inst, 2)) return;
      llvm::Value* pair = fl.read(inst.operands[1], Type::B32);
      const bool bf16 = q.src_type == Type::BF16x2;
      elements.push_back(half_to_double(fl, b.CreateTrunc(b.CreateLShr(pair, 16), b.getInt16Ty()), bf16));
      elements.push_back(half_to_double(fl, b.CreateTrunc(pair, b.getInt16Ty()), bf16));
    } else {
      fl.fail("cvt to a narrow pair takes .f32, .f16x2 or .bf16x2");
      return;
    }
    llvm::Value* high = b.CreateCall(to_narrow, {elements[0], b.getInt32(format), b.getInt32(flags)});
    llvm::Value* low = b.CreateCall(to_narrow, {elements[1], b.getInt32(format), b.getInt32(flags)});
    llvm::Value* packed = b.CreateOr(b.CreateShl(high, bits), low);
    fl.write(inst.operands[0], bits == 4 ? Type::B8 : Type::B16, fl.resize_int(packed, 2 * bits, false));
    return;
  }
  if (!narrow_format(q.src_type, format, bits)) {
    fl.fail("cvt between these types is not supported");
    return;
  }
  // From a narrow pair: to f16x2 (fp8/fp6/fp4) or bf16x2 (ue8m0), exactly.
  const bool bf16 = q.type == Type::BF16x2;
  if ((format == 5) != bf16 || (q.type != Type::F16x2 && q.type != Type::BF16x2) || !fl.expect_operands(inst, 2)) {
    if (!fl.failed()) fl.fail("cvt from an fp8/fp6/fp4 pair gives .f16x2, from .ue8m0x2 .bf16x2");
    return;
  }
  llvm::Value* pair = fl.resize_int(fl.read(inst.operands[1], bits == 4 ? Type::B8 : Type::B16), 32, false);
  llvm::Value* halves[2];
  for (unsigned i = 0; i < 2; ++i) {
    llvm::Value* element = b.CreateAnd(b.CreateLShr(pair, i * bits), b.getInt32((1u << bits) - 1));
    llvm::Value* v = b.CreateCall(from_narrow, {element, b.getInt32(format)});
    if (q.relu) {  // max(v, +0): -0 too gives +0, NaN stays (as the H100 does)
      llvm::Value* sign = b.CreateICmpSLT(b.CreateBitCast(v, b.getInt64Ty()), b.getInt64(0));
      llvm::Value* negative = b.CreateAnd(sign, b.CreateFCmpORD(v, v));
      v = b.CreateSelect(negative, llvm::ConstantFP::get(b.getDoubleTy(), 0.0), v);
    }
    halves[i] = b.CreateZExt(double_to_half(fl, v, bf16), b.getInt32Ty());
  }
  fl.write(inst.operands[0], Type::B32, b.CreateOr(b.CreateShl(halves[1], 16), halves[0]));
}

}  // namespace

// Takes cvt whose destination or source is a narrow pair (before lower_half_precision).
bool lower_narrow_float(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (inst.opcode != ptx::Opcode::Cvt) return false;
  if (!ptx::is_narrow_float(inst.q.type) && !ptx::is_narrow_float(inst.q.src_type)) return false;
  lower_narrow_cvt(fl, inst);
  return true;
}

RuntimeSymbols narrow_float_helper_symbols() {
  return {
      {"__cucpu_jit_to_narrow_float", reinterpret_cast<void*>(&__cucpu_jit_to_narrow_float)},
      {"__cucpu_jit_from_narrow_float", reinterpret_cast<void*>(&__cucpu_jit_from_narrow_float)},
  };
}

}  // namespace cucpu::jit
