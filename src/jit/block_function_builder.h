// Internal to src/jit: the builder of a compiled block function (block_function.h), whose
// parts are spread over several files: translate_block_function.cpp (the function's
// structure: rounds, runs, resume points, dispatch), warp_values.cpp (registers and special
// registers as 32 lanes), warp_instructions.cpp (an instruction: once per warp, lane-wise on
// vectors, or once per lane), warp_memory.cpp (loads and stores on 32 lanes),
// warp_control_flow.cpp (masks, branches, parking), if_then_branches.cpp (if-then branches
// without the queue, rounds ended at their idle warps) and warp_collective_lowering.cpp.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "jit/block_function.h"

namespace cucpu::jit::block_function {

constexpr uint32_t kLanes = 32;
constexpr uint32_t kNone = 0xffffffffu;
// How many passes over spin loops' back-edges a run makes before its lanes there yield to
// the other warps (and to the warp's other lanes): a yield ends the run's turn this round.
constexpr uint32_t kSpinsBetweenYields = 64;
// The warps' states lie this far apart in CompiledBlockFrame::warps.
constexpr uint32_t kWarpStride = (sizeof(CompiledWarp) + 63) / 64 * 64;

inline uint64_t align_up(uint64_t value, uint64_t align) { return (value + align - 1) / align * align; }

struct CollectiveOperands;  // warp_collective_lowering.cpp

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
  // The round goes on with the next warp: warp_index_ + 1, then `loop` (the general or the
  // direct round's warp loop).
  void on_to_next_warp(llvm::BasicBlock* loop) {
    b_.CreateStore(b_.CreateAdd(warp_index(), c32(1)), warp_index_);
    b_.CreateBr(loop);
  }
  llvm::BasicBlock* new_block(const std::string& name) { return fl_.new_block(name); }
  llvm::FunctionCallee runtime(const char* name, llvm::Type* result, llvm::ArrayRef<llvm::Type*> params) {
    return fl_.runtime_function(name, result, params);
  }
  void fail(const std::string& why) { fl_.fail(why); }

