// Synchronization: bar/barrier .sync, .arrive and .red (with barrier id and optional
// thread count) and redux.sync call the executor's runtime functions (kernel_abi.h),
// which park the calling thread until the others arrive (.arrive only counts itself); membar and fence become full
// fences (stronger than any PTX scope asks for); nanosleep yields to the other threads;
// griddepcontrol and pmevent need no code (see below).
#include <fmt/format.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

// bar.red.popc.u32 d, a{, b}, p / bar.red.{and,or}.pred d, a{, b}, p (PTX ISA 9.7.13.1).
void lower_barrier_reduction(FunctionLowering& fl, const ptx::Instruction& inst, llvm::Value* id) {
  auto& b = fl.b;
  const ptx::AtomicOp op = inst.q.atomic_op;
  const bool popc = op == ptx::AtomicOp::Popc;
  if (!popc && op != ptx::AtomicOp::And && op != ptx::AtomicOp::Or) {
    fl.fail("bar.red takes .popc, .and or .or");
    return;
  }
  if (inst.operands.size() != 3 && inst.operands.size() != 4) {
    fl.fail("expected a destination, a barrier id, an optional thread count and a predicate");
    return;
  }
  llvm::Value* count = inst.operands.size() == 4 ? fl.read(inst.operands[2], ptx::Type::U32) : b.getInt32(0);
  llvm::Value* predicate = b.CreateZExt(fl.read(inst.operands.back(), ptx::Type::Pred), b.getInt32Ty());
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()};
  llvm::Value* result = b.CreateCall(fl.runtime_function(kBarRed, b.getInt32Ty(), args),
                                     {fl.thread_context, id, count, b.getInt32(static_cast<uint32_t>(op)), predicate});
  if (popc) {
    fl.write(inst.operands[0], ptx::Type::U32, result);
  } else {
    fl.write(inst.operands[0], ptx::Type::Pred, b.CreateICmpNE(result, b.getInt32(0)));
  }
}

void lower_barrier(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  // bar.warp.sync parses as Bar with .sync and no barrier mode: a warp collective.
  const ptx::BarrierMode mode = inst.q.barrier;
  if ((mode != ptx::BarrierMode::Sync && mode != ptx::BarrierMode::Arrive && mode != ptx::BarrierMode::Red) ||
      inst.q.scope == ptx::Scope::Cluster) {
    fl.fail("only bar/barrier .sync, .arrive and .red are supported yet");
    return;
  }
  fl.waits_for_other_threads = true;
  if (mode == ptx::BarrierMode::Red) {
    if (inst.operands.size() >= 2)
      lower_barrier_reduction(fl, inst, fl.read(inst.operands[1], ptx::Type::U32));
    else
      fl.fail("expected a destination, a barrier id, an optional thread count and a predicate");
    return;
  }
  // bar.arrive needs its thread count (PTX ISA 9.7.13.1); bar.sync may leave it out.
  const size_t min_operands = mode == ptx::BarrierMode::Arrive ? 2 : 1;
  if (inst.operands.size() < min_operands || inst.operands.size() > 2) {
    fl.fail(mode == ptx::BarrierMode::Arrive ? "expected a barrier id and a thread count"
                                             : "expected a barrier id and an optional thread count");
    return;
  }
  llvm::Value* id = fl.read(inst.operands[0], ptx::Type::U32);
  llvm::Value* count = inst.operands.size() == 2 ? fl.read(inst.operands[1], ptx::Type::U32) : b.getInt32(0);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty()};
  const char* callee = mode == ptx::BarrierMode::Arrive ? kBarArrive : kBarSync;
  b.CreateCall(fl.runtime_function(callee, b.getVoidTy(), args), {fl.thread_context, id, count});
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

// nanosleep.u32 t (PTX ISA "nanosleep", sleep within [0, 2t]): lets the other threads of the block run, then
// sleeps what is left of t; the thread waits for others, so its kernel runs on fibers.
void lower_nanosleep(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 1)) return;
  llvm::Value* nanoseconds = fl.read(inst.operands[0], ptx::Type::U32);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
  b.CreateCall(fl.runtime_function(kNanosleep, b.getVoidTy(), args), {fl.thread_context, nanoseconds});
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
    // fence.proxy.{async,alias,tensormap::generic}: on a CPU every proxy reaches the same
    // memory through the same path, so a proxy fence is an ordinary fence (the tensormap
    // acquire's [addr], size operands name what it covers: everything is covered).
    case ptx::Opcode::Fence:
      fl.b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
      return true;
    case ptx::Opcode::Nanosleep:
      lower_nanosleep(fl, inst);
      return true;
    // griddepcontrol.launch_dependents / .wait (programmatic dependent launch, PTX ISA
    // "griddepcontrol"): cucpu starts a dependent grid only after its primary grid has
    // completed and its writes are visible (a valid schedule: the trigger only permits an
    // earlier start), so the trigger has nothing to release and the wait nothing to wait for.
    case ptx::Opcode::Griddepcontrol:
      return true;
    // pmevent a / pmevent.mask m: signals performance-monitor events to a profiler
    // (PTX ISA 9.0 "pmevent"); there is none to count them.
    case ptx::Opcode::Pmevent:
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
