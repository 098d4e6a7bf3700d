// atom and red on .global, .shared and generic addresses: add (integer and f32/f64),
// min/max (signed or unsigned by type), inc/dec with PTX's wrap rules (LLVM's
// uinc_wrap/udec_wrap are exactly them), and/or/xor, exch and cas. The memory order
// follows .sem (relaxed by default, PTX ISA 9.7.13.4); scopes are all system-wide here.
// Float adds are compare-and-swap loops computing what an H200 stores (tests/isa/
// isa_atomics): a NaN sum of f32 is the canonical NaN 0x7fffffff, and on global memory
// f32 inputs and results are flushed to zero; a global f64 add stores its last NaN
// operand unchanged (a signaling NaN stays signaling), a shared one its first, quieted.
#include <fmt/format.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

llvm::AtomicOrdering ordering_of(ptx::Semantics sem) {
  switch (sem) {
    case ptx::Semantics::Acquire:
      return llvm::AtomicOrdering::Acquire;
    case ptx::Semantics::Release:
      return llvm::AtomicOrdering::Release;
    case ptx::Semantics::AcqRel:
      return llvm::AtomicOrdering::AcquireRelease;
    case ptx::Semantics::SeqCst:
      return llvm::AtomicOrdering::SequentiallyConsistent;
    default:
      return llvm::AtomicOrdering::Monotonic;
  }
}

// The GPU's sum for atom.add / red.add on a float.
llvm::Value* atomic_float_sum(FunctionLowering& fl, llvm::Value* x, llvm::Value* y, bool global) {
  auto& b = fl.b;
  if (x->getType()->isFloatTy()) {
    if (global) {
      x = fl.flush_subnormal(x);
      y = fl.flush_subnormal(y);
    }
    llvm::Value* sum = fl.canonicalize_nan(b.CreateFAdd(x, y));
    return global ? fl.flush_subnormal(sum) : sum;
  }
  // f64: on shared memory the first NaN operand, quieted; on global the last, unchanged.
  auto quiet = [&](llvm::Value* v) {
    return global ? v : b.CreateBitCast(b.CreateOr(fl.to_bits(v), fl.i64(0x0008000000000000ULL)), v->getType());
  };
  llvm::Value* lower_priority = global ? x : y;
  llvm::Value* higher_priority = global ? y : x;
  llvm::Value* sum =
      b.CreateSelect(b.CreateFCmpUNO(lower_priority, lower_priority), quiet(lower_priority), b.CreateFAdd(x, y));
  return b.CreateSelect(b.CreateFCmpUNO(higher_priority, higher_priority), quiet(higher_priority), sum);
}

// A float add as a compare-and-swap loop; returns the old value (bits).
llvm::Value* atomic_float_add(FunctionLowering& fl, llvm::Value* p, llvm::Value* v, llvm::AtomicOrdering order,
                              bool global) {
  auto& b = fl.b;
  llvm::Type* bits = fl.int_type(v->getType()->getPrimitiveSizeInBits());
  llvm::Align align(bits->getIntegerBitWidth() / 8);
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::LoadInst* initial = b.CreateAlignedLoad(bits, p, align);
  initial->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::BasicBlock* loop = fl.new_block("atom.fadd");
  llvm::BasicBlock* done = fl.new_block("atom.fadd.done");
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* expected = b.CreatePHI(bits, 2);
  expected->addIncoming(initial, entry);
  llvm::Value* sum = atomic_float_sum(fl, b.CreateBitCast(expected, v->getType()), v, global);
  auto* swap = b.CreateAtomicCmpXchg(p, expected, fl.to_bits(sum), align, order,
                                     llvm::AtomicCmpXchgInst::getStrongestFailureOrdering(order));
  expected->addIncoming(b.CreateExtractValue(swap, 0), b.GetInsertBlock());
  b.CreateCondBr(b.CreateExtractValue(swap, 1), done, loop);
  b.SetInsertPoint(done);
  return expected;
}