  // --- layout
  void lay_out_registers();
  llvm::Value* slot(uint32_t r);        // where the register lives: its variable, or its slot in the file
  llvm::Value* file_slot(uint32_t r);   // its slot in the running warp's file
  llvm::Align file_alignment(uint32_t r);
  void spill_at_park(uint32_t point, llvm::Value* mask);
  void find_written_since_resume();
  llvm::Value* load_lanes(uint32_t r);  // a varying register's 32 lanes
  void store_lanes(uint32_t r, llvm::Value* lanes);
  void find_only_writes();
  // The only write of register `r` where it has one and that write is unguarded, else null.
  const ptx::Instruction* sole_unguarded_write(uint32_t r) const;
  void find_constant_registers();
  bool collectives_name_whole_warps() const;
  void bind(uint32_t r);                // FunctionLowering reads/writes a uniform register in place
  void bind_operand(const ptx::Operand& op);
  void lay_out_lane_frames();
  void find_uniform_rounds();

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
  void emit_lane_wise(const ptx::Instruction& inst);
  bool emit_consecutive_compare(const ptx::Instruction& inst);
  void find_lane_bases();  // lane_bases.cpp
  bool base_arithmetic(const ptx::Instruction& inst, uint32_t statement) const;
  RegisterSet find_rematerialized(const RegisterSet& resumed, const RegisterSet& candidates);
  void rematerialize(const RegisterSet& live);
  void compute_lane_base(const ptx::Instruction& inst);
  llvm::Value* lanes_from_base(uint32_t r);
  llvm::Value* lane_from_base(uint32_t r, llvm::Value* lane);
  bool emit_memory(const ptx::Instruction& inst);  // warp_memory.cpp
  bool same_address_in_lanes(const ptx::Operand& op);
  // `pinned`: computed where it is made, never hoisted out of a loop (see emit_memory).
  llvm::Value* lane_addresses(const ptx::Operand& op, ptx::StateSpace space, bool dry_run, bool pinned = false);
  void emit_activemask(const ptx::Instruction& inst);
  void emit_warp_step(const ptx::Instruction& inst);  // warp_collective_lowering.cpp
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
  void enter_if_then(uint32_t branch, uint32_t taken, llvm::Value* taken_mask, llvm::Value* other_mask,
                     llvm::Value* mask);
  void find_if_then_branches();
  bool rest_of_round_idle(uint32_t branch, const RegisterSet& round_blocks);
  bool guard_below_bound(uint32_t branch, bool value);
  bool barrier_reachable(uint32_t from);
  void park_in_uniform_round(uint32_t point, llvm::Value* mask, bool rest_idle);
  llvm::BasicBlock* skip_rest_of_round();
  void exit_lanes(llvm::Value* mask);
  void emit_park(uint32_t b, const ptx::Instruction& inst);
  void add_park(uint32_t point, llvm::Value* mask, ParkKind kind, llvm::Value* barrier = nullptr,
                llvm::Value* count = nullptr, llvm::Value* predicates = nullptr);
  void write_collective_results(const ptx::Instruction& inst, llvm::Value* results, llvm::Value* mask);
  bool emit_collective_together(const ptx::Instruction& inst, const CollectiveOperands& c, llvm::Value* mask);
  llvm::Value* exchanged(const ptx::Instruction& inst, const CollectiveOperands& c, llvm::Value* values,
                         llvm::Value* source);
  void emit_collective_meeting(uint32_t b, const ptx::Instruction& inst, const CollectiveOperands& c,
                               llvm::Value* values, llvm::Value* arguments, llvm::Value* mask);
  void emit_yield_check(uint32_t target, llvm::Value* taken_mask, const std::function<void()>& otherwise,
                        const std::function<void()>& others_after_yield);
  void emit_collective(uint32_t b, const ptx::Instruction& inst);
  void emit_dispatch();
  void emit_stubs();
  llvm::BasicBlock* emit_stub(uint32_t point);
  std::vector<RegisterSet> find_regions();
  void emit_region_rounds(const std::vector<RegisterSet>& regions);
  void start_run();
  llvm::Value* end_direct_round();
  void emit_round_structure();
  void emit_direct_rounds();
  llvm::Value* emit_next_live_warp(llvm::BasicBlock* loop, llvm::BasicBlock* end, const std::string& name);
  void begin_run(llvm::Value* warp);
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
  bool converged_ = false;  // emitting a block every live lane of the warp runs (emit_block)
  // Registers that lanes waiting while others run may read on: those live where lanes
  // queue (candidate blocks) or resume (resume points). An unguarded write of any other
  // register need not keep other lanes' values (vector_write) where lanes wait only at
  // blocks, never parked inside a divergent region (converged_'s other conditions).
  RegisterSet waiting_lanes_read_;
  bool lanes_wait_only_at_blocks_ = false;
  bool emitting_ = false;  // inside emit_block
  bool whole_warp_collectives_ = false;  // collectives_name_whole_warps()
  // Uniform rounds (find_uniform_rounds): every round is direct, and registers the same in
  // every thread of the block that live across barriers are kept once per block
  // (kept_for_block_): the round's warps start from round_entry_ and leave what they
  // computed in round_exit_, which becomes the next round's entry.
  bool uniform_rounds_ = false;
  std::vector<uint8_t> kept_for_block_;
  std::vector<llvm::AllocaInst*> round_entry_, round_exit_;
  llvm::Value* lane_ = nullptr;  // Mode::Lane: the lane's number

