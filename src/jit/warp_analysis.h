// What the compiled block strategy needs to know about a kernel before it generates the
// block function: whether the strategy can keep the kernel's semantics at all (else the
// kernel runs on fibers, and the reason is logged), and, for one block shape, which
// registers hold the same value in every lane of a warp (kept once per warp, computed by
// the ordinary scalar lowering) and which differ between lanes (kept as one vector of 32
// lanes), and which registers are live where.
//
// Uniformity ("shape") is a divergence analysis over the PTX registers, which are not in
// SSA form: a register is varying when an instruction writing it reads a varying value, or
// depends on the lane by itself (%tid, %laneid, atomics, calls, collectives, .local
// addresses), or runs under a varying guard; and when lanes that took different sides of a
// varying branch would see one another's writes of it through a single per-warp copy (the
// sides run one after the other: kernel_cfg.h). No LLVM types in the interface.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jit/kernel_cfg.h"
#include "jit/register_access.h"
#include "ptx/module.h"

namespace cucpu::jit {

enum class Shape : uint8_t {
  Uniform,      // the same in every lane of a warp: one scalar per warp
  // The lane's number plus a multiple of 32 the same in every lane (%laneid; %tid.x where a
  // warp is 32 consecutive x): one value per lane, but shifting it right by 5 or more,
  // dividing it by a multiple of 32 or clearing its low 5 bits gives a uniform value
  // (`threadIdx.x / 32` is the warp's number).
  LaneAligned,
  Varying,      // one value per lane
};

// One value per lane?
inline bool per_lane(Shape shape) { return shape != Shape::Uniform; }

// A set of registers (or blocks), as bits.
class RegisterSet {
 public:
  RegisterSet() = default;
  explicit RegisterSet(uint32_t size) : words_((size + 63) / 64, 0) {}
  bool test(uint32_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void set(uint32_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  void reset(uint32_t i) { words_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  // this |= other; true when that changed anything.
  bool merge(const RegisterSet& other);
  bool intersects(const RegisterSet& other) const;
  template <typename Visit>
  void for_each(Visit visit) const {
    for (uint32_t w = 0; w < words_.size(); ++w)
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) visit(w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits)));
  }
  bool operator==(const RegisterSet&) const = default;

 private:
  std::vector<uint64_t> words_;
};

// The block shape a block function is compiled for (%ntid).
struct BlockShape {
  uint32_t x = 1, y = 1, z = 1;
  uint32_t thread_count() const { return x * y * z; }
};

inline constexpr int64_t kNoLaneStride = INT64_MIN;

struct WarpAnalysis {
  KernelCfg cfg;
  // Lanes of a warp may go on past a join while others of the warp wait elsewhere (parked
  // at a barrier or collective inside a divergent region, or yielding in a spin loop). One
  // copy per warp of a register cannot serve such lanes, so every register is varying.
  bool lanes_may_split = false;
  uint32_t register_count = 0;          // the function's registers and CC.CF (register_access.h)
  std::vector<Shape> shape;              // per register
  std::vector<uint8_t> varying_branch;   // per block: lanes may leave it in different directions
  // Per register: where every read finds the running lanes' values at a common base plus
  // the lane's number times this (modulo the register's width), that stride; else
  // kNoLaneStride. `i * 4 + p` with i = blockIdx.x * blockDim.x + threadIdx.x has stride 4:
  // a warp's `p[i]` is one vector access, proven without comparing addresses.
  std::vector<int64_t> lane_stride;
  // The same for each half-warp (lanes 0-15, 16-31) on its own, in blocks 16 threads wide,
  // where a warp is two rows: `tile[ty][tx]` and `p[y * n + x]` have half strides.
  std::vector<int64_t> half_stride;
  std::vector<RegisterSet> live_in;      // per block: registers live where it starts
  // Per register: the same value in every thread of the block wherever it is read (the
  // warps compute it alike: from parameters, %ctaid, %ntid, constants, under branches every
  // thread of the block takes alike). Memory reads other than .param and .const vary: warps
  // read at different times.
  std::vector<uint8_t> block_uniform;
  // Every barrier (a block ending in bar.sync/barrier.sync/bar.red) is outside the branches
  // whose threads may go different ways: every thread of the block that has not exited
  // meets the same barriers in the same order.
  bool barriers_block_uniform = false;
};

// Whether `special_register` differs between the lanes of one warp of a block of `block`.
bool special_register_varies(ptx::SpecialRegister sreg, unsigned component, const BlockShape& block);

// Whether an operand differs between lanes (a per-lane register or special register;
// `shape`: per register, as WarpAnalysis::shape).
bool per_lane_operand(const ptx::Operand& op, const std::vector<Shape>& shape, const BlockShape& block);

// Liveness and shapes of `kernel` for blocks of `block` threads. `access` is what the scalar
// translation recorded for the kernel (FunctionFacts::access); `yields`: the kernel has spin
// loops whose lanes yield (translate_module.h spin_loop_branches).
WarpAnalysis analyze_warps(const ptx::Function& kernel, const FunctionAccess& access, const BlockShape& block,
                           bool yields);

}  // namespace cucpu::jit