void lower_atom(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  bool red = inst.opcode == ptx::Opcode::Red;
  bool cas = inst.q.atomic_op == ptx::AtomicOp::Cas;
  size_t first = red ? 0 : 1;  // the address operand
  if (inst.operands.size() != first + (cas ? 3 : 2) || (red && cas)) {
    fl.fail("unexpected operands");
    return;
  }
  if (inst.q.vector != 1) {
    fl.fail("vector atomics are not supported yet");
    return;
  }
  switch (inst.q.space) {
    case ptx::StateSpace::Generic:
    case ptx::StateSpace::Global:
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::SharedCluster:
      break;
    default:
      fl.fail("atomics in this state space are not supported");
      return;
  }
  ptx::Type t = inst.q.type;
  unsigned bits = ptx::bit_width(t);
  bool is_float = t == ptx::Type::F32 || t == ptx::Type::F64;
  if ((bits != 32 && bits != 64) || (ptx::is_float(t) && !is_float)) {
    fl.fail(fmt::format("atomics on {} are not supported yet", ptx::spelling(t)));
    return;
  }
  llvm::Value* p = fl.address(inst.operands[first], inst.q.space);
  llvm::Value* v = fl.read(inst.operands[first + 1], t);
  if (fl.failed()) return;
  llvm::AtomicOrdering order = ordering_of(inst.q.sem);
  llvm::Align align(bits / 8);
  llvm::Value* old = nullptr;
  if (cas) {
    llvm::Value* desired = fl.to_bits(fl.read(inst.operands[first + 2], t));
    auto* x = b.CreateAtomicCmpXchg(p, fl.to_bits(v), desired, align, order,
                                    llvm::AtomicCmpXchgInst::getStrongestFailureOrdering(order));
    old = fl.to_type(b.CreateExtractValue(x, 0), t);
  } else {
    using Op = llvm::AtomicRMWInst::BinOp;
    bool is_signed = ptx::is_signed_int(t);
    Op op;
    switch (inst.q.atomic_op) {
      case ptx::AtomicOp::Add:
        op = is_float ? Op::FAdd : Op::Add;
        break;
      case ptx::AtomicOp::Min:
        op = is_float ? Op::FMin : is_signed ? Op::Min : Op::UMin;
        break;
      case ptx::AtomicOp::Max:
        op = is_float ? Op::FMax : is_signed ? Op::Max : Op::UMax;
        break;
      case ptx::AtomicOp::Inc:
        op = Op::UIncWrap;
        break;
      case ptx::AtomicOp::Dec:
        op = Op::UDecWrap;
        break;
      case ptx::AtomicOp::And:
        op = Op::And;
        break;
      case ptx::AtomicOp::Or:
        op = Op::Or;
        break;
      case ptx::AtomicOp::Xor:
        op = Op::Xor;
        break;
      case ptx::AtomicOp::Exch:
        op = Op::Xchg;
        break;
      default:
        fl.fail("atomic operation not supported");
        return;
    }
    bool bitwise =
        op == Op::And || op == Op::Or || op == Op::Xor || op == Op::Xchg || op == Op::UIncWrap || op == Op::UDecWrap;
    if (is_float && op != Op::FAdd && op != Op::Xchg) {
      fl.fail("this atomic operation on floats is not supported yet");
      return;
    }
    if ((op == Op::UIncWrap || op == Op::UDecWrap) && is_float) {
      fl.fail("inc/dec take integers");
      return;
    }
    llvm::Value* operand = bitwise ? fl.to_bits(v) : v;
    if (op == Op::FAdd) {
      bool global = inst.q.space != ptx::StateSpace::Shared && inst.q.space != ptx::StateSpace::SharedCluster;
      old = fl.to_type(atomic_float_add(fl, p, v, order, global), t);
    } else {
      old = b.CreateAtomicRMW(op, p, operand, align, order);
    }
    if (old->getType() != fl.value_type(t)) old = fl.to_type(old, t);
  }
  if (!red) fl.write(inst.operands[0], t, old);
}

}  // namespace

bool lower_atomics(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (inst.opcode != ptx::Opcode::Atom && inst.opcode != ptx::Opcode::Red) return false;
  lower_atom(fl, inst);
  return true;
}

}  // namespace cucpu::jit
