// ptx::Module -> llvm::Module: creates the module's variables (.global/.const with
// their initializers, address initializers included), declares every function, lays
// out shared memory and the kernels' parameter buffers, translates each body
// (translate_function.cpp) and works out which kernels can wait on other threads.
#include "jit/translate_module.h"

#include "jit/block_function.h"

#include <fmt/format.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <set>

namespace cucpu::jit {
namespace {

// "sm_120" -> 120, "sm_90a" -> 90; 0 for anything else.
uint32_t target_arch(const std::string& target) {
  if (!target.starts_with("sm_")) return 0;
  uint32_t arch = 0;
  for (size_t i = 3; i < target.size() && target[i] >= '0' && target[i] <= '9'; ++i) arch = arch * 10 + (target[i] - '0');
  return arch;
}

uint64_t align_up(uint64_t value, uint64_t align) { return align <= 1 ? value : (value + align - 1) / align * align; }

Error invalid(const std::string& message) { return make_error(ErrorCode::InvalidPtx, message); }

// Where the GPU's kernel parameters begin in constant bank 0 on sm_90. Parameters are
// aligned there, not in the parameter list: a 128-byte aligned struct after a char lies at
// offset 112 of the list (cudaFuncGetParamInfo on an H100, e2e param_alignment).
constexpr uint64_t kParamBankOffset = 0x210;

// Each parameter at the next multiple of its alignment (PTX ISA 5.1.6.1), counted from
// kParamBankOffset.
std::vector<ParamSlot> lay_out_params(const ptx::Function& function, uint32_t& total) {
  std::vector<ParamSlot> slots;
  uint64_t end = 0;
  for (const ptx::Parameter& p : function.params) {
    ParamSlot slot;
    slot.align = std::max<uint32_t>(p.alignment(), 1);
    slot.offset = static_cast<uint32_t>(align_up(kParamBankOffset + end, slot.align) - kParamBankOffset);
    slot.size = static_cast<uint32_t>(p.size_bytes());
    end = slot.offset + slot.size;
    slots.push_back(slot);
  }
  total = static_cast<uint32_t>(end);
  return slots;
}

llvm::GlobalVariable* create_storage(llvm::Module& module, const ptx::Variable& v, const std::string& name,
                                     llvm::GlobalValue::LinkageTypes linkage) {
  auto* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), v.size_bytes());
  // Never an LLVM constant, not even .const: the host writes __constant__ memory
  // (cudaMemcpyToSymbol), so it must be writable and its loads must not be folded.
  auto* g = new llvm::GlobalVariable(module, type, /*isConstant=*/false, linkage, nullptr, name);
  g->setAlignment(llvm::Align(std::max<uint32_t>(v.alignment(), 1)));
  return g;
}

// The initializer: the bytes, with pointer-sized address entries spliced in. An address
// fills a 64-bit element, or eight elements of a byte array (nvcc's .b8 image of a struct
// holding pointers writes it as the byte masks 0xFF(sym) ... 0xFF00000000000000(sym)).
// Returns the variable's global, which is a new one when addresses changed its type.
Result<llvm::GlobalVariable*> initialize(ModuleLowering& m, const ptx::Variable& v, llvm::GlobalVariable* g) {
  llvm::LLVMContext& c = *m.context;
  uint64_t size = v.size_bytes();
  std::vector<uint8_t> bytes = v.init;
  bytes.resize(size, 0);
  if (v.address_inits.empty()) {
    g->setInitializer(llvm::ConstantDataArray::get(c, llvm::ArrayRef<uint8_t>(bytes)));
    return g;
  }
  std::vector<ptx::Variable::AddressInit> entries = v.address_inits;
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  std::vector<llvm::Constant*> pieces;
  uint64_t at = 0;
  auto raw = [&](uint64_t from, uint64_t to) {
    if (to > from) {
      pieces.push_back(llvm::ConstantDataArray::get(
          c, llvm::ArrayRef<uint8_t>(bytes.data() + from, static_cast<size_t>(to - from))));
    }
  };
  for (const auto& e : entries) {
    const bool fills_element = v.element_bytes() >= 8 || v.element_bytes() == 1;
    if (e.offset < at || e.offset + 8 > size || !fills_element) {
      return invalid(fmt::format("line {}: address initializer of {} must fill a 64-bit element", v.pos.line, v.name));
    }
    raw(at, e.offset);
    llvm::Constant* target = nullptr;
    if (auto it = m.globals.find(e.symbol); it != m.globals.end()) target = it->second;
    if (auto it = m.functions.find(e.symbol); it != m.functions.end()) target = it->second;
    if (target == nullptr) {
      return invalid(
          fmt::format("line {}: initializer of {} takes the address of {}, which is not a .global/.const "
                      "variable or function of this module",
                      v.pos.line, v.name, e.symbol));
    }
    pieces.push_back(llvm::ConstantExpr::getGetElementPtr(llvm::Type::getInt8Ty(c), target,
                                                          llvm::ConstantInt::get(llvm::Type::getInt64Ty(c), e.addend)));
    at = e.offset + 8;
  }
  raw(at, size);
  // The storage type changes to a packed struct of the pieces: recreate the global.
  auto* init = llvm::ConstantStruct::getAnon(c, pieces, /*Packed=*/true);
  auto* replacement = new llvm::GlobalVariable(*m.module, init->getType(), false, g->getLinkage(), init, "");
  replacement->setAlignment(g->getAlign());
  replacement->takeName(g);
  g->replaceAllUsesWith(replacement);
  g->eraseFromParent();
  return replacement;
}

