// Asynchronous copies and mbarriers (PTX ISA 9.0 §9.7.9.25 cp.async, §9.7.9.25.4
// cp.async.bulk, §9.7.9.25.5 cp.async.bulk.tensor, §9.7.13.15 mbarrier).
//
// On a CPU the copy of cp.async / cp.async.bulk is done when the instruction issues, so
// it is complete before any wait: commit_group, wait_group and wait_all have nothing
// left to do, and the completion a copy signals (cp.async.mbarrier.arrive, a bulk copy's
// .mbarrier::complete_tx::bytes) happens at once. The mbarrier object is changed by the
// helpers of mbarrier_helpers.cpp. A try_wait that finds its phase incomplete yields to
// the other threads of the block (__cucpu_yield) and tests again, as the GPU's try_wait
// suspends for a while; test_wait never waits, and loops around it get yield points
// (translate_function.cpp). Kernels that wait on an mbarrier run on fibers.
#include <fmt/format.h>

#include <optional>

#include "jit/function_lowering.h"
#include "jit/tensor_map.h"

namespace cucpu::jit {
namespace {

using ptx::Operation;

constexpr uint32_t kArriveDrop = 1, kArriveNoComplete = 2, kArriveExpectTx = 4;  // mbarrier_helpers.cpp

llvm::Value* object_address(FunctionLowering& fl, const ptx::Instruction& inst, const ptx::Operand& operand) {
  if (inst.q.type != ptx::Type::B64 && inst.q.type != ptx::Type::None) fl.fail("an mbarrier object is .b64");
  return fl.address(operand, inst.q.space);
}

// cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src}: src-size
// bytes copied, the rest of cp-size zero-filled; ignore-src true copies none.
void lower_copy(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.operands.size() < 3 || inst.operands.size() > 4) {
    fl.fail("expected [dst], [src], cp-size and an optional src-size or ignore-src predicate");
    return;
  }
  const ptx::Operand& size_operand = inst.operands[2];
  if (size_operand.kind != ptx::Operand::Kind::Immediate ||
      (size_operand.imm != 4 && size_operand.imm != 8 && size_operand.imm != 16)) {
    fl.fail("cp-size must be 4, 8 or 16");
    return;
  }
  const uint64_t cp_size = size_operand.imm;
  const ptx::StateSpace src_space =
      inst.q.src_space == ptx::StateSpace::Generic ? ptx::StateSpace::Global : inst.q.src_space;
  llvm::Value* dst = fl.address(inst.operands[0], inst.q.space);
  llvm::Value* src = fl.address(inst.operands[1], src_space);
  llvm::Value* copied = b.getInt64(cp_size);
  if (inst.operands.size() == 4) {
    const ptx::Operand& extra = inst.operands[3];
    const bool predicate = extra.kind == ptx::Operand::Kind::Register && fl.register_bits(extra.reg) == 1;
    if (predicate) {
      copied = b.CreateSelect(fl.read(extra, ptx::Type::Pred), b.getInt64(0), b.getInt64(cp_size));
    } else {
      llvm::Value* src_size = fl.read(extra, ptx::Type::U64);
      copied = b.CreateSelect(b.CreateICmpULT(src_size, b.getInt64(cp_size)), src_size, b.getInt64(cp_size));
    }
  }
  b.CreateMemCpy(dst, llvm::MaybeAlign(1), src, llvm::MaybeAlign(1), copied);
  if (inst.operands.size() == 4) {
    b.CreateMemSet(b.CreateGEP(b.getInt8Ty(), dst, copied), b.getInt8(0), b.CreateSub(b.getInt64(cp_size), copied),
                   llvm::MaybeAlign(1));
  }
}

// cp.async.bulk.dst.src.completion [dst], [src], size{, [mbar]}: the copy, then (for
// .mbarrier::complete_tx::bytes) the complete-tx of `size` bytes on the mbarrier.
void lower_bulk_copy(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.q.multicast) {
    fl.fail("cp.async.bulk .multicast::cluster is not supported yet");
    return;
  }
  const size_t expected = inst.q.complete_tx ? 4 : 3;
  if (inst.operands.size() != expected) {
    fl.fail(inst.q.complete_tx ? "expected [dst], [src], size and [mbar]" : "expected [dst], [src] and size");
    return;
  }
  if (inst.q.space == ptx::StateSpace::Generic || inst.q.src_space == ptx::StateSpace::Generic) {
    fl.fail("cp.async.bulk names its destination and source spaces");
    return;
  }
  llvm::Value* dst = fl.address(inst.operands[0], inst.q.space);
  llvm::Value* src = fl.address(inst.operands[1], inst.q.src_space);
  llvm::Value* size = fl.read(inst.operands[2], ptx::Type::U32);
  b.CreateMemCpy(dst, llvm::MaybeAlign(1), src, llvm::MaybeAlign(1), b.CreateZExt(size, b.getInt64Ty()));
  if (inst.q.complete_tx) {
    // The mbarrier is in the destination's CTA: its address is in the destination space.
    llvm::Value* object = fl.address(inst.operands[3], inst.q.space);
    llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
    b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_tx", b.getVoidTy(), args),
                 {object, b.CreateNeg(size)});
  }
}

