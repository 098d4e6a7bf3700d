// Logic and bit instructions: and/or/xor/not/cnot (also on .pred), shl/shr with PTX's
// clamped shift counts, popc, clz, brev, bfind, bfe, bfi, prmt (all modes), lop3, shf
// (funnel shifts), fns, bmsk, szext and the dot products dp4a/dp2a. Bit positions and
// lengths follow PTX ISA 9.7.8 exactly: counts at or past the width give 0 (shl, shr.u)
// or the sign fill (shr.s).
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

void lower_logic(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  ptx::Type t = inst.q.type;
  if (inst.opcode == ptx::Opcode::Not || inst.opcode == ptx::Opcode::Cnot) {
    if (!fl.expect_operands(inst, 2)) return;
    llvm::Value* x = fl.read(inst.operands[1], t);
    llvm::Value* result = inst.opcode == ptx::Opcode::Not
                              ? b.CreateNot(x)
                              : b.CreateZExt(b.CreateICmpEQ(x, llvm::ConstantInt::get(x->getType(), 0)), x->getType());
    fl.write(inst.operands[0], t, result);
    return;
  }
  if (!fl.expect_operands(inst, 3)) return;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* y = fl.read(inst.operands[2], t);
  llvm::Value* result = inst.opcode == ptx::Opcode::And  ? b.CreateAnd(x, y)
                        : inst.opcode == ptx::Opcode::Or ? b.CreateOr(x, y)
                                                         : b.CreateXor(x, y);
  fl.write(inst.operands[0], t, result);
}

void lower_shift(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* count = fl.read(inst.operands[2], ptx::Type::U32);  // always .u32
  unsigned bits = x->getType()->getScalarSizeInBits();
  auto count_of = [&](uint32_t n) { return llvm::ConstantInt::get(count->getType(), n); };
  llvm::Value* too_far = b.CreateICmpUGE(count, count_of(bits));
  llvm::Value* result;
  if (inst.opcode == ptx::Opcode::Shr && ptx::is_signed_int(t)) {
    llvm::Value* clamped = b.CreateSelect(too_far, count_of(bits - 1), count);
    result = b.CreateAShr(x, fl.resize_int(clamped, bits, false));
  } else {
    llvm::Value* safe = fl.resize_int(b.CreateSelect(too_far, count_of(0), count), bits, false);
    llvm::Value* shifted = inst.opcode == ptx::Opcode::Shl ? b.CreateShl(x, safe) : b.CreateLShr(x, safe);
    result = b.CreateSelect(too_far, llvm::ConstantInt::get(x->getType(), 0), shifted);
  }
  fl.write(inst.operands[0], t, result);
}

// popc, clz, bfind: a .u32 result; brev: the type itself.
void lower_count(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  unsigned bits = x->getType()->getScalarSizeInBits();
  llvm::Value* result;
  switch (inst.opcode) {
    case ptx::Opcode::Popc:
      result = b.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x);
      break;
    case ptx::Opcode::Clz:
      result = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b.getFalse());
      break;
    case ptx::Opcode::Brev:
      fl.write(inst.operands[0], t, b.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, x));
      return;
    default: {  // bfind: the position of the most significant non-sign bit, 0xffffffff if none
      if (ptx::is_signed_int(t))
        x = b.CreateSelect(b.CreateICmpSLT(x, llvm::ConstantInt::get(x->getType(), 0)), b.CreateNot(x), x);
      llvm::Value* leading = b.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, b.getFalse());
      if (inst.q.operation == ptx::Operation::ShiftAmount) {  // the left shift that brings it to the top
        llvm::Value* none = b.CreateICmpEQ(x, llvm::ConstantInt::get(x->getType(), 0));
        result = b.CreateSelect(none, llvm::ConstantInt::getAllOnesValue(x->getType()), leading);
      } else {
        result = b.CreateSub(llvm::ConstantInt::get(x->getType(), bits - 1), leading);  // -1 for x == 0
      }
      break;
    }
  }
  fl.write(inst.operands[0], ptx::Type::U32, fl.resize_int(result, 32, inst.opcode == ptx::Opcode::Bfind));
}

