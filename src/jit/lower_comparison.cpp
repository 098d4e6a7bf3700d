// Comparisons and selection: setp (every comparison of PTX ISA 9.7.7.x, ordered and
// unordered float ones, .and/.or/.xor with a predicate, two destinations `p|q`),
// set (result 0/-1 as an integer or 0.0/1.0 as f32), selp, slct and testp.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

llvm::Value* compare(FunctionLowering& fl, ptx::Compare op, ptx::Type type, llvm::Value* x, llvm::Value* y, bool ftz) {
  auto& b = fl.b;
  using C = ptx::Compare;
  using P = llvm::CmpInst::Predicate;
  if (type == ptx::Type::F32 || type == ptx::Type::F64) {
    if (ftz) {
      x = fl.flush_subnormal(x);
      y = fl.flush_subnormal(y);
    }
    P p;
    switch (op) {
      case C::Eq:
        p = P::FCMP_OEQ;
        break;
      case C::Ne:
        p = P::FCMP_ONE;
        break;
      case C::Lt:
        p = P::FCMP_OLT;
        break;
      case C::Le:
        p = P::FCMP_OLE;
        break;
      case C::Gt:
        p = P::FCMP_OGT;
        break;
      case C::Ge:
        p = P::FCMP_OGE;
        break;
      case C::Equ:
        p = P::FCMP_UEQ;
        break;
      case C::Neu:
        p = P::FCMP_UNE;
        break;
      case C::Ltu:
        p = P::FCMP_ULT;
        break;
      case C::Leu:
        p = P::FCMP_ULE;
        break;
      case C::Gtu:
        p = P::FCMP_UGT;
        break;
      case C::Geu:
        p = P::FCMP_UGE;
        break;
      case C::Num:
        p = P::FCMP_ORD;
        break;
      case C::Nan:
        p = P::FCMP_UNO;
        break;
      default:
        fl.fail("comparison not defined for floats");
        return b.getFalse();
    }
    return b.CreateFCmp(p, x, y);
  }
  if (ptx::is_float(type) || type == ptx::Type::Pred || type == ptx::Type::None) {
    fl.fail(fmt::format("comparison of {} is not supported yet", ptx::spelling(type)));
    return b.getFalse();
  }
  bool is_signed = ptx::is_signed_int(type);
  P p;
  switch (op) {
    case C::Eq:
      p = P::ICMP_EQ;
      break;
    case C::Ne:
      p = P::ICMP_NE;
      break;
    case C::Lt:
      p = is_signed ? P::ICMP_SLT : P::ICMP_ULT;
      break;
    case C::Le:
      p = is_signed ? P::ICMP_SLE : P::ICMP_ULE;
      break;
    case C::Gt:
      p = is_signed ? P::ICMP_SGT : P::ICMP_UGT;
      break;
    case C::Ge:
      p = is_signed ? P::ICMP_SGE : P::ICMP_UGE;
      break;
    case C::Lo:
      p = P::ICMP_ULT;
      break;
    case C::Ls:
      p = P::ICMP_ULE;
      break;
    case C::Hi:
      p = P::ICMP_UGT;
      break;
    case C::Hs:
      p = P::ICMP_UGE;
      break;
    default:
      fl.fail("comparison not defined for integers");
      return b.getFalse();
  }
  return b.CreateICmp(p, x, y);
}

llvm::Value* combine(FunctionLowering& fl, ptx::BoolOp op, llvm::Value* x, llvm::Value* c) {
  switch (op) {
    case ptx::BoolOp::And:
      return fl.b.CreateAnd(x, c);
    case ptx::BoolOp::Or:
      return fl.b.CreateOr(x, c);
    case ptx::BoolOp::Xor:
      return fl.b.CreateXor(x, c);
    default:
      return x;
  }
}

// The destinations and sources of setp/set: `d{|q}, a, b{, c}` however `|` was parsed.
struct CompareOperands {
  std::vector<const ptx::Operand*> dsts;
  std::vector<const ptx::Operand*> srcs;
};

bool split_compare(FunctionLowering& fl, const ptx::Instruction& inst, CompareOperands& out) {
  size_t sources = inst.q.bool_op == ptx::BoolOp::None ? 2 : 3;
  const auto& ops = inst.operands;
  size_t first_source;
  if (!ops.empty() && ops[0].kind == ptx::Operand::Kind::Vector) {
    for (const ptx::Operand& e : ops[0].elements) out.dsts.push_back(&e);
    first_source = 1;
  } else {
    first_source = ops.size() >= sources ? ops.size() - sources : 0;
    for (size_t i = 0; i < first_source; ++i) out.dsts.push_back(&ops[i]);
  }
  for (size_t i = first_source; i < ops.size(); ++i) out.srcs.push_back(&ops[i]);
  if (out.dsts.empty() || out.dsts.size() > 2 || out.srcs.size() != sources) {
    fl.fail("unexpected operands");
    return false;
  }
  return true;
}

