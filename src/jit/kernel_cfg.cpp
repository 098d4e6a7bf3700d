// build_kernel_cfg: splits a body into blocks, links them, orders them so that a warp
// reconverges where the GPU's does (kernel_cfg.h), and finds post-dominators.
//
// Ordering: loops are found from the dominator tree (a retreating edge whose target does
// not dominate its source makes the graph irreducible: the caller then keeps the kernel on
// fibers). Each loop is collapsed to one node of its parent's acyclic graph, which is
// sorted topologically, ties broken by text order (nvcc lays blocks out sensibly); the
// loop's own blocks are then sorted the same way in its place, header first.
#include "jit/kernel_cfg.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <set>

namespace cucpu::jit {
namespace {

bool is_control_transfer(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Bra:
    case ptx::Opcode::Brx:
    case ptx::Opcode::Ret:
    case ptx::Opcode::Exit:
      return true;
    case ptx::Opcode::Trap:
    case ptx::Opcode::Brkpt:
      return !inst.guard;
    default:
      return false;
  }
}

// Splits the body: a block starts at every label and after every control transfer and
// park instruction.
std::vector<CfgBlock> split_blocks(const ptx::Function& function, std::map<std::string, uint32_t>& label_block) {
  std::vector<CfgBlock> blocks;
  const auto& body = function.body;
  auto start = [&](uint32_t at) {
    if (!blocks.empty() && blocks.back().first == at) return;
    if (!blocks.empty()) blocks.back().end = at;
    CfgBlock block;
    block.first = at;
    blocks.push_back(block);
  };
  start(0);
  for (uint32_t i = 0; i < body.size(); ++i) {
    const ptx::Statement& s = body[i];
    if (s.kind == ptx::Statement::Kind::Label) {
      // A label starts a block unless the block so far holds only labels.
      bool only_labels = true;
      for (uint32_t j = blocks.back().first; j < i; ++j)
        if (body[j].kind != ptx::Statement::Kind::Label) only_labels = false;
      if (!only_labels) start(i);
      label_block[s.label] = static_cast<uint32_t>(blocks.size() - 1);
      continue;
    }
    const ptx::Instruction& inst = s.instruction;
    if (is_control_transfer(inst) || is_barrier(inst) || is_warp_collective(inst)) start(i + 1);
  }
  blocks.back().end = static_cast<uint32_t>(body.size());
  return blocks;
}

void link_blocks(const ptx::Function& function, std::vector<CfgBlock>& blocks,
                 const std::map<std::string, uint32_t>& label_block) {
  const uint32_t count = static_cast<uint32_t>(blocks.size());
  for (uint32_t b = 0; b < count; ++b) {
    CfgBlock& block = blocks[b];
    const uint32_t next = b + 1 < count ? b + 1 : kNoBlock;
    const ptx::Instruction* last = nullptr;
    for (uint32_t i = block.first; i < block.end; ++i)
      if (function.body[i].kind == ptx::Statement::Kind::Instruction) last = &function.body[i].instruction;
    auto fall_through = [&] {
      if (next == kNoBlock) {
        block.how = BlockEnd::Exit;  // falling off the end of the body returns
      } else {
        block.successors.push_back(next);
      }
    };
    auto target = [&](const ptx::Operand& op) {
      auto it = label_block.find(op.name);
      return it == label_block.end() ? kNoBlock : it->second;
    };
    if (last == nullptr) {
      fall_through();
      continue;
    }
    switch (last->opcode) {
      case ptx::Opcode::Bra: {
        const uint32_t to = last->operands.size() == 1 ? target(last->operands[0]) : kNoBlock;
        if (last->guard) {
          block.how = BlockEnd::CondBranch;
          block.successors.push_back(to);
          if (next == kNoBlock) {
            block.successors.push_back(kNoBlock);  // a fall-through off the end: resolved below
          } else {
            block.successors.push_back(next);
          }
        } else {
          block.how = BlockEnd::Branch;
          block.successors.push_back(to);
        }
        break;
      }
      case ptx::Opcode::Brx:
        block.how = BlockEnd::Switch;
        if (last->operands.size() == 2)
          for (const ptx::Operand& label : last->operands[1].elements) block.successors.push_back(target(label));
        break;
      case ptx::Opcode::Ret:
      case ptx::Opcode::Exit:
        if (last->guard) {
          block.how = BlockEnd::CondExit;
          fall_through();
          if (next == kNoBlock) block.how = BlockEnd::Exit;
        } else {
          block.how = BlockEnd::Exit;
        }
        break;
      case ptx::Opcode::Trap:
      case ptx::Opcode::Brkpt:
        if (last->guard) {
          fall_through();
        } else {
          block.how = BlockEnd::Exit;
        }
        break;
      default:
        if (is_barrier(*last) || is_warp_collective(*last)) {
          block.how = BlockEnd::Park;
          if (next != kNoBlock) {
            block.successors.push_back(next);
            blocks[next].resume_point = true;
          } else {
            block.how = BlockEnd::Exit;  // a park as the last statement: nothing to resume
          }
        } else {
          fall_through();
        }
        break;
    }
  }
}

// Dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm") over the
// graph given by `preds`, nodes in `rpo` order; idom[root] = root.
std::vector<uint32_t> dominators(const std::vector<uint32_t>& rpo, const std::vector<std::vector<uint32_t>>& preds,
                                 uint32_t node_count) {
  std::vector<uint32_t> position(node_count, kNoBlock);
  for (uint32_t i = 0; i < rpo.size(); ++i) position[rpo[i]] = i;
  std::vector<uint32_t> idom(node_count, kNoBlock);
  idom[rpo[0]] = rpo[0];
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (position[a] > position[b]) a = idom[a];
      while (position[b] > position[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 1; i < rpo.size(); ++i) {
      const uint32_t n = rpo[i];
      uint32_t candidate = kNoBlock;
      for (uint32_t p : preds[n]) {
        if (position[p] == kNoBlock || idom[p] == kNoBlock) continue;
        candidate = candidate == kNoBlock ? p : intersect(p, candidate);
      }
      if (candidate != kNoBlock && idom[n] != candidate) {
        idom[n] = candidate;
        changed = true;
      }
    }
  }
  return idom;
}

// Reverse post-order of the nodes reachable from `root` through `succs`.
std::vector<uint32_t> reverse_post_order(uint32_t root, const std::vector<std::vector<uint32_t>>& succs) {
  std::vector<uint32_t> post;
  std::vector<uint8_t> state(succs.size(), 0);  // 0 new, 1 on stack, 2 done
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  state[root] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < succs[node].size()) {
      const uint32_t s = succs[node][next++];
      if (s != kNoBlock && state[s] == 0) {
        state[s] = 1;
        stack.emplace_back(s, 0);
      }
      continue;
    }
    state[node] = 2;
    post.push_back(node);
    stack.pop_back();
  }
  std::reverse(post.begin(), post.end());
  return post;
}

