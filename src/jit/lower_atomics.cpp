// atom and red on .global, .shared and generic addresses: add (integer and f32/f64),
// min/max (signed or unsigned by type), inc/dec with PTX's wrap rules (LLVM's
// uinc_wrap/udec_wrap are exactly them), and/or/xor, exch and cas (also cas.b16, and
// cas/exch.b128). The memory order follows .sem (relaxed by default, PTX ISA 9.7.13.4);
// scopes are all system-wide here.
// Float adds are compare-and-swap loops computing what an H200 stores (tests/isa/
// isa_atomics): a NaN sum of f32 is the canonical NaN 0x7fffffff, and on global memory
// f32 inputs and results are flushed to zero; a global f64 add stores its last NaN
// operand unchanged (a signaling NaN stays signaling), a shared one its first, quieted.
// Half precision (PTX ISA 9.7.13.4 atom): add.noftz on .f16/.bf16/.f16x2/.bf16x2, and the
// vector forms on global memory (add on .v2/.v4 .f32; add/min/max.noftz on .v2/.v4/.v8
// .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2), each element atomic on its own, as the ISA
// says. A half lane is computed as lower_half_precision.cpp does (exact in f64, rounded
// once to nearest even, a NaN result is 0x7fff; min/max as min.f16: a NaN loses to a
// number, -0 < +0), with no flush to zero (.noftz); tests/isa/isa_atomics_ext matches
// an H100 on all of these.
#include <fmt/format.h>
#include <llvm/Transforms/Utils/LowerAtomic.h>

#include <functional>

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

// Stores update(old) at p with a compare-and-swap loop; returns the old value (bits of
// `bits`'s width).
llvm::Value* atomic_update(FunctionLowering& fl, llvm::Value* p, llvm::IntegerType* bits, llvm::AtomicOrdering order,
                           const std::function<llvm::Value*(llvm::Value*)>& update) {
  auto& b = fl.b;
  llvm::Align align(bits->getIntegerBitWidth() / 8);
  llvm::BasicBlock* entry = b.GetInsertBlock();
  llvm::LoadInst* initial = b.CreateAlignedLoad(bits, p, align);
  initial->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::BasicBlock* loop = fl.new_block("atom.update");
  llvm::BasicBlock* done = fl.new_block("atom.update.done");
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* expected = b.CreatePHI(bits, 2);
  expected->addIncoming(initial, entry);
  auto* swap = b.CreateAtomicCmpXchg(p, expected, update(expected), align, order,
                                     llvm::AtomicCmpXchgInst::getStrongestFailureOrdering(order));
  expected->addIncoming(b.CreateExtractValue(swap, 0), b.GetInsertBlock());
  b.CreateCondBr(b.CreateExtractValue(swap, 1), done, loop);
  b.SetInsertPoint(done);
  return expected;
}

// A float add as a compare-and-swap loop; returns the old value (bits).
llvm::Value* atomic_float_add(FunctionLowering& fl, llvm::Value* p, llvm::Value* v, llvm::AtomicOrdering order,
                              bool global) {
  auto* bits = fl.int_type(v->getType()->getPrimitiveSizeInBits());
  return atomic_update(fl, p, bits, order, [&](llvm::Value* old) {
    return fl.to_bits(atomic_float_sum(fl, fl.b.CreateBitCast(old, v->getType()), v, global));
  });
}

// --- half precision ----------------------------------------------------------------

bool is_half_type(ptx::Type t) {
  return t == ptx::Type::F16 || t == ptx::Type::BF16 || t == ptx::Type::F16x2 || t == ptx::Type::BF16x2;
}

// One f16 or bf16 lane (i16 bits), widened exactly to f64.
llvm::Value* widen_half(FunctionLowering& fl, llvm::Value* x, bool bf16) {
  auto& b = fl.b;
  if (!bf16) return b.CreateFPExt(b.CreateBitCast(x, b.getHalfTy()), b.getDoubleTy());
  llvm::Value* f32 = b.CreateBitCast(b.CreateShl(b.CreateZExt(x, b.getInt32Ty()), 16), b.getFloatTy());
  return b.CreateFPExt(f32, b.getDoubleTy());
}

llvm::Value* is_half_nan(FunctionLowering& fl, llvm::Value* x, bool bf16) {
  return fl.b.CreateICmpUGT(fl.b.CreateAnd(x, fl.b.getInt16(0x7fff)), fl.b.getInt16(bf16 ? 0x7f80 : 0x7c00));
}

