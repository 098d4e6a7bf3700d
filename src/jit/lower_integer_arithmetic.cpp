// Integer arithmetic: add/sub (.sat, .cc and addc/subc carry chains), mul/mad (.lo,
// .hi, .wide; mad.cc/madc carry chains), mul24/mad24, sad, div/rem, neg, abs, min/max (.relu). Float forms of the
// shared opcodes are left to lower_float_arithmetic.cpp.
//
// Division never traps the host (PTX ISA 9.7.1.9 leaves x/0 unspecified). As an H100/
// H200 computes it (tests/jit/corner_cases.cu): x/0 and x%0 are all ones, signed or
// unsigned, and INT_MIN / -1 wraps to INT_MIN with remainder 0.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

ptx::Type half_type(ptx::Type t) {
  switch (t) {
    case ptx::Type::S64:
      return ptx::Type::S32;
    case ptx::Type::U64:
      return ptx::Type::U32;
    case ptx::Type::B64:
      return ptx::Type::B32;
    case ptx::Type::S32:
      return ptx::Type::S16;
    case ptx::Type::U32:
      return ptx::Type::U16;
    case ptx::Type::B32:
      return ptx::Type::B16;
    default:
      return ptx::Type::None;
  }
}

ptx::Type double_type(ptx::Type t) {
  switch (t) {
    case ptx::Type::S16:
      return ptx::Type::S32;
    case ptx::Type::U16:
      return ptx::Type::U32;
    case ptx::Type::S32:
      return ptx::Type::S64;
    case ptx::Type::U32:
      return ptx::Type::U64;
    default:
      return ptx::Type::None;
  }
}

// The source type of a .wide multiply, whether the parser recorded the source or the
// destination width as the instruction type.
ptx::Type wide_source_type(const ptx::Instruction& inst) {
  if (inst.q.src_type != ptx::Type::None) return inst.q.src_type;
  return ptx::bit_width(inst.q.type) == 64 ? half_type(inst.q.type) : inst.q.type;
}

llvm::Value* carry_flag(FunctionLowering& fl) {
  if (fl.carry_flag == nullptr) {
    llvm::AllocaInst* flag = fl.entry_alloca(fl.b.getInt1Ty(), 1, "cc.cf");
    llvm::IRBuilder<> init(flag->getNextNode());
    init.CreateStore(init.getInt1(false), flag);
    fl.carry_flag = flag;
  }
  return fl.carry_flag;
}

// x + y (or x - y) through CC.CF. As on the GPU, a subtract is x + ~y + 1 and CF is its
// carry: sub.cc sets CF when nothing is borrowed, subc subtracts 1 more when CF is clear
// (tests/isa/isa_integer mixes add.cc with subc and sub.cc with addc).
llvm::Value* add_with_carry(FunctionLowering& fl, bool add, llvm::Value* x, llvm::Value* y, bool carry_in,
                            bool carry_out) {
  auto& b = fl.b;
  llvm::Value* cf = nullptr;
  if (carry_in) {
    fl.note_carry_access(false);
    llvm::Value* flag = b.CreateLoad(b.getInt1Ty(), carry_flag(fl));
    cf = b.CreateZExt(add ? flag : b.CreateNot(flag), x->getType());  // a subtract borrows !CF
  }
  auto overflow_op = add ? llvm::Intrinsic::uadd_with_overflow : llvm::Intrinsic::usub_with_overflow;
  llvm::Value* first = b.CreateBinaryIntrinsic(overflow_op, x, y);
  llvm::Value* result = b.CreateExtractValue(first, 0);
  llvm::Value* out = b.CreateExtractValue(first, 1);
  if (cf != nullptr) {
    llvm::Value* second = b.CreateBinaryIntrinsic(overflow_op, result, cf);
    result = b.CreateExtractValue(second, 0);
    out = b.CreateOr(out, b.CreateExtractValue(second, 1));
  }
  if (carry_out) {
    fl.note_carry_access(true);
    b.CreateStore(add ? out : b.CreateNot(out), carry_flag(fl));
  }
  return result;
}