// The mask of the low `len` bits (len <= width).
llvm::Value* low_mask(FunctionLowering& fl, llvm::Value* len) {
  auto& b = fl.b;
  llvm::Type* type = len->getType();
  unsigned bits = type->getIntegerBitWidth();
  llvm::Value* all = llvm::ConstantInt::getAllOnesValue(type);
  llvm::Value* full = b.CreateICmpUGE(len, llvm::ConstantInt::get(type, bits));
  llvm::Value* safe = b.CreateSelect(full, llvm::ConstantInt::get(type, 0), len);
  return b.CreateSelect(
      full, all, b.CreateSub(b.CreateShl(llvm::ConstantInt::get(type, 1), safe), llvm::ConstantInt::get(type, 1)));
}

// bfe: the len-bit field at pos, zero- or sign-extended (sign: bit min(pos+len-1, msb)).
// len = 0 gives 0. pos and len are their low 8 bits for .32, as the PTX ISA says, but
// all 32 bits for .64, as an H200 computes (tests/isa/isa_bits).
void lower_bfe(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Type* type = x->getType();
  unsigned bits = type->getIntegerBitWidth();
  auto field = [&](const ptx::Operand& op) {  // 8 bits of the operand for .32, all of it for .64
    llvm::Value* v = fl.read(op, ptx::Type::U32);
    return fl.resize_int(bits == 32 ? b.CreateAnd(v, b.getInt32(0xff)) : v, bits, false);
  };
  llvm::Value* pos = field(inst.operands[2]);
  llvm::Value* len = field(inst.operands[3]);
  llvm::Value* width = llvm::ConstantInt::get(type, bits);
  llvm::Value* inside = b.CreateICmpULT(pos, width);
  llvm::Value* safe_pos = b.CreateSelect(inside, pos, llvm::ConstantInt::get(type, 0));
  llvm::Value* room = b.CreateSelect(inside, b.CreateSub(width, pos), llvm::ConstantInt::get(type, 0));
  llvm::Value* mask = low_mask(fl, b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, len, room));
  llvm::Value* result = b.CreateAnd(b.CreateLShr(x, safe_pos), mask);
  if (ptx::is_signed_int(t)) {
    llvm::Value* top = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin,
                                               b.CreateSub(b.CreateAdd(pos, len), llvm::ConstantInt::get(type, 1)),
                                               llvm::ConstantInt::get(type, bits - 1));
    llvm::Value* sign = b.CreateTrunc(b.CreateLShr(x, top), b.getInt1Ty());
    result = b.CreateSelect(sign, b.CreateOr(result, b.CreateNot(mask)), result);
  }
  result =
      b.CreateSelect(b.CreateICmpEQ(len, llvm::ConstantInt::get(type, 0)), llvm::ConstantInt::get(type, 0), result);
  fl.write(inst.operands[0], t, result);
}

// bfi: b with its len-bit field at pos replaced by the low bits of a.
void lower_bfi(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 5)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* insert = fl.read(inst.operands[1], t);
  llvm::Value* base = fl.read(inst.operands[2], t);
  llvm::Type* type = base->getType();
  unsigned bits = type->getIntegerBitWidth();
  auto field = [&](const ptx::Operand& op) {  // 8 bits of the operand for .32, all of it for .64
    llvm::Value* v = fl.read(op, ptx::Type::U32);
    return fl.resize_int(bits == 32 ? b.CreateAnd(v, b.getInt32(0xff)) : v, bits, false);
  };
  llvm::Value* pos = field(inst.operands[3]);
  llvm::Value* len = field(inst.operands[4]);
  llvm::Value* width = llvm::ConstantInt::get(type, bits);
  llvm::Value* inside = b.CreateICmpULT(pos, width);
  llvm::Value* safe_pos = b.CreateSelect(inside, pos, llvm::ConstantInt::get(type, 0));
  llvm::Value* room = b.CreateSelect(inside, b.CreateSub(width, pos), llvm::ConstantInt::get(type, 0));
  llvm::Value* mask = b.CreateShl(low_mask(fl, b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, len, room)), safe_pos);
  llvm::Value* result =
      b.CreateOr(b.CreateAnd(base, b.CreateNot(mask)), b.CreateAnd(b.CreateShl(insert, safe_pos), mask));
  fl.write(inst.operands[0], t, result);
}

