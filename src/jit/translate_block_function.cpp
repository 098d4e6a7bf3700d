// translate_block_function: one kernel, for one block shape, as one function that runs the
// whole block (kernel_abi.h CompiledBlockFrame), with the warp's lanes in lockstep.
//
// The function is a loop of rounds. A round runs every warp that has lanes ready (a "run":
// lanes and the resume point where they go on) until those lanes have parked at a barrier
// or exited; at its end, a barrier every warp reached with all its lanes releases them all
// at once (checked here), anything else goes to the executor (__cucpu_compiled_settle).
//
// Within a run, the warp is one SIMT program over the kernel's blocks (kernel_cfg.h):
// `cur_mask` holds the lanes executing the current block. A branch whose lanes part ways
// queues one side (pend[rank] |= lanes) and goes on with the other; whenever the current
// lanes are done or reach a block later than a queued one, the lowest queued block runs
// next (dispatch). That is lockstep execution with reconvergence at post-dominators.
//
// Registers (warp_analysis.h): a uniform register is one scalar per warp, computed by the
// scalar lowering of the instruction (lower_*.cpp) once; a varying register is a vector of
// 32 lanes, and an instruction writing one runs the scalar lowering once per active lane
// (copying that lane's operands in and results out), so every instruction completes for
// all lanes before the next begins. Each warp's registers live in its slice of a register
// file (CompiledBlockFrame::registers), which the function gets as a noalias pointer:
// LLVM keeps them in machine registers where it can (no kernel memory access can touch
// them), a warp's registers outlast its parking at barriers, and no value spans the whole
// function, which keeps big kernels quick to compile.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <set>

#include "jit/block_function.h"
#include "jit/call_site.h"

namespace cucpu::jit {
namespace {

constexpr uint32_t kLanes = 32;
constexpr uint32_t kNone = 0xffffffffu;
// How many passes over spin loops' back-edges a run makes before its lanes there yield to
// the other warps (and to the warp's other lanes): a yield ends the run's turn this round.
constexpr uint32_t kSpinsBetweenYields = 64;
// The warps' states lie this far apart in CompiledBlockFrame::warps.
constexpr uint32_t kWarpStride = (sizeof(CompiledWarp) + 63) / 64 * 64;

uint64_t align_up(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }

class BlockFunctionBuilder {
 public:
  BlockFunctionBuilder(ModuleLowering& m, const ptx::Function& kernel, const FunctionAccess& access,
                       const std::vector<ParamSlot>& params, const BlockShape& shape, llvm::Function* fn)
      : m_(m), kernel_(kernel), access_(access), params_(params), shape_(shape), fl_(m, kernel, fn), b_(fl_.b) {}

  Result<void> build(CompiledBlockCode& code);

 private:
  enum class Mode { Uniform, Lane };

  // --- types and small helpers
  llvm::Type* i32() { return b_.getInt32Ty(); }
  llvm::Value* c32(uint64_t v) { return b_.getInt32(static_cast<uint32_t>(v)); }
  llvm::Type* register_type(uint32_t r) { return fl_.int_type(register_width(r)); }
  unsigned register_width(uint32_t r) { return r == carry_ ? 1 : fl_.register_bits(r); }
  llvm::FixedVectorType* lanes_of(llvm::Type* t) { return llvm::FixedVectorType::get(t, kLanes); }
  llvm::Value* mask_vector(llvm::Value* bits) { return b_.CreateBitCast(bits, lanes_of(b_.getInt1Ty())); }
  llvm::Value* mask_bits(llvm::Value* vector) { return b_.CreateBitCast(vector, i32()); }
  llvm::Value* field(llvm::Value* base, size_t offset) { return b_.CreateConstGEP1_64(b_.getInt8Ty(), base, offset); }
  llvm::Value* load32(llvm::Value* base, size_t offset) { return b_.CreateAlignedLoad(i32(), field(base, offset), llvm::Align(4)); }
  void store32(llvm::Value* v, llvm::Value* base, size_t offset) {
    b_.CreateAlignedStore(v, field(base, offset), llvm::Align(4));
  }
  llvm::Value* warp_index() { return b_.CreateLoad(i32(), warp_index_); }
  llvm::Value* warp_state();  // this warp's CompiledWarp
  llvm::BasicBlock* new_block(const std::string& name) { return fl_.new_block(name); }
  llvm::FunctionCallee runtime(const char* name, llvm::Type* result, llvm::ArrayRef<llvm::Type*> params) {
    return fl_.runtime_function(name, result, params);
  }
  void fail(const std::string& why) { fl_.fail(why); }

  // --- layout
  void lay_out_registers();
  llvm::Value* slot(uint32_t r);        // the register in the running warp's file
  llvm::Value* load_lanes(uint32_t r);  // a varying register's 32 lanes
  void store_lanes(uint32_t r, llvm::Value* lanes);
  void bind(uint32_t r);                // FunctionLowering reads/writes a uniform register in place
  void bind_operand(const ptx::Operand& op);
  void lay_out_lane_frames();

  // --- values per lane
  llvm::Value* special_register(ptx::SpecialRegister sreg, unsigned component);
  llvm::Value* lane_special(ptx::SpecialRegister sreg, unsigned component, llvm::Value* lane);
  llvm::Value* vector_special(ptx::SpecialRegister sreg, unsigned component);
  llvm::Value* vector_read(const ptx::Operand& op, ptx::Type type);
  void vector_write(const ptx::Operand& op, ptx::Type type, llvm::Value* value, llvm::Value* mask);
  llvm::Value* uniform_read(const ptx::Operand& op, ptx::Type type);

  // --- instructions
  void emit_instruction(uint32_t statement);
  void emit_uniform(const ptx::Instruction& inst);
  void emit_per_lane(const ptx::Instruction& inst, uint32_t statement);
  void emit_activemask(const ptx::Instruction& inst);
  llvm::Value* active_mask_for(const ptx::Instruction& inst, llvm::BasicBlock*& skip_to);
  template <typename Body>
  void for_each_lane(llvm::Value* mask, Body body);
  void bind_lane_frame(llvm::Value* lane);

  // --- control flow
  void emit_block(uint32_t b);
  void emit_block_end(uint32_t b);
  void go_to(uint32_t target, llvm::Value* mask);
  void add_pending(uint32_t target, llvm::Value* mask);
  void split(uint32_t taken, llvm::Value* taken_mask, uint32_t other, llvm::Value* other_mask);
  void exit_lanes(llvm::Value* mask);
  void emit_park(uint32_t b, const ptx::Instruction& inst);
  void add_park(uint32_t point, llvm::Value* mask, ParkKind kind, llvm::Value* barrier = nullptr,
                llvm::Value* count = nullptr, llvm::Value* predicates = nullptr);
  void write_collective_results(const ptx::Instruction& inst, llvm::Value* results, llvm::Value* mask);
  void emit_yield_check(uint32_t target, llvm::Value* taken_mask, const std::function<void()>& otherwise,
                        const std::function<void()>& others_after_yield);
  void emit_collective(uint32_t b, const ptx::Instruction& inst);
  void emit_dispatch();
  void emit_stubs();
  void emit_round_structure();
  void unsupported(const std::string& what);

  ModuleLowering& m_;
  const ptx::Function& kernel_;
  const FunctionAccess& access_;
  const std::vector<ParamSlot>& params_;
  const BlockShape shape_;
  FunctionLowering fl_;
  llvm::IRBuilder<>& b_;
  WarpAnalysis a_;
  uint32_t carry_ = 0;  // CC.CF's register number
  bool callee_may_exit_ = false;  // some .func executes exit (ModuleLowering::func_exits)
  uint32_t warp_count_ = 0;

  Mode mode_ = Mode::Uniform;
  llvm::Value* lane_ = nullptr;  // Mode::Lane: the lane's number

  llvm::Value* frame_ = nullptr;
  llvm::Value* block_context_ = nullptr;
  llvm::Value* lane_context_ = nullptr;
  llvm::Value* warps_ = nullptr;
  llvm::Value* local_ = nullptr;
  llvm::AllocaInst* warp_index_ = nullptr;
  llvm::AllocaInst* cur_mask_ = nullptr;
  llvm::AllocaInst* min_pending_ = nullptr;
  llvm::AllocaInst* pend_ = nullptr;
  llvm::AllocaInst* run_vote_true_ = nullptr;
  llvm::AllocaInst* run_vote_threads_ = nullptr;
  llvm::AllocaInst* lane_exits_ = nullptr;
  llvm::AllocaInst* yield_budget_ = nullptr;  // back-edges of spin loops left before the run yields
  llvm::Value* regs_ = nullptr;  // the register file (noalias)

  std::vector<llvm::BasicBlock*> block_bb_;
  std::vector<uint8_t> candidate_;       // per block: may have queued lanes
  // Where runs begin: the entry, the block after each park instruction (a barrier's or a
  // collective's: `after` is it), and the targets of spin loops' back-edges (yields).
  struct ResumePoint {
    uint32_t block = 0;
    const ptx::Instruction* after = nullptr;
  };
  std::vector<ResumePoint> points_;
  std::vector<uint32_t> park_point_;   // per block ending in a park instruction: its resume point
  std::vector<uint32_t> yield_point_;  // per yield target block: its resume point
  std::set<const ptx::Instruction*> yield_branches_;  // spin loops' back-edges
  std::vector<uint32_t> reg_offset_;      // per register: offset in a warp's file, or kNone (unused)
  uint32_t register_stride_ = 0;          // bytes of one warp's file
  std::map<std::string, uint32_t> lane_frame_offset_;  // per-lane variables
  uint32_t local_stride_ = 0;