// add, min or max of two half lanes (i16 bits).
llvm::Value* combine_half_lane(FunctionLowering& fl, ptx::AtomicOp op, bool bf16, llvm::Value* x, llvm::Value* y) {
  auto& b = fl.b;
  llvm::Value* wide_x = widen_half(fl, x, bf16);
  llvm::Value* wide_y = widen_half(fl, y, bf16);
  if (op == ptx::AtomicOp::Add) {
    // __cucpu_jit_narrow (lower_half_precision.cpp): format 0 f16, 1 bf16; mode 0 = .rn.
    llvm::FunctionCallee narrow = fl.runtime_function("__cucpu_jit_narrow", b.getInt32Ty(),
                                                      {b.getDoubleTy(), b.getInt32Ty(), b.getInt32Ty()});
    llvm::Value* sum = b.CreateCall(narrow, {b.CreateFAdd(wide_x, wide_y), b.getInt32(bf16 ? 1 : 0), b.getInt32(0)});
    return b.CreateTrunc(sum, b.getInt16Ty());
  }
  const bool is_min = op == ptx::AtomicOp::Min;
  llvm::Value* merged = is_min ? b.CreateOr(x, y) : b.CreateAnd(x, y);  // -0 vs +0
  llvm::Value* x_wins = is_min ? b.CreateFCmpOLT(wide_x, wide_y) : b.CreateFCmpOGT(wide_x, wide_y);
  llvm::Value* y_wins = is_min ? b.CreateFCmpOLT(wide_y, wide_x) : b.CreateFCmpOGT(wide_y, wide_x);
  llvm::Value* r = b.CreateSelect(x_wins, x, b.CreateSelect(y_wins, y, merged));
  llvm::Value* x_nan = is_half_nan(fl, x, bf16);
  llvm::Value* y_nan = is_half_nan(fl, y, bf16);
  return b.CreateSelect(b.CreateAnd(x_nan, y_nan), b.getInt16(0x7fff),
                        b.CreateSelect(x_nan, y, b.CreateSelect(y_nan, x, r)));
}

// op on every 16-bit lane of an f16/bf16 (i16) or packed x2 (i32) value.
llvm::Value* combine_half(FunctionLowering& fl, ptx::AtomicOp op, ptx::Type t, llvm::Value* x, llvm::Value* y) {
  auto& b = fl.b;
  const bool bf16 = t == ptx::Type::BF16 || t == ptx::Type::BF16x2;
  if (ptx::bit_width(t) == 16) return combine_half_lane(fl, op, bf16, x, y);
  llvm::Value* result = b.getInt32(0);
  for (unsigned lane = 0; lane < 2; ++lane) {
    auto part = [&](llvm::Value* v) { return b.CreateTrunc(b.CreateLShr(v, 16 * lane), b.getInt16Ty()); };
    llvm::Value* r = b.CreateZExt(combine_half_lane(fl, op, bf16, part(x), part(y)), b.getInt32Ty());
    result = b.CreateOr(result, b.CreateShl(r, 16 * lane));
  }
  return result;
}

// One element of a half-precision or vector atom/red: `value` combined into *p; returns
// the old value as `t`.
llvm::Value* atomic_element(FunctionLowering& fl, const ptx::Instruction& inst, ptx::Type t, llvm::Value* p,
                            llvm::Value* value) {
  const ptx::AtomicOp op = inst.q.atomic_op;
  llvm::AtomicOrdering order = ordering_of(inst.q.sem);
  if (t == ptx::Type::F32) return fl.to_type(atomic_float_add(fl, p, value, order, /*global=*/true), t);
  return atomic_update(fl, p, fl.int_type(ptx::bit_width(t)), order,
                       [&](llvm::Value* old) { return combine_half(fl, op, t, old, value); });
}

