// Static shared-memory layout: gives every .shared variable a kernel can reach its
// offset in the block's shared window, and places dynamic shared memory after them.
// Offsets start after the reserved shared memory (kReservedSharedBytes, kernel_abi.h).
//
// A kernel's variables are those its body names plus those of every .func it calls,
// transitively. A .func is compiled once for all kernels, so the variables any .func
// names form a common prefix, laid out once in module order, which every kernel that
// calls such a .func starts with; each kernel's own variables follow. Dynamic shared
// memory (`extern .shared x[]`) starts at the static size rounded up to 16 (or to the
// array's alignment); kernels whose callees name an extern array share one such offset,
// the largest among them, for the same reason.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "jit/call_site.h"
#include "jit/kernel_abi.h"
#include "jit/shared_layout.h"

namespace cucpu::jit {
namespace {

bool is_shared(const ptx::Variable& v) {
  return v.space == ptx::StateSpace::Shared || v.space == ptx::StateSpace::SharedCluster;
}
bool is_unsized(const ptx::Variable& v) { return !v.dims.empty() && v.dims[0] == 0; }
uint64_t align_up(uint64_t value, uint64_t align) { return align <= 1 ? value : (value + align - 1) / align * align; }

// What one function names directly.
struct FunctionUse {
  std::vector<const ptx::Variable*> sized;  // in first-use order, no repeats
  uint32_t unsized_align = 0;               // 0 = names no extern array
  std::vector<const ptx::Function*> callees;
};

void note_symbol(const ptx::Module& module, const ptx::Function& function, const std::string& name, FunctionUse& use) {
  const ptx::Variable* v = resolve_variable(module, function, name);
  if (v == nullptr || !is_shared(*v)) return;
  if (is_unsized(*v)) {
    use.unsized_align = std::max<uint32_t>(std::max<uint32_t>(use.unsized_align, v->alignment()), 1);
  } else if (std::find(use.sized.begin(), use.sized.end(), v) == use.sized.end()) {
    use.sized.push_back(v);
  }
}

void note_operand(const ptx::Module& module, const ptx::Function& function, const ptx::Operand& op, FunctionUse& use) {
  if (op.kind == ptx::Operand::Kind::Symbol) note_symbol(module, function, op.name, use);
  for (const ptx::Operand& element : op.elements) note_operand(module, function, element, use);
}

// The function that defines `name` (a prototype may precede the definition).
const ptx::Function* find_definition(const ptx::Module& module, const std::string& name) {
  const ptx::Function* found = nullptr;
  for (const ptx::Function& f : module.functions) {
    if (f.name == name && (found == nullptr || (found->is_extern && !f.is_extern))) found = &f;
  }
  return found;
}

FunctionUse collect_uses(const ptx::Module& module, const ptx::Function& function) {
  FunctionUse use;
  for (const ptx::Statement& statement : function.body) {
    if (statement.kind != ptx::Statement::Kind::Instruction) continue;
    const ptx::Instruction& inst = statement.instruction;
    for (const ptx::Operand& op : inst.operands) note_operand(module, function, op, use);
    if (inst.opcode == ptx::Opcode::Call) {
      CallSite site =
          decode_call(inst, [&](const std::string& name) { return find_definition(module, name) != nullptr; });
      if (site.callee != nullptr && site.callee->kind == ptx::Operand::Kind::Symbol) {
        const ptx::Function* callee = find_definition(module, site.callee->name);
        if (callee != nullptr) use.callees.push_back(callee);
      }
    }
  }
  return use;
}

// Appends variables to a layout at the next multiple of their alignment.
void append(SharedLayout& layout, const ptx::Variable* v) {
  if (layout.offsets.count(v) != 0) return;
  uint64_t offset = align_up(layout.static_bytes, std::max<uint32_t>(v->alignment(), 1));
  layout.offsets[v] = offset;
  layout.static_bytes = offset + v->size_bytes();
}

}  // namespace

const ptx::Variable* resolve_variable(const ptx::Module& module, const ptx::Function& function,
                                      const std::string& name) {
  for (const ptx::Variable& v : function.locals) {
    if (v.name == name) return &v;
  }
  for (const ptx::Variable& v : module.variables) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

ModuleSharedLayout lay_out_shared_memory(const ptx::Module& module) {
  std::map<const ptx::Function*, FunctionUse> uses;
  for (const ptx::Function& f : module.functions) uses[&f] = collect_uses(module, f);

  // The common prefix: what any .func names, module variables first, in text order.
  std::set<const ptx::Variable*> named_by_funcs;
  uint32_t funcs_unsized_align = 0;
  for (const ptx::Function& f : module.functions) {
    if (f.is_entry) continue;
    named_by_funcs.insert(uses[&f].sized.begin(), uses[&f].sized.end());
    funcs_unsized_align = std::max(funcs_unsized_align, uses[&f].unsized_align);
  }
  SharedLayout common;
  common.static_bytes = kReservedSharedBytes;
  for (const ptx::Variable& v : module.variables) {
    if (named_by_funcs.count(&v) != 0) append(common, &v);
  }
  for (const ptx::Function& f : module.functions) {
    for (const ptx::Variable& v : f.locals) {
      if (named_by_funcs.count(&v) != 0) append(common, &v);
    }
  }

  ModuleSharedLayout result;
  std::vector<const ptx::Function*> kernels_sharing_dynamic;
  uint64_t shared_dynamic_offset = 0;
  for (const ptx::Function& f : module.functions) {
    if (!f.is_entry) continue;
    // Everything reachable through calls.
    std::set<const ptx::Function*> reached;
    std::vector<const ptx::Function*> work = uses[&f].callees;
    while (!work.empty()) {
      const ptx::Function* g = work.back();
      work.pop_back();
      if (!reached.insert(g).second) continue;
      for (const ptx::Function* h : uses[g].callees) work.push_back(h);
    }
    bool callees_use_shared = false;
    bool callees_use_unsized = false;
    for (const ptx::Function* g : reached) {
      callees_use_shared |= !uses[g].sized.empty();
      callees_use_unsized |= uses[g].unsized_align != 0;
    }
    SharedLayout layout;
    layout.static_bytes = kReservedSharedBytes;
    if (callees_use_shared) layout = common;
    // The kernel's own variables in declaration order: module scope, then its body.
    const std::vector<const ptx::Variable*>& own = uses[&f].sized;
    auto is_own = [&](const ptx::Variable& v) { return std::find(own.begin(), own.end(), &v) != own.end(); };
    for (const ptx::Variable& v : module.variables) {
      if (is_own(v)) append(layout, &v);
    }
    for (const ptx::Variable& v : f.locals) {
      if (is_own(v)) append(layout, &v);
    }
    uint32_t unsized_align = std::max(uses[&f].unsized_align, callees_use_unsized ? funcs_unsized_align : 0u);
    layout.dynamic_offset = align_up(layout.static_bytes, std::max<uint32_t>(16, unsized_align));
    if (callees_use_unsized) {
      kernels_sharing_dynamic.push_back(&f);
      shared_dynamic_offset = std::max(shared_dynamic_offset, layout.dynamic_offset);
    }
    result.functions[&f] = std::move(layout);
  }
  for (const ptx::Function* k : kernels_sharing_dynamic) result.functions[k].dynamic_offset = shared_dynamic_offset;
  common.dynamic_offset = kernels_sharing_dynamic.empty()
                              ? align_up(common.static_bytes, std::max<uint32_t>(16, funcs_unsized_align))
                              : shared_dynamic_offset;
  for (const ptx::Function& f : module.functions) {
    if (!f.is_entry) result.functions[&f] = common;
  }
  return result;
}

}  // namespace cucpu::jit