  llvm::BasicBlock* round_bb_ = nullptr;
  llvm::BasicBlock* warp_loop_bb_ = nullptr;
  llvm::BasicBlock* take_run_bb_ = nullptr;
  llvm::BasicBlock* dispatch_bb_ = nullptr;
  llvm::BasicBlock* round_end_bb_ = nullptr;
  std::vector<llvm::BasicBlock*> stub_bb_;  // per resume point
};

llvm::Value* BlockFunctionBuilder::warp_state() {
  llvm::Value* offset = b_.CreateMul(b_.CreateZExt(warp_index(), b_.getInt64Ty()), b_.getInt64(kWarpStride));
  return b_.CreateGEP(b_.getInt8Ty(), warps_, offset);
}

// Every register the kernel uses gets a slot in each warp's file: one scalar for a uniform
// register, 32 lanes for a varying one (a predicate: 32 bits).
void BlockFunctionBuilder::lay_out_registers() {
  RegisterSet used(a_.register_count);
  for (const StatementAccess& s : access_.statements) {
    for (uint32_t r : s.reads) used.set(r);
    for (uint32_t r : s.writes) used.set(r);
  }
  reg_offset_.assign(a_.register_count, kNone);
  uint64_t at = 0;
  for (int pass = 0; pass < 2; ++pass) {  // vectors first, then the scalars packed after them
    used.for_each([&](uint32_t r) {
      const bool varying = a_.shape[r] == Shape::Varying;
      if (varying != (pass == 0)) return;
      const unsigned width = register_width(r);
      const uint64_t bytes = varying ? (width == 1 ? 4 : kLanes * width / 8) : std::max(1u, width / 8);
      at = align_up(at, varying ? 64 : bytes);
      reg_offset_[r] = static_cast<uint32_t>(at);
      at += bytes;
    });
  }
  register_stride_ = static_cast<uint32_t>(align_up(std::max<uint64_t>(at, 64), 64));
}

llvm::Value* BlockFunctionBuilder::slot(uint32_t r) {
  if (reg_offset_[r] == kNone) {
    fail(fmt::format("internal error: register {} has no slot", r));
    return llvm::PoisonValue::get(fl_.ptr_type());
  }
  llvm::Value* base = b_.CreateMul(b_.CreateZExt(warp_index(), b_.getInt64Ty()), b_.getInt64(register_stride_));
  return b_.CreateGEP(b_.getInt8Ty(), regs_, b_.CreateAdd(base, b_.getInt64(reg_offset_[r])));
}

llvm::Value* BlockFunctionBuilder::load_lanes(uint32_t r) {
  if (register_width(r) == 1) return mask_vector(b_.CreateAlignedLoad(i32(), slot(r), llvm::Align(4)));
  return b_.CreateAlignedLoad(lanes_of(register_type(r)), slot(r), llvm::Align(64));
}

void BlockFunctionBuilder::store_lanes(uint32_t r, llvm::Value* lanes) {
  if (register_width(r) == 1) {
    b_.CreateAlignedStore(mask_bits(lanes), slot(r), llvm::Align(4));
  } else {
    b_.CreateAlignedStore(lanes, slot(r), llvm::Align(64));
  }
}

void BlockFunctionBuilder::bind(uint32_t r) {
  if (a_.shape[r] != Shape::Uniform) return;
  if (r == carry_) {
    fl_.carry_flag = slot(r);
  } else {
    fl_.registers[r] = slot(r);
  }
}

void BlockFunctionBuilder::bind_operand(const ptx::Operand& op) {
  if (op.kind == ptx::Operand::Kind::Register && op.reg < a_.shape.size()) bind(op.reg);
  for (const ptx::Operand& element : op.elements) bind_operand(element);
}

// Each thread's .local variables and the .param variables of its call sequences, in one
// frame per thread (kernel_abi.h CompiledBlockFrame::local).
void BlockFunctionBuilder::lay_out_lane_frames() {
  uint64_t at = 0;
  for (const ptx::Variable& v : kernel_.locals) {
    if (v.space != ptx::StateSpace::Local && v.space != ptx::StateSpace::Param) continue;
    at = align_up(at, std::max<uint32_t>(v.alignment(), 1));
    lane_frame_offset_[v.name] = static_cast<uint32_t>(at);
    at += std::max<uint64_t>(v.size_bytes(), 1);
  }
  local_stride_ = static_cast<uint32_t>(align_up(std::max<uint64_t>(at, 16), 16));
}

// --- special registers -------------------------------------------------------------

// A thread's linear index in the block: warp * 32 + lane.
llvm::Value* BlockFunctionBuilder::lane_special(ptx::SpecialRegister sreg, unsigned component, llvm::Value* lane) {
  using S = ptx::SpecialRegister;
  llvm::Value* linear = b_.CreateAdd(b_.CreateMul(warp_index(), c32(kLanes)), lane);
  switch (sreg) {
    case S::Tid:
      if (component == 0) return b_.CreateURem(linear, c32(shape_.x));
      if (component == 1) return b_.CreateURem(b_.CreateUDiv(linear, c32(shape_.x)), c32(shape_.y));
      return b_.CreateUDiv(linear, c32(shape_.x * shape_.y));
    case S::Laneid:
      return lane;
    case S::LanemaskEq:
      return b_.CreateShl(c32(1), lane);
    case S::LanemaskLt:
      return b_.CreateSub(b_.CreateShl(c32(1), lane), c32(1));
    case S::LanemaskLe:
      return b_.CreateSub(b_.CreateShl(c32(2), lane), c32(1));
    case S::LanemaskGe:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(c32(1), lane), c32(1)));
    case S::LanemaskGt:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(c32(2), lane), c32(1)));
    default:
      return nullptr;
  }
}

llvm::Value* BlockFunctionBuilder::special_register(ptx::SpecialRegister sreg, unsigned component) {
  using S = ptx::SpecialRegister;
  switch (sreg) {
    case S::Ntid:
      return c32(component == 0 ? shape_.x : component == 1 ? shape_.y : shape_.z);
    case S::Warpid:
      return warp_index();
    default:
      break;
  }
  if (mode_ == Mode::Lane) {
    if (llvm::Value* v = lane_special(sreg, component, lane_)) return v;
    // The block's registers come from the block's context, not the lane's.
    llvm::Value* saved = fl_.thread_context;
    fl_.thread_context = block_context_;
    mode_ = Mode::Uniform;
    llvm::Value* v = fl_.special_register(sreg, component);
    mode_ = Mode::Lane;
    fl_.thread_context = saved;
    return v;
  }
  // A uniform read of a thread index is the same in every lane: lane 0's.
  if (sreg == S::Tid) return lane_special(sreg, component, c32(0));
  return nullptr;
}

llvm::Value* BlockFunctionBuilder::vector_special(ptx::SpecialRegister sreg, unsigned component) {
  std::vector<llvm::Constant*> numbers;
  for (uint32_t l = 0; l < kLanes; ++l) numbers.push_back(b_.getInt32(l));
  llvm::Value* iota = llvm::ConstantVector::get(numbers);
  llvm::Value* base = b_.CreateVectorSplat(kLanes, b_.CreateMul(warp_index(), c32(kLanes)));
  using S = ptx::SpecialRegister;
  llvm::Value* linear = b_.CreateAdd(base, iota);
  auto splat = [&](uint32_t x) { return b_.CreateVectorSplat(kLanes, c32(x)); };
  switch (sreg) {
    case S::Tid:
      if (component == 0) return b_.CreateURem(linear, splat(shape_.x));
      if (component == 1) return b_.CreateURem(b_.CreateUDiv(linear, splat(shape_.x)), splat(shape_.y));
      return b_.CreateUDiv(linear, splat(shape_.x * shape_.y));
    case S::Laneid:
      return iota;
    case S::LanemaskEq:
      return b_.CreateShl(splat(1), iota);
    case S::LanemaskLt:
      return b_.CreateSub(b_.CreateShl(splat(1), iota), splat(1));
    case S::LanemaskLe:
      return b_.CreateSub(b_.CreateShl(splat(2), iota), splat(1));
    case S::LanemaskGe:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(splat(1), iota), splat(1)));
    case S::LanemaskGt:
      return b_.CreateNot(b_.CreateSub(b_.CreateShl(splat(2), iota), splat(1)));
    default: {
      Mode saved = mode_;
      mode_ = Mode::Uniform;
      llvm::Value* one = fl_.special_register(sreg, component);
      mode_ = saved;
      return b_.CreateVectorSplat(kLanes, one);
    }
  }
}

// --- operands as 32 lanes ------------------------------------------------------------

llvm::Value* BlockFunctionBuilder::uniform_read(const ptx::Operand& op, ptx::Type type) {
  bind_operand(op);
  const Mode saved = mode_;
  mode_ = Mode::Uniform;
  llvm::Value* v = fl_.read(op, type);
  mode_ = saved;
  return v;
}