// atom/red on f16, bf16 and their x2 forms, and the vector forms (PTX ISA 9.7.13.4).
void lower_half_or_vector_atom(FunctionLowering& fl, const ptx::Instruction& inst) {
  const bool red = inst.opcode == ptx::Opcode::Red;
  const size_t first = red ? 0 : 1;  // the address operand
  const ptx::Type t = inst.q.type;
  const ptx::AtomicOp op = inst.q.atomic_op;
  const unsigned elements = inst.q.vector;
  if (inst.operands.size() != first + 2) {
    fl.fail("unexpected operands");
    return;
  }
  const bool half = is_half_type(t);
  const bool add = op == ptx::AtomicOp::Add;
  if ((!half && !(t == ptx::Type::F32 && add && elements > 1)) ||
      (!add && op != ptx::AtomicOp::Min && op != ptx::AtomicOp::Max)) {
    fl.fail(fmt::format("PTX has no such atomic operation on {}{}", elements > 1 ? "vectors of " : "", ptx::spelling(t)));
    return;
  }
  const unsigned most = t == ptx::Type::F32 || ptx::bit_width(t) == 32 ? 4 : 8;
  if (elements > most) {
    fl.fail(fmt::format("vector atomics on {} have at most {} elements", ptx::spelling(t), most));
    return;
  }
  if (elements > 1 && inst.q.space != ptx::StateSpace::Global && inst.q.space != ptx::StateSpace::Generic) {
    fl.fail("vector atomics take .global (or generic) addresses only");
    return;
  }
  auto parts = [&](const ptx::Operand& op) -> std::vector<const ptx::Operand*> {
    std::vector<const ptx::Operand*> out;
    if (elements == 1) return {&op};
    if (op.kind == ptx::Operand::Kind::Vector) {
      for (const ptx::Operand& element : op.elements) out.push_back(&element);
    }
    return out;
  };
  std::vector<const ptx::Operand*> sources = parts(inst.operands[first + 1]);
  std::vector<const ptx::Operand*> destinations = red ? sources : parts(inst.operands[0]);
  if (sources.size() != elements || destinations.size() != elements) {
    fl.fail(fmt::format("a .v{} atomic takes vectors of {} elements", elements, elements));
    return;
  }
  llvm::Value* p = fl.address(inst.operands[first], inst.q.space);
  const unsigned element_bytes = ptx::bit_width(t) / 8;
  for (unsigned i = 0; i < elements; ++i) {
    llvm::Value* value = fl.read(*sources[i], t);
    if (fl.failed()) return;
    if (t != ptx::Type::F32) value = fl.to_bits(value);
    llvm::Value* at = fl.b.CreateGEP(fl.b.getInt8Ty(), p, fl.i64(i * element_bytes));
    llvm::Value* old = atomic_element(fl, inst, t, at, value);
    if (!red) fl.write(*destinations[i], t, old);
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
  if (is_half_type(t) || inst.q.vector != 1) {
    lower_half_or_vector_atom(fl, inst);
    return;
  }
  unsigned bits = ptx::bit_width(t);
  bool is_float = t == ptx::Type::F32 || t == ptx::Type::F64;
  const bool cas_b16 = cas && bits == 16 && !ptx::is_float(t);  // atom.cas.b16 (sm_70)
  // atom.cas.b128 and atom.exch.b128 (sm_90): cmpxchg16b on the host.
  const bool b128 = bits == 128 && (cas || inst.q.atomic_op == ptx::AtomicOp::Exch);
  if ((bits != 32 && bits != 64 && !cas_b16 && !b128) || (ptx::is_float(t) && !is_float)) {
    fl.fail(fmt::format("atomics on {} are not supported yet", ptx::spelling(t)));
    return;
  }
  llvm::Value* p = fl.address(inst.operands[first], inst.q.space);
  llvm::Value* v = fl.read(inst.operands[first + 1], t);
  if (fl.failed()) return;
  llvm::AtomicOrdering order = ordering_of(inst.q.sem);
  llvm::Align align(bits / 8);
  llvm::Value* old = nullptr;
  // The block's own shared memory, touched by no other host thread: plain memory operations.
  const bool plain = fl.shared_is_thread_private && inst.q.space == ptx::StateSpace::Shared && (bits == 32 || bits == 64);
  if (cas && plain) {
    llvm::Value* desired = fl.to_bits(fl.read(inst.operands[first + 2], t));
    llvm::Value* loaded = b.CreateAlignedLoad(desired->getType(), p, align);
    b.CreateAlignedStore(b.CreateSelect(b.CreateICmpEQ(loaded, fl.to_bits(v)), desired, loaded), p, align);
    old = fl.to_type(loaded, t);
  } else if (cas) {
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
    } else if (plain) {
      llvm::Value* loaded = b.CreateAlignedLoad(operand->getType(), p, align);
      b.CreateAlignedStore(llvm::buildAtomicRMWValue(op, b, loaded, operand), p, align);
      old = loaded;
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
