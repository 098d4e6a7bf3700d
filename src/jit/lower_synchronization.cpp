// Synchronization: bar.sync / barrier.sync (with barrier id and optional thread
// count) and redux.sync call the executor's runtime functions (kernel_abi.h), which
// park the calling thread until the others arrive; membar and fence become full
// fences (stronger than any PTX scope asks for).
#include <fmt/format.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

void lower_barrier(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  // bar.warp.sync parses as Bar with .sync and no barrier mode: a warp collective.
  if (inst.q.barrier != ptx::BarrierMode::Sync || inst.q.scope == ptx::Scope::Cluster) {
    fl.fail("only bar.sync / barrier.sync are supported yet");
    return;
  }
  if (inst.operands.empty() || inst.operands.size() > 2) {
    fl.fail("expected a barrier id and an optional thread count");
    return;
  }
  llvm::Value* id = fl.read(inst.operands[0], ptx::Type::U32);
  llvm::Value* count = inst.operands.size() == 2 ? fl.read(inst.operands[1], ptx::Type::U32) : b.getInt32(0);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty()};
  b.CreateCall(fl.runtime_function(kBarSync, b.getVoidTy(), args), {fl.thread_context, id, count});
  fl.waits_for_other_threads = true;
}

void lower_redux(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.operands.size() != 3) {
    fl.fail("expected 3 operands");
    return;
  }
  ptx::Type t = inst.q.type;
  if (t != ptx::Type::U32 && t != ptx::Type::S32 && t != ptx::Type::B32) {
    fl.fail(fmt::format("redux.sync on {} is not supported yet", ptx::spelling(t)));
    return;
  }
  ptx::AtomicOp op = inst.q.atomic_op;
  switch (op) {
    case ptx::AtomicOp::Add:
    case ptx::AtomicOp::Min:
    case ptx::AtomicOp::Max:
    case ptx::AtomicOp::And:
    case ptx::AtomicOp::Or:
    case ptx::AtomicOp::Xor:
      break;
    default:
      fl.fail("redux.sync operation not supported");
      return;
  }
  uint32_t code = static_cast<uint32_t>(op);
  if (t == ptx::Type::S32 && (op == ptx::AtomicOp::Min || op == ptx::AtomicOp::Max)) code |= 0x100;
  llvm::Value* value = fl.read(inst.operands[1], t);
  llvm::Value* mask = fl.read(inst.operands[2], ptx::Type::B32);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()};
  llvm::Value* result = b.CreateCall(fl.runtime_function(kReduxSyncU32, b.getInt32Ty(), args),
                                     {fl.thread_context, b.getInt32(code), value, mask});
  fl.write(inst.operands[0], t, result);
  fl.waits_for_other_threads = true;
}

}  // namespace

bool lower_synchronization(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Bar:
    case ptx::Opcode::Barrier:
      lower_barrier(fl, inst);
      return true;
    case ptx::Opcode::Redux:
      lower_redux(fl, inst);
      return true;
    case ptx::Opcode::Membar:
    case ptx::Opcode::Fence:
      fl.b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
