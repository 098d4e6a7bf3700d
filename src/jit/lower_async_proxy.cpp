// The sm_90 async-proxy operations that are not cp.async.bulk copies (PTX ISA 9.0
// §9.7.9.12 st.async, §9.7.13.7 red.async, §9.7.9.25.4.2 cp.reduce.async.bulk, §9.7.9.16
// discard, §9.7.9.17 applypriority).
//
// As with cp.async.bulk (lower_async_copy.cpp), the memory operation is done when the
// instruction issues and its completion follows at once: st.async and red.async are the
// ordinary st / red on .shared::cluster (lowered by lower_data_movement / lower_atomics),
// then the complete-tx of their size on the mbarrier in the same peer CTA.
// cp.reduce.async.bulk reduces element by element, each one atomic (as the ISA says of
// the bulk reduction), then completes its bulk group (nothing to do) or mbarrier.
#include <fmt/format.h>

#include <optional>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

// The complete-tx of `bytes` on the mbarrier at `operand`, an address in .shared::cluster.
void complete_tx(FunctionLowering& fl, const ptx::Operand& operand, llvm::Value* bytes) {
  auto& b = fl.b;
  llvm::Value* object = fl.address(operand, ptx::StateSpace::SharedCluster);
  if (fl.failed()) return;
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
  b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_tx", b.getVoidTy(), args), {object, b.CreateNeg(bytes)});
}

// st.async / red.async .shared::cluster.mbarrier::complete_tx::bytes [addr], value, [mbar].
bool lower_remote_store(FunctionLowering& fl, const ptx::Instruction& inst) {
  const bool red = inst.opcode == ptx::Opcode::Red;
  const char* name = red ? "red.async" : "st.async";
  if (!inst.q.complete_tx || inst.q.space != ptx::StateSpace::SharedCluster) {
    fl.fail(fmt::format("{} is .shared::cluster.mbarrier::complete_tx::bytes", name));
    return true;
  }
  if (inst.operands.size() != 3) {
    fl.fail(fmt::format("{} expects [addr], a value and [remote_mbar]", name));
    return true;
  }
  ptx::Instruction access = inst;  // the same access without its completion
  access.q.async = false;
  access.q.complete_tx = false;
  access.operands.pop_back();
  if (red) {
    lower_atomics(fl, access);
  } else {
    lower_data_movement(fl, access);
  }
  if (fl.failed()) return true;
  const uint32_t bytes = inst.q.vector * ptx::bit_width(inst.q.type) / 8;
  complete_tx(fl, inst.operands[2], fl.b.getInt32(bytes));
  return true;
}

llvm::Type* element_type(FunctionLowering& fl, ptx::Type t) {
  switch (t) {
    case ptx::Type::F16:
      return fl.b.getHalfTy();
    case ptx::Type::BF16:
      return fl.b.getBFloatTy();
    case ptx::Type::F32:
      return fl.b.getFloatTy();
    case ptx::Type::F64:
      return fl.b.getDoubleTy();
    default:
      return fl.b.getIntNTy(ptx::bit_width(t));
  }
}

// The atomicrmw of one element of cp.reduce.async.bulk, or nothing for a pairing the ISA
// does not allow (.add on integers and floats, .min/.max on integers and .f16/.bf16,
// .inc/.dec on .u32, .and/.or/.xor on bit types).
std::optional<llvm::AtomicRMWInst::BinOp> reduce_op(ptx::AtomicOp op, ptx::Type t) {
  using Op = llvm::AtomicRMWInst::BinOp;
  const bool is_float = ptx::is_float(t);
  const bool half = t == ptx::Type::F16 || t == ptx::Type::BF16;
  switch (op) {
    case ptx::AtomicOp::Add:
      return is_float ? Op::FAdd : Op::Add;
    case ptx::AtomicOp::Min:
      if (is_float && !half) return std::nullopt;
      return half ? Op::FMin : ptx::is_signed_int(t) ? Op::Min : Op::UMin;
    case ptx::AtomicOp::Max:
      if (is_float && !half) return std::nullopt;
      return half ? Op::FMax : ptx::is_signed_int(t) ? Op::Max : Op::UMax;
    case ptx::AtomicOp::Inc:
      return t == ptx::Type::U32 ? std::optional(Op::UIncWrap) : std::nullopt;
    case ptx::AtomicOp::Dec:
      return t == ptx::Type::U32 ? std::optional(Op::UDecWrap) : std::nullopt;
    case ptx::AtomicOp::And:
      return is_float ? std::nullopt : std::optional(Op::And);
    case ptx::AtomicOp::Or:
      return is_float ? std::nullopt : std::optional(Op::Or);
    case ptx::AtomicOp::Xor:
      return is_float ? std::nullopt : std::optional(Op::Xor);
    default:
      return std::nullopt;
  }
}