llvm::Value* BlockFunctionBuilder::vector_read(const ptx::Operand& op, ptx::Type type) {
  llvm::Type* want = fl_.value_type(type);
  if (op.kind == ptx::Operand::Kind::Register && op.reg < a_.shape.size() && a_.shape[op.reg] == Shape::Varying) {
    llvm::Value* bits = load_lanes(op.reg);
    if (type == ptx::Type::Pred) return op.negated ? b_.CreateNot(bits) : bits;
    const unsigned width = ptx::bit_width(type);
    const unsigned have = register_width(op.reg);
    llvm::Type* lanes = lanes_of(fl_.int_type(width));
    if (have > width) bits = b_.CreateTrunc(bits, lanes);
    if (have < width) bits = ptx::is_signed_int(type) ? b_.CreateSExt(bits, lanes) : b_.CreateZExt(bits, lanes);
    return want->isIntegerTy() ? bits : b_.CreateBitCast(bits, lanes_of(want));
  }
  if (op.kind == ptx::Operand::Kind::SpecialRegister && special_register_varies(op.sreg, op.component, shape_)) {
    llvm::Value* v = vector_special(op.sreg, op.component);
    const unsigned width = ptx::bit_width(type);
    llvm::Type* lanes = lanes_of(fl_.int_type(width));
    if (width < 32) v = b_.CreateTrunc(v, lanes);
    if (width > 32) v = b_.CreateZExt(v, lanes);
    return want->isIntegerTy() ? v : b_.CreateBitCast(v, lanes_of(want));
  }
  return b_.CreateVectorSplat(kLanes, uniform_read(op, type));
}

void BlockFunctionBuilder::vector_write(const ptx::Operand& op, ptx::Type type, llvm::Value* value, llvm::Value* mask) {
  if (fl_.is_sink(op)) return;
  if (op.kind != ptx::Operand::Kind::Register || a_.shape[op.reg] != Shape::Varying) {
    fail("internal error: a per-lane result written to a register that is not varying");
    return;
  }
  const uint32_t r = op.reg;
  const unsigned have = register_width(r);
  llvm::Type* element = value->getType()->getScalarType();
  if (!element->isIntegerTy()) value = b_.CreateBitCast(value, lanes_of(fl_.int_type(element->getPrimitiveSizeInBits())));
  const unsigned width = value->getType()->getScalarSizeInBits();
  llvm::Type* lanes = lanes_of(fl_.int_type(have));
  if (width > have) value = b_.CreateTrunc(value, lanes);
  if (width < have) value = ptx::is_signed_int(type) ? b_.CreateSExt(value, lanes) : b_.CreateZExt(value, lanes);
  store_lanes(r, b_.CreateSelect(mask_vector(mask), value, load_lanes(r)));
}

// --- instructions ----------------------------------------------------------------------

// Instructions that act once for the warp whatever lanes run them: fences and hints.
bool acts_once_per_warp(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Membar:
    case ptx::Opcode::Fence:
    case ptx::Opcode::Prefetch:
    case ptx::Opcode::Prefetchu:
    case ptx::Opcode::Griddepcontrol:
    case ptx::Opcode::Pmevent:
      return true;
    default:
      return false;
  }
}

void BlockFunctionBuilder::emit_instruction(uint32_t statement) {
  const ptx::Instruction& inst = kernel_.body[statement].instruction;
  fl_.current = &inst;
  fl_.current_statement = statement;
  const StatementAccess& acc = access_.at(statement);
  if (inst.opcode == ptx::Opcode::Activemask) return emit_activemask(inst);
  bool uniform = acts_once_per_warp(inst);
  if (!acc.writes.empty()) {
    uniform = true;
    for (uint32_t r : acc.writes) uniform = uniform && a_.shape[r] == Shape::Uniform;
    for (uint32_t r : acc.reads) uniform = uniform && a_.shape[r] == Shape::Uniform;
  }
  if (uniform) {
    emit_uniform(inst);
  } else {
    emit_per_lane(inst, statement);
  }
}

void BlockFunctionBuilder::emit_uniform(const ptx::Instruction& inst) {
  mode_ = Mode::Uniform;
  fl_.thread_context = block_context_;
  const StatementAccess& acc = access_.at(fl_.current_statement);
  for (uint32_t r : acc.reads) bind(r);
  for (uint32_t r : acc.writes) bind(r);
  llvm::BasicBlock* after = nullptr;
  if (inst.guard && !acts_once_per_warp(inst)) {
    ptx::Operand guard;
    guard.reg = inst.guard->reg;
    guard.negated = inst.guard->negated;
    llvm::BasicBlock* then = new_block("uniform.guarded");
    after = new_block("uniform.after");
    b_.CreateCondBr(fl_.read(guard, ptx::Type::Pred), then, after);
    b_.SetInsertPoint(then);
  }
  lower_instruction(fl_, inst);
  if (after != nullptr) {
    if (b_.GetInsertBlock()->getTerminator() == nullptr) b_.CreateBr(after);
    b_.SetInsertPoint(after);
  }
}

// The lanes that execute `inst`: the current ones, less those whose guard is false. A
// uniform guard branches to `skip_to` (made here) instead.
llvm::Value* BlockFunctionBuilder::active_mask_for(const ptx::Instruction& inst, llvm::BasicBlock*& skip_to) {
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  skip_to = nullptr;
  if (!inst.guard) return mask;
  ptx::Operand guard;
  guard.reg = inst.guard->reg;
  guard.negated = inst.guard->negated;
  if (a_.shape[guard.reg] == Shape::Uniform) {
    llvm::BasicBlock* then = new_block("guarded");
    skip_to = new_block("after.guard");
    b_.CreateCondBr(uniform_read(guard, ptx::Type::Pred), then, skip_to);
    b_.SetInsertPoint(then);
    return mask;
  }
  return b_.CreateAnd(mask, mask_bits(vector_read(guard, ptx::Type::Pred)));
}

template <typename Body>
void BlockFunctionBuilder::for_each_lane(llvm::Value* mask, Body body) {
  llvm::BasicBlock* before = b_.GetInsertBlock();
  llvm::BasicBlock* header = new_block("lane");
  llvm::BasicBlock* after = new_block("lanes.done");
  b_.CreateCondBr(b_.CreateICmpEQ(mask, c32(0)), after, header);
  b_.SetInsertPoint(header);
  llvm::PHINode* left = b_.CreatePHI(i32(), 2, "lanes.left");
  left->addIncoming(mask, before);
  llvm::Value* lane = b_.CreateIntrinsic(llvm::Intrinsic::cttz, {i32()}, {left, b_.getTrue()});
  body(lane);
  llvm::Value* rest = b_.CreateAnd(left, b_.CreateSub(left, c32(1)));
  left->addIncoming(rest, b_.GetInsertBlock());
  b_.CreateCondBr(b_.CreateICmpNE(rest, c32(0)), header, after);
  b_.SetInsertPoint(after);
}

// Points the per-lane variables (and 32-bit .local addresses) at this lane's frame.
void BlockFunctionBuilder::bind_lane_frame(llvm::Value* lane) {
  llvm::Value* thread = b_.CreateAdd(b_.CreateMul(warp_index(), c32(kLanes)), lane);
  llvm::Value* offset = b_.CreateMul(b_.CreateZExt(thread, b_.getInt64Ty()), b_.getInt64(local_stride_));
  llvm::Value* frame = b_.CreateGEP(b_.getInt8Ty(), local_, offset, "lane.frame");
  fl_.local_anchor = frame;
  for (const ptx::Variable& v : kernel_.locals) {
    auto at = lane_frame_offset_.find(v.name);
    if (at == lane_frame_offset_.end()) continue;
    SymbolBinding s;
    s.space = v.space;
    s.variable = &v;
    s.address = field(frame, at->second);
    fl_.symbols[v.name] = s;
  }
}

void BlockFunctionBuilder::emit_per_lane(const ptx::Instruction& inst, uint32_t statement) {
  const StatementAccess& acc = access_.at(statement);
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  const bool may_exit = inst.opcode == ptx::Opcode::Call && callee_may_exit_;
  if (may_exit) b_.CreateStore(c32(0), lane_exits_);
  std::vector<uint32_t> touched;
  std::set_union(acc.reads.begin(), acc.reads.end(), acc.writes.begin(), acc.writes.end(), std::back_inserter(touched));
  // The lane's copies of the varying registers live in allocas of this instruction alone,
  // so that they become values local to its loop (uniform registers are read in place).
  std::vector<llvm::AllocaInst*> copies(a_.register_count, nullptr);
  for (uint32_t r : touched) {
    if (a_.shape[r] != Shape::Varying) {
      bind(r);
      continue;
    }
    copies[r] = fl_.entry_alloca(register_type(r), 1, "lane.copy");
    if (r == carry_) {
      fl_.carry_flag = copies[r];
    } else {
      fl_.registers[r] = copies[r];
    }
  }
  for_each_lane(mask, [&](llvm::Value* lane) {
    // The lane's context is made only when the lowering turns out to use it.
    llvm::Instruction* context_point = llvm::cast<llvm::Instruction>(b_.CreateAdd(lane, c32(0), "lane.here"));
    for (uint32_t r : touched) {
      if (copies[r] == nullptr) continue;
      b_.CreateStore(b_.CreateExtractElement(load_lanes(r), lane), copies[r]);
    }
    bind_lane_frame(lane);
    mode_ = Mode::Lane;
    lane_ = lane;
    fl_.thread_context = lane_context_;
    const unsigned uses_before = lane_context_->getNumUses();
    lower_instruction(fl_, inst);
    if (lane_context_->getNumUses() != uses_before || may_exit) {
      llvm::IRBuilder<> at(context_point);
      llvm::Type* params[] = {fl_.ptr_type(), i32(), i32()};
      at.CreateCall(runtime(kCompiledEnterLane, b_.getVoidTy(), params), {frame_, at.CreateLoad(i32(), warp_index_), lane});
    }
    if (may_exit) {
      llvm::Value* exited = load32(lane_context_, offsetof(ThreadContext, exited));
      llvm::Value* bit = b_.CreateSelect(b_.CreateICmpNE(exited, c32(0)), b_.CreateShl(c32(1), lane), c32(0));
      b_.CreateStore(b_.CreateOr(b_.CreateLoad(i32(), lane_exits_), bit), lane_exits_);
    }
    for (uint32_t r : acc.writes) {
      if (copies[r] == nullptr) continue;
      llvm::Value* lane_value = b_.CreateLoad(copies[r]->getAllocatedType(), copies[r]);
      store_lanes(r, b_.CreateInsertElement(load_lanes(r), lane_value, lane));
    }
    mode_ = Mode::Uniform;
    lane_ = nullptr;
    fl_.thread_context = block_context_;
  });

  if (may_exit) {
    // Lanes that executed exit inside the function have ended.
    llvm::Value* exits = b_.CreateLoad(i32(), lane_exits_);
    exit_lanes(exits);
    b_.CreateStore(b_.CreateAnd(b_.CreateLoad(i32(), cur_mask_), b_.CreateNot(exits)), cur_mask_);
  }
  if (skip_to != nullptr) {
    b_.CreateBr(skip_to);
    b_.SetInsertPoint(skip_to);
  }
}