// The reduction __cucpu_jit_tensor_copy takes for a cp.reduce .op (tensor_map.h).
std::optional<tensor_copy::ReduceOp> tensor_reduce_op(ptx::AtomicOp op) {
  using namespace tensor_copy;
  switch (op) {
    case ptx::AtomicOp::Add: return kAdd;
    case ptx::AtomicOp::Min: return kMin;
    case ptx::AtomicOp::Max: return kMax;
    case ptx::AtomicOp::Inc: return kInc;
    case ptx::AtomicOp::Dec: return kDec;
    case ptx::AtomicOp::And: return kAnd;
    case ptx::AtomicOp::Or: return kOr;
    case ptx::AtomicOp::Xor: return kXor;
    default: return std::nullopt;
  }
}

// cp.async.bulk.tensor.Nd (load: [dstMem], [tensorMap, {coords}], [mbar]; store and
// cp.reduce: [tensorMap, {coords}], [srcMem]) and cp.async.bulk.prefetch.tensor.Nd
// ([tensorMap, {coords}]): one call of __cucpu_jit_tensor_copy, which traps on a bad map.
void lower_tensor_copy(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const ptx::Qualifiers& q = inst.q;
  if (q.im2col) return fl.fail("cp.async.bulk.tensor .im2col is not supported yet (only .tile)");
  if (q.multicast) return fl.fail("cp.async.bulk.tensor .multicast::cluster is not supported yet");
  if (q.tensor_rank == 0) return fl.fail("cp.async.bulk.tensor needs a dimension (.1d to .5d)");
  const bool prefetch = q.operation == Operation::Prefetch;
  const bool reduce = q.operation == Operation::Reduce;
  const bool load = !prefetch && !reduce && q.space != ptx::StateSpace::Global;
  uint32_t kind = prefetch ? tensor_copy::kPrefetch
                  : load   ? tensor_copy::kLoad
                  : reduce ? tensor_copy::kReduce
                           : tensor_copy::kStore;
  if (reduce) {
    auto op = tensor_reduce_op(q.atomic_op);
    if (!op) return fl.fail("cp.reduce.async.bulk.tensor needs .add .min .max .inc .dec .and .or or .xor");
    kind |= *op << 8;
  }
  if (load && !q.complete_tx) return fl.fail("a cp.async.bulk.tensor load completes through .mbarrier::complete_tx::bytes");
  if (!load && !prefetch && !q.bulk_group) return fl.fail("a cp.async.bulk.tensor store completes through .bulk_group");
  const size_t expected = prefetch ? 1 : load ? 3 : 2;
  if (inst.operands.size() != expected) return fl.fail(fmt::format("expected {} operands", expected));
  const ptx::Operand& tensor = inst.operands[load ? 1 : 0];
  if (tensor.kind != ptx::Operand::Kind::Address || tensor.elements.size() != 2 ||
      tensor.elements[1].kind != ptx::Operand::Kind::Vector || tensor.elements[1].elements.size() != q.tensor_rank)
    return fl.fail(fmt::format("expected [tensorMap, {{{} coordinates}}]", q.tensor_rank));
  // The map's address: a generic address (or a .param / .global name) like any other.
  ptx::Operand map_operand;
  map_operand.kind = ptx::Operand::Kind::Address;
  map_operand.elements.push_back(tensor.elements[0]);
  llvm::Value* map = fl.address(map_operand, ptx::StateSpace::Generic);
  llvm::ArrayType* coords_type = llvm::ArrayType::get(b.getInt32Ty(), 5);
  llvm::Value* coords = fl.entry_alloca(coords_type, 4, "tensor.coords");
  for (unsigned i = 0; i < 5; ++i) {
    llvm::Value* c = i < q.tensor_rank ? fl.read(tensor.elements[1].elements[i], ptx::Type::S32) : b.getInt32(0);
    b.CreateStore(c, b.CreateConstGEP2_32(coords_type, coords, 0, i));
  }
  llvm::Value* shared = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(fl.ctx));
  llvm::Value* shared_address = b.getInt64(0);
  llvm::Value* mbarrier = shared;
  if (!prefetch) {
    const ptx::StateSpace space = load ? q.space : q.src_space;
    if (space != ptx::StateSpace::Shared && space != ptx::StateSpace::SharedCluster)
      return fl.fail("cp.async.bulk.tensor copies between .global and .shared::cta / .shared::cluster");
    shared = fl.address(inst.operands[load ? 0 : 1], space);
    // The .shared address the swizzle pattern is a function of: the offset in the window.
    shared_address = b.CreateSub(b.CreatePtrToInt(shared, b.getInt64Ty()), b.CreatePtrToInt(fl.shared_base, b.getInt64Ty()));
    if (load) mbarrier = fl.address(inst.operands[2], space);  // in the destination's CTA
  }
  if (fl.failed()) return;
  llvm::Type* args[] = {fl.ptr_type(), fl.ptr_type(), b.getInt64Ty(), fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty(), fl.ptr_type()};
  llvm::Value* status = b.CreateCall(fl.runtime_function("__cucpu_jit_tensor_copy", b.getInt32Ty(), args),
                                     {map, shared, shared_address, coords, b.getInt32(q.tensor_rank), b.getInt32(kind), mbarrier});
  // 0: copied; a box start the GPU refuses: an illegal instruction; else a bad map: trap.
  llvm::BasicBlock* bad = fl.new_block("tensor_copy.bad_map");
  llvm::BasicBlock* misaligned = fl.new_block("tensor_copy.misaligned");
  llvm::BasicBlock* done = fl.new_block("tensor_copy.done");
  llvm::SwitchInst* outcome = b.CreateSwitch(status, bad, 2);
  outcome->addCase(b.getInt32(0), done);
  outcome->addCase(b.getInt32(tensor_copy::kMisalignedBoxStart), misaligned);
  b.SetInsertPoint(bad);
  b.CreateCall(fl.runtime_function(kTrap, b.getVoidTy(), {fl.ptr_type()}), {fl.thread_context});
  b.CreateUnreachable();
  b.SetInsertPoint(misaligned);
  llvm::Value* why = b.CreateGlobalString(
      "cp.async.bulk.tensor loads a box whose first coordinate is not on a 16-byte boundary", "tensor_copy.why");
  b.CreateCall(fl.runtime_function(kIllegalInstruction, b.getVoidTy(), {fl.ptr_type(), fl.ptr_type()}),
               {fl.thread_context, why});
  b.CreateUnreachable();
  b.SetInsertPoint(done);
}

