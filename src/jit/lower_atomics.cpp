// atom and red on .global, .shared and generic addresses: add (integer and f32/f64),
// min/max (signed or unsigned by type), inc/dec with PTX's wrap rules (LLVM's
// uinc_wrap/udec_wrap are exactly them), and/or/xor, exch and cas. The memory order
// follows .sem (relaxed by default, PTX ISA 9.7.13.4); scopes are all system-wide here.
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
    old = b.CreateAtomicRMW(op, p, operand, align, order);
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