// activemask.b32 d: the lanes executing it together.
void BlockFunctionBuilder::emit_activemask(const ptx::Instruction& inst) {
  if (!fl_.expect_operands(inst, 1)) return;
  llvm::BasicBlock* skip_to = nullptr;
  llvm::Value* mask = active_mask_for(inst, skip_to);
  vector_write(inst.operands[0], ptx::Type::B32, b_.CreateVectorSplat(kLanes, mask), mask);
  if (skip_to != nullptr) {
    b_.CreateBr(skip_to);
    b_.SetInsertPoint(skip_to);
  }
}

// --- control flow ----------------------------------------------------------------------

void BlockFunctionBuilder::add_pending(uint32_t target, llvm::Value* mask) {
  const uint32_t rank = a_.cfg.rank[target];
  llvm::Value* slot = b_.CreateConstGEP2_32(pend_->getAllocatedType(), pend_, 0, rank);
  b_.CreateStore(b_.CreateOr(b_.CreateLoad(i32(), slot), mask), slot);
  llvm::Value* lowest = b_.CreateLoad(i32(), min_pending_);
  b_.CreateStore(b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, lowest, c32(rank)), min_pending_);
}

// The current block's lanes `mask` go on at `target`: at once, unless lanes wait at an
// earlier block.
void BlockFunctionBuilder::go_to(uint32_t target, llvm::Value* mask) {
  if (!candidate_[target]) {
    b_.CreateStore(mask, cur_mask_);
    b_.CreateBr(block_bb_[target]);
    return;
  }
  llvm::BasicBlock* now = new_block("goto.now");
  llvm::BasicBlock* queue = new_block("goto.queue");
  llvm::Value* lowest = b_.CreateLoad(i32(), min_pending_);
  b_.CreateCondBr(b_.CreateICmpULT(c32(a_.cfg.rank[target]), lowest), now, queue);
  b_.SetInsertPoint(now);
  b_.CreateStore(mask, cur_mask_);
  b_.CreateBr(block_bb_[target]);
  b_.SetInsertPoint(queue);
  add_pending(target, mask);
  b_.CreateBr(dispatch_bb_);
}

// A varying branch: when both sides have lanes, both queue and the lower one runs first.
void BlockFunctionBuilder::split(uint32_t taken, llvm::Value* taken_mask, uint32_t other, llvm::Value* other_mask) {
  llvm::BasicBlock* only_taken = new_block("split.taken");
  llvm::BasicBlock* not_only_taken = new_block("split.not_taken");
  llvm::BasicBlock* only_other = new_block("split.other");
  llvm::BasicBlock* both = new_block("split.both");
  b_.CreateCondBr(b_.CreateICmpEQ(other_mask, c32(0)), only_taken, not_only_taken);
  b_.SetInsertPoint(only_taken);
  go_to(taken, taken_mask);
  b_.SetInsertPoint(not_only_taken);
  b_.CreateCondBr(b_.CreateICmpEQ(taken_mask, c32(0)), only_other, both);
  b_.SetInsertPoint(only_other);
  go_to(other, other_mask);
  b_.SetInsertPoint(both);
  add_pending(taken, taken_mask);
  add_pending(other, other_mask);
  b_.CreateBr(dispatch_bb_);
}

// At a spin loop's back-edge to `target`: once the run's budget is spent, the lanes taking
// it (`taken_mask`) park to go on next round and `others_after_yield` handles the rest;
// otherwise `otherwise` branches as usual.
void BlockFunctionBuilder::emit_yield_check(uint32_t target, llvm::Value* taken_mask,
                                            const std::function<void()>& otherwise,
                                            const std::function<void()>& others_after_yield) {
  llvm::Value* left = b_.CreateSub(b_.CreateLoad(i32(), yield_budget_), c32(1));
  b_.CreateStore(left, yield_budget_);
  llvm::BasicBlock* yield = new_block("yield");
  llvm::BasicBlock* no_yield = new_block("no.yield");
  b_.CreateCondBr(b_.CreateICmpEQ(left, c32(0)), yield, no_yield,
                  llvm::MDBuilder(fl_.ctx).createBranchWeights(1, kSpinsBetweenYields));
  b_.SetInsertPoint(yield);
  b_.CreateStore(c32(kSpinsBetweenYields), yield_budget_);
  llvm::BasicBlock* park = new_block("yield.park");
  llvm::BasicBlock* rest = new_block("yield.rest");
  b_.CreateCondBr(b_.CreateICmpNE(taken_mask, c32(0)), park, rest);
  b_.SetInsertPoint(park);
  add_park(yield_point_[target], taken_mask, ParkKind::Yield);
  b_.CreateBr(rest);
  b_.SetInsertPoint(rest);
  others_after_yield();
  b_.SetInsertPoint(no_yield);
  otherwise();
}

void BlockFunctionBuilder::exit_lanes(llvm::Value* mask) {
  llvm::Value* state = warp_state();
  llvm::Value* live = load32(state, offsetof(CompiledWarp, live));
  store32(b_.CreateAnd(live, b_.CreateNot(mask)), state, offsetof(CompiledWarp, live));
}

void BlockFunctionBuilder::unsupported(const std::string& what) {
  llvm::Type* params[] = {fl_.ptr_type(), i32(), fl_.ptr_type()};
  llvm::Value* text = b_.CreateGlobalStringPtr(what, "unsupported");
  b_.CreateCall(runtime(kCompiledUnsupported, b_.getVoidTy(), params), {frame_, warp_index(), text});
  b_.CreateUnreachable();
}

void BlockFunctionBuilder::emit_block(uint32_t b) {
  b_.SetInsertPoint(block_bb_[b]);
  const CfgBlock& block = a_.cfg.blocks[b];
  const ptx::Instruction* last = a_.cfg.last_instruction(kernel_, b);
  // The instruction that ends the block is emit_block_end's, but a trap (or a body's last
  // instruction, falling off the end) that ends it runs as any other.
  bool skip_last = block.how != BlockEnd::FallThrough && block.how != BlockEnd::Exit;
  if (block.how == BlockEnd::Exit && last != nullptr)
    skip_last = last->opcode == ptx::Opcode::Ret || last->opcode == ptx::Opcode::Exit;
  for (uint32_t i = block.first; i < block.end; ++i) {
    if (kernel_.body[i].kind != ptx::Statement::Kind::Instruction) continue;
    if (skip_last && &kernel_.body[i].instruction == last) break;
    emit_instruction(i);
    if (fl_.failed()) return;
  }
  emit_block_end(b);
}