void lower_add_sub(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* y = fl.read(inst.operands[2], t);
  bool add = inst.opcode == ptx::Opcode::Add || inst.opcode == ptx::Opcode::Addc;
  bool carry_in = inst.opcode == ptx::Opcode::Addc || inst.opcode == ptx::Opcode::Subc;
  llvm::Value* result;
  if (inst.q.carry || carry_in) {
    result = add_with_carry(fl, add, x, y, carry_in, inst.q.carry);
  } else if (inst.q.sat) {
    if (t != ptx::Type::S32) {
      fl.fail(".sat applies to .s32 only");
      return;
    }
    result = b.CreateBinaryIntrinsic(add ? llvm::Intrinsic::sadd_sat : llvm::Intrinsic::ssub_sat, x, y);
  } else {
    result = add ? b.CreateAdd(x, y) : b.CreateSub(x, y);
  }
  fl.write(inst.operands[0], t, result);
}

// a * b as .lo, .hi or .wide; returns the value and its type.
std::pair<llvm::Value*, ptx::Type> multiply(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  ptx::Type t = inst.q.type;
  bool is_signed = ptx::is_signed_int(t);
  switch (inst.q.mul_mode) {
    case ptx::MulMode::Wide: {
      ptx::Type src = wide_source_type(inst);
      ptx::Type dst = double_type(src);
      if (dst == ptx::Type::None) {
        fl.fail(".wide needs a 16- or 32-bit type");
        return {b.getInt32(0), ptx::Type::U32};
      }
      llvm::Value* x = fl.read(inst.operands[1], src);
      llvm::Value* y = fl.read(inst.operands[2], src);
      unsigned bits = ptx::bit_width(dst);
      return {
          b.CreateMul(fl.resize_int(x, bits, ptx::is_signed_int(src)), fl.resize_int(y, bits, ptx::is_signed_int(src))),
          dst};
    }
    case ptx::MulMode::Hi: {
      unsigned bits = ptx::bit_width(t);
      llvm::Value* x = fl.resize_int(fl.read(inst.operands[1], t), 2 * bits, is_signed);
      llvm::Value* y = fl.resize_int(fl.read(inst.operands[2], t), 2 * bits, is_signed);
      return {fl.resize_int(b.CreateLShr(b.CreateMul(x, y), bits), bits, false), t};
    }
    default:
      return {b.CreateMul(fl.read(inst.operands[1], t), fl.read(inst.operands[2], t)), t};
  }
}

// mul, mad, and the extended-precision mad.cc/madc (the add goes through CC.CF).
void lower_mul_mad(FunctionLowering& fl, const ptx::Instruction& inst) {
  bool madc = inst.opcode == ptx::Opcode::Madc;
  bool mad = inst.opcode == ptx::Opcode::Mad || madc;
  if (!fl.expect_operands(inst, mad ? 4 : 3)) return;
  if (inst.q.sat && (!mad || madc || inst.q.type != ptx::Type::S32 || inst.q.mul_mode != ptx::MulMode::Hi)) {
    fl.fail(".sat applies to mad.hi.s32 only");
    return;
  }
  if ((inst.q.carry || madc) && inst.q.mul_mode == ptx::MulMode::Wide) {
    fl.fail("mad.wide with a carry is not supported");
    return;
  }
  auto [product, type] = multiply(fl, inst);
  if (mad) {
    llvm::Value* addend = fl.read(inst.operands[3], type);
    product = inst.q.carry || madc ? add_with_carry(fl, true, product, addend, madc, inst.q.carry)
              : inst.q.sat         ? fl.b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, product, addend)
                                   : fl.b.CreateAdd(product, addend);
  }
  fl.write(inst.operands[0], type, product);
}

// mul24/mad24: the 48-bit product of the low 24 bits; .lo keeps bits 0..31, .hi 16..47.
void lower_mul24(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  bool mad = inst.opcode == ptx::Opcode::Mad24;
  if (!fl.expect_operands(inst, mad ? 4 : 3)) return;
  ptx::Type t = inst.q.type;
  if (t != ptx::Type::U32 && t != ptx::Type::S32) {
    fl.fail("mul24/mad24 take .u32 or .s32");
    return;
  }
  bool is_signed = t == ptx::Type::S32;
  auto low24 = [&](llvm::Value* v) {
    llvm::Value* shifted = b.CreateShl(v, 8);
    llvm::Value* narrowed = is_signed ? b.CreateAShr(shifted, 8) : b.CreateLShr(shifted, 8);
    return fl.resize_int(narrowed, 64, is_signed);
  };
  llvm::Value* product = b.CreateMul(low24(fl.read(inst.operands[1], t)), low24(fl.read(inst.operands[2], t)));
  if (inst.q.mul_mode == ptx::MulMode::Hi) product = b.CreateLShr(product, 16);
  llvm::Value* result = b.CreateTrunc(product, b.getInt32Ty());
  if (mad) {
    llvm::Value* addend = fl.read(inst.operands[3], t);
    result = inst.q.sat && is_signed ? b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, result, addend)
                                     : b.CreateAdd(result, addend);
  }
  fl.write(inst.operands[0], t, result);
}

