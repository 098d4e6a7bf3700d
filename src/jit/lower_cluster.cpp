// Thread block clusters (PTX ISA 9.0: 9.7.13.3 barrier.cluster, 9.7.9.23 mapa,
// 9.7.9.24 getctarank, 9.7.9.20-21 cvta and isspacep with .shared::cluster).
//
// The executor lays the shared memory of a cluster's blocks side by side, shared_stride
// bytes apart with rank 0 lowest (kernel_abi.h), so distributed shared memory is plain
// address arithmetic: a .shared::cluster address is a signed 32-bit offset from the
// thread's own window (a .shared::cta address is therefore one too, as PTX requires),
// and a generic address of another block's shared memory is the host address of its
// bytes. Out of the cluster's windows lie guard pages (exec/shared_window.h). The
// barrier's arrive and wait call the executor, which runs a cluster's blocks together.
#include <fmt/format.h>

#include <map>
#include <set>
#include <vector>

#include "jit/translate_module.h"

namespace cucpu::jit {
namespace {

// Where the cluster's windows lie, from the thread's context.
struct ClusterWindows {
  llvm::Value* own;     // i64: this block's shared_base
  llvm::Value* stride;  // i64: from one rank's window to the next
  llvm::Value* rank;    // i64: %cluster_ctarank
  llvm::Value* first;   // i64: rank 0's shared_base
};

ClusterWindows cluster_windows(FunctionLowering& fl) {
  auto& b = fl.b;
  ClusterWindows w;
  w.own = b.CreatePtrToInt(fl.shared_base, b.getInt64Ty());
  w.stride = b.CreateZExt(fl.load_context_u32(offsetof(ThreadContext, shared_stride)), b.getInt64Ty());
  w.rank = b.CreateZExt(fl.load_context_u32(offsetof(ThreadContext, cluster_ctarank)), b.getInt64Ty());
  w.first = b.CreateSub(w.own, b.CreateMul(w.rank, w.stride));
  return w;
}

// An address operand of mapa/getctarank/isspacep as a value: a register, a variable's
// address, `var + imm` or `[reg + imm]`.
llvm::Value* address_value(FunctionLowering& fl, const ptx::Operand& op, ptx::Type type) {
  if (op.kind == ptx::Operand::Kind::Address) {
    if (op.elements.empty()) return fl.b.getIntN(ptx::bit_width(type), static_cast<uint64_t>(op.offset));
    llvm::Value* base = fl.read(op.elements[0], type);
    return fl.b.CreateAdd(base, fl.b.getIntN(ptx::bit_width(type), static_cast<uint64_t>(op.offset)));
  }
  llvm::Value* v = fl.read(op, type);
  if (op.offset == 0) return v;
  return fl.b.CreateAdd(v, fl.b.getIntN(ptx::bit_width(type), static_cast<uint64_t>(op.offset)));
}

// The offset of a .shared::cluster or generic address from rank 0's window (i64).
llvm::Value* offset_in_cluster(FunctionLowering& fl, const ClusterWindows& w, llvm::Value* address, bool generic) {
  auto& b = fl.b;
  if (generic) return b.CreateSub(fl.resize_int(address, 64, false), w.first);
  llvm::Value* relative = fl.resize_int(fl.resize_int(address, 32, false), 64, true);
  return b.CreateAdd(b.CreateMul(w.rank, w.stride), relative);
}

bool is_shared_cluster(ptx::StateSpace space) { return space == ptx::StateSpace::SharedCluster; }

// barrier.cluster.arrive{.relaxed}{.aligned} / barrier.cluster.wait{.acquire}{.aligned}. The
// memory orders need nothing more: the executor's arrive and wait synchronise (a relaxed
// arrive is as strong as a release one here).
void lower_cluster_barrier(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!inst.operands.empty()) {
    fl.fail("barrier.cluster takes no operands");
    return;
  }
  const char* name = nullptr;
  if (inst.q.barrier == ptx::BarrierMode::Arrive) name = kClusterArrive;
  if (inst.q.barrier == ptx::BarrierMode::Wait) name = kClusterWait;
  if (name == nullptr) {
    fl.fail("barrier.cluster needs .arrive or .wait");
    return;
  }
  fl.waits_for_other_threads = true;
  llvm::Type* args[] = {fl.ptr_type()};
  b.CreateCall(fl.runtime_function(name, b.getVoidTy(), args), {fl.thread_context});
}

// mapa{.shared::cluster}.type d, a, rank: the address in block `rank` of what `a` addresses
// in its own block.
void lower_mapa(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 3)) return;
  const ptx::Type type = inst.q.type;
  if (type != ptx::Type::U32 && type != ptx::Type::U64) {
    fl.fail("mapa needs .u32 or .u64");
    return;
  }
  const bool generic = !is_shared_cluster(inst.q.space);
  if (generic && type != ptx::Type::U64) {
    fl.fail("mapa.u32 on 32-bit generic addresses is not supported (64-bit addressing only)");
    return;
  }
  llvm::Value* address = address_value(fl, inst.operands[1], type);
  llvm::Value* target = b.CreateZExt(fl.read(inst.operands[2], ptx::Type::U32), b.getInt64Ty());
  if (fl.failed()) return;
  const ClusterWindows w = cluster_windows(fl);
  llvm::Value* within = b.CreateURem(offset_in_cluster(fl, w, address, generic), w.stride);
  llvm::Value* from_first = b.CreateAdd(b.CreateMul(target, w.stride), within);
  llvm::Value* result = generic ? b.CreateAdd(w.first, from_first)
                                : b.CreateSub(from_first, b.CreateMul(w.rank, w.stride));
  if (!generic) result = b.CreateZExt(b.CreateTrunc(result, b.getInt32Ty()), b.getInt64Ty());
  fl.write(inst.operands[0], type, fl.resize_int(result, ptx::bit_width(type), false));
}

