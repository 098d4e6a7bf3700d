// The block function's entry (kernel_abi.h BlockEntry): a loop over the blocks a worker
// claimed, around the body that runs one block. Each block's setup is a few stores here
// instead of a call from the executor per block, which readied the block's warps, its
// %ctaid and its error state in C++ (about 10 ns a block, an eighth of saxpy's time).
// What a block leaves behind that needs more than that (a lane's context, a warp's
// meeting, an error) the executor flags in frame->between_blocks, and the loop returns.
#include "jit/block_entry.h"

#include <llvm/IR/IRBuilder.h>

#include "jit/block_function_builder.h"

namespace cucpu::jit {

void emit_block_entry(llvm::Module& module, llvm::Function* body, const BlockShape& shape, const std::string& name) {
  llvm::LLVMContext& c = module.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(c);
  llvm::Type* i8 = llvm::Type::getInt8Ty(c);
  llvm::Type* i32 = llvm::Type::getInt32Ty(c);
  llvm::Type* i64 = llvm::Type::getInt64Ty(c);
  llvm::Function* entry =
      llvm::Function::Create(llvm::FunctionType::get(i64, {ptr, i64}, false), llvm::GlobalValue::ExternalLinkage, name, module);
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Value* frame = entry->getArg(0);
  llvm::Value* count = entry->getArg(1);
  llvm::BasicBlock* start = llvm::BasicBlock::Create(c, "entry", entry);
  llvm::BasicBlock* block = llvm::BasicBlock::Create(c, "block", entry);
  llvm::BasicBlock* next = llvm::BasicBlock::Create(c, "next", entry);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(c, "done", entry);
  llvm::IRBuilder<> b(start);
  auto field = [&](llvm::Value* base, size_t offset) { return b.CreateConstGEP1_64(i8, base, offset); };
  auto load_ptr = [&](size_t offset) { return b.CreateAlignedLoad(ptr, field(frame, offset), llvm::Align(8)); };
  // The frame's pointers are the grid's: the same for every block.
  llvm::Value* file = load_ptr(offsetof(CompiledBlockFrame, registers));
  llvm::Value* warps = load_ptr(offsetof(CompiledBlockFrame, warps));
  llvm::Value* context = load_ptr(offsetof(CompiledBlockFrame, block));
  llvm::Value* grid_failed = load_ptr(offsetof(CompiledBlockFrame, grid_failed));
  b.CreateBr(block);

  b.SetInsertPoint(block);
  llvm::PHINode* ran = b.CreatePHI(i64, 2, "ran");
  ran->addIncoming(b.getInt64(0), start);
  // Every warp starts with its lanes live and nothing queued: the body's first round is a
  // direct one from the kernel's entry.
  const uint32_t threads = shape.thread_count();
  for (uint32_t w = 0; w * block_function::kLanes < threads; ++w) {
    const uint32_t lanes = std::min<uint32_t>(block_function::kLanes, threads - w * block_function::kLanes);
    llvm::Value* state = field(warps, size_t{w} * block_function::kWarpStride);
    b.CreateAlignedStore(b.getInt32(lanes == block_function::kLanes ? ~0u : (1u << lanes) - 1),
                         field(state, offsetof(CompiledWarp, live)), llvm::Align(4));
    b.CreateAlignedStore(b.getInt32(0), field(state, offsetof(CompiledWarp, run_count)), llvm::Align(4));
    b.CreateAlignedStore(b.getInt32(0), field(state, offsetof(CompiledWarp, park_count)), llvm::Align(4));
  }
  b.CreateAlignedStore(b.getInt32(0), field(frame, offsetof(CompiledBlockFrame, current_thread)), llvm::Align(4));
  b.CreateCall(body, {frame, file});
  llvm::Value* ran_now = b.CreateAdd(ran, b.getInt64(1));
  llvm::Value* flagged = b.CreateAlignedLoad(i32, field(frame, offsetof(CompiledBlockFrame, between_blocks)), llvm::Align(4));
  llvm::LoadInst* failed = b.CreateAlignedLoad(i8, grid_failed, llvm::Align(1));
  failed->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::Value* stop = b.CreateOr(b.CreateOr(b.CreateICmpNE(flagged, b.getInt32(0)), b.CreateICmpNE(failed, b.getInt8(0))),
                                 b.CreateICmpEQ(ran_now, count));
  b.CreateCondBr(stop, done, next);

  // The next block in linear order, x fastest; each is its own cluster.
  b.SetInsertPoint(next);
  llvm::Value* position[3];
  llvm::Value* carry = b.getTrue();
  for (int d = 0; d < 3; ++d) {
    llvm::Value* at = field(context, offsetof(ThreadContext, ctaid) + 4 * d);
    llvm::Value* extent = b.CreateAlignedLoad(i32, field(context, offsetof(ThreadContext, nctaid) + 4 * d), llvm::Align(4));
    llvm::Value* bumped = b.CreateAdd(b.CreateAlignedLoad(i32, at, llvm::Align(4)), b.CreateZExt(carry, i32));
    llvm::Value* wraps = b.CreateAnd(carry, b.CreateICmpEQ(bumped, extent));
    position[d] = d == 2 ? bumped : b.CreateSelect(wraps, b.getInt32(0), bumped);
    carry = wraps;
  }
  for (int d = 0; d < 3; ++d) {
    b.CreateAlignedStore(position[d], field(context, offsetof(ThreadContext, ctaid) + 4 * d), llvm::Align(4));
    b.CreateAlignedStore(position[d], field(context, offsetof(ThreadContext, clusterid) + 4 * d), llvm::Align(4));
  }
  ran->addIncoming(ran_now, next);
  b.CreateBr(block);

  b.SetInsertPoint(done);
  b.CreateRet(ran_now);
}

}  // namespace cucpu::jit