  llvm::Value* frame_ = nullptr;
  llvm::Value* block_context_ = nullptr;
  llvm::Value* lane_context_ = nullptr;
  llvm::Value* warps_ = nullptr;
  llvm::Value* local_ = nullptr;
  llvm::AllocaInst* warp_index_ = nullptr;
  llvm::AllocaInst* cur_mask_ = nullptr;
  llvm::AllocaInst* min_pending_ = nullptr;  // the lowest queue_slot_ with lanes, or kNone
  llvm::AllocaInst* pend_ = nullptr;
  llvm::AllocaInst* run_vote_true_ = nullptr;
  llvm::AllocaInst* run_vote_threads_ = nullptr;
  llvm::AllocaInst* lane_exits_ = nullptr;
  llvm::AllocaInst* yield_budget_ = nullptr;  // back-edges of spin loops left before the run yields
  // Direct rounds (emit_direct_rounds): whether the round is one, the point its warps start
  // at, and the barrier point the warps that are done so far parked at (kNone: none yet).
  llvm::AllocaInst* direct_ = nullptr;
  llvm::AllocaInst* direct_start_ = nullptr;
  llvm::AllocaInst* direct_target_ = nullptr;
  llvm::Value* regs_ = nullptr;  // the register file (noalias)
  llvm::AllocaInst* warp_step_buffer_ = nullptr;  // emit_warp_step's slots, 32 lanes each

  std::vector<llvm::BasicBlock*> block_bb_;
  std::vector<uint8_t> candidate_;       // per block: may have queued lanes
  // find_if_then_branches: per varying branch, the block T of its `if (c) { T }` (else kNone),
  // and per such T the variable holding the lanes that skipped it, waiting at the join.
  std::vector<uint32_t> if_then_;
  std::vector<llvm::AllocaInst*> join_carry_;
  // Per if-then branch or conditional exit, in the round being emitted: a warp none of whose
  // lanes enter the block (stay) is the first of the warps left that only park (exit):
  // rest_of_round_idle.
  std::vector<uint8_t> rest_idle_;
  std::vector<uint8_t> inside_;          // per block: inside a divergent region (its join is not)
  std::vector<uint32_t> queue_slot_;     // per candidate block: its queue in pend_ (else kNone)
  uint32_t queue_count_ = 0;
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
  std::vector<uint8_t> run_local_;        // per register: a variable of the function (lay_out_registers)
  // Per block: registers a run may have written by the block's end since it began (loaded
  // them from the file). A park leaves the others in the file as they are (spill_at_park).
  std::vector<RegisterSet> written_by_end_;
  uint32_t emitting_block_ = 0;           // the block emit_block is emitting
  std::vector<llvm::AllocaInst*> reg_local_;  // per run-local register: the variable
  std::vector<llvm::AllocaInst*> lane_base_;  // per register given a base (find_lane_bases): the base
  // Per register: made again where a run begins rather than kept in the warp's file
  // (find_rematerialized).
  std::vector<uint8_t> rematerialized_;
  // Per register: the statement of its only write, kNone where it has none or several
  // (find_only_writes, once per kernel).
  std::vector<uint32_t> only_write_;
  // Per register: a constant global holding its one value, where find_constant_registers
  // proved it has one when read, and the mov that writes it (which writes the register).
  std::vector<llvm::GlobalVariable*> constant_value_;
  std::vector<const ptx::Instruction*> constant_def_;
  uint32_t register_stride_ = 0;          // bytes of one warp's file
  std::map<std::string, uint32_t> lane_frame_offset_;  // per-lane variables
  uint32_t local_stride_ = 0;

  llvm::BasicBlock* round_bb_ = nullptr;
  llvm::BasicBlock* warp_loop_bb_ = nullptr;
  llvm::BasicBlock* take_run_bb_ = nullptr;
  llvm::BasicBlock* dispatch_bb_ = nullptr;
  llvm::BasicBlock* round_end_bb_ = nullptr;
  llvm::BasicBlock* direct_round_bb_ = nullptr;  // a direct round from direct_start_, warp 0 first
  llvm::BasicBlock* direct_warp_bb_ = nullptr;   // its warp warp_index_ (or the next live one)
  std::vector<llvm::BasicBlock*> stub_bb_;  // per resume point
};

// Instructions that act once for the warp whatever lanes run them: fences and hints.
bool acts_once_per_warp(const ptx::Instruction& inst);

// bar.sync 0 / barrier.sync 0 with no thread count: __syncthreads().
bool is_plain_barrier(const ptx::Instruction& inst);

}  // namespace cucpu::jit::block_function