void lower_cp(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (inst.q.tensor) return lower_tensor_copy(fl, inst);
  if (!inst.q.async) {
    fl.fail("only cp.async and cp.async.bulk are cp instructions");
    return;
  }
  switch (inst.q.operation) {
    case Operation::None:
      if (inst.q.bulk) return lower_bulk_copy(fl, inst);
      return lower_copy(fl, inst);
    case Operation::CommitGroup:
    case Operation::WaitGroup:
    case Operation::WaitAll:
      return;  // every copy completed when it issued
    case Operation::Prefetch:
      return;  // cp.async.bulk.prefetch.L2 [src], size: a cache hint
    case Operation::Arrive: {
      if (!inst.q.on_mbarrier || !fl.expect_operands(inst, 1)) {
        if (!fl.failed()) fl.fail("expected cp.async.mbarrier.arrive");
        return;
      }
      llvm::Value* object = object_address(fl, inst, inst.operands[0]);
      // Without .noinc the pending count rises by one before the arrive-on: no change.
      if (!inst.q.noinc) return;
      auto& b = fl.b;
      llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()};
      b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_arrive", b.getInt64Ty(), args),
                   {object, b.getInt32(1), b.getInt32(0), b.getInt32(0)});
      return;
    }
    default:
      fl.fail(fmt::format("cp.async{} is not supported yet", ptx::spelling(inst.q.operation)));
  }
}

// mbarrier.arrive{.expect_tx,.noComplete} / arrive_drop: state, [addr]{, count | tx-count}.
void lower_arrive(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.operands.size() != 2 && inst.operands.size() != 3) {
    fl.fail("expected a state, [addr] and an optional count");
    return;
  }
  if ((inst.q.expect_tx || inst.q.no_complete) && inst.operands.size() != 3) {
    fl.fail(inst.q.expect_tx ? "expected a state, [addr] and a tx-count" : "expected a state, [addr] and a count");
    return;
  }
  llvm::Value* object = object_address(fl, inst, inst.operands[1]);
  llvm::Value* count = b.getInt32(1);
  llvm::Value* tx = b.getInt32(0);
  if (inst.operands.size() == 3) (inst.q.expect_tx ? tx : count) = fl.read(inst.operands[2], ptx::Type::U32);
  uint32_t flags = 0;
  if (inst.q.operation == Operation::ArriveDrop) flags |= kArriveDrop;
  if (inst.q.no_complete) flags |= kArriveNoComplete;
  if (inst.q.expect_tx) flags |= kArriveExpectTx;
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()};
  llvm::Value* state = b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_arrive", b.getInt64Ty(), args),
                                    {object, count, b.getInt32(flags), tx});
  fl.write(inst.operands[0], ptx::Type::B64, state);
}