// The byte of {b, a} that byte i of a prmt result takes in the modes other than the
// default, from the selector's low two bits s (PTX ISA 9.0 §9.7.8.7, its table).
llvm::Value* prmt_mode_index(FunctionLowering& fl, ptx::Operation mode, llvm::Value* s, unsigned i) {
  auto& b = fl.b;
  llvm::Value* index = b.getInt32(i);
  switch (mode) {
    case ptx::Operation::F4e:  // forward 4 extract: s+i
      return b.CreateAdd(s, index);
    case ptx::Operation::B4e:  // backward 4 extract: s-i, mod 8
      return b.CreateAnd(b.CreateSub(s, index), 7);
    case ptx::Operation::Rc8:  // replicate byte s
      return s;
    case ptx::Operation::Ecl:  // edge clamp left
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, s, index);
    case ptx::Operation::Ecr:  // edge clamp right
      return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, s, index);
    default:  // rc16: replicate half-word s[0]
      return b.CreateOr(b.CreateShl(b.CreateAnd(s, 1), 1), b.getInt32(i & 1));
  }
}

// prmt.b32 d, a, b, c: in the default mode byte i of d is byte c[4i+2:4i] of {b, a}, or
// its sign replicated when c[4i+3] is set; the other modes pick bytes by c[1:0].
void lower_prmt(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4)) return;
  llvm::Value* bytes =
      b.CreateOr(b.CreateZExt(fl.read(inst.operands[1], ptx::Type::B32), b.getInt64Ty()),
                 b.CreateShl(b.CreateZExt(fl.read(inst.operands[2], ptx::Type::B32), b.getInt64Ty()), 32));
  llvm::Value* selector = fl.read(inst.operands[3], ptx::Type::B32);
  llvm::Value* result = b.getInt32(0);
  if (inst.q.operation != ptx::Operation::None) {
    llvm::Value* s = b.CreateAnd(selector, 3);
    for (unsigned i = 0; i < 4; ++i) {
      llvm::Value* index = b.CreateZExt(prmt_mode_index(fl, inst.q.operation, s, i), b.getInt64Ty());
      llvm::Value* byte = b.CreateTrunc(b.CreateLShr(bytes, b.CreateMul(index, b.getInt64(8))), b.getInt8Ty());
      result = b.CreateOr(result, b.CreateShl(b.CreateZExt(byte, b.getInt32Ty()), 8 * i));
    }
    fl.write(inst.operands[0], ptx::Type::B32, result);
    return;
  }
  for (unsigned i = 0; i < 4; ++i) {
    llvm::Value* nibble = b.CreateLShr(selector, 4 * i);
    llvm::Value* index = b.CreateZExt(b.CreateAnd(nibble, 7), b.getInt64Ty());
    llvm::Value* byte = b.CreateTrunc(b.CreateLShr(bytes, b.CreateMul(index, b.getInt64(8))), b.getInt8Ty());
    llvm::Value* replicate = b.CreateTrunc(b.CreateLShr(nibble, 3), b.getInt1Ty());
    byte = b.CreateSelect(replicate, b.CreateAShr(byte, 7), byte);
    result = b.CreateOr(result, b.CreateShl(b.CreateZExt(byte, b.getInt32Ty()), 8 * i));
  }
  fl.write(inst.operands[0], ptx::Type::B32, result);
}