void BlockFunctionBuilder::emit_block_end(uint32_t b) {
  const CfgBlock& block = a_.cfg.blocks[b];
  const ptx::Instruction* last = a_.cfg.last_instruction(kernel_, b);
  if (b_.GetInsertBlock()->getTerminator() != nullptr) return;  // ended inside (trap)
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  const bool yields = last != nullptr && yield_branches_.count(last) != 0;
  switch (block.how) {
    case BlockEnd::FallThrough:
    case BlockEnd::Branch:
      if (yields) {
        emit_yield_check(
            block.successors[0], mask, [&] { go_to(block.successors[0], mask); },
            [&] { b_.CreateBr(dispatch_bb_); });
        return;
      }
      go_to(block.successors[0], mask);
      return;
    case BlockEnd::Exit:
      exit_lanes(mask);
      b_.CreateBr(dispatch_bb_);
      return;
    case BlockEnd::CondBranch:
    case BlockEnd::CondExit: {
      fl_.current = last;
      ptx::Operand guard;
      guard.reg = last->guard->reg;
      guard.negated = last->guard->negated;
      const bool exits = block.how == BlockEnd::CondExit;
      const uint32_t taken = exits ? kNone : block.successors[0];
      const uint32_t other = exits ? block.successors[0] : block.successors.size() > 1 ? block.successors[1]
                                                                                         : block.successors[0];
      if (a_.shape[guard.reg] == Shape::Uniform) {
        llvm::BasicBlock* yes = new_block("branch.taken");
        llvm::BasicBlock* no = new_block("branch.not_taken");
        b_.CreateCondBr(uniform_read(guard, ptx::Type::Pred), yes, no);
        b_.SetInsertPoint(yes);
        if (exits) {
          exit_lanes(mask);
          b_.CreateBr(dispatch_bb_);
        } else if (yields) {
          emit_yield_check(
              taken, mask, [&] { go_to(taken, mask); }, [&] { b_.CreateBr(dispatch_bb_); });
        } else {
          go_to(taken, mask);
        }
        b_.SetInsertPoint(no);
        go_to(other, mask);
        return;
      }
      llvm::Value* bits = mask_bits(vector_read(guard, ptx::Type::Pred));
      llvm::Value* taken_mask = b_.CreateAnd(mask, bits);
      llvm::Value* other_mask = b_.CreateAnd(mask, b_.CreateNot(bits));
      if (yields && !exits && taken != other) {
        emit_yield_check(
            taken, taken_mask, [&] { split(taken, taken_mask, other, other_mask); },
            [&] {
              llvm::BasicBlock* go_on = new_block("yield.others");
              b_.CreateCondBr(b_.CreateICmpEQ(other_mask, c32(0)), dispatch_bb_, go_on);
              b_.SetInsertPoint(go_on);
              go_to(other, other_mask);
            });
        return;
      }
      if (exits) {
        exit_lanes(taken_mask);
        llvm::BasicBlock* go_on = new_block("exit.others");
        b_.CreateCondBr(b_.CreateICmpEQ(other_mask, c32(0)), dispatch_bb_, go_on);
        b_.SetInsertPoint(go_on);
        go_to(other, other_mask);
        return;
      }
      if (taken == other) {
        go_to(taken, mask);
        return;
      }
      split(taken, taken_mask, other, other_mask);
      return;
    }
    case BlockEnd::Switch: {
      fl_.current = last;
      const ptx::Operand& index = last->operands[0];
      if (!(index.kind == ptx::Operand::Kind::Register && a_.shape[index.reg] == Shape::Varying)) {
        // One index for all lanes: a jump table, as in the scalar translation.
        llvm::BasicBlock* bad = new_block("brx.out_of_range");
        llvm::SwitchInst* jump = b_.CreateSwitch(uniform_read(index, ptx::Type::U32), bad);
        for (uint32_t t = 0; t < block.successors.size(); ++t) {
          llvm::BasicBlock* to = new_block("brx.case");
          jump->addCase(b_.getInt32(t), to);
          b_.SetInsertPoint(to);
          go_to(block.successors[t], mask);
        }
        b_.SetInsertPoint(bad);
        b_.CreateCall(runtime(kTrap, b_.getVoidTy(), {fl_.ptr_type()}), {block_context_});
        b_.CreateUnreachable();
        return;
      }
      llvm::Value* lanes = vector_read(index, ptx::Type::U32);
      llvm::Value* unclaimed = mask;
      std::vector<std::pair<uint32_t, llvm::Value*>> targets;
      for (uint32_t t = 0; t < block.successors.size(); ++t) {
        llvm::Value* hits = mask_bits(b_.CreateICmpEQ(lanes, b_.CreateVectorSplat(kLanes, c32(t))));
        llvm::Value* part = b_.CreateAnd(mask, hits);
        unclaimed = b_.CreateAnd(unclaimed, b_.CreateNot(hits));
        targets.emplace_back(block.successors[t], part);
      }
      llvm::BasicBlock* bad = new_block("brx.out_of_range");
      llvm::BasicBlock* good = new_block("brx.in_range");
      b_.CreateCondBr(b_.CreateICmpNE(unclaimed, c32(0)), bad, good);
      b_.SetInsertPoint(bad);
      // An index past the table ends the thread like trap (as the scalar lowering does).
      b_.CreateCall(runtime(kTrap, b_.getVoidTy(), {fl_.ptr_type()}), {block_context_});
      b_.CreateUnreachable();
      b_.SetInsertPoint(good);
      for (auto& [target, part] : targets) {
        llvm::BasicBlock* next = new_block("brx.next");
        llvm::BasicBlock* queue = new_block("brx.queue");
        b_.CreateCondBr(b_.CreateICmpNE(part, c32(0)), queue, next);
        b_.SetInsertPoint(queue);
        add_pending(target, part);
        b_.CreateBr(next);
        b_.SetInsertPoint(next);
      }
      b_.CreateBr(dispatch_bb_);
      return;
    }
    case BlockEnd::Park:
      fl_.current = last;
      if (is_barrier(*last)) {
        emit_park(b, *last);
      } else {
        emit_collective(b, *last);
      }
      return;
  }
}

// bar.sync / bar.red / barrier.sync a{, b}: the lanes wait for the round's end (their
// registers stay in the warp's file).
void BlockFunctionBuilder::emit_park(uint32_t b, const ptx::Instruction& inst) {
  const CfgBlock& block = a_.cfg.blocks[b];
  const uint32_t resume = block.successors[0];
  const bool reduction = inst.q.barrier == ptx::BarrierMode::Red;
  const size_t first = reduction ? 1 : 0;
  const size_t operand_end = reduction ? inst.operands.size() - 1 : inst.operands.size();
  if (inst.operands.size() <= first) {
    fail("a barrier without its barrier number");
    return;
  }
  for (size_t i = first; i < operand_end; ++i) {
    const ptx::Operand& op = inst.operands[i];
    if (op.kind == ptx::Operand::Kind::Register && a_.shape[op.reg] != Shape::Uniform) {
      unsupported(fmt::format("a barrier whose number or thread count differs between lanes (line {})", inst.pos.line));
      return;
    }
  }
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  llvm::Value* id = uniform_read(inst.operands[first], ptx::Type::U32);
  llvm::Value* count = operand_end - first == 2 ? uniform_read(inst.operands[first + 1], ptx::Type::U32) : c32(0);
  llvm::Value* predicates = reduction ? b_.CreateAnd(mask, mask_bits(vector_read(inst.operands.back(), ptx::Type::Pred)))
                                      : c32(0);
  llvm::Value* state = warp_state();
  (void)state;
  (void)resume;
  add_park(park_point_[b], mask, reduction ? ParkKind::Reduce : ParkKind::Sync, id, count, predicates);
  b_.CreateBr(dispatch_bb_);
}

void BlockFunctionBuilder::add_park(uint32_t point, llvm::Value* mask, ParkKind kind, llvm::Value* barrier,
                                    llvm::Value* count, llvm::Value* predicates) {
  llvm::Value* state = warp_state();
  llvm::Value* parks = load32(state, offsetof(CompiledWarp, park_count));
  store32(b_.CreateAdd(parks, c32(1)), state, offsetof(CompiledWarp, park_count));
  llvm::Value* entry = b_.CreateGEP(
      b_.getInt8Ty(), state,
      b_.CreateAdd(b_.getInt64(offsetof(CompiledWarp, parks)),
                   b_.CreateMul(b_.CreateZExt(parks, b_.getInt64Ty()), b_.getInt64(sizeof(CompiledPark)))));
  store32(c32(point), entry, offsetof(CompiledPark, point));
  store32(mask, entry, offsetof(CompiledPark, mask));
  store32(barrier != nullptr ? barrier : c32(0), entry, offsetof(CompiledPark, barrier));
  store32(count != nullptr ? count : c32(0), entry, offsetof(CompiledPark, thread_count));
  store32(c32(static_cast<uint32_t>(kind)), entry, offsetof(CompiledPark, kind));
  store32(predicates != nullptr ? predicates : c32(0), entry, offsetof(CompiledPark, predicates));
}

// What a collective instruction names: its kind, operation and operands.
struct CollectiveOperands {
  WarpCombineKind kind = WarpCombineKind::Nothing;
  uint32_t operation = 0;
  const ptx::Operand* value = nullptr;   // the offered value
  const ptx::Operand* second = nullptr;  // shfl: b
  const ptx::Operand* third = nullptr;   // shfl: c
  ptx::Type value_type = ptx::Type::B32;
  bool pair = false;                     // d|p
};

// Empty when the instruction is malformed.
std::string decode_collective(const ptx::Instruction& inst, CollectiveOperands& c) {
  const size_t n = inst.operands.size();
  c.pair = ptx::has_destination_pair(inst);
  switch (inst.opcode) {
    case ptx::Opcode::Shfl:
      c.kind = WarpCombineKind::Shuffle;
      c.operation = static_cast<uint32_t>(inst.q.shuffle);
      if (n != (c.pair ? 6u : 5u)) return "expected shfl.sync d[|p], a, b, c, membermask";
      c.value = &inst.operands[c.pair ? 2 : 1];
      c.second = &inst.operands[c.pair ? 3 : 2];
      c.third = &inst.operands[c.pair ? 4 : 3];
      return {};
    case ptx::Opcode::Vote:
      c.kind = WarpCombineKind::Vote;
      c.operation = static_cast<uint32_t>(inst.q.vote);
      if (n != 3) return "expected vote.sync d, p, membermask";
      c.value = &inst.operands[1];
      c.value_type = ptx::Type::Pred;
      return {};
    case ptx::Opcode::Match:
      c.kind = WarpCombineKind::Match;
      c.operation = static_cast<uint32_t>(inst.q.vote) | (inst.q.type == ptx::Type::B64 ? 0x100 : 0);
      if (n != (c.pair ? 4u : 3u)) return "expected match.sync d[|p], a, membermask";
      c.value = &inst.operands[c.pair ? 2 : 1];
      c.value_type = inst.q.type;
      return {};
    case ptx::Opcode::Redux:
      c.kind = WarpCombineKind::Redux;
      c.operation = static_cast<uint32_t>(inst.q.atomic_op);
      if (inst.q.type == ptx::Type::S32 && (inst.q.atomic_op == ptx::AtomicOp::Min || inst.q.atomic_op == ptx::AtomicOp::Max))
        c.operation |= 0x100;
      if (n != 3) return "expected redux.sync d, a, membermask";
      c.value = &inst.operands[1];
      c.value_type = inst.q.type;
      return {};
    case ptx::Opcode::Elect:
      c.kind = WarpCombineKind::Elect;
      if (n != (c.pair ? 3u : 2u)) return "expected elect.sync d|p, membermask";
      return {};
    default:  // bar.warp.sync membermask
      if (n != 1) return "expected bar.warp.sync membermask";
      return {};
  }
}