void lower_sad(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 4)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* y = fl.read(inst.operands[2], t);
  llvm::Value* x_less = ptx::is_signed_int(t) ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
  llvm::Value* diff = b.CreateSelect(x_less, b.CreateSub(y, x), b.CreateSub(x, y));
  fl.write(inst.operands[0], t, b.CreateAdd(diff, fl.read(inst.operands[3], t)));
}

void lower_div_rem(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  ptx::Type t = inst.q.type;
  bool is_signed = ptx::is_signed_int(t);
  bool div = inst.opcode == ptx::Opcode::Div;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* y = fl.read(inst.operands[2], t);
  llvm::Type* type = x->getType();
  llvm::Value* zero = llvm::ConstantInt::get(type, 0);
  llvm::Value* one = llvm::ConstantInt::get(type, 1);
  llvm::Value* all_ones = llvm::ConstantInt::getAllOnesValue(type);
  llvm::Value* by_zero = b.CreateICmpEQ(y, zero);
  llvm::Value* trouble = by_zero;
  if (is_signed) {
    unsigned bits = type->getScalarSizeInBits();
    llvm::Value* overflow =
        b.CreateAnd(b.CreateICmpEQ(x, llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(bits))),
                    b.CreateICmpEQ(y, all_ones));
    trouble = b.CreateOr(trouble, overflow);
  }
  // Divide by 1 where the host would trap, then put the defined answers in.
  llvm::Value* safe = b.CreateSelect(trouble, one, y);
  llvm::Value* result;
  if (div) {
    result = is_signed ? b.CreateSDiv(x, safe) : b.CreateUDiv(x, safe);
    result = b.CreateSelect(by_zero, all_ones, result);
  } else {
    llvm::Value* rem = is_signed ? b.CreateSRem(x, safe) : b.CreateURem(x, safe);
    result = b.CreateSelect(by_zero, all_ones, b.CreateSelect(trouble, zero, rem));
  }
  fl.write(inst.operands[0], t, result);
}

void lower_unary(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* result =
      inst.opcode == ptx::Opcode::Neg ? b.CreateNeg(x) : b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, x, b.getFalse());
  fl.write(inst.operands[0], t, result);
}

void lower_min_max(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  ptx::Type t = inst.q.type;
  bool is_signed = ptx::is_signed_int(t);
  llvm::Intrinsic::ID id = inst.opcode == ptx::Opcode::Min
                               ? (is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin)
                               : (is_signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax);
  llvm::Value* result = b.CreateBinaryIntrinsic(id, fl.read(inst.operands[1], t), fl.read(inst.operands[2], t));
  if (inst.q.relu)
    result = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, result, llvm::ConstantInt::get(result->getType(), 0));
  fl.write(inst.operands[0], t, result);
}

}  // namespace

bool lower_integer_arithmetic(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (!ptx::is_integer(inst.q.type)) return false;
  switch (inst.opcode) {
    case ptx::Opcode::Add:
    case ptx::Opcode::Sub:
    case ptx::Opcode::Addc:
    case ptx::Opcode::Subc:
      lower_add_sub(fl, inst);
      return true;
    case ptx::Opcode::Mul:
    case ptx::Opcode::Mad:
    case ptx::Opcode::Madc:
      lower_mul_mad(fl, inst);
      return true;
    case ptx::Opcode::Mul24:
    case ptx::Opcode::Mad24:
      lower_mul24(fl, inst);
      return true;
    case ptx::Opcode::Sad:
      lower_sad(fl, inst);
      return true;
    case ptx::Opcode::Div:
    case ptx::Opcode::Rem:
      lower_div_rem(fl, inst);
      return true;
    case ptx::Opcode::Neg:
    case ptx::Opcode::Abs:
      lower_unary(fl, inst);
      return true;
    case ptx::Opcode::Min:
    case ptx::Opcode::Max:
      lower_min_max(fl, inst);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