// test_wait / try_wait{.parity}: waitComplete, [addr], state | parity{, suspend-time hint}.
void lower_wait(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const bool try_wait = inst.q.operation == Operation::TryWait;
  if (inst.operands.size() != 3 && !(try_wait && inst.operands.size() == 4)) {
    fl.fail(try_wait ? "expected waitComplete, [addr], a state or parity and an optional time hint"
                     : "expected waitComplete, [addr] and a state or parity");
    return;
  }
  llvm::Value* object = object_address(fl, inst, inst.operands[1]);
  llvm::Value* state = inst.q.parity ? b.CreateZExt(fl.read(inst.operands[2], ptx::Type::U32), b.getInt64Ty())
                                     : fl.read(inst.operands[2], ptx::Type::B64);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt64Ty(), b.getInt32Ty()};
  llvm::FunctionCallee test = fl.runtime_function("__cucpu_jit_mbarrier_test", b.getInt32Ty(), args);
  llvm::Value* parity = b.getInt32(inst.q.parity ? 1 : 0);
  llvm::Value* done = b.CreateCall(test, {object, state, parity});
  fl.waits_for_other_threads = true;
  if (try_wait) {
    llvm::BasicBlock* before = b.GetInsertBlock();
    llvm::BasicBlock* suspend = fl.new_block("try_wait.suspend");
    llvm::BasicBlock* after = fl.new_block("try_wait.done");
    b.CreateCondBr(b.CreateICmpNE(done, b.getInt32(0)), after, suspend);
    b.SetInsertPoint(suspend);
    llvm::Type* yield_args[] = {fl.ptr_type()};
    b.CreateCall(fl.runtime_function(kYield, b.getVoidTy(), yield_args), {fl.thread_context});
    llvm::Value* again = b.CreateCall(test, {object, state, parity});
    b.CreateBr(after);
    b.SetInsertPoint(after);
    llvm::PHINode* result = b.CreatePHI(b.getInt32Ty(), 2);
    result->addIncoming(done, before);
    result->addIncoming(again, suspend);
    done = result;
  }
  fl.write(inst.operands[0], ptx::Type::Pred, b.CreateICmpNE(done, b.getInt32(0)));
}

void lower_mbarrier(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  switch (inst.q.operation) {
    case Operation::Init: {
      if (!fl.expect_operands(inst, 2)) return;
      llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
      b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_init", b.getVoidTy(), args),
                   {object_address(fl, inst, inst.operands[0]), fl.read(inst.operands[1], ptx::Type::U32)});
      return;
    }
    case Operation::Inval:
      if (!fl.expect_operands(inst, 1)) return;
      b.CreateAlignedStore(b.getInt64(0), object_address(fl, inst, inst.operands[0]), llvm::Align(8));
      return;
    case Operation::Arrive:
    case Operation::ArriveDrop:
      return lower_arrive(fl, inst);
    case Operation::ExpectTx:
    case Operation::CompleteTx: {
      if (!fl.expect_operands(inst, 2)) return;
      llvm::Value* bytes = fl.read(inst.operands[1], ptx::Type::U32);
      if (inst.q.operation == Operation::CompleteTx) bytes = b.CreateNeg(bytes);
      llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
      b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_tx", b.getVoidTy(), args),
                   {object_address(fl, inst, inst.operands[0]), bytes});
      return;
    }
    case Operation::TestWait:
    case Operation::TryWait:
      return lower_wait(fl, inst);
    case Operation::PendingCount: {
      if (!fl.expect_operands(inst, 2)) return;
      llvm::Type* args[] = {b.getInt64Ty()};
      fl.write(inst.operands[0], ptx::Type::U32,
               b.CreateCall(fl.runtime_function("__cucpu_jit_mbarrier_pending_count", b.getInt32Ty(), args),
                            {fl.read(inst.operands[1], ptx::Type::B64)}));
      return;
    }
    default:
      fl.fail("mbarrier needs an operation (.init, .arrive, .try_wait, ...)");
  }
}

}  // namespace

bool lower_async_copy(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Cp:
      lower_cp(fl, inst);
      return true;
    case ptx::Opcode::Mbarrier:
      lower_mbarrier(fl, inst);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