// The destinations of a collective from its 32 results (u64: d in bits 0..31, p in bit 32).
void BlockFunctionBuilder::write_collective_results(const ptx::Instruction& inst, llvm::Value* out,
                                                    llvm::Value* mask) {
  CollectiveOperands c;
  if (!decode_collective(inst, c).empty()) return;
  llvm::Value* low = b_.CreateTrunc(out, lanes_of(i32()));
  llvm::Value* bit32 = b_.CreateTrunc(b_.CreateLShr(out, b_.CreateVectorSplat(kLanes, b_.getInt64(32))),
                                      lanes_of(b_.getInt1Ty()));
  switch (c.kind) {
    case WarpCombineKind::Vote:
      if (inst.q.vote == ptx::VoteMode::Ballot) {
        vector_write(inst.operands[0], ptx::Type::B32, low, mask);
      } else {
        vector_write(inst.operands[0], ptx::Type::Pred, b_.CreateICmpNE(low, b_.CreateVectorSplat(kLanes, c32(0))),
                     mask);
      }
      break;
    case WarpCombineKind::Shuffle:
    case WarpCombineKind::Match:
    case WarpCombineKind::Elect:
    case WarpCombineKind::Redux:
      vector_write(inst.operands[0], c.kind == WarpCombineKind::Redux ? inst.q.type : ptx::Type::B32, low, mask);
      if (c.pair) vector_write(inst.operands[1], ptx::Type::Pred, bit32, mask);
      break;
    case WarpCombineKind::Nothing:
      break;
  }
}

// A warp collective. When its members are exactly the lanes running it together (one
// membermask), their offers go straight to the fiber strategy's combine
// (__cucpu_warp_combine). Otherwise the lanes meet the rest of the warp at the executor's
// rendezvous, as fibers do: lanes whose members (diverged lanes elsewhere, other tiles'
// lanes) have not all arrived park at the next block until the collective completes.
void BlockFunctionBuilder::emit_collective(uint32_t b, const ptx::Instruction& inst) {
  const uint32_t next = a_.cfg.blocks[b].successors[0];
  CollectiveOperands c;
  if (std::string problem = decode_collective(inst, c); !problem.empty()) return fail(problem);
  llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
  llvm::Type* i64 = b_.getInt64Ty();
  llvm::Type* lanes64 = lanes_of(i64);
  llvm::Value* values = nullptr;
  llvm::Value* arguments = nullptr;
  if (c.value != nullptr) {
    llvm::Value* v = vector_read(*c.value, c.value_type);
    if (!v->getType()->getScalarType()->isIntegerTy())
      v = b_.CreateBitCast(v, lanes_of(fl_.int_type(v->getType()->getScalarSizeInBits())));
    values = b_.CreateZExt(v, lanes64);
  }
  if (c.second != nullptr) {
    llvm::Value* lane_operand = b_.CreateZExt(vector_read(*c.second, ptx::Type::B32), lanes64);
    llvm::Value* clamp = b_.CreateZExt(vector_read(*c.third, ptx::Type::B32), lanes64);
    arguments = b_.CreateOr(lane_operand, b_.CreateShl(clamp, b_.CreateVectorSplat(kLanes, b_.getInt64(32))));
  }
  const ptx::Operand& member_operand = inst.operands.back();
  const bool one_membermask =
      !(member_operand.kind == ptx::Operand::Kind::Register && a_.shape[member_operand.reg] == Shape::Varying);
  llvm::BasicBlock* meet = new_block("collective.meet");
  if (one_membermask) {
    llvm::Value* live = load32(warp_state(), offsetof(CompiledWarp, live));
    llvm::Value* members = b_.CreateAnd(uniform_read(member_operand, ptx::Type::B32), live);
    llvm::BasicBlock* together = new_block("collective.together");
    b_.CreateCondBr(b_.CreateICmpEQ(members, mask), together, meet);
    b_.SetInsertPoint(together);
    llvm::Type* array = llvm::ArrayType::get(i64, kLanes);
    llvm::AllocaInst* value_buffer = fl_.entry_alloca(array, 64, "offers.values");
    llvm::AllocaInst* argument_buffer = fl_.entry_alloca(array, 64, "offers.arguments");
    llvm::AllocaInst* result_buffer = fl_.entry_alloca(array, 64, "results");
    if (values != nullptr) b_.CreateAlignedStore(values, value_buffer, llvm::Align(64));
    if (arguments != nullptr) b_.CreateAlignedStore(arguments, argument_buffer, llvm::Align(64));
    llvm::Type* params[] = {i32(), i32(), i32(), fl_.ptr_type(), fl_.ptr_type(), fl_.ptr_type()};
    b_.CreateCall(runtime(kWarpCombine, b_.getVoidTy(), params),
                  {c32(static_cast<uint32_t>(c.kind)), c32(c.operation), members, value_buffer, argument_buffer,
                   result_buffer});
    write_collective_results(inst, b_.CreateAlignedLoad(lanes64, result_buffer, llvm::Align(64)), mask);
    go_to(next, mask);
  } else {
    b_.CreateBr(meet);
  }
  b_.SetInsertPoint(meet);
  llvm::StructType* call_type = llvm::StructType::get(
      fl_.ctx, {i32(), i32(), i32(), i32(), llvm::ArrayType::get(i32(), kLanes), llvm::ArrayType::get(i64, kLanes),
                llvm::ArrayType::get(i64, kLanes), llvm::ArrayType::get(i64, kLanes)});
  llvm::AllocaInst* call = fl_.entry_alloca(call_type, 64, "collective");
  store32(c32(static_cast<uint32_t>(c.kind)), call, offsetof(CompiledCollective, kind));
  store32(c32(c.operation), call, offsetof(CompiledCollective, operation));
  store32(mask, call, offsetof(CompiledCollective, active));
  const llvm::Align sixteen(16);  // the arrays' offsets in CompiledCollective
  b_.CreateAlignedStore(vector_read(member_operand, ptx::Type::B32),
                        field(call, offsetof(CompiledCollective, membermasks)), sixteen);
  if (values != nullptr) b_.CreateAlignedStore(values, field(call, offsetof(CompiledCollective, values)), sixteen);
  if (arguments != nullptr)
    b_.CreateAlignedStore(arguments, field(call, offsetof(CompiledCollective, arguments)), sixteen);
  llvm::Type* params[] = {fl_.ptr_type(), i32(), fl_.ptr_type()};
  llvm::Value* done = b_.CreateCall(runtime(kCompiledCollective, i32(), params), {frame_, warp_index(), call});
  write_collective_results(
      inst, b_.CreateAlignedLoad(lanes64, field(call, offsetof(CompiledCollective, results)), sixteen), done);
  llvm::Value* parked = b_.CreateAnd(mask, b_.CreateNot(done));
  llvm::BasicBlock* park = new_block("collective.park");
  llvm::BasicBlock* after_park = new_block("collective.parked");
  b_.CreateCondBr(b_.CreateICmpNE(parked, c32(0)), park, after_park);
  b_.SetInsertPoint(park);
  add_park(park_point_[b], parked, ParkKind::Collective);
  b_.CreateBr(after_park);
  b_.SetInsertPoint(after_park);
  llvm::BasicBlock* go_on = new_block("collective.go_on");
  b_.CreateCondBr(b_.CreateICmpEQ(done, c32(0)), dispatch_bb_, go_on);
  b_.SetInsertPoint(go_on);
  go_to(next, done);
}

// The lowest queued block runs next with its lanes; none: the warp's run is over.
void BlockFunctionBuilder::emit_dispatch() {
  b_.SetInsertPoint(dispatch_bb_);
  llvm::BasicBlock* run = new_block("dispatch.run");
  llvm::Value* lowest = b_.CreateLoad(i32(), min_pending_);
  llvm::BasicBlock* done = new_block("warp.done");
  b_.CreateCondBr(b_.CreateICmpEQ(lowest, c32(kNone)), done, run);
  b_.SetInsertPoint(run);
  const uint32_t ranks = static_cast<uint32_t>(a_.cfg.order.size());
  llvm::Value* slot = b_.CreateGEP(pend_->getAllocatedType(), pend_, {c32(0), lowest});
  llvm::Value* mask = b_.CreateLoad(i32(), slot);
  b_.CreateStore(c32(0), slot);
  b_.CreateStore(mask, cur_mask_);
  // The next queued block after it, if any.
  llvm::BasicBlock* scan = new_block("dispatch.scan");
  llvm::BasicBlock* found = new_block("dispatch.found");
  llvm::BasicBlock* before = b_.GetInsertBlock();
  llvm::Value* after_lowest = b_.CreateAdd(lowest, c32(1));
  b_.CreateBr(scan);
  b_.SetInsertPoint(scan);
  llvm::PHINode* k = b_.CreatePHI(i32(), 2);
  k->addIncoming(after_lowest, before);
  llvm::BasicBlock* check = new_block("dispatch.check");
  b_.CreateCondBr(b_.CreateICmpUGE(k, c32(ranks)), found, check);
  b_.SetInsertPoint(check);
  llvm::Value* queued = b_.CreateLoad(i32(), b_.CreateGEP(pend_->getAllocatedType(), pend_, {c32(0), k}));
  llvm::Value* next_k = b_.CreateAdd(k, c32(1));
  k->addIncoming(next_k, check);
  b_.CreateCondBr(b_.CreateICmpNE(queued, c32(0)), found, scan);
  b_.SetInsertPoint(found);
  llvm::PHINode* next = b_.CreatePHI(i32(), 2);
  next->addIncoming(c32(kNone), scan);
  next->addIncoming(k, check);
  b_.CreateStore(next, min_pending_);
  llvm::SwitchInst* jump = b_.CreateSwitch(lowest, done);
  for (uint32_t block = 0; block < a_.cfg.blocks.size(); ++block)
    if (candidate_[block]) jump->addCase(b_.getInt32(a_.cfg.rank[block]), block_bb_[block]);
  b_.SetInsertPoint(done);
  b_.CreateBr(take_run_bb_);
}