Result<void> create_variables(ModuleLowering& m, std::vector<GlobalInfo>& infos, bool declarations) {
  const ptx::Module& ptx = *m.ptx;
  for (const ptx::Variable& v : ptx.variables) {
    switch (v.space) {
      case ptx::StateSpace::Shared:
      case ptx::StateSpace::SharedCluster:
        continue;  // offsets: lay_out_shared_memory
      case ptx::StateSpace::Global:
      case ptx::StateSpace::Const:
        break;
      default:
        return invalid(fmt::format("line {}: module-scope {} variable {} is not supported yet", v.pos.line,
                                   ptx::spelling(v.space), v.name));
    }
    if (v.is_extern) {
      return invalid(
          fmt::format("line {}: external variable {} is not supported yet (needs linking)", v.pos.line, v.name));
    }
    if (v.size_bytes() == 0) return invalid(fmt::format("line {}: variable {} has no size", v.pos.line, v.name));
    m.globals[v.name] = create_storage(*m.module, v, v.name, llvm::GlobalValue::ExternalLinkage);
    if (declarations) m.globals[v.name]->setInitializer(nullptr);
    infos.push_back(GlobalInfo{v.name, v.space, nullptr, v.size_bytes()});
  }
  for (const ptx::Function& f : ptx.functions) {
    for (const ptx::Variable& v : f.locals) {
      if (v.space != ptx::StateSpace::Global && v.space != ptx::StateSpace::Const) continue;
      if (v.size_bytes() == 0) return invalid(fmt::format("line {}: variable {} has no size", v.pos.line, v.name));
      // External, as every function: block functions compiled later refer to them by name.
      m.function_statics[&v] = create_storage(*m.module, v, f.name + "." + v.name, llvm::GlobalValue::ExternalLinkage);
      if (declarations) m.function_statics[&v]->setInitializer(nullptr);
    }
  }
  return {};
}

Result<void> initialize_variables(ModuleLowering& m) {
  for (const ptx::Variable& v : m.ptx->variables) {
    auto it = m.globals.find(v.name);
    if (it == m.globals.end()) continue;
    auto global = initialize(m, v, it->second);
    if (!global) return global.error();
    it->second = *global;
  }
  for (auto& [v, g] : m.function_statics) {
    auto global = initialize(m, *v, g);
    if (!global) return global.error();
    g = *global;
  }
  return {};
}

// The .func whose address the module takes (an operand other than a call's callee, or an
// address initializer): the only functions an indirect call may reach.
void find_address_taken_functions(ModuleLowering& m) {
  std::set<std::string> names;
  auto visit = [&](const ptx::Operand& op, auto& self) -> void {
    if (op.kind == ptx::Operand::Kind::Symbol) names.insert(op.name);
    for (const ptx::Operand& element : op.elements) self(element, self);
  };
  auto visit_initializers = [&](const ptx::Variable& v) {
    for (const ptx::Variable::AddressInit& init : v.address_inits) names.insert(init.symbol);
  };
  for (const ptx::Variable& v : m.ptx->variables) visit_initializers(v);
  for (const ptx::Function& f : m.ptx->functions) {
    for (const ptx::Variable& v : f.locals) visit_initializers(v);
    for (const ptx::Statement& s : f.body) {
      if (s.kind != ptx::Statement::Kind::Instruction) continue;
      const ptx::Instruction& inst = s.instruction;
      for (size_t i = 0; i < inst.operands.size(); ++i) {
        if (inst.opcode == ptx::Opcode::Call && i == 1) continue;  // the callee of a call
        visit(inst.operands[i], visit);
      }
    }
  }
  for (const ptx::Function& f : m.ptx->functions) {
    if (f.is_entry || m.ptx_functions[f.name] != &f || !m.functions.count(f.name) || !names.count(f.name)) continue;
    m.address_taken.push_back(&f);
  }
}

// Whether any .func of the module executes exit (then every call checks whether the
// thread ended inside it: lower_control_flow.cpp).
bool find_exit_in_func(const ptx::Module& ptx) {
  for (const ptx::Function& f : ptx.functions) {
    if (f.is_entry) continue;
    for (const ptx::Statement& s : f.body) {
      if (s.kind == ptx::Statement::Kind::Instruction && s.instruction.opcode == ptx::Opcode::Exit) return true;
    }
  }
  return false;
}

