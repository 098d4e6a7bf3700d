// Loads and stores of the compiled block function on all 32 lanes at once
// (block_function_builder.h): each lane's address, the alignment check of the scalar
// lowering (lower_data_movement.cpp check_alignment) for every active lane, then one
// masked gather or scatter per element, or one masked vector load or store when the active
// lanes' addresses are consecutive (the common case of `p[threadIdx.x]`) and the vector's
// inactive lanes stay on the active lanes' pages. A gather reads
// every lane's value before any later instruction runs; where lanes store to one address, the
// value that stays is the one the GPU keeps (last_writer, in_write_order, access_halves).
// Loads and stores with memory-order semantics (.volatile, .relaxed, .acquire, .release)
// outside .shared and the spaces whose addresses need more (.shared::cluster, 32-bit .local
// addresses) run once per lane.
#include <fmt/format.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <tuple>

#include "jit/block_function_builder.h"

namespace cucpu::jit::block_function {
namespace {

// How far ahead of a warp's streaming global access its data is prefetched: two blocks of
// 256 threads reading a float each (1024 and 2048 both gained; 4096 did not).
constexpr uint64_t kPrefetchAhead = 2048;

// Whether whole-warp streams of global memory get a software prefetch (prefetch_ahead in
// emit_memory): on Intel cores it helped (below); on a 2-core AMD Zen 5 (family 26) it cost
// time, medians of 5 alternating runs without it against with it: bench shfl_reduce 36.5 ->
// 26.2 ms, reduce 30.7 -> 26.9, saxpy 9.5 -> 8.7, the other workloads within 5%. (The disk
// cache's key holds the host CPU, so code made for one kind never runs on the other.)
bool host_prefetches_streams() {
  static const bool prefetches = !llvm::sys::getHostCPUName().starts_with("znver");
  return prefetches;
}

bool loads_or_stores_lane_wise(const ptx::Instruction& inst) {
  if (inst.opcode != ptx::Opcode::Ld && inst.opcode != ptx::Opcode::Ldu && inst.opcode != ptx::Opcode::St) return false;
  if (inst.operands.size() != 2) return false;
  // .volatile and memory orders ask that every access happen, in order, as other threads
  // see it. Only the block's threads see its .shared memory, and they all run in this
  // function on one host thread, each instruction done for every lane before the next: any
  // order the function keeps is theirs. (Legacy warp-synchronous code reads and writes
  // volatile shared memory all the time; once per lane it cost a lane context per access.)
  const bool ordered = inst.q.sem != ptx::Semantics::None && inst.q.sem != ptx::Semantics::Weak;
  const bool block_private = inst.q.space == ptx::StateSpace::Shared &&
                             (inst.q.sem == ptx::Semantics::Volatile || inst.q.sem == ptx::Semantics::Relaxed ||
                              inst.q.sem == ptx::Semantics::Acquire || inst.q.sem == ptx::Semantics::Release);
  if (ordered && !block_private) return false;
  const unsigned bits = ptx::bit_width(inst.q.type);
  if (bits < 8 || bits > 64 || inst.q.type == ptx::Type::Pred) return false;
  if (inst.q.vector != 1 && inst.q.vector != 2 && inst.q.vector != 4) return false;
  switch (inst.q.space) {
    case ptx::StateSpace::Global:
    case ptx::StateSpace::Shared:
    case ptx::StateSpace::Generic:
    case ptx::StateSpace::Const:
    case ptx::StateSpace::Local:
    case ptx::StateSpace::Param:
      return true;
    default:
      return false;
  }
}

}  // namespace

// Each lane's address of an address operand in `space`; null when this is not one the
// lane-wise path knows (the caller then runs the instruction per lane).
llvm::Value* BlockFunctionBuilder::lane_addresses(const ptx::Operand& op, ptx::StateSpace space, bool dry_run,
                                                  bool pinned) {
  const ptx::Operand* base = nullptr;
  int64_t offset = 0;
  if (op.kind == ptx::Operand::Kind::Address) {
    base = op.elements.empty() ? nullptr : &op.elements[0];
    offset = op.offset;
    if (op.elements.size() > 1) return nullptr;
  } else if (op.kind == ptx::Operand::Kind::Register || op.kind == ptx::Operand::Kind::Symbol) {
    base = &op;
  } else {
    return nullptr;
  }
  const bool shared = space == ptx::StateSpace::Shared;
  // A dry run only says whether the operand is one this path knows: it makes no IR.
  llvm::Value* known = llvm::UndefValue::get(fl_.ptr_type());
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* lanes64 = lanes_of(i64);
  auto splat64 = [&](int64_t v) { return llvm::ConstantInt::get(lanes64, static_cast<uint64_t>(v)); };
  auto byte_lanes = [&](llvm::Value* pointer, llvm::Value* offsets) {  // pointer + offsets[l]
    return b_.CreateGEP(b_.getInt8Ty(), pointer, offsets);
  };
  if (base == nullptr) {
    if (dry_run) return known;
    if (shared) return byte_lanes(fl_.shared_base, splat64(offset));
    return b_.CreateIntToPtr(splat64(offset), lanes_of(fl_.ptr_type()));
  }
  if (base->kind == ptx::Operand::Kind::Symbol) {
    auto frame = lane_frame_offset_.find(base->name);
    if (frame != lane_frame_offset_.end()) {
      // A per-lane variable: every lane's frame, the variable's place in it.
      if (space != ptx::StateSpace::Local && space != ptx::StateSpace::Param && space != ptx::StateSpace::Generic)
        return nullptr;
      if (dry_run) return known;
      std::vector<llvm::Constant*> numbers;
      for (uint32_t l = 0; l < kLanes; ++l) numbers.push_back(b_.getInt64(l));
      llvm::Value* threads = b_.CreateAdd(
          b_.CreateVectorSplat(kLanes, b_.CreateMul(b_.CreateZExt(warp_index(), i64), b_.getInt64(kLanes))),
          llvm::ConstantVector::get(numbers));
      llvm::Value* offsets = b_.CreateAdd(b_.CreateMul(threads, splat64(local_stride_)),
                                          splat64(static_cast<int64_t>(frame->second) + offset));
      return byte_lanes(local_, offsets);
    }
    const SymbolBinding* s = fl_.find_symbol(base->name);
    if (s == nullptr) return nullptr;
    if (s->kind == SymbolBinding::Kind::SharedOffset) {
      if (!shared && space != ptx::StateSpace::Generic) return nullptr;
      if (dry_run) return known;
      return byte_lanes(fl_.shared_base, splat64(static_cast<int64_t>(s->shared_offset) + offset));
    }
    if (s->kind != SymbolBinding::Kind::Memory || s->address == nullptr) return nullptr;
    if (dry_run) return known;
    return byte_lanes(s->address, splat64(offset));
  }
  if (base->kind != ptx::Operand::Kind::Register || base->reg >= a_.shape.size()) return nullptr;
  const unsigned bits = register_width(base->reg);
  if (bits != 32 && bits != 64) return nullptr;
  if (space == ptx::StateSpace::Local && bits == 32) return nullptr;
  if (space == ptx::StateSpace::Param) return nullptr;
  if (dry_run) return known;
  llvm::Value* v = vector_read(*base, bits == 32 ? ptx::Type::U32 : ptx::Type::U64);
  if (bits == 32) v = b_.CreateZExt(v, lanes64);
  if (pinned) {
    // Plus a zero LLVM cannot see through (an empty asm statement with a side effect, which
    // stays where it is): the vectors computed from it stay in this block. Being loop
    // invariant, they would otherwise be hoisted to the loop's entry and computed on every
    // path, also those that never use them.
    auto* zero = llvm::InlineAsm::get(llvm::FunctionType::get(i64, {i64}, false), "", "=r,0", /*hasSideEffects=*/true);
    llvm::Value* opaque = b_.CreateCall(zero, {b_.getInt64(0)});
    v = b_.CreateAdd(v, b_.CreateVectorSplat(kLanes, opaque));
  }
  if (shared) return byte_lanes(fl_.shared_base, b_.CreateAdd(v, splat64(offset)));
  return b_.CreateIntToPtr(b_.CreateAdd(v, splat64(offset)), lanes_of(fl_.ptr_type()));
}

// Whether an address operand is the same in every lane: a register one value per warp holds,
// a module variable or a constant, plus an offset (not a lane's own .local or .param
// variable).
bool BlockFunctionBuilder::same_address_in_lanes(const ptx::Operand& op) {
  const ptx::Operand* base = op.kind == ptx::Operand::Kind::Address ? (op.elements.empty() ? nullptr : &op.elements[0])
                                                                     : &op;
  if (op.kind == ptx::Operand::Kind::Address && op.elements.size() > 1) return false;
  if (base == nullptr) return true;
  if (base->kind == ptx::Operand::Kind::Register) return base->reg < a_.shape.size() && !per_lane(a_.shape[base->reg]);
  return base->kind == ptx::Operand::Kind::Symbol && lane_frame_offset_.count(base->name) == 0;
}

// ld/ldu/st on the active lanes. False when it is not one the lane-wise path takes.
bool BlockFunctionBuilder::emit_memory(const ptx::Instruction& inst) {
  if (!loads_or_stores_lane_wise(inst)) return false;
  const bool store = inst.opcode == ptx::Opcode::St;
  const ptx::Operand& address = inst.operands[store ? 0 : 1];
  const ptx::Operand& data = inst.operands[store ? 1 : 0];
  std::vector<const ptx::Operand*> values;
  if (inst.q.vector == 1 && data.kind != ptx::Operand::Kind::Vector) {
    values.push_back(&data);
  } else if (data.kind == ptx::Operand::Kind::Vector && data.elements.size() == inst.q.vector) {
    for (const ptx::Operand& e : data.elements) values.push_back(&e);
  } else {
    return false;
  }
  for (const ptx::Operand* v : values) {
    const bool ok = v->kind == ptx::Operand::Kind::Register || v->kind == ptx::Operand::Kind::Sink ||
                    (store && v->kind == ptx::Operand::Kind::Immediate);
    if (!ok) return false;
  }
  // An address this path does not know goes per lane (checked before any IR is made).
  if (lane_addresses(address, inst.q.space, true) == nullptr) return false;
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  // No lane (a guard false everywhere): nothing to access.
  llvm::BasicBlock* none = new_block("access.none");
  llvm::BasicBlock* some = new_block("access");
  b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(0)), none, some);
  b_.SetInsertPoint(some);
  // Every lane's address, as pointers and as integers: made after the lane-0 path below,
  // on the way to the others, and pinned there (lane_addresses): made first, or hoisted out
  // of the loops around it, the vector arithmetic cost every access, also those from lane 0.
  llvm::Value* pointers = nullptr;
  llvm::Value* integers = nullptr;
  const unsigned bits = ptx::bit_width(inst.q.type);
  const uint64_t element_bytes = bits / 8;
  const uint64_t access_bytes = element_bytes * values.size();
  llvm::Value* mask_lanes = mask_vector(mask);
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* lanes64 = lanes_of(i64);

  // The alignment the GPU requires of global, shared and generic accesses (a misaligned
  // active lane ends the launch with cudaErrorMisalignedAddress, named by its lane).
  const ptx::StateSpace space = inst.q.space;
  const bool checks_alignment =
      access_bytes > 1 &&
      (space == ptx::StateSpace::Global || space == ptx::StateSpace::Shared || space == ptx::StateSpace::Generic);
  auto check_alignment = [&] {
    if (!checks_alignment) return;
    llvm::Value* low = b_.CreateAnd(integers, llvm::ConstantInt::get(lanes64, access_bytes - 1));
    llvm::Value* bad = b_.CreateAnd(mask, mask_bits(b_.CreateICmpNE(low, llvm::ConstantInt::get(lanes64, 0))));
    llvm::BasicBlock* misaligned = new_block("misaligned");
    llvm::BasicBlock* aligned = new_block("aligned");
    b_.CreateCondBr(b_.CreateICmpNE(bad, c32(0)), misaligned, aligned,
                    llvm::MDBuilder(fl_.ctx).createBranchWeights(1, 1 << 20));
    b_.SetInsertPoint(misaligned);
    llvm::Value* lane = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {bad, b_.getTrue()});
    llvm::Type* enter[] = {fl_.ptr_type(), i32(), i32()};
    b_.CreateCall(runtime(kCompiledEnterLane, b_.getVoidTy(), enter), {frame_, warp_index(), lane});
    llvm::Type* args[] = {fl_.ptr_type(), fl_.ptr_type(), i32()};
    b_.CreateCall(runtime(kMisaligned, b_.getVoidTy(), args),
                  {lane_context_, b_.CreateExtractElement(pointers, lane), c32(access_bytes)});
    b_.CreateUnreachable();
    b_.SetInsertPoint(aligned);
  };

  // Consecutive addresses (lane l at base + l * size, base: lane 0's address; when lane 0 is
  // inactive its stale address usually fails the check, and the lanes gather): one vector
  // access, plain when every lane is active, else masked when the vector's inactive ends stay on the pages of the first and last
  // active lanes. A masked access whose inactive lanes reach an unmapped page (shared
  // memory's guard, the end of an allocation) is correct but costs a microcode assist of
  // thousands of cycles. Failing that, each half of the warp consecutive on its own (a
  // warp of two rows of a 16-wide block, as in 16x16 tiles): two masked accesses of 16
  // lanes. Else a gather or scatter.
  llvm::Type* element = fl_.int_type(bits);
  llvm::Type* lanes_type = lanes_of(element);
  const llvm::Align align(element_bytes);
  // An address register whose running lanes are element_bytes apart (lane_stride): the
  // active lanes are consecutive without comparing their addresses, from the first active
  // lane's address less its place. A 32-bit register's lanes must also not wrap past 2^32
  // before lane 31 (they are widened to 64 bits on the way).
  const ptx::Operand* address_register =
      address.kind == ptx::Operand::Kind::Register                                    ? &address
      : address.kind == ptx::Operand::Kind::Address && address.elements.size() == 1 ? &address.elements[0]
                                                                                      : nullptr;
  auto stride_is = [&](const std::vector<int64_t>& strides, uint64_t bytes) {
    return values.size() == 1 && address_register != nullptr && address_register->kind == ptx::Operand::Kind::Register &&
           address_register->reg < strides.size() && strides[address_register->reg] == static_cast<int64_t>(bytes);
  };
  const bool strided = stride_is(a_.lane_stride, element_bytes);
  // The same for each half of the warp in a block 16 threads wide (half_stride): two
  // 16-lane accesses, each from its first active lane's address less its place in the half;
  // a load whose half stride is 0 (`As[ty][k]` in a 16x16 tile) reads one element per half.
  const bool half_strided = !strided && shape_.x == 16 && stride_is(a_.half_stride, element_bytes);
  const bool half_broadcast = !strided && !store && shape_.x == 16 && stride_is(a_.half_stride, 0);
  auto page = [&](llvm::Value* address) { return b_.CreateLShr(address, b_.getInt64(12)); };
  // Whether `width` lanes from `base` on stay on the pages of the active ones among them
  // (`lanes`, the segment's bits of the mask from bit 0; none active is fine). They all lie
  // on one page when `base` is aligned to their span, which LLVM sees where `base` is an
  // aligned offset into shared memory (kSharedBaseAlignment): no check at all then.
  auto pages_ok = [&](llvm::Value* base, llvm::Value* lanes, uint32_t width) {
    const uint64_t span = uint64_t{width} * element_bytes;
    auto lane_address = [&](llvm::Value* lane) {
      return b_.CreateAdd(base, b_.CreateMul(b_.CreateZExt(lane, i64), b_.getInt64(element_bytes)));
    };
    llvm::Value* first = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {lanes, b_.getFalse()});
    llvm::Value* last = b_.CreateSub(c32(31), b_.CreateIntrinsic(llvm::Intrinsic::ctlz, {i32()}, {lanes, b_.getFalse()}));
    llvm::Value* end = b_.CreateAdd(base, b_.getInt64(width * element_bytes - 1));
    llvm::Value* ok = b_.CreateAnd(b_.CreateICmpEQ(page(base), page(lane_address(first))),
                                   b_.CreateICmpEQ(page(end), page(lane_address(last))));
    if (llvm::isPowerOf2_64(span) && span <= 4096)
      ok = b_.CreateOr(b_.CreateICmpEQ(b_.CreateAnd(base, b_.getInt64(span - 1)), b_.getInt64(0)), ok);
    return b_.CreateOr(b_.CreateICmpEQ(lanes, c32(0)), ok);
  };
  // Per lane l: the address it has when its segment of `width` lanes is consecutive.
  auto consecutive_addresses = [&](uint32_t width) {
    std::vector<int> firsts;
    std::vector<llvm::Constant*> steps;
    for (uint32_t l = 0; l < kLanes; ++l) {
      firsts.push_back(static_cast<int>(l / width * width));
      steps.push_back(b_.getInt64(uint64_t{l % width} * element_bytes));
    }
    return b_.CreateAdd(b_.CreateShuffleVector(integers, firsts), llvm::ConstantVector::get(steps));
  };
  auto all_consecutive = [&](uint32_t width) {
    return b_.CreateICmpEQ(b_.CreateAnd(mask, mask_bits(b_.CreateICmpNE(integers, consecutive_addresses(width)))), c32(0));
  };
  std::vector<int> low_half, high_half, both_halves;  // lanes 0-15, 16-31, 0-31
  for (uint32_t l = 0; l < kLanes; ++l) {
    (l < kLanes / 2 ? low_half : high_half).push_back(static_cast<int>(l));
    both_halves.push_back(static_cast<int>(l));
  }
  llvm::Type* half_type = llvm::FixedVectorType::get(element, kLanes / 2);
  // The common case first: every active lane at lane 0's address plus its place. Then the
  // active lanes are aligned when lane 0's address is (the others are whole elements
  // further on), and with all 32 lanes active the access is a plain vector one on the
  // lanes' own pages. Otherwise (and for any misaligned lane, which the general path names)
  // every lane's alignment, then one lane's scalar access, whole (masked), halves or
  // scattered.
  // Where a segment of `width` lanes from `from` whose lanes are `step` bytes apart starts (the
  // first active lane's address less its place; `lanes`: the segment's active lanes, from bit
  // 0, at least one), and whether its 32-bit register's values do not wrap in it. The lane's
  // address comes from its address register alone, as lane_addresses makes every lane's: no
  // vector of all 32 addresses is needed for it.
  const int64_t offset = address.kind == ptx::Operand::Kind::Address ? address.offset : 0;
  auto segment_base = [&](uint32_t from, uint32_t width, llvm::Value* lanes,
                          uint64_t step) -> std::pair<llvm::Value*, llvm::Value*> {
    llvm::Value* place = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {lanes, b_.getTrue()});
    llvm::Value* lane = b_.CreateAdd(place, c32(from));
    llvm::Value* before = b_.CreateMul(b_.CreateZExt(place, i64), b_.getInt64(step));
    const bool narrow = register_width(address_register->reg) == 32;
    llvm::Value* own = b_.CreateZExt(
        lane_base_[address_register->reg] != nullptr
            ? lane_from_base(address_register->reg, lane)
            : b_.CreateExtractElement(vector_read(*address_register, narrow ? ptx::Type::U32 : ptx::Type::U64), lane),
        i64);
    llvm::Value* at = b_.CreateAdd(own, b_.getInt64(static_cast<uint64_t>(offset)));
    if (space == ptx::StateSpace::Shared)
      at = b_.CreatePtrToInt(b_.CreateGEP(b_.getInt8Ty(), fl_.shared_base, at), i64);
    llvm::Value* begin = b_.CreateSub(at, before);
    if (step == 0 || !narrow) return {begin, b_.getTrue()};
    llvm::Value* last = b_.CreateAdd(own, b_.CreateSub(b_.getInt64((width - 1) * step), before));
    return {begin, b_.CreateICmpULE(last, b_.getInt64(0xffffffffu))};
  };
  // A whole warp's access to consecutive global memory from a thread-indexed address is, in
  // nearly every kernel, a stream that the blocks a worker runs one after another go on with:
  // the access hints the cache at the data kPrefetchAhead bytes on (a hint: no fault, no
  // change in results). The host's prefetchers alone left saxpy's loads waiting: saxpy 2^25
  // went from 18.3 to 15.0 ms with it (median of 5 alternating runs, 2-core KVM machine,
  // Intel). AMD's Zen cores follow these streams themselves and lose by the hint
  // (host_prefetches_streams).
  // (Only the lane-0 path below prefetches: a strided access with every lane active takes it
  // or, misaligned or wrapping, the general path.)
  auto prefetch_ahead = [&](llvm::Value* from) {
    if (!host_prefetches_streams()) return;
    if (space != ptx::StateSpace::Global && space != ptx::StateSpace::Generic) return;
    llvm::Value* ahead = b_.CreateIntToPtr(b_.CreateAdd(from, b_.getInt64(kPrefetchAhead)), fl_.ptr_type());
    b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {fl_.ptr_type()},
                       {ahead, c32(store ? 1 : 0), c32(3), c32(1)});  // write or read, keep in all caches, data
  };
  // Whether an address is aligned for the access (where the GPU requires it).
  auto aligned = [&](llvm::Value* address) -> llvm::Value* {
    if (!checks_alignment) return b_.getTrue();
    return b_.CreateICmpEQ(b_.CreateAnd(address, b_.getInt64(access_bytes - 1)), b_.getInt64(0));
  };
  // A store's value of element i, as integers of the access's width.
  auto stored = [&](size_t i) {
    llvm::Value* v = fl_.to_bits(vector_read(*values[i], inst.q.type));
    return v->getType()->getScalarSizeInBits() != bits ? b_.CreateTrunc(v, lanes_type) : v;
  };
  // Lanes of a warp storing to one address leave one value there; on the H100 (test
  // lockstep/same_address_stores) the warp's store is written in groups of 128 bytes of
  // lanes (32 lanes of 4 bytes, 16 of 8; 16-byte groups of 8 lanes by the same rule), one
  // group after the other, and within a group the lowest lane storing to an address wins.
  const uint32_t group_lanes = static_cast<uint32_t>(std::clamp<uint64_t>(128 / access_bytes, 1, kLanes));
  // A scatter writes its lanes in order, the last write to an address staying: the lanes in
  // the order that leaves the GPU's winner last (groups ascending, each from its highest lane).
  auto in_write_order = [&](llvm::Value* lanes) {
    std::vector<int> order;
    for (uint32_t g = 0; g < kLanes; g += group_lanes)
      for (uint32_t l = g + group_lanes; l-- > g;) order.push_back(static_cast<int>(l));
    return b_.CreateShuffleVector(lanes, order);
  };
  auto scatter = [&](llvm::Value* v, llvm::Value* at) {
    b_.CreateMaskedScatter(in_write_order(v), in_write_order(at), align, in_write_order(mask_lanes));
  };
  // The winner at one address all active lanes store to: the lowest active lane of the last
  // group with one.
  auto last_writer = [&]() -> llvm::Value* {
    llvm::Value* lane = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {mask, b_.getTrue()});
    for (uint32_t g = group_lanes; g < kLanes; g += group_lanes) {
      llvm::Value* later = b_.CreateLShr(mask, c32(g));
      lane = b_.CreateSelect(b_.CreateICmpNE(later, c32(0)),
                             b_.CreateAdd(c32(g), b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {later, b_.getTrue()})),
                             lane);
    }
    return lane;
  };
  // `every`: all 32 lanes are active (the mask is known to be whole where this is called). The
  // constant mask lets LLVM drop the blend into the register's old lanes; with the variable
  // one it folded blend and plain load into a masked load, which on a Zen 5 core reads a
  // stream of global memory at a third of the speed (shfl_reduce's guarded load: 16 -> 4.6 ms).
  auto write_loaded = [&](size_t i, llvm::Value* loaded, bool every = false) {
    if (!fl_.is_sink(*values[i])) vector_write(*values[i], inst.q.type, loaded, every ? c32(kNone) : mask);
  };
  // Every path ends at `none`, then past the guard's skip.
  auto finish = [&] {
    b_.CreateBr(none);
    b_.SetInsertPoint(none);
    if (skip_to != nullptr) {
      b_.CreateBr(skip_to);
      b_.SetInsertPoint(skip_to);
    }
    return true;
  };
  // One address for every lane (a register the same in every lane, a variable, a constant:
  // `warp_sums[warp] = v` after `if (lane == 0)`, `x = s[0]`): a load reads it once for all
  // lanes; a store writes the value of the lane the GPU keeps (last_writer).
  const bool one_address =
      values.size() == 1 &&
      (space == ptx::StateSpace::Global || space == ptx::StateSpace::Shared || space == ptx::StateSpace::Generic ||
       space == ptx::StateSpace::Const) &&
      same_address_in_lanes(address);
  if (one_address) {
    pointers = lane_addresses(address, space, false);
    integers = b_.CreatePtrToInt(pointers, lanes64);
    check_alignment();
    llvm::Value* at = b_.CreateExtractElement(pointers, uint64_t{0});
    if (store) {
      b_.CreateAlignedStore(b_.CreateExtractElement(stored(0), last_writer()), at, align);
    } else {
      write_loaded(0, b_.CreateVectorSplat(kLanes, b_.CreateAlignedLoad(element, at, align)));
    }
    return finish();
  }
  // The common case of a strided address first, from lane 0's address alone when lane 0
  // is active (every lane, `if (tid < s)`, `if (tid == 0)`): the active lanes are lane 0's
  // address plus their place (its lanes do not wrap when the register is 32 bits wide).
  // With every lane active a plain vector access, else a masked one when the vector stays
  // on the active lanes' pages; the rest, and any misaligned lane, take the general path.
  if (strided) {
    auto [from, no_wrap] = segment_base(0, kLanes, c32(1), element_bytes);
    llvm::Value* lane0_active = b_.CreateICmpNE(b_.CreateAnd(mask, c32(1)), c32(0));
    llvm::Value* ok = b_.CreateAnd(lane0_active, b_.CreateAnd(no_wrap, aligned(from)));
    llvm::BasicBlock* from_lane0 = new_block("access.from_lane0");
    llvm::BasicBlock* every_lane = new_block("access.from_lane0.every_lane");
    llvm::BasicBlock* some_lanes = new_block("access.from_lane0.some_lanes");
    llvm::BasicBlock* masked = new_block("access.from_lane0.masked");
    llvm::BasicBlock* other = new_block("access.lanes");
    b_.CreateCondBr(ok, from_lane0, other);
    b_.SetInsertPoint(from_lane0);
    llvm::Value* at = b_.CreateIntToPtr(from, fl_.ptr_type());
    b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(kNone)), every_lane, some_lanes);
    b_.SetInsertPoint(some_lanes);
    b_.CreateCondBr(pages_ok(from, mask, kLanes), masked, other);
    for (llvm::BasicBlock* block : {every_lane, masked}) {
      b_.SetInsertPoint(block);
      const bool every = block == every_lane;
      if (every) prefetch_ahead(from);
      if (store && every) {
        b_.CreateAlignedStore(stored(0), at, align);
      } else if (store) {
        b_.CreateMaskedStore(stored(0), at, align, mask_lanes);
      } else {
        write_loaded(0,
                     every ? static_cast<llvm::Value*>(b_.CreateAlignedLoad(lanes_type, at, align))
                           : b_.CreateMaskedLoad(lanes_type, at, align, mask_lanes),
                     every);
      }
      b_.CreateBr(none);
    }
    b_.SetInsertPoint(other);
  }
  pointers = lane_addresses(address, inst.q.space, false, /*pinned=*/strided);
  integers = b_.CreatePtrToInt(pointers, lanes64);
  // Where a consecutive access starts (lane 0's address, which an inactive lane 0 holds only
  // when its register's stride says so), and whether the lanes are consecutive.
  llvm::Value* first = b_.CreateExtractElement(integers, uint64_t{0});
  llvm::Value* consecutive_known = nullptr;
  // Values found one way when every lane is active, the common case, and another way
  // otherwise, merged: with every lane active the first active lane is lane 0, whose address
  // needs no search (finding it is a variable extract, which stores the address vector to
  // the stack).
  auto by_mask = [&](auto every, auto some) {
    llvm::BasicBlock* every_lane = new_block("access.every_lane");
    llvm::BasicBlock* some_lanes = new_block("access.some_lanes");
    llvm::BasicBlock* decided = new_block("access.decided");
    b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(kNone)), every_lane, some_lanes);
    b_.SetInsertPoint(every_lane);
    const std::vector<llvm::Value*> every_values = every();
    llvm::BasicBlock* every_end = b_.GetInsertBlock();
    b_.CreateBr(decided);
    b_.SetInsertPoint(some_lanes);
    const std::vector<llvm::Value*> some_values = some();
    llvm::BasicBlock* some_end = b_.GetInsertBlock();
    b_.CreateBr(decided);
    b_.SetInsertPoint(decided);
    std::vector<llvm::Value*> merged;
    for (size_t i = 0; i < every_values.size(); ++i) {
      llvm::PHINode* phi = b_.CreatePHI(every_values[i]->getType(), 2);
      phi->addIncoming(every_values[i], every_end);
      phi->addIncoming(some_values[i], some_end);
      merged.push_back(phi);
    }
    return merged;
  };
  // A strided access here has lane 0 inactive, or failed the lane-0 path's test: from its
  // first active lane.
  if (strided) std::tie(first, consecutive_known) = segment_base(0, kLanes, mask, element_bytes);
  auto start = [&] { return b_.CreateIntToPtr(first, fl_.ptr_type()); };
  // The same for a half of the warp, and whether it may be accessed as one: its active lanes'
  // addresses aligned, its pages all right (`step` 0: one address, no pages to check); a
  // half with no active lane may.
  auto segment_start = [&](uint32_t from, uint32_t width, llvm::Value* lanes,
                           uint64_t step) -> std::pair<llvm::Value*, llvm::Value*> {
    llvm::Value* none_active = b_.CreateICmpEQ(lanes, c32(0));
    auto [begin, ok] = segment_base(from, width, b_.CreateSelect(none_active, c32(1), lanes), step);
    if (step != 0) ok = b_.CreateAnd(ok, pages_ok(begin, lanes, width));
    ok = b_.CreateAnd(ok, aligned(begin));
    return {begin, b_.CreateOr(none_active, ok)};
  };
  llvm::Value* half_begin[2] = {nullptr, nullptr};
  auto choose = [&](llvm::BasicBlock* full, llvm::BasicBlock* whole, llvm::BasicBlock* one, llvm::BasicBlock* halves,
                    llvm::BasicBlock* scattered, llvm::BasicBlock* strided_halves) {
    if (half_strided || half_broadcast) {
      const uint64_t step = half_strided ? element_bytes : 0;
      // Every lane active: each half starts at its first lane's address and touches only
      // its lanes' own pages. Else from each half's first active lane.
      const auto found = by_mask(
          [&] {
            std::vector<llvm::Value*> values;
            llvm::Value* ok = b_.getTrue();
            for (uint32_t half = 0; half < 2; ++half) {
              auto [begin, no_wrap] = segment_base(half * kLanes / 2, kLanes / 2, c32(1), step);
              values.push_back(begin);
              ok = b_.CreateAnd(ok, b_.CreateAnd(no_wrap, aligned(begin)));
            }
            values.push_back(ok);
            return values;
          },
          [&] {
            llvm::Value* low_lanes = b_.CreateAnd(mask, c32(0xffff));
            llvm::Value* high_lanes = b_.CreateLShr(mask, c32(16));
            auto [low, low_ok] = segment_start(0, kLanes / 2, low_lanes, step);
            auto [high, high_ok] = segment_start(kLanes / 2, kLanes / 2, high_lanes, step);
            if (half_broadcast) {  // a half with no active lane reads the other's element, not its stale address
              return std::vector<llvm::Value*>{b_.CreateSelect(b_.CreateICmpEQ(low_lanes, c32(0)), high, low),
                                               b_.CreateSelect(b_.CreateICmpEQ(high_lanes, c32(0)), low, high),
                                               b_.CreateAnd(low_ok, high_ok)};
            }
            return std::vector<llvm::Value*>{low, high, b_.CreateAnd(low_ok, high_ok)};
          });
      half_begin[0] = found[0];
      half_begin[1] = found[1];
      llvm::BasicBlock* other = new_block("access.not_strided_halves");
      b_.CreateCondBr(found[2], strided_halves, other);
      b_.SetInsertPoint(other);
    }
    llvm::Value* fast = b_.CreateAnd(strided ? consecutive_known : all_consecutive(kLanes), aligned(first));
    llvm::BasicBlock* consecutive = new_block("access.consecutive_aligned");
    llvm::BasicBlock* general = new_block("access.general");
    b_.CreateCondBr(fast, consecutive, general);
    b_.SetInsertPoint(consecutive);
    llvm::BasicBlock* partial = new_block("access.partial");
    b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(kNone)), full, partial);
    b_.SetInsertPoint(partial);
    b_.CreateCondBr(pages_ok(first, mask, kLanes), whole, general);
    b_.SetInsertPoint(general);
    check_alignment();
    // One active lane (`if (threadIdx.x == 0)`), whose neighbours may be past the end of
    // shared memory: a scalar access.
    llvm::BasicBlock* several = new_block("access.several");
    b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(mask, b_.CreateSub(mask, c32(1))), c32(0)), one, several);
    b_.SetInsertPoint(several);
    llvm::Value* halves_ok = b_.CreateAnd(
        all_consecutive(kLanes / 2),
        b_.CreateAnd(pages_ok(b_.CreateExtractElement(integers, uint64_t{0}), b_.CreateAnd(mask, c32(0xffff)), kLanes / 2),
                     pages_ok(b_.CreateExtractElement(integers, uint64_t{kLanes / 2}), b_.CreateLShr(mask, c32(16)),
                              kLanes / 2)));
    b_.CreateCondBr(halves_ok, halves, scattered);
  };
  if (values.size() != 1) {
    // .v2/.v4: a gather or scatter per element.
    check_alignment();
    for (size_t i = 0; i < values.size(); ++i) {
      llvm::Value* at = b_.CreateGEP(b_.getInt8Ty(), pointers, llvm::ConstantInt::get(lanes64, i * element_bytes));
      if (store) {
        scatter(stored(i), at);
      } else {
        write_loaded(i, b_.CreateMaskedGather(lanes_type, at, align, mask_lanes));
      }
    }
  } else {
    llvm::Value* v = store ? stored(0) : nullptr;
    llvm::BasicBlock* full = new_block("access.full");
    llvm::BasicBlock* whole = new_block("access.consecutive");
    llvm::BasicBlock* one = new_block("access.one_lane");
    llvm::BasicBlock* halves = new_block("access.halves");
    llvm::BasicBlock* scattered = new_block("access.scattered");
    llvm::BasicBlock* done = new_block("access.done");
    llvm::BasicBlock* strided_halves = new_block("access.strided_halves");
    llvm::Value* low_mask = b_.CreateShuffleVector(mask_lanes, low_half);
    llvm::Value* high_mask = b_.CreateShuffleVector(mask_lanes, high_half);
    // Lanes 0-15 at `low` on, 16-31 at `high` on (64-bit addresses): a load's value. A half
    // with no active lane goes to the other half's address: its own (a stale lane's, or one
    // past the end, as `warp_sums[lane]` for lane < 8 has at lane 16) may lie on an unmapped
    // page, and even a masked access with no lane active costs a microcode assist there
    // (about 140 ns on the 2-core Zen 5, against 0.5 ns).
    // `every`: every lane is active, and the halves are plain accesses (a masked load of
    // global memory streams at a third of a plain one's speed on a Zen 5: write_loaded).
    auto access_halves = [&](llvm::Value* low, llvm::Value* high, bool every = false) -> llvm::Value* {
      llvm::Value* low_pointer = nullptr;
      llvm::Value* high_pointer = nullptr;
      if (every) {
        low_pointer = b_.CreateIntToPtr(low, fl_.ptr_type());
        high_pointer = b_.CreateIntToPtr(high, fl_.ptr_type());
      } else {
        llvm::Value* low_idle = b_.CreateICmpEQ(b_.CreateAnd(mask, c32(0xffff)), c32(0));
        llvm::Value* high_idle = b_.CreateICmpEQ(b_.CreateLShr(mask, c32(16)), c32(0));
        low_pointer = b_.CreateIntToPtr(b_.CreateSelect(low_idle, high, low), fl_.ptr_type());
        high_pointer = b_.CreateIntToPtr(b_.CreateSelect(high_idle, low, high), fl_.ptr_type());
      }
      if (store) {
        // Halves that overlap (`s[lane % 16]`) leave the GPU's winner: the low half's where
        // both halves are one group of lanes (group_lanes), so it is written last.
        auto store_half = [&](bool high_one) {
          llvm::Value* half = b_.CreateShuffleVector(v, high_one ? high_half : low_half);
          llvm::Value* at = high_one ? high_pointer : low_pointer;
          if (every) {
            b_.CreateAlignedStore(half, at, align);
          } else {
            b_.CreateMaskedStore(half, at, align, high_one ? high_mask : low_mask);
          }
        };
        const bool one_group = group_lanes > kLanes / 2;
        store_half(one_group);
        store_half(!one_group);
        return nullptr;
      }
      auto load_half = [&](llvm::Value* at, llvm::Value* half_mask) -> llvm::Value* {
        if (every) return b_.CreateAlignedLoad(half_type, at, align);
        return b_.CreateMaskedLoad(half_type, at, align, half_mask);
      };
      return b_.CreateShuffleVector(load_half(low_pointer, low_mask), load_half(high_pointer, high_mask), both_halves);
    };
    // The strided halves with every lane active as plain accesses, else masked (`done`).
    auto strided_halves_every_lane = [&] {
      llvm::BasicBlock* every_lane = new_block("access.strided_halves.every_lane");
      llvm::BasicBlock* some_lanes = new_block("access.strided_halves.some_lanes");
      b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(kNone)), every_lane, some_lanes);
      b_.SetInsertPoint(every_lane);
      llvm::Value* loaded = access_halves(half_begin[0], half_begin[1], true);
      if (!store) write_loaded(0, loaded, true);
      b_.CreateBr(none);
      b_.SetInsertPoint(some_lanes);
    };
    choose(full, whole, one, halves, scattered, strided_halves);
    b_.SetInsertPoint(one);
    llvm::Value* only = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {mask, b_.getTrue()});
    llvm::Value* only_pointer = b_.CreateIntToPtr(b_.CreateExtractElement(integers, only), fl_.ptr_type());
    if (store) {
      b_.CreateAlignedStore(b_.CreateExtractElement(v, only), only_pointer, align);
      b_.CreateBr(done);
      b_.SetInsertPoint(full);
      b_.CreateAlignedStore(v, start(), align);
      b_.CreateBr(done);
      b_.SetInsertPoint(whole);
      b_.CreateMaskedStore(v, start(), align, mask_lanes);
      b_.CreateBr(done);
      b_.SetInsertPoint(halves);
      access_halves(b_.CreateExtractElement(integers, uint64_t{0}), b_.CreateExtractElement(integers, uint64_t{kLanes / 2}));
      b_.CreateBr(done);
      b_.SetInsertPoint(strided_halves);
      if (half_strided) {
        strided_halves_every_lane();
        access_halves(half_begin[0], half_begin[1]);
        b_.CreateBr(done);
      } else {
        b_.CreateUnreachable();
      }
      b_.SetInsertPoint(scattered);
      scatter(v, pointers);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    } else {
      llvm::Value* one_load = b_.CreateInsertElement(llvm::PoisonValue::get(lanes_type),
                                                     b_.CreateAlignedLoad(element, only_pointer, align), only);
      b_.CreateBr(done);
      b_.SetInsertPoint(full);  // written apart: every lane, no blend (write_loaded)
      write_loaded(0, b_.CreateAlignedLoad(lanes_type, start(), align), true);
      b_.CreateBr(none);
      b_.SetInsertPoint(whole);
      llvm::Value* vector_load = b_.CreateMaskedLoad(lanes_type, start(), align, mask_lanes);
      b_.CreateBr(done);
      b_.SetInsertPoint(halves);
      llvm::Value* halves_load = access_halves(b_.CreateExtractElement(integers, uint64_t{0}),
                                               b_.CreateExtractElement(integers, uint64_t{kLanes / 2}));
      b_.CreateBr(done);
      b_.SetInsertPoint(strided_halves);
      llvm::Value* strided_halves_load = nullptr;
      llvm::BasicBlock* strided_halves_end = strided_halves;
      if (half_strided || half_broadcast) {
        if (half_broadcast) {
          auto element_at = [&](llvm::Value* at) {
            return b_.CreateVectorSplat(kLanes / 2,
                                        b_.CreateAlignedLoad(element, b_.CreateIntToPtr(at, fl_.ptr_type()), align));
          };
          strided_halves_load =
              b_.CreateShuffleVector(element_at(half_begin[0]), element_at(half_begin[1]), both_halves);
        } else {
          strided_halves_every_lane();
          strided_halves_load = access_halves(half_begin[0], half_begin[1]);
        }
        strided_halves_end = b_.GetInsertBlock();
        b_.CreateBr(done);
      } else {
        b_.CreateUnreachable();
      }
      b_.SetInsertPoint(scattered);
      llvm::Value* gathered = b_.CreateMaskedGather(lanes_type, pointers, align, mask_lanes);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      llvm::PHINode* loaded = b_.CreatePHI(lanes_type, 5);
      loaded->addIncoming(one_load, one);
      loaded->addIncoming(vector_load, whole);
      loaded->addIncoming(halves_load, halves);
      loaded->addIncoming(gathered, scattered);
      if (strided_halves_load != nullptr) loaded->addIncoming(strided_halves_load, strided_halves_end);
      write_loaded(0, loaded);
    }
  }
  return finish();
}

}  // namespace cucpu::jit::block_function