// Where runs begin: the kernel's entry (live registers start at 0, as in the scalar
// translation) and each barrier's resume point (a bar.red's destination gets the
// completion's vote).
void BlockFunctionBuilder::emit_stubs() {
  stub_bb_.clear();
  for (uint32_t p = 0; p < points_.size(); ++p) {
    const uint32_t block = points_[p].block;
    const ptx::Instruction* after = points_[p].after;
    llvm::BasicBlock* stub = new_block(fmt::format("resume.{}", p));
    stub_bb_.push_back(stub);
    b_.SetInsertPoint(stub);
    llvm::Value* mask = b_.CreateLoad(i32(), cur_mask_);
    if (p == 0) {
      for (uint32_t r = 0; r < a_.register_count; ++r) {
        if (!a_.live_in[block].test(r) || reg_offset_[r] == kNone) continue;
        if (a_.shape[r] == Shape::Uniform) {
          b_.CreateStore(llvm::Constant::getNullValue(register_type(r)), slot(r));
        } else {
          store_lanes(r, llvm::Constant::getNullValue(lanes_of(register_type(r))));
        }
      }
    } else if (after != nullptr && is_barrier(*after) && after->q.barrier == ptx::BarrierMode::Red) {
      // bar.red's destination: the vote of the completion that released these lanes.
      fl_.current = after;
      llvm::Value* true_count = b_.CreateLoad(i32(), run_vote_true_);
      llvm::Value* threads = b_.CreateLoad(i32(), run_vote_threads_);
      const ptx::AtomicOp op = after->q.atomic_op;
      if (op == ptx::AtomicOp::Popc) {
        vector_write(after->operands[0], ptx::Type::U32, b_.CreateVectorSplat(kLanes, true_count), mask);
      } else {
        llvm::Value* result = op == ptx::AtomicOp::And ? b_.CreateICmpEQ(true_count, threads)
                                                       : b_.CreateICmpNE(true_count, c32(0));
        vector_write(after->operands[0], ptx::Type::Pred, b_.CreateVectorSplat(kLanes, result), mask);
      }
    } else if (after != nullptr && is_warp_collective(*after)) {
      // A collective's destinations: the results its completion left for these lanes.
      fl_.current = after;
      llvm::AllocaInst* results =
          fl_.entry_alloca(llvm::ArrayType::get(b_.getInt64Ty(), kLanes), 64, "parked.results");
      llvm::Type* params[] = {fl_.ptr_type(), i32(), i32(), fl_.ptr_type()};
      b_.CreateCall(runtime(kCompiledCollectiveResults, b_.getVoidTy(), params), {frame_, warp_index(), mask, results});
      write_collective_results(*after, b_.CreateAlignedLoad(lanes_of(b_.getInt64Ty()), results, llvm::Align(64)), mask);
    }
    b_.CreateBr(block_bb_[block]);
  }
}

// The rounds, the warps within a round, and the end of a round.
void BlockFunctionBuilder::emit_round_structure() {
  // round: start with warp 0.
  b_.SetInsertPoint(round_bb_);
  b_.CreateStore(c32(0), warp_index_);
  b_.CreateBr(warp_loop_bb_);

  b_.SetInsertPoint(warp_loop_bb_);
  llvm::BasicBlock* this_warp = new_block("warp");
  b_.CreateCondBr(b_.CreateICmpULT(warp_index(), c32(warp_count_)), this_warp, round_end_bb_);
  b_.SetInsertPoint(this_warp);
  b_.CreateBr(take_run_bb_);

  // take_run: the warp's next run, or the next warp.
  b_.SetInsertPoint(take_run_bb_);
  llvm::Value* state = warp_state();
  llvm::Value* runs = load32(state, offsetof(CompiledWarp, run_count));
  llvm::BasicBlock* next_warp = new_block("warp.next");
  llvm::BasicBlock* start = new_block("run.start");
  b_.CreateCondBr(b_.CreateICmpEQ(runs, c32(0)), next_warp, start);
  b_.SetInsertPoint(start);
  llvm::Value* last = b_.CreateSub(runs, c32(1));
  store32(last, state, offsetof(CompiledWarp, run_count));
  llvm::Value* entry = b_.CreateGEP(
      b_.getInt8Ty(), state,
      b_.CreateAdd(b_.getInt64(offsetof(CompiledWarp, runs)),
                   b_.CreateMul(b_.CreateZExt(last, b_.getInt64Ty()), b_.getInt64(sizeof(CompiledRun)))));
  llvm::Value* point = load32(entry, offsetof(CompiledRun, point));
  b_.CreateStore(load32(entry, offsetof(CompiledRun, mask)), cur_mask_);
  b_.CreateStore(load32(entry, offsetof(CompiledRun, vote_true)), run_vote_true_);
  b_.CreateStore(load32(entry, offsetof(CompiledRun, vote_threads)), run_vote_threads_);
  b_.CreateStore(c32(kNone), min_pending_);
  b_.CreateStore(c32(kSpinsBetweenYields), yield_budget_);
  store32(b_.CreateMul(warp_index(), c32(kLanes)), frame_, offsetof(CompiledBlockFrame, current_thread));
  llvm::SwitchInst* jump = b_.CreateSwitch(point, stub_bb_[0]);
  for (uint32_t p = 1; p < stub_bb_.size(); ++p) jump->addCase(b_.getInt32(p), stub_bb_[p]);

  b_.SetInsertPoint(next_warp);
  b_.CreateStore(b_.CreateAdd(warp_index(), c32(1)), warp_index_);
  b_.CreateBr(warp_loop_bb_);

  // round_end: if every warp with live lanes parked them all at one bar.sync 0 (no count,
  // no reduction) at the same point, they all go on there; else ask the executor.
  b_.SetInsertPoint(round_end_bb_);
  llvm::BasicBlock* check = new_block("round.check");
  llvm::BasicBlock* checked = new_block("round.checked");
  llvm::BasicBlock* settle = new_block("round.settle");
  llvm::BasicBlock* release = new_block("round.release");
  b_.CreateBr(check);
  b_.SetInsertPoint(check);
  llvm::PHINode* w = b_.CreatePHI(i32(), 2, "w");
  llvm::PHINode* common = b_.CreatePHI(i32(), 2, "common.point");
  w->addIncoming(c32(0), round_end_bb_);
  common->addIncoming(c32(kNone), round_end_bb_);
  llvm::BasicBlock* body = new_block("round.check.warp");
  b_.CreateCondBr(b_.CreateICmpULT(w, c32(warp_count_)), body, checked);
  b_.SetInsertPoint(body);
  b_.CreateStore(w, warp_index_);
  llvm::Value* ws = warp_state();
  llvm::Value* live = load32(ws, offsetof(CompiledWarp, live));
  llvm::Value* parks = load32(ws, offsetof(CompiledWarp, park_count));
  llvm::Value* park = field(ws, offsetof(CompiledWarp, parks));
  llvm::Value* park_point = load32(park, offsetof(CompiledPark, point));
  llvm::Value* simple = b_.CreateAnd(
      b_.CreateAnd(b_.CreateICmpEQ(parks, c32(1)), b_.CreateICmpEQ(load32(park, offsetof(CompiledPark, mask)), live)),
      b_.CreateAnd(b_.CreateICmpEQ(b_.CreateOr(load32(park, offsetof(CompiledPark, barrier)),
                                               load32(park, offsetof(CompiledPark, thread_count))),
                                   c32(0)),
                   b_.CreateICmpEQ(load32(park, offsetof(CompiledPark, kind)),
                                   c32(static_cast<uint32_t>(ParkKind::Sync)))));
  simple = b_.CreateAnd(simple, b_.CreateOr(b_.CreateICmpEQ(common, c32(kNone)), b_.CreateICmpEQ(common, park_point)));
  llvm::Value* ok = b_.CreateOr(b_.CreateICmpEQ(live, c32(0)), simple);
  llvm::Value* new_common = b_.CreateSelect(b_.CreateICmpEQ(live, c32(0)), common, park_point);
  llvm::BasicBlock* next = new_block("round.check.next");
  b_.CreateCondBr(ok, next, settle);
  b_.SetInsertPoint(next);
  w->addIncoming(b_.CreateAdd(w, c32(1)), next);
  common->addIncoming(new_common, next);
  b_.CreateBr(check);

  b_.SetInsertPoint(checked);
  b_.CreateCondBr(b_.CreateICmpEQ(common, c32(kNone)), settle, release);

  // Every live warp's lanes go on at the common point.
  b_.SetInsertPoint(release);
  llvm::BasicBlock* release_loop = new_block("release.loop");
  llvm::BasicBlock* release_warp = new_block("release.warp");
  b_.CreateBr(release_loop);
  b_.SetInsertPoint(release_loop);
  llvm::PHINode* v = b_.CreatePHI(i32(), 2, "v");
  v->addIncoming(c32(0), release);
  b_.CreateCondBr(b_.CreateICmpULT(v, c32(warp_count_)), release_warp, round_bb_);
  b_.SetInsertPoint(release_warp);
  b_.CreateStore(v, warp_index_);
  llvm::Value* rs = warp_state();
  llvm::Value* lanes = load32(rs, offsetof(CompiledWarp, live));
  store32(c32(0), rs, offsetof(CompiledWarp, park_count));
  store32(b_.CreateZExt(b_.CreateICmpNE(lanes, c32(0)), i32()), rs, offsetof(CompiledWarp, run_count));
  llvm::Value* run = field(rs, offsetof(CompiledWarp, runs));
  store32(common, run, offsetof(CompiledRun, point));
  store32(lanes, run, offsetof(CompiledRun, mask));
  v->addIncoming(b_.CreateAdd(v, c32(1)), release_warp);
  b_.CreateBr(release_loop);

  b_.SetInsertPoint(settle);
  llvm::Value* outcome = b_.CreateCall(runtime(kCompiledSettle, i32(), {fl_.ptr_type()}), {frame_});
  llvm::BasicBlock* finished = new_block("block.finished");
  b_.CreateCondBr(b_.CreateICmpEQ(outcome, c32(0)), round_bb_, finished);
  b_.SetInsertPoint(finished);
  b_.CreateRetVoid();
}