// getctarank{.shared::cluster}.type d, a: the rank of the block whose shared memory `a` is in.
void lower_getctarank(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  const ptx::Type type = inst.q.type;
  if (type != ptx::Type::U32 && type != ptx::Type::U64) {
    fl.fail("getctarank needs .u32 or .u64");
    return;
  }
  const bool generic = !is_shared_cluster(inst.q.space);
  llvm::Value* address = address_value(fl, inst.operands[1], type);
  if (fl.failed()) return;
  const ClusterWindows w = cluster_windows(fl);
  llvm::Value* rank = b.CreateUDiv(offset_in_cluster(fl, w, address, generic), w.stride);
  fl.write(inst.operands[0], ptx::Type::U32, b.CreateTrunc(rank, b.getInt32Ty()));
}

// cvta.shared::cluster / cvta.to.shared::cluster: between a signed offset from the own
// window and a host address.
void lower_cvta_cluster(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  const ptx::Type type = inst.q.type;
  if (type != ptx::Type::U32 && type != ptx::Type::U64) {
    fl.fail("cvta needs .u32 or .u64");
    return;
  }
  llvm::Value* v = fl.read(inst.operands[1], ptx::Type::U64);
  if (fl.failed()) return;
  llvm::Value* own = b.CreatePtrToInt(fl.shared_base, b.getInt64Ty());
  llvm::Value* result = nullptr;
  if (inst.q.to_space) {
    result = b.CreateZExt(b.CreateTrunc(b.CreateSub(v, own), b.getInt32Ty()), b.getInt64Ty());
  } else {
    result = b.CreateAdd(own, fl.resize_int(fl.resize_int(v, 32, false), 64, true));
  }
  fl.write(inst.operands[0], type, fl.resize_int(result, ptx::bit_width(type), false));
}

// Whether `address` (i64) lies in one of the module's .const variables.
llvm::Value* in_const_variable(FunctionLowering& fl, llvm::Value* address) {
  auto& b = fl.b;
  llvm::Value* inside = b.getFalse();
  auto add = [&](llvm::GlobalVariable* g, uint64_t size) {
    llvm::Value* start = b.CreatePtrToInt(g, b.getInt64Ty());
    inside = b.CreateOr(inside, b.CreateICmpULT(b.CreateSub(address, start), b.getInt64(size)));
  };
  for (const ptx::Variable& v : fl.m.ptx->variables) {
    auto it = fl.m.globals.find(v.name);
    if (v.space == ptx::StateSpace::Const && it != fl.m.globals.end()) add(it->second, v.size_bytes());
  }
  for (const auto& [v, g] : fl.m.function_statics) {
    if (v->space == ptx::StateSpace::Const) add(g, v->size_bytes());
  }
  return inside;
}