// Declares one LLVM function per defined PTX function; declarations without a body
// stay PTX-only (calls to them are reported when lowered).
void declare_functions(ModuleLowering& m) {
  llvm::LLVMContext& c = *m.context;
  for (const ptx::Function& f : m.ptx->functions) {
    if (!m.ptx_functions.count(f.name) || (!f.is_extern && m.ptx_functions[f.name]->is_extern))
      m.ptx_functions[f.name] = &f;
  }
  for (const ptx::Function& f : m.ptx->functions) {
    if (f.is_extern || m.ptx_functions[f.name] != &f) continue;
    llvm::FunctionType* type =
        f.is_entry ? llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::PointerType::getUnqual(c)}, false)
                   : ptx_function_type(c, f);
    // External even when not .visible: the compiled block strategy's block functions,
    // compiled later into modules of their own, call them by name.
    llvm::Function* fn = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, f.name, m.module);
    fn->addFnAttr(llvm::Attribute::NoUnwind);
    m.functions[f.name] = fn;
  }
}

}  // namespace

Result<void> declare_module(ModuleLowering& m) {
  std::vector<GlobalInfo> unused;
  if (auto r = create_variables(m, unused, true); !r) return r.error();
  declare_functions(m);
  find_address_taken_functions(m);
  m.func_exits = find_exit_in_func(*m.ptx);
  return {};
}

Result<TranslatedModule> translate_module(const ptx::Module& ptx, llvm::LLVMContext& context) {
  TranslatedModule out;
  out.module = std::make_unique<llvm::Module>("ptx", context);
  ModuleSharedLayout shared = lay_out_shared_memory(ptx);
  ModuleLowering m;
  m.ptx = &ptx;
  m.context = &context;
  m.module = out.module.get();
  m.shared = &shared;

  if (auto r = create_variables(m, out.facts.globals, false); !r) return r.error();
  declare_functions(m);
  find_address_taken_functions(m);
  m.func_exits = find_exit_in_func(ptx);
  if (auto r = initialize_variables(m); !r) return r.error();

  uint64_t const_bytes = 0;
  for (const ptx::Variable& v : ptx.variables)
    if (v.space == ptx::StateSpace::Const) const_bytes = align_up(const_bytes, v.alignment()) + v.size_bytes();

  std::map<const ptx::Function*, FunctionFacts> facts;
  for (const ptx::Function& f : ptx.functions) {
    auto it = m.functions.find(f.name);
    if (it == m.functions.end() || m.ptx_functions[f.name] != &f) continue;
    KernelInfo info;
    if (f.is_entry) {
      info.name = f.name;
      info.params = lay_out_params(f, info.param_bytes);
    }
    auto translated = translate_function(m, f, it->second, f.is_entry ? &info.params : nullptr);
    if (!translated) return translated.error();
    facts[&f] = std::move(*translated);
    if (!f.is_entry) continue;

    const SharedLayout& layout = shared.functions.at(&f);
    info.static_shared_bytes = static_cast<uint32_t>(layout.static_bytes - kReservedSharedBytes);
    info.dynamic_shared_offset = static_cast<uint32_t>(layout.dynamic_offset - kReservedSharedBytes);
    info.module_const_bytes = static_cast<uint32_t>(const_bytes);
    info.ptx_arch = target_arch(ptx.target);
    for (const ptx::Variable& v : f.locals) {
      if (v.space == ptx::StateSpace::Local) info.local_bytes += static_cast<uint32_t>(v.size_bytes());
    }
    const ptx::Directives& d = f.directives;
    for (int i = 0; i < 3; ++i) info.reqntid[i] = d.reqntid[i];
    for (int i = 0; i < 3; ++i) info.cluster_dims[i] = d.reqnctapercluster[i];
    info.explicit_cluster = d.explicitcluster;
    info.max_cluster_rank = d.maxclusterrank;
    auto product = [](const uint32_t(&n)[3]) { return std::max(n[0], 1u) * std::max(n[1], 1u) * std::max(n[2], 1u); };
    if (d.reqntid[0] != 0) {
      info.max_threads_per_block = product(d.reqntid);
    } else if (d.maxntid[0] != 0) {
      info.max_threads_per_block = product(d.maxntid);
    }
    out.facts.kernels.push_back(std::move(info));
  }

  // A kernel waits for other threads when anything it reaches does.
  for (KernelInfo& k : out.facts.kernels) {
    std::set<const ptx::Function*> seen;
    std::vector<const ptx::Function*> work{m.ptx_functions.at(k.name)};
    while (!work.empty() && !k.uses_barriers) {
      const ptx::Function* f = work.back();
      work.pop_back();
      if (!seen.insert(f).second) continue;
      k.uses_barriers = facts[f].waits_for_other_threads;
      for (const ptx::Function* g : facts[f].callees) work.push_back(g);
    }
    k.waits_for_cluster = reaches_cluster_barrier(*m.ptx_functions.at(k.name), facts);
    const ptx::Function& kernel = *m.ptx_functions.at(k.name);
    k.compiled_obstacle = compiled_strategy_obstacle(m, kernel, facts);
    if (k.compiled_obstacle.empty()) out.kernel_access[k.name] = facts[&kernel].access;
  }

  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*out.module, &os)) {
    return make_error(ErrorCode::Unknown, "internal error: the translated LLVM IR does not verify: " + os.str());
  }
  return out;
}

}  // namespace cucpu::jit