// cp.reduce.async.bulk.{global | shared::cluster}.shared::cta.{bulk_group |
// mbarrier::complete_tx::bytes}.op.type [dst], [src], size{, [mbar] | cache-policy}.
void lower_bulk_reduce(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const ptx::Qualifiers& q = inst.q;
  const bool to_cluster = q.space == ptx::StateSpace::SharedCluster;
  if (!q.bulk || (q.space != ptx::StateSpace::Global && !to_cluster) || q.src_space == ptx::StateSpace::Global ||
      q.src_space == ptx::StateSpace::Generic)
    return fl.fail("cp.reduce.async.bulk reduces .shared::cta into .global or .shared::cluster");
  if (to_cluster ? !q.complete_tx : !q.bulk_group)
    return fl.fail(to_cluster
                       ? "cp.reduce.async.bulk into .shared::cluster completes through .mbarrier::complete_tx::bytes"
                       : "cp.reduce.async.bulk into .global completes through .bulk_group");
  const ptx::Type t = q.type;
  const auto op = reduce_op(q.atomic_op, t);
  if (!op || (to_cluster && ptx::is_float(t)) ||
      (ptx::bit_width(t) != 16 && ptx::bit_width(t) != 32 && ptx::bit_width(t) != 64))
    return fl.fail(fmt::format("cp.reduce.async.bulk{}{} is not an operation the ISA defines",
                               ptx::spelling(q.atomic_op), ptx::spelling(t)));
  // [dst], [src], size{, [mbar]} (the parser drops an .L2::cache_hint policy operand).
  if (inst.operands.size() != (to_cluster ? 4u : 3u))
    return fl.fail(to_cluster ? "expected [dst], [src], size and [mbar]" : "expected [dst], [src], size");
  llvm::Value* dst = fl.address(inst.operands[0], q.space);
  llvm::Value* src = fl.address(inst.operands[1], q.src_space);
  llvm::Value* size = fl.read(inst.operands[2], ptx::Type::U32);
  if (fl.failed()) return;
  llvm::Type* type = element_type(fl, t);
  const uint32_t element_bytes = ptx::bit_width(t) / 8;
  llvm::Value* count = b.CreateZExt(b.CreateUDiv(size, b.getInt32(element_bytes)), b.getInt64Ty());
  llvm::BasicBlock* before = b.GetInsertBlock();
  llvm::BasicBlock* test = fl.new_block("bulk_reduce.test");
  llvm::BasicBlock* body = fl.new_block("bulk_reduce.body");
  llvm::BasicBlock* done = fl.new_block("bulk_reduce.done");
  b.CreateBr(test);
  b.SetInsertPoint(test);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(b.getInt64(0), before);
  b.CreateCondBr(b.CreateICmpULT(i, count), body, done);
  b.SetInsertPoint(body);
  llvm::Value* value = b.CreateLoad(type, b.CreateGEP(type, src, i));
  b.CreateAtomicRMW(*op, b.CreateGEP(type, dst, i), value, llvm::Align(element_bytes), llvm::AtomicOrdering::Monotonic);
  i->addIncoming(b.CreateAdd(i, b.getInt64(1)), b.GetInsertBlock());
  b.CreateBr(test);
  b.SetInsertPoint(done);
  if (to_cluster) complete_tx(fl, inst.operands[3], size);
}

}  // namespace

bool lower_async_proxy(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::St:
    case ptx::Opcode::Red: {
      // st and red take .async's words (opcodes.def) only for these forms.
      const ptx::Qualifiers& q = inst.q;
      if (q.bulk || q.on_mbarrier || q.noinc || q.read_only || q.bulk_group || q.multicast || q.tensor || q.im2col ||
          (q.complete_tx && !q.async)) {
        fl.fail("a cp.async qualifier on st or red");
        return true;
      }
      return q.async && lower_remote_store(fl, inst);
    }
    case ptx::Opcode::Cp:
      if (inst.q.operation != ptx::Operation::Reduce || inst.q.tensor) return false;
      lower_bulk_reduce(fl, inst);
      return true;
    // discard.global.L2 [a], 128 leaves the line's contents undefined; keeping them is one
    // of the contents allowed, so a no-op is correct. applypriority only changes the
    // line's eviction priority, which a CPU has no way to set.
    case ptx::Opcode::Discard:
    case ptx::Opcode::Applypriority:
      if (inst.operands.size() != 2) fl.fail("expected [a] and a size");
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