struct Loop {
  uint32_t header = 0;
  std::set<uint32_t> body;  // header included
  uint32_t parent = kNoBlock;  // the innermost loop containing this one
};

// Topological order of `nodes` (a loop body or the whole graph) with inner loops collapsed.
void order_region(const std::vector<CfgBlock>& blocks, const std::set<uint32_t>& nodes, uint32_t header,
                  const std::vector<Loop>& loops, const std::vector<uint32_t>& innermost_parent_of,
                  std::vector<uint32_t>& order) {
  // The item each node belongs to in this region: itself, or the outermost loop inside the
  // region that contains it (loop index + node count).
  const uint32_t loop_base = static_cast<uint32_t>(blocks.size());
  auto item_of = [&](uint32_t node) -> uint32_t {
    // Walk up from the node's innermost loop to the loop directly inside this region.
    uint32_t loop = innermost_parent_of[node];
    uint32_t found = kNoBlock;
    while (loop != kNoBlock) {
      if (loops[loop].header == header && header != kNoBlock) break;  // the region's own loop
      if (!nodes.count(loops[loop].header)) break;
      found = loop;
      loop = loops[loop].parent;
    }
    return found == kNoBlock ? node : loop_base + found;
  };
  std::map<uint32_t, std::set<uint32_t>> item_succs;
  std::map<uint32_t, uint32_t> in_degree;
  std::map<uint32_t, uint32_t> text_position;
  for (uint32_t n : nodes) {
    const uint32_t item = item_of(n);
    in_degree.emplace(item, 0);
    auto [at, fresh] = text_position.emplace(item, blocks[n].first);
    if (!fresh) at->second = std::min(at->second, blocks[n].first);
  }
  for (uint32_t n : nodes) {
    const uint32_t from = item_of(n);
    for (uint32_t s : blocks[n].successors) {
      if (s == kNoBlock || !nodes.count(s) || s == header) continue;  // leaves the region, or a back edge
      const uint32_t to = item_of(s);
      if (to != from && item_succs[from].insert(to).second) ++in_degree[to];
    }
  }
  using Entry = std::pair<uint32_t, uint32_t>;  // text position, item
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
  for (auto& [item, degree] : in_degree)
    if (degree == 0) ready.emplace(text_position[item], item);
  while (!ready.empty()) {
    const uint32_t item = ready.top().second;
    ready.pop();
    if (item >= loop_base) {
      const Loop& loop = loops[item - loop_base];
      order_region(blocks, loop.body, loop.header, loops, innermost_parent_of, order);
    } else {
      order.push_back(item);
    }
    for (uint32_t next : item_succs[item])
      if (--in_degree[next] == 0) ready.emplace(text_position[next], next);
  }
}

}  // namespace