Result<void> BlockFunctionBuilder::build(CompiledBlockCode& code) {
  a_ = analyze_warps(kernel_, access_, shape_);
  // A lane whose call ends in exit is handled here (emit_per_lane), not by the scalar
  // lowering's return from the kernel.
  callee_may_exit_ = m_.func_exits;
  m_.func_exits = false;
  carry_ = carry_flag_register(kernel_);
  warp_count_ = (shape_.thread_count() + kLanes - 1) / kLanes;
  const KernelCfg& cfg = a_.cfg;
  const uint32_t blocks = static_cast<uint32_t>(cfg.blocks.size());

  // Resume points: the entry, the block after each park instruction, the targets of yields.
  points_ = {ResumePoint{0, nullptr}};
  park_point_.assign(blocks, kNone);
  yield_point_.assign(blocks, kNone);
  for (uint32_t b = 0; b < blocks; ++b) {
    const CfgBlock& block = cfg.blocks[b];
    if (!block.reachable || block.how != BlockEnd::Park) continue;
    park_point_[b] = static_cast<uint32_t>(points_.size());
    points_.push_back(ResumePoint{block.successors[0], cfg.last_instruction(kernel_, b)});
  }
  yield_branches_ = spin_loop_branches(kernel_);
  for (uint32_t b = 0; b < blocks; ++b) {
    const CfgBlock& block = cfg.blocks[b];
    const ptx::Instruction* last = cfg.last_instruction(kernel_, b);
    if (!block.reachable || last == nullptr || !yield_branches_.count(last) || block.successors.empty()) continue;
    const uint32_t target = block.successors[0];
    if (yield_point_[target] != kNone) continue;
    yield_point_[target] = static_cast<uint32_t>(points_.size());
    points_.push_back(ResumePoint{target, nullptr});
  }
  // Blocks that may get queued lanes: those between a varying branch and its join, the
  // join included.
  candidate_.assign(blocks, 0);
  for (uint32_t b = 0; b < blocks; ++b) {
    // Lanes leaving by a conditional exit queue nowhere; a varying brx.idx queues every target.
    if (!a_.varying_branch[b] || cfg.blocks[b].how == BlockEnd::CondExit) continue;
    if (cfg.blocks[b].how == BlockEnd::Switch)
      for (uint32_t t : cfg.blocks[b].successors) candidate_[t] = 1;
    const uint32_t join = cfg.ipdom[b];
    if (join != kNoBlock) candidate_[join] = 1;
    std::vector<uint32_t> work(cfg.blocks[b].successors.begin(), cfg.blocks[b].successors.end());
    while (!work.empty()) {
      const uint32_t n = work.back();
      work.pop_back();
      if (n == join || candidate_[n]) continue;
      candidate_[n] = 1;
      for (uint32_t s : cfg.blocks[n].successors) work.push_back(s);
    }
  }
  lay_out_registers();
  lay_out_lane_frames();

  llvm::Function* fn = fl_.llvm_fn;
  b_.SetInsertPoint(llvm::BasicBlock::Create(fl_.ctx, "entry", fn));
  frame_ = fn->getArg(0);
  frame_->setName("frame");
  regs_ = fn->getArg(1);
  regs_->setName("registers");
  auto load_ptr = [&](size_t offset, const char* name) {
    return b_.CreateAlignedLoad(fl_.ptr_type(), field(frame_, offset), llvm::Align(8), name);
  };
  block_context_ = load_ptr(offsetof(CompiledBlockFrame, block), "block.context");
  lane_context_ = load_ptr(offsetof(CompiledBlockFrame, lane), "lane.context");
  warps_ = load_ptr(offsetof(CompiledBlockFrame, warps), "warps");
  local_ = load_ptr(offsetof(CompiledBlockFrame, local), "local");
  fl_.thread_context = block_context_;
  fl_.shared_base = b_.CreateAlignedLoad(fl_.ptr_type(), field(block_context_, offsetof(ThreadContext, shared_base)),
                                         llvm::Align(8), "shared");
  fl_.special_register_override = [this](ptx::SpecialRegister sreg, unsigned component) {
    return special_register(sreg, component);
  };
  // Registers live in the register file; bind() points the scalar lowering at them.
  fl_.registers.assign(kernel_.registers.size(), nullptr);
  for (uint32_t r = 0; r < a_.register_count; ++r)
    if (register_width(r) == 0) return make_error(ErrorCode::InvalidPtx, fmt::format("register {} has no width", r));
  warp_index_ = b_.CreateAlloca(i32(), nullptr, "warp.index");
  cur_mask_ = b_.CreateAlloca(i32(), nullptr, "cur.mask");
  min_pending_ = b_.CreateAlloca(i32(), nullptr, "min.pending");
  run_vote_true_ = b_.CreateAlloca(i32(), nullptr, "vote.true");
  run_vote_threads_ = b_.CreateAlloca(i32(), nullptr, "vote.threads");
  lane_exits_ = b_.CreateAlloca(i32(), nullptr, "lane.exits");
  yield_budget_ = b_.CreateAlloca(i32(), nullptr, "yield.budget");
  pend_ = b_.CreateAlloca(llvm::ArrayType::get(i32(), std::max<size_t>(cfg.order.size(), 1)), nullptr, "pend");
  pend_->setAlignment(llvm::Align(16));
  b_.CreateMemSet(pend_, b_.getInt8(0), std::max<uint64_t>(cfg.order.size(), 1) * 4, llvm::Align(16));
  b_.CreateStore(c32(0), warp_index_);
  // Kernel parameters (uniform: the block's parameter buffer).
  llvm::Value* buffer = b_.CreateAlignedLoad(fl_.ptr_type(), field(block_context_, offsetof(ThreadContext, params)),
                                             llvm::Align(8), "params");
  for (size_t i = 0; i < kernel_.params.size(); ++i) {
    SymbolBinding s;
    s.space = ptx::StateSpace::Param;
    s.parameter = &kernel_.params[i];
    s.address = field(buffer, params_[i].offset);
    fl_.symbols[kernel_.params[i].name] = s;
  }
  // .local and call-sequence .param variables are per lane: bound in lane mode
  // (bind_lane_frame); the module's other symbols resolve through find_symbol.
  round_bb_ = new_block("round");
  warp_loop_bb_ = new_block("warp.loop");
  take_run_bb_ = new_block("run.take");
  dispatch_bb_ = new_block("dispatch");
  round_end_bb_ = new_block("round.end");
  b_.CreateBr(round_bb_);

  block_bb_.assign(blocks, nullptr);
  for (uint32_t b : cfg.order) block_bb_[b] = new_block(fmt::format("b{}", b));
  emit_stubs();
  emit_round_structure();
  emit_dispatch();
  for (uint32_t b : cfg.order) {
    emit_block(b);
    if (fl_.failed()) return fl_.error();
  }
  // Blocks left open (the dead code after a trap) end here.
  for (llvm::BasicBlock& bb : *fn) {
    if (bb.getTerminator() != nullptr) continue;
    b_.SetInsertPoint(&bb);
    b_.CreateUnreachable();
  }
  code.warp_stride = kWarpStride;
  code.register_stride = register_stride_;
  code.local_stride = local_stride_;
  return {};
}

}  // namespace

Result<void> translate_block_function(ModuleLowering& m, const ptx::Function& kernel, const FunctionAccess& access,
                                      const std::vector<ParamSlot>& params, const BlockShape& shape,
                                      const std::string& name, CompiledBlockCode& code) {
  // The entry (kernel_abi.h BlockEntry) hands the register file to the body as a noalias
  // pointer: nothing else the block does can touch it.
  llvm::LLVMContext& c = *m.context;
  llvm::Type* ptr = llvm::PointerType::getUnqual(c);
  llvm::Function* body = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr, ptr}, false),
                                                llvm::GlobalValue::InternalLinkage, name + ".body", m.module);
  body->addFnAttr(llvm::Attribute::NoUnwind);
  body->addFnAttr(llvm::Attribute::AlwaysInline);
  body->addParamAttr(1, llvm::Attribute::NoAlias);
  BlockFunctionBuilder builder(m, kernel, access, params, shape, body);
  if (auto built = builder.build(code); !built) return built;
  llvm::Function* entry = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(c), {ptr}, false),
                                                 llvm::GlobalValue::ExternalLinkage, name, m.module);
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(c, "entry", entry));
  llvm::Value* file_field = b.CreateConstGEP1_64(b.getInt8Ty(), entry->getArg(0), offsetof(CompiledBlockFrame, registers));
  llvm::Value* file = b.CreateAlignedLoad(ptr, file_field, llvm::Align(8), "registers");
  b.CreateCall(body, {entry->getArg(0), file});
  b.CreateRetVoid();
  return {};
}

}  // namespace cucpu::jit
