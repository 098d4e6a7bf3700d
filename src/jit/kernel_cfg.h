// The control-flow graph of one PTX body, as the compiled block strategy executes it:
// basic blocks of statements, their successors, the order in which a warp whose lanes
// took different paths runs the waiting blocks (lowest first), and post-dominators.
//
// The order is a topological order of the graph without its loops' back edges in which
// every loop's blocks are contiguous and come before the blocks its exits lead to. A warp
// that always runs its lowest waiting block then reconverges where the GPU's compiler
// reconverges a warp (the immediate post-dominator) for every reducible graph: lanes that
// left a branch or a loop early wait at the join until the others arrive there.
//
// Blocks also end after every instruction that may park the lanes that execute it (bar.sync
// and its kin, warp collectives): the next block is a resume point, where the lanes go on
// once the barrier or collective completes. No LLVM types in the interface.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ptx/module.h"

namespace cucpu::jit {

constexpr uint32_t kNoBlock = std::numeric_limits<uint32_t>::max();

// How a block hands its lanes on.
enum class BlockEnd : uint8_t {
  FallThrough,  // to the next block (successors[0]); also after a park point
  Branch,       // bra: successors[0]
  CondBranch,   // @p bra: successors[0] when p, successors[1] otherwise (fall-through)
  Switch,       // brx.idx: successors in table order (duplicates kept)
  Exit,         // ret/exit, falling off the end, trap/brkpt: the lanes end here
  CondExit,     // @p ret/exit: lanes with p end, the others fall through to successors[0]
  Park,         // the last statement parks its lanes (barrier, collective); successors[0] resumes
};

struct CfgBlock {
  uint32_t first = 0;  // first statement of Function::body (labels included)
  uint32_t end = 0;    // one past the last
  BlockEnd how = BlockEnd::FallThrough;
  std::vector<uint32_t> successors;
  std::vector<uint32_t> predecessors;
  bool reachable = false;
  bool resume_point = false;  // follows a Park block
  bool lost_edge = false;     // a branch to no block (an unknown label, or off the end)
};

struct KernelCfg {
  std::vector<CfgBlock> blocks;  // block 0 is the entry
  // Reachable blocks in the order described above; rank[b] is b's place in it (kNoBlock for
  // unreachable blocks).
  std::vector<uint32_t> order;
  std::vector<uint32_t> rank;
  // Immediate post-dominator of each block; kNoBlock: only the exit post-dominates it.
  std::vector<uint32_t> ipdom;
  // Immediate dominator of each reachable block (the entry's is itself).
  std::vector<uint32_t> idom;
  // Empty when the graph is reducible; else why it is not (a loop with two entries).
  std::string irreducible;

  // Whether every path from the entry to block b passes block a (a reachable).
  bool dominates(uint32_t a, uint32_t b) const;
  // The statement that ends block b (its terminator or park instruction), or none.
  const ptx::Instruction* last_instruction(const ptx::Function& function, uint32_t b) const;
};

// Does this instruction park the lanes that run it until others arrive? (bar.sync,
// bar.red, barrier.sync: the block; warp collectives: their membermask.)
bool is_barrier(const ptx::Instruction& inst);
bool is_warp_collective(const ptx::Instruction& inst);

KernelCfg build_kernel_cfg(const ptx::Function& function);

}  // namespace cucpu::jit