bool is_barrier(const ptx::Instruction& inst) {
  if (inst.opcode != ptx::Opcode::Bar && inst.opcode != ptx::Opcode::Barrier) return false;
  if (inst.q.scope == ptx::Scope::Cluster) return false;
  return inst.q.barrier == ptx::BarrierMode::Sync || inst.q.barrier == ptx::BarrierMode::Red;
}

bool is_warp_collective(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Shfl:
    case ptx::Opcode::Vote:
    case ptx::Opcode::Match:
    case ptx::Opcode::Redux:
    case ptx::Opcode::Elect:
      return true;
    case ptx::Opcode::Bar:
      return inst.q.sync && inst.q.barrier == ptx::BarrierMode::None;  // bar.warp.sync
    default:
      return false;
  }
}

bool KernelCfg::dominates(uint32_t a, uint32_t b) const {
  while (true) {
    if (a == b) return true;
    if (idom[b] == b || idom[b] == kNoBlock) return false;
    b = idom[b];
  }
}

const ptx::Instruction* KernelCfg::last_instruction(const ptx::Function& function, uint32_t b) const {
  for (uint32_t i = blocks[b].end; i > blocks[b].first; --i)
    if (function.body[i - 1].kind == ptx::Statement::Kind::Instruction) return &function.body[i - 1].instruction;
  return nullptr;
}

namespace {

// A block whose one instruction is an unguarded ret or exit.
bool only_exits(const ptx::Function& function, const CfgBlock& block) {
  const ptx::Instruction* only = nullptr;
  for (uint32_t i = block.first; i < block.end; ++i) {
    if (function.body[i].kind != ptx::Statement::Kind::Instruction) continue;
    if (only != nullptr) return false;
    only = &function.body[i].instruction;
  }
  return only != nullptr && !only->guard && (only->opcode == ptx::Opcode::Ret || only->opcode == ptx::Opcode::Exit);
}

}  // namespace