// lop3.b32 d, a, b, c, lut: bit k of d is lut[a_k * 4 + b_k * 2 + c_k].
void lower_lop3(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 5) || inst.operands[4].kind != ptx::Operand::Kind::Immediate) {
    fl.fail("lop3 needs an immediate truth table");
    return;
  }
  llvm::Value* in[3] = {fl.read(inst.operands[1], ptx::Type::B32), fl.read(inst.operands[2], ptx::Type::B32),
                        fl.read(inst.operands[3], ptx::Type::B32)};
  uint64_t lut = inst.operands[4].imm & 0xff;
  llvm::Value* result = b.getInt32(0);
  for (unsigned minterm = 0; minterm < 8; ++minterm) {
    if ((lut >> minterm & 1) == 0) continue;
    llvm::Value* term = b.getInt32(0xffffffff);
    for (unsigned k = 0; k < 3; ++k) {
      bool set = (minterm >> (2 - k) & 1) != 0;
      term = b.CreateAnd(term, set ? in[k] : b.CreateNot(in[k]));
    }
    result = b.CreateOr(result, term);
  }
  fl.write(inst.operands[0], ptx::Type::B32, result);
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: a funnel shift of {b:a} by c.
void lower_shf(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4)) return;
  llvm::Value* low = fl.read(inst.operands[1], ptx::Type::B32);
  llvm::Value* high = fl.read(inst.operands[2], ptx::Type::B32);
  llvm::Value* count = fl.read(inst.operands[3], ptx::Type::U32);
  llvm::Value* amount =
      inst.q.clamp ? b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, count, b.getInt32(32)) : b.CreateAnd(count, 31);
  llvm::Value* wide =
      b.CreateOr(b.CreateZExt(low, b.getInt64Ty()), b.CreateShl(b.CreateZExt(high, b.getInt64Ty()), 32));
  llvm::Value* n = b.CreateZExt(amount, b.getInt64Ty());
  llvm::Value* result = inst.q.shift_left ? b.CreateTrunc(b.CreateLShr(b.CreateShl(wide, n), 32), b.getInt32Ty())
                                          : b.CreateTrunc(b.CreateLShr(wide, n), b.getInt32Ty());
  fl.write(inst.operands[0], ptx::Type::B32, result);
}

// fns.b32 d, mask, base, offset: a helper loop (rounding_helpers.cpp).
void lower_fns(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4)) return;
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Value* args[] = {fl.read(inst.operands[1], ptx::Type::B32), fl.read(inst.operands[2], ptx::Type::U32),
                         fl.read(inst.operands[3], ptx::Type::S32)};
  fl.write(inst.operands[0], ptx::Type::B32,
           b.CreateCall(fl.runtime_function("__cucpu_jit_fns", i32, {i32, i32, i32}), args));
}

// A count operand of bmsk/szext: .clamp limits it to 32, .wrap keeps its low 5 bits.
llvm::Value* bit_count(FunctionLowering& fl, const ptx::Instruction& inst, const ptx::Operand& op) {
  llvm::Value* n = fl.read(op, ptx::Type::U32);
  return inst.q.clamp ? fl.b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, n, fl.b.getInt32(32)) : fl.b.CreateAnd(n, 31);
}

// bmsk.b32 d, a, b: b one bits starting at bit a (bits past 31 fall off).
void lower_bmsk(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  llvm::Value* start = b.CreateZExt(bit_count(fl, inst, inst.operands[1]), b.getInt64Ty());
  llvm::Value* width = b.CreateZExt(bit_count(fl, inst, inst.operands[2]), b.getInt64Ty());
  llvm::Value* ones = b.CreateSub(b.CreateShl(b.getInt64(1), width), b.getInt64(1));
  fl.write(inst.operands[0], ptx::Type::B32, b.CreateTrunc(b.CreateShl(ones, start), b.getInt32Ty()));
}