// isspacep.space p, a (a generic address). Shared memory: the block's own window
// (.shared, .shared::cta) or the cluster's (.shared::cluster); local memory: the
// thread's stack (the executor knows where it is); const: the module's .const variables;
// param: the kernel's parameter buffer; global: none of shared, local and const. (An
// H100 calls a kernel parameter's generic address both .param and .global, and a .const
// variable's only .const: tests/isa/isa_memory.cu.)
void lower_isspacep(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (!fl.expect_operands(inst, 2)) return;
  llvm::Value* address = fl.read(inst.operands[1], ptx::Type::U64);
  if (fl.failed()) return;
  const ClusterWindows w = cluster_windows(fl);
  auto in_cluster = [&] {
    llvm::Value* size = b.CreateMul(
        b.CreateZExt(fl.load_context_u32(offsetof(ThreadContext, cluster_nctarank)), b.getInt64Ty()), w.stride);
    return b.CreateICmpULT(b.CreateSub(address, w.first), size);
  };
  auto is_local = [&] {
    llvm::Type* args[] = {fl.ptr_type(), b.getInt64Ty()};
    llvm::Value* local =
        b.CreateCall(fl.runtime_function(kIsLocal, b.getInt32Ty(), args), {fl.thread_context, address});
    return b.CreateICmpNE(local, b.getInt32(0));
  };
  llvm::Value* result = nullptr;
  switch (inst.q.space) {
    case ptx::StateSpace::Shared:
      result = b.CreateICmpULT(b.CreateSub(address, w.own), w.stride);
      break;
    case ptx::StateSpace::SharedCluster:
      result = in_cluster();
      break;
    case ptx::StateSpace::Local:
      result = is_local();
      break;
    case ptx::StateSpace::Const:
      result = in_const_variable(fl, address);
      break;
    case ptx::StateSpace::Param: {
      llvm::Value* params = fl.load_context_u64(offsetof(ThreadContext, params));
      llvm::Value* size = b.CreateZExt(fl.load_context_u32(offsetof(ThreadContext, param_bytes)), b.getInt64Ty());
      result = b.CreateICmpULT(b.CreateSub(address, params), size);
      break;
    }
    case ptx::StateSpace::Global:
      result = b.CreateNot(b.CreateOr(b.CreateOr(in_cluster(), is_local()), in_const_variable(fl, address)));
      break;
    default:
      fl.fail(fmt::format("isspacep{} is not supported yet", ptx::spelling(inst.q.space)));
      return;
  }
  fl.write(inst.operands[0], ptx::Type::Pred, result);
}

bool is_cluster_barrier(const ptx::Instruction& inst) {
  return inst.opcode == ptx::Opcode::Barrier && inst.q.scope == ptx::Scope::Cluster;
}

}  // namespace

bool lower_cluster(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Barrier:
      if (inst.q.scope != ptx::Scope::Cluster) return false;
      lower_cluster_barrier(fl, inst);
      return true;
    case ptx::Opcode::Mapa:
      lower_mapa(fl, inst);
      return true;
    case ptx::Opcode::Getctarank:
      lower_getctarank(fl, inst);
      return true;
    case ptx::Opcode::Isspacep:
      lower_isspacep(fl, inst);
      return true;
    case ptx::Opcode::Cvta:
      if (!is_shared_cluster(inst.q.space)) return false;
      lower_cvta_cluster(fl, inst);
      return true;
    default:
      return false;
  }
}

bool reaches_cluster_barrier(const ptx::Function& kernel, const std::map<const ptx::Function*, FunctionFacts>& facts) {
  std::set<const ptx::Function*> seen;
  std::vector<const ptx::Function*> work{&kernel};
  while (!work.empty()) {
    const ptx::Function* f = work.back();
    work.pop_back();
    if (!seen.insert(f).second) continue;
    for (const ptx::Statement& s : f->body) {
      if (s.kind == ptx::Statement::Kind::Instruction && is_cluster_barrier(s.instruction)) return true;
    }
    if (auto it = facts.find(f); it != facts.end())
      for (const ptx::Function* g : it->second.callees) work.push_back(g);
  }
  return false;
}

}  // namespace cucpu::jit
