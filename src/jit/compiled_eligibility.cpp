// compiled_strategy_obstacle: what keeps a kernel on fibers. The compiled block strategy
// runs a warp's lanes in lockstep and parks them at barriers, collectives and the back-edges
// of spin loops (yields, so that lanes waiting for others let them run), but it cannot park
// lanes inside a called function (the callee runs one lane at a time), nor wait for other
// blocks or grids (cluster barriers, device-side synchronisation). Other limits of this
// version: nanosleep and mbarrier waits, bar.arrive, guarded barriers, wgmma (a warpgroup's
// four warps exchange fragments) and alloca.
#include <fmt/format.h>

#include <set>

#include "jit/block_function.h"
#include "jit/call_site.h"
#include "jit/kernel_cfg.h"

namespace cucpu::jit {
namespace {

std::string at_line(const ptx::Instruction& inst, const std::string& what) {
  return fmt::format("{} (line {})", what, inst.pos.line);
}

// A function `kernel` may call (directly or through a pointer) that waits for other threads.
const ptx::Function* waiting_callee(const ptx::Function& kernel,
                                    const std::map<const ptx::Function*, FunctionFacts>& facts) {
  auto it = facts.find(&kernel);
  if (it == facts.end()) return nullptr;
  std::set<const ptx::Function*> seen;
  std::vector<const ptx::Function*> work(it->second.callees.begin(), it->second.callees.end());
  while (!work.empty()) {
    const ptx::Function* f = work.back();
    work.pop_back();
    if (!seen.insert(f).second) continue;
    auto found = facts.find(f);
    if (found == facts.end()) continue;
    if (found->second.waits_for_other_threads) return f;
    for (const ptx::Function* g : found->second.callees) work.push_back(g);
  }
  return nullptr;
}

std::string instruction_obstacle(const ModuleLowering& m, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Nanosleep:
      return at_line(inst, "nanosleep");
    case ptx::Opcode::Mbarrier:
      if (inst.q.operation == ptx::Operation::TestWait || inst.q.operation == ptx::Operation::TryWait)
        return at_line(inst, "an mbarrier wait");
      return {};
    case ptx::Opcode::Bar:
    case ptx::Opcode::Barrier:
      if (inst.q.scope == ptx::Scope::Cluster) return at_line(inst, "barrier.cluster");
      if (inst.q.barrier == ptx::BarrierMode::Arrive) return at_line(inst, "bar.arrive");
      if (inst.guard && (is_barrier(inst) || is_warp_collective(inst))) return at_line(inst, "a guarded barrier");
      return {};
    case ptx::Opcode::Wgmma:
      return at_line(inst, "wgmma");
    case ptx::Opcode::Alloca:
    case ptx::Opcode::Stacksave:
    case ptx::Opcode::Stackrestore:
      return at_line(inst, "alloca");
    case ptx::Opcode::Call: {
      CallSite site = decode_call(inst, [&](const std::string& name) { return m.ptx_functions.count(name) != 0; });
      if (site.callee != nullptr && site.callee->kind == ptx::Operand::Kind::Symbol &&
          site.callee->name == kDeviceSynchronize)
        return at_line(inst, "device-side cudaDeviceSynchronize");
      return {};
    }
    default:
      if (inst.guard && is_warp_collective(inst)) return at_line(inst, "a guarded warp collective");
      return {};
  }
}

}  // namespace

std::string compiled_strategy_obstacle(const ModuleLowering& m, const ptx::Function& kernel,
                                       const std::map<const ptx::Function*, FunctionFacts>& facts) {
  const KernelCfg cfg = build_kernel_cfg(kernel);
  if (!cfg.irreducible.empty()) return "irreducible control flow: " + cfg.irreducible;
  for (const CfgBlock& block : cfg.blocks)
    if (block.reachable && block.lost_edge) return fmt::format("a branch to no label (statement {})", block.first);
  for (const ptx::Statement& s : kernel.body) {
    if (s.kind != ptx::Statement::Kind::Instruction) continue;
    if (std::string why = instruction_obstacle(m, s.instruction); !why.empty()) return why;
  }
  if (const ptx::Function* callee = waiting_callee(kernel, facts))
    return fmt::format("it calls {}, which waits for other threads", callee->name);
  return {};
}

}  // namespace cucpu::jit