// szext.{s32,u32} d, a, b: the low b bits of a, sign- or zero-extended (b = 0 gives 0).
void lower_szext(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  llvm::Value* x = fl.read(inst.operands[1], ptx::Type::B32);
  llvm::Value* n = bit_count(fl, inst, inst.operands[2]);
  llvm::Value* shift = b.CreateSub(b.getInt32(32), n);
  llvm::Value* safe = b.CreateAnd(shift, 31);  // n = 0 is handled below
  llvm::Value* up = b.CreateShl(x, safe);
  llvm::Value* result = ptx::is_signed_int(inst.q.type) ? b.CreateAShr(up, safe) : b.CreateLShr(up, safe);
  result = b.CreateSelect(b.CreateICmpEQ(n, b.getInt32(0)), b.getInt32(0), result);
  fl.write(inst.operands[0], inst.q.type, result);
}

// dp4a.atype.btype d, a, b, c: c plus the four products of a's and b's bytes;
// dp2a.{lo,hi}: c plus the two products of a's half-words with b's low or high bytes.
void lower_dot_product(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4)) return;
  ptx::Type a_type = inst.q.type;
  ptx::Type b_type = inst.q.src_type != ptx::Type::None ? inst.q.src_type : inst.q.type;
  bool dp4a = inst.opcode == ptx::Opcode::Dp4a;
  llvm::Value* x = fl.read(inst.operands[1], ptx::Type::B32);
  llvm::Value* y = fl.read(inst.operands[2], ptx::Type::B32);
  llvm::Value* sum = fl.read(inst.operands[3], ptx::Type::B32);
  auto field = [&](llvm::Value* v, unsigned bits, unsigned index, bool is_signed) {
    llvm::Value* part = b.CreateTrunc(b.CreateLShr(v, bits * index), fl.int_type(bits));
    return fl.resize_int(part, 32, is_signed);
  };
  unsigned first = !dp4a && inst.q.mul_mode == ptx::MulMode::Hi ? 2 : 0;
  for (unsigned i = 0; i < (dp4a ? 4u : 2u); ++i) {
    llvm::Value* left = field(x, dp4a ? 8 : 16, i, ptx::is_signed_int(a_type));
    llvm::Value* right = field(y, 8, first + i, ptx::is_signed_int(b_type));
    sum = b.CreateAdd(sum, b.CreateMul(left, right));
  }
  fl.write(inst.operands[0], ptx::Type::B32, sum);
}

}  // namespace

bool lower_bit_manipulation(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::And:
    case ptx::Opcode::Or:
    case ptx::Opcode::Xor:
    case ptx::Opcode::Not:
    case ptx::Opcode::Cnot:
      lower_logic(fl, inst);
      return true;
    case ptx::Opcode::Shl:
    case ptx::Opcode::Shr:
      lower_shift(fl, inst);
      return true;
    case ptx::Opcode::Popc:
    case ptx::Opcode::Clz:
    case ptx::Opcode::Brev:
    case ptx::Opcode::Bfind:
      lower_count(fl, inst);
      return true;
    case ptx::Opcode::Bfe:
      lower_bfe(fl, inst);
      return true;
    case ptx::Opcode::Bfi:
      lower_bfi(fl, inst);
      return true;
    case ptx::Opcode::Prmt:
      lower_prmt(fl, inst);
      return true;
    case ptx::Opcode::Lop3:
      lower_lop3(fl, inst);
      return true;
    case ptx::Opcode::Shf:
      lower_shf(fl, inst);
      return true;
    case ptx::Opcode::Fns:
      lower_fns(fl, inst);
      return true;
    case ptx::Opcode::Bmsk:
      lower_bmsk(fl, inst);
      return true;
    case ptx::Opcode::Szext:
      lower_szext(fl, inst);
      return true;
    case ptx::Opcode::Dp4a:
    case ptx::Opcode::Dp2a:
      lower_dot_product(fl, inst);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
