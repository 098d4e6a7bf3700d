// Warp collectives: shfl.sync, vote.sync, match.sync, activemask, bar.warp.sync and
// elect.sync (PTX ISA 9.7.8.6, 9.7.12.x) each become one call into the executor's
// runtime functions (kernel_abi.h), which meet the lanes of the membermask at the warp
// rendezvous. Results that are a value and a predicate (`d|p`) come back packed in one
// u64: the value in the low 32 bits, the predicate in bit 32. Every collective makes the
// kernel one that waits for other threads (the fiber strategy runs it).
#include <fmt/format.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

constexpr uint32_t kMatch64Flag = 0x100;  // match.sync mode | 0x100: .b64 values (kernel_abi.h)

llvm::Value* low_word(FunctionLowering& fl, llvm::Value* packed) { return fl.b.CreateTrunc(packed, fl.b.getInt32Ty()); }

llvm::Value* bit_32(FunctionLowering& fl, llvm::Value* packed) {
  return fl.b.CreateTrunc(fl.b.CreateLShr(packed, 32), fl.b.getInt1Ty());
}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask
void lower_shuffle(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const bool pair = ptx::has_destination_pair(inst);
  if (!inst.q.sync || inst.operands.size() != (pair ? 6u : 5u)) {
    fl.fail("expected shfl.sync d[|p], a, b, c, membermask (shfl without .sync is not supported)");
    return;
  }
  const size_t first_source = pair ? 2 : 1;
  llvm::Value* a = fl.read(inst.operands[first_source], ptx::Type::B32);
  llvm::Value* lane_operand = fl.read(inst.operands[first_source + 1], ptx::Type::B32);
  llvm::Value* clamp = fl.read(inst.operands[first_source + 2], ptx::Type::B32);
  llvm::Value* mask = fl.read(inst.operands[first_source + 3], ptx::Type::B32);
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* args[] = {fl.ptr_type(), i32, i32, i32, i32, i32};
  llvm::Value* packed = b.CreateCall(
      fl.runtime_function(kShflSync, b.getInt64Ty(), args),
      {fl.thread_context, b.getInt32(static_cast<uint32_t>(inst.q.shuffle)), a, lane_operand, clamp, mask});
  fl.write(inst.operands[0], ptx::Type::B32, low_word(fl, packed));
  if (pair) fl.write(inst.operands[1], ptx::Type::Pred, bit_32(fl, packed));
}

// vote.sync.{all,any,uni}.pred d, {!}a, membermask; vote.sync.ballot.b32 d, {!}a, membermask
void lower_vote(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!inst.q.sync || !fl.expect_operands(inst, 3)) {
    if (!fl.failed()) fl.fail("vote without .sync is not supported");
    return;
  }
  llvm::Value* predicate = b.CreateZExt(fl.read(inst.operands[1], ptx::Type::Pred), b.getInt32Ty());
  llvm::Value* mask = fl.read(inst.operands[2], ptx::Type::B32);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty()};
  llvm::Value* result =
      b.CreateCall(fl.runtime_function(kVoteSync, b.getInt32Ty(), args),
                   {fl.thread_context, b.getInt32(static_cast<uint32_t>(inst.q.vote)), predicate, mask});
  if (inst.q.vote == ptx::VoteMode::Ballot)
    fl.write(inst.operands[0], ptx::Type::B32, result);
  else
    fl.write(inst.operands[0], ptx::Type::Pred, b.CreateICmpNE(result, b.getInt32(0)));
}

// match.sync.any.b32/b64 d, a, membermask; match.sync.all.b32/b64 d[|p], a, membermask
void lower_match(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const bool pair = ptx::has_destination_pair(inst);
  const ptx::Type t = inst.q.type;
  if (!inst.q.sync || inst.operands.size() != (pair ? 4u : 3u) ||
      (inst.q.vote != ptx::VoteMode::Any && inst.q.vote != ptx::VoteMode::All)) {
    fl.fail("expected match.sync.{any,all} d[|p], a, membermask");
    return;
  }
  if (t != ptx::Type::B32 && t != ptx::Type::B64) {
    fl.fail(fmt::format("match.sync on {} is not supported", ptx::spelling(t)));
    return;
  }
  const size_t source = pair ? 2 : 1;
  llvm::Value* value = fl.read(inst.operands[source], t);
  if (t == ptx::Type::B32) value = b.CreateZExt(value, b.getInt64Ty());
  llvm::Value* mask = fl.read(inst.operands[source + 1], ptx::Type::B32);
  uint32_t mode = static_cast<uint32_t>(inst.q.vote) | (t == ptx::Type::B64 ? kMatch64Flag : 0);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt64Ty(), b.getInt32Ty()};
  llvm::Value* packed = b.CreateCall(fl.runtime_function(kMatchSync, b.getInt64Ty(), args),
                                     {fl.thread_context, b.getInt32(mode), value, mask});
  fl.write(inst.operands[0], ptx::Type::B32, low_word(fl, packed));
  if (pair) fl.write(inst.operands[1], ptx::Type::Pred, bit_32(fl, packed));
}

// activemask.b32 d: the call site (the PTX line) tells lanes at different activemasks apart.
void lower_activemask(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 1)) return;
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
  llvm::Value* result = b.CreateCall(fl.runtime_function(kActivemask, b.getInt32Ty(), args),
                                     {fl.thread_context, b.getInt32(inst.pos.line)});
  fl.write(inst.operands[0], ptx::Type::B32, result);
}

// bar.warp.sync membermask
void lower_warp_barrier(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 1)) return;
  llvm::Value* mask = fl.read(inst.operands[0], ptx::Type::B32);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
  b.CreateCall(fl.runtime_function(kBarWarpSync, b.getVoidTy(), args), {fl.thread_context, mask});
}

// elect.sync d[|p], membermask: the lowest lane of the mask is the leader.
void lower_elect(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  const bool pair = ptx::has_destination_pair(inst);
  if (!inst.q.sync || inst.operands.size() != (pair ? 3u : 2u)) {
    fl.fail("expected elect.sync d|p, membermask");
    return;
  }
  llvm::Value* mask = fl.read(inst.operands[pair ? 2 : 1], ptx::Type::B32);
  llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty()};
  llvm::Value* packed = b.CreateCall(fl.runtime_function(kElectSync, b.getInt64Ty(), args), {fl.thread_context, mask});
  fl.write(inst.operands[0], ptx::Type::B32, low_word(fl, packed));
  if (pair) fl.write(inst.operands[1], ptx::Type::Pred, bit_32(fl, packed));
}

}  // namespace

bool lower_warp_collectives(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Shfl:
      lower_shuffle(fl, inst);
      break;
    case ptx::Opcode::Vote:
      lower_vote(fl, inst);
      break;
    case ptx::Opcode::Match:
      lower_match(fl, inst);
      break;
    case ptx::Opcode::Activemask:
      lower_activemask(fl, inst);
      break;
    case ptx::Opcode::Elect:
      lower_elect(fl, inst);
      break;
    case ptx::Opcode::Bar:
      // bar.warp.sync parses as Bar with .sync and no barrier mode; bar.sync is lower_synchronization's.
      if (!inst.q.sync || inst.q.barrier != ptx::BarrierMode::None) return false;
      lower_warp_barrier(fl, inst);
      break;
    default:
      return false;
  }
  fl.waits_for_other_threads = true;
  return true;
}

}  // namespace cucpu::jit