void lower_setp_set(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  CompareOperands ops;
  if (!split_compare(fl, inst, ops)) return;
  bool setp = inst.opcode == ptx::Opcode::Setp;
  ptx::Type src_type = setp ? inst.q.type : inst.q.src_type;
  llvm::Value* x = fl.read(*ops.srcs[0], src_type);
  llvm::Value* y = fl.read(*ops.srcs[1], src_type);
  llvm::Value* holds = compare(fl, inst.q.compare, src_type, x, y, inst.q.ftz);
  llvm::Value* c = ops.srcs.size() == 3 ? fl.read(*ops.srcs[2], ptx::Type::Pred) : nullptr;
  llvm::Value* first = combine(fl, inst.q.bool_op, holds, c);
  if (setp) {
    fl.write(*ops.dsts[0], ptx::Type::Pred, first);
    if (ops.dsts.size() == 2)
      fl.write(*ops.dsts[1], ptx::Type::Pred, combine(fl, inst.q.bool_op, b.CreateNot(holds), c));
    return;
  }
  if (ops.dsts.size() != 1) {
    fl.fail("set has one destination");
    return;
  }
  ptx::Type t = inst.q.type;
  llvm::Value* result;
  if (t == ptx::Type::F32) {
    llvm::Type* f32 = fl.shaped(b.getFloatTy());
    result = b.CreateSelect(first, llvm::ConstantFP::get(f32, 1.0), llvm::ConstantFP::get(f32, 0.0));
  } else if (t == ptx::Type::U32 || t == ptx::Type::S32 || t == ptx::Type::B32) {
    result = b.CreateSExt(first, fl.int_like(first, 32));  // 0xffffffff for true
  } else {
    fl.fail("set result must be .u32, .s32 or .f32");
    return;
  }
  fl.write(*ops.dsts[0], t, result);
}

void lower_select(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.operands.size() != 4) {
    fl.fail("expected 4 operands");
    return;
  }
  ptx::Type t = inst.q.type;
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Value* y = fl.read(inst.operands[2], t);
  llvm::Value* choose_x;
  if (inst.opcode == ptx::Opcode::Selp) {
    choose_x = fl.read(inst.operands[3], ptx::Type::Pred);
  } else {  // slct: c >= 0 (-0.0 counts as 0)
    ptx::Type c_type = inst.q.src_type;
    llvm::Value* c = fl.read(inst.operands[3], c_type);
    if (c_type == ptx::Type::F32) {
      if (inst.q.ftz) c = fl.flush_subnormal(c);
      choose_x = b.CreateFCmpOGE(c, llvm::ConstantFP::get(c->getType(), 0.0));
    } else if (c_type == ptx::Type::S32) {
      choose_x = b.CreateICmpSGE(c, llvm::ConstantInt::get(c->getType(), 0));
    } else {
      fl.fail("slct takes an .s32 or .f32 selector");
      return;
    }
  }
  fl.write(inst.operands[0], t, b.CreateSelect(choose_x, x, y));
}

// testp.op.type p, a: a property of a float.
void lower_testp(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  ptx::Type t = inst.q.type;
  if (inst.operands.size() != 2 || (t != ptx::Type::F32 && t != ptx::Type::F64)) {
    fl.fail("expected a predicate and an .f32/.f64 operand");
    return;
  }
  llvm::Value* x = fl.read(inst.operands[1], t);
  llvm::Type* type = x->getType();
  llvm::Value* magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value* infinity = llvm::ConstantFP::getInfinity(type);
  llvm::Value* smallest_normal =
      llvm::ConstantFP::get(type, type->getScalarType()->isFloatTy() ? 0x1p-126 : 0x1p-1022);
  llvm::Value* result;
  switch (inst.q.operation) {
    case ptx::Operation::Finite:
      result = b.CreateFCmpOLT(magnitude, infinity);
      break;
    case ptx::Operation::Infinite:
      result = b.CreateFCmpOEQ(magnitude, infinity);
      break;
    case ptx::Operation::Number:
      result = b.CreateFCmpORD(x, x);
      break;
    case ptx::Operation::NotANumber:
      result = b.CreateFCmpUNO(x, x);
      break;
    case ptx::Operation::Normal:  // zero counts as normal on an H200 (tests/isa: testp.normal)
      result = b.CreateAnd(b.CreateOr(b.CreateFCmpOGE(magnitude, smallest_normal),
                                      b.CreateFCmpOEQ(magnitude, llvm::ConstantFP::get(type, 0.0))),
                           b.CreateFCmpOLT(magnitude, infinity));
      break;
    case ptx::Operation::Subnormal:
      result = b.CreateAnd(b.CreateFCmpOLT(magnitude, smallest_normal),
                           b.CreateFCmpONE(magnitude, llvm::ConstantFP::get(type, 0.0)));
      break;
    default:
      fl.fail("testp needs a property");
      return;
  }
  fl.write(inst.operands[0], ptx::Type::Pred, result);
}

}  // namespace

bool lower_comparison(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Setp:
    case ptx::Opcode::Set:
      lower_setp_set(fl, inst);
      return true;
    case ptx::Opcode::Selp:
    case ptx::Opcode::Slct:
      lower_select(fl, inst);
      return true;
    case ptx::Opcode::Testp:
      lower_testp(fl, inst);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
