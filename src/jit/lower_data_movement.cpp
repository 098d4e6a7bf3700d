// Data movement: mov (values, special registers, symbol addresses, vector pack and
// unpack), ld/ldu/st in every state space with .v2/.v4, cvta between generic and
// specific addresses, and the cache hints that have no effect on a CPU (prefetch,
// createpolicy).
//
// Narrow loads widen into the destination register by the signedness of the
// instruction type (ld.s8 sign-extends, ld.u8 zero-extends: PTX ISA 9.7.9.8); narrow
// stores take the low bits of the source register.
#include <fmt/format.h>
#include <llvm/IR/MDBuilder.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

llvm::AtomicOrdering ordering_of(ptx::Semantics sem) {
  switch (sem) {
    case ptx::Semantics::Relaxed:
    case ptx::Semantics::MmioRelaxed:  // .mmio: also volatile (performed exactly once)
      return llvm::AtomicOrdering::Monotonic;
    case ptx::Semantics::Acquire:
      return llvm::AtomicOrdering::Acquire;
    case ptx::Semantics::Release:
      return llvm::AtomicOrdering::Release;
    default:
      return llvm::AtomicOrdering::NotAtomic;
  }
}

void lower_mov(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  const ptx::Operand& dst = inst.operands[0];
  const ptx::Operand& src = inst.operands[1];
  ptx::Type type = inst.q.type;
  if (src.kind == ptx::Operand::Kind::Vector || dst.kind == ptx::Operand::Kind::Vector) {
    const ptx::Operand& vector = src.kind == ptx::Operand::Kind::Vector ? src : dst;
    unsigned total = ptx::bit_width(type);
    size_t count = vector.elements.size();
    ptx::Type element_type = count == 0 ? ptx::Type::None : bits_type(static_cast<unsigned>(total / count));
    if (element_type == ptx::Type::None || total % count != 0) {
      fl.fail("vector operand does not split the type evenly");
      return;
    }
    unsigned element_bits = ptx::bit_width(element_type);
    if (&vector == &src) {  // pack: element 0 is the low part
      llvm::Value* packed = b.getIntN(total, 0);
      for (size_t i = 0; i < count; ++i) {
        llvm::Value* e = b.CreateZExt(fl.to_bits(fl.read(src.elements[i], element_type)), fl.int_type(total));
        packed = b.CreateOr(packed, b.CreateShl(e, i * element_bits));
      }
      fl.write(dst, type, fl.to_type(packed, type));
    } else {  // unpack
      llvm::Value* packed = fl.to_bits(fl.read(src, type));
      for (size_t i = 0; i < count; ++i) {
        llvm::Value* e = b.CreateTrunc(b.CreateLShr(packed, i * element_bits), fl.int_type(element_bits));
        fl.write(dst.elements[i], element_type, e);
      }
    }
    return;
  }
  fl.write(dst, type, fl.read(src, type));
}

// The destinations or sources of a .vN access, one per element.
std::vector<const ptx::Operand*> elements_of(FunctionLowering& fl, const ptx::Operand& op, unsigned count) {
  std::vector<const ptx::Operand*> out;
  if (count == 1 && op.kind != ptx::Operand::Kind::Vector) {
    out.push_back(&op);
  } else if (op.kind == ptx::Operand::Kind::Vector && op.elements.size() == count) {
    for (const ptx::Operand& e : op.elements) out.push_back(&e);
  } else {
    fl.fail(fmt::format("expected a vector of {} elements", count));
  }
  return out;
}

// A global, shared or generic access must be aligned to its whole size, vector included
// (PTX ISA 5.4.5); x86 would not mind, the GPU faults with cudaErrorMisalignedAddress. The
// check is a rarely taken branch to a runtime function that never returns.
void check_alignment(FunctionLowering& fl, llvm::Value* address, ptx::StateSpace space, uint64_t bytes) {
  auto& b = fl.b;
  if (bytes <= 1 || (space != ptx::StateSpace::Global && space != ptx::StateSpace::Shared &&
                     space != ptx::StateSpace::Generic))
    return;
  llvm::Value* offset = b.CreateAnd(b.CreatePtrToInt(address, b.getInt64Ty()), b.getInt64(bytes - 1));
  llvm::BasicBlock* misaligned = fl.new_block("misaligned");
  llvm::BasicBlock* aligned = fl.new_block("aligned");
  b.CreateCondBr(b.CreateICmpNE(offset, b.getInt64(0)), misaligned, aligned,
                 llvm::MDBuilder(b.getContext()).createBranchWeights(1, 1 << 20));
  b.SetInsertPoint(misaligned);
  llvm::Type* args[] = {fl.ptr_type(), fl.ptr_type(), b.getInt32Ty()};
  b.CreateCall(fl.runtime_function(kMisaligned, b.getVoidTy(), args),
               {fl.thread_context, address, b.getInt32(static_cast<uint32_t>(bytes))});
  b.CreateUnreachable();
  b.SetInsertPoint(aligned);
}