KernelCfg build_kernel_cfg(const ptx::Function& function) {
  KernelCfg cfg;
  std::map<std::string, uint32_t> label_block;
  cfg.blocks = split_blocks(function, label_block);
  link_blocks(function, cfg.blocks, label_block);
  const uint32_t count = static_cast<uint32_t>(cfg.blocks.size());
  // `@p bra L` where L only exits (the one `ret` nvcc puts at a kernel's end for every early
  // return): the lanes that take it do nothing but end, as at `@p ret`, and the GPU lets them
  // end there. A conditional exit, then, rather than a branch whose lanes wait at the `ret`
  // for the others (which, past a barrier, would be lanes parked inside divergent code).
  for (CfgBlock& block : cfg.blocks) {
    if (block.how != BlockEnd::CondBranch || block.successors.size() != 2 || block.successors[0] == kNoBlock ||
        block.successors[1] == kNoBlock || !only_exits(function, cfg.blocks[block.successors[0]]))
      continue;
    block.how = BlockEnd::CondExit;
    block.successors.erase(block.successors.begin());
  }
  // A label that names nothing (the scalar translation reports it) or a conditional
  // fall-through off the end: such an edge just ends the lanes.
  for (uint32_t b = 0; b < count; ++b) {
    auto& succ = cfg.blocks[b].successors;
    cfg.blocks[b].lost_edge = std::count(succ.begin(), succ.end(), kNoBlock) != 0;
    succ.erase(std::remove(succ.begin(), succ.end(), kNoBlock), succ.end());
    if (succ.empty() && (cfg.blocks[b].how == BlockEnd::CondBranch || cfg.blocks[b].how == BlockEnd::Branch))
      cfg.blocks[b].how = BlockEnd::Exit;
  }
  std::vector<std::vector<uint32_t>> succs(count), preds(count);
  for (uint32_t b = 0; b < count; ++b) {
    for (uint32_t s : cfg.blocks[b].successors) {
      succs[b].push_back(s);
      if (std::find(preds[s].begin(), preds[s].end(), b) == preds[s].end()) preds[s].push_back(b);
    }
  }
  for (uint32_t b = 0; b < count; ++b) cfg.blocks[b].predecessors = preds[b];

  // Reachability, dominators, loops.
  const std::vector<uint32_t> rpo = reverse_post_order(0, succs);
  for (uint32_t b : rpo) cfg.blocks[b].reachable = true;
  cfg.idom = dominators(rpo, preds, count);
  auto dominates = [&](uint32_t a, uint32_t b) { return cfg.dominates(a, b); };
  std::vector<uint32_t> rpo_position(count, kNoBlock);
  for (uint32_t i = 0; i < rpo.size(); ++i) rpo_position[rpo[i]] = i;
  std::map<uint32_t, Loop> loops_by_header;
  for (uint32_t b : rpo) {
    for (uint32_t s : succs[b]) {
      if (rpo_position[s] > rpo_position[b]) continue;  // a forward edge
      if (!dominates(s, b)) {
        cfg.irreducible = fmt::format("a loop around statement {} has more than one entry", cfg.blocks[s].first);
        continue;
      }
      Loop& loop = loops_by_header[s];
      loop.header = s;
      loop.body.insert(s);
      std::vector<uint32_t> work{b};
      while (!work.empty()) {
        const uint32_t n = work.back();
        work.pop_back();
        if (!loop.body.insert(n).second) continue;
        for (uint32_t p : preds[n])
          if (cfg.blocks[p].reachable) work.push_back(p);
      }
    }
  }
  std::vector<Loop> loops;
  for (auto& [header, loop] : loops_by_header) loops.push_back(std::move(loop));
  for (uint32_t l = 0; l < loops.size(); ++l) {
    for (uint32_t m = 0; m < loops.size(); ++m) {
      if (m == l || loops[m].body.size() <= loops[l].body.size() || !loops[m].body.count(loops[l].header)) continue;
      if (loops[l].parent == kNoBlock || loops[m].body.size() < loops[loops[l].parent].body.size()) loops[l].parent = m;
    }
  }
  std::vector<uint32_t> innermost(count, kNoBlock);
  for (uint32_t l = 0; l < loops.size(); ++l) {
    for (uint32_t n : loops[l].body) {
      if (innermost[n] == kNoBlock || loops[l].body.size() < loops[innermost[n]].body.size()) innermost[n] = l;
    }
  }
  if (cfg.irreducible.empty()) {
    std::set<uint32_t> all(rpo.begin(), rpo.end());
    order_region(cfg.blocks, all, kNoBlock, loops, innermost, cfg.order);
  } else {
    cfg.order = rpo;
  }
  cfg.rank.assign(count, kNoBlock);
  for (uint32_t i = 0; i < cfg.order.size(); ++i) cfg.rank[cfg.order[i]] = i;

  // Post-dominators: dominators of the reversed graph from a virtual exit node (count)
  // that every exiting block leads to.
  std::vector<std::vector<uint32_t>> rsuccs(count + 1), rpreds(count + 1);
  for (uint32_t b = 0; b < count; ++b) {
    if (!cfg.blocks[b].reachable) continue;
    const BlockEnd how = cfg.blocks[b].how;
    if (how == BlockEnd::Exit || how == BlockEnd::CondExit) {
      rsuccs[count].push_back(b);
      rpreds[b].push_back(count);
    }
    for (uint32_t s : succs[b]) {
      rsuccs[s].push_back(b);
      rpreds[b].push_back(s);
    }
  }
  const std::vector<uint32_t> rrpo = reverse_post_order(count, rsuccs);
  const std::vector<uint32_t> ipdom = dominators(rrpo, rpreds, count + 1);
  cfg.ipdom.assign(count, kNoBlock);
  for (uint32_t b = 0; b < count; ++b)
    if (ipdom[b] != kNoBlock && ipdom[b] != count && ipdom[b] != b) cfg.ipdom[b] = ipdom[b];
  return cfg;
}

}  // namespace cucpu::jit