// ld and st: one access per vector element, in the instruction's state space, with the
// .volatile and relaxed/acquire/release semantics (atomic only for scalar accesses).
void lower_load_or_store(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  bool is_store = inst.opcode == ptx::Opcode::St;
  if (!fl.expect_operands(inst, 2)) return;
  ptx::Type type = inst.q.type;
  unsigned bits = ptx::bit_width(type);
  if (bits < 8 || type == ptx::Type::Pred) {
    fl.fail(is_store ? "store of this type is not supported" : "load of this type is not supported");
    return;
  }
  const ptx::Operand& address = inst.operands[is_store ? 0 : 1];
  std::vector<const ptx::Operand*> values = elements_of(fl, inst.operands[is_store ? 1 : 0], inst.q.vector);
  llvm::Value* base = fl.address(address, inst.q.space);
  if (fl.failed()) return;
  check_alignment(fl, base, inst.q.space, uint64_t{bits / 8} * values.size());
  llvm::AtomicOrdering order = ordering_of(inst.q.sem);
  bool atomic = order != llvm::AtomicOrdering::NotAtomic && values.size() == 1;
  bool is_volatile = inst.q.sem == ptx::Semantics::Volatile || inst.q.sem == ptx::Semantics::MmioRelaxed;
  for (size_t i = 0; i < values.size(); ++i) {
    llvm::Value* p = i == 0 ? base : b.CreateGEP(b.getInt8Ty(), base, b.getInt64(i * bits / 8));
    if (is_store) {
      llvm::StoreInst* s = b.CreateAlignedStore(fl.to_bits(fl.read(*values[i], type)), p, llvm::Align(bits / 8));
      s->setVolatile(is_volatile);
      if (atomic) s->setAtomic(order);
    } else {
      llvm::LoadInst* v = b.CreateAlignedLoad(fl.int_type(bits), p, llvm::Align(bits / 8));
      v->setVolatile(is_volatile);
      if (atomic) v->setAtomic(order);
      fl.write(*values[i], type, fl.to_type(v, type));
    }
  }
}

// Generic addresses are host addresses; only .shared addresses differ (an offset into
// the block's window). cvta.to.local.u32 keeps the low half of a local host address.
void lower_cvta(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  ptx::Type type = inst.q.type;
  unsigned bits = ptx::bit_width(type);
  if (bits != 32 && bits != 64) {
    fl.fail("cvta needs .u32 or .u64");
    return;
  }
  llvm::Value* v = fl.read(inst.operands[1], ptx::Type::U64);
  switch (inst.q.space) {
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::SharedCluster: {
      llvm::Value* window = b.CreatePtrToInt(fl.shared_base, b.getInt64Ty());
      v = inst.q.to_space ? b.CreateSub(v, window) : b.CreateAdd(v, window);
      break;
    }
    case ptx::StateSpace::Local:
      if (bits == 32 && !inst.q.to_space) {
        fl.fail("32-bit generic addresses of .local memory are not supported");
        return;
      }
      break;
    case ptx::StateSpace::Global:
    case ptx::StateSpace::Const:
    case ptx::StateSpace::Param:
      break;
    default:
      fl.fail("cvta to or from this state space is not supported");
      return;
  }
  fl.write(inst.operands[0], type, fl.resize_int(v, bits, false));
}

// createpolicy.fractional.L2::priority{.L2::secondary}.b64 d{, fraction} (or d, [a],
// primary-size, total-size) and createpolicy.cvt.L2.b64 d, access-property (PTX ISA 9.0
// "createpolicy"): d is an opaque cache policy whose only use is as the operand of
// .L2::cache_hint, which the parser drops with the hint. A CPU has no L2 policy to
// make: d is 0.
void lower_createpolicy(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (inst.q.operation != ptx::Operation::Fractional && inst.q.operation != ptx::Operation::Convert) {
    fl.fail("createpolicy needs .fractional or .cvt");
    return;
  }
  if (inst.operands.empty() || (inst.q.type != ptx::Type::None && inst.q.type != ptx::Type::B64)) {
    fl.fail("createpolicy writes one .b64 policy");
    return;
  }
  fl.write(inst.operands[0], ptx::Type::B64, fl.b.getInt64(0));
}

}  // namespace

bool lower_data_movement(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Mov:
      lower_mov(fl, inst);
      return true;
    case ptx::Opcode::Ld:
    case ptx::Opcode::Ldu:
    case ptx::Opcode::St:
      lower_load_or_store(fl, inst);
      return true;
    case ptx::Opcode::Cvta:
      lower_cvta(fl, inst);
      return true;
    case ptx::Opcode::Prefetch:
    case ptx::Opcode::Prefetchu:
      return true;  // a cache hint: nothing to do on a CPU
    case ptx::Opcode::Createpolicy:
      lower_createpolicy(fl, inst);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
