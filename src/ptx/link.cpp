// PTX-level linking of -rdc translation units (see link.h). Working on ptx::Modules
// rather than on LLVM modules keeps one lowering for everything: the linked module is
// compiled like any other, so shared-memory layout, .func calls and variables need no
// cross-module cases.
#include "ptx/link.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>

namespace cucpu::ptx {
namespace {

// `extern __shared__ T x[]`: dynamic shared memory, declared (never defined) in every
// translation unit that uses it; all of them name the same bytes.
bool is_dynamic_shared(const Variable& v) {
  return v.is_extern && (v.space == StateSpace::Shared || v.space == StateSpace::SharedCluster);
}

bool is_private(const Function& f) { return !f.is_extern && !f.is_visible && !f.is_weak; }
bool is_private(const Variable& v) { return !v.is_extern && !v.is_visible && !v.is_weak && !v.is_common; }

// Renames symbol uses in one module. A function-scope variable of the same name shadows
// the module's symbol inside that function.
class SymbolRenamer {
 public:
  explicit SymbolRenamer(std::map<std::string, std::string> renames) : renames_(std::move(renames)) {}

  void apply(Module& module) const {
    if (renames_.empty()) return;
    for (Variable& v : module.variables) rename_variable(v);
    for (Function& f : module.functions) {
      rename(f.name);
      std::set<std::string> shadowed;
      for (const Variable& local : f.locals) shadowed.insert(local.name);
      for (Variable& local : f.locals)
        for (Variable::AddressInit& init : local.address_inits) rename_unless(init.symbol, shadowed);
      for (Statement& statement : f.body)
        if (statement.kind == Statement::Kind::Instruction)
          for (Operand& operand : statement.instruction.operands) rename_operand(operand, shadowed);
    }
  }

 private:
  void rename(std::string& name) const {
    if (auto it = renames_.find(name); it != renames_.end()) name = it->second;
  }
  void rename_unless(std::string& name, const std::set<std::string>& shadowed) const {
    if (!shadowed.count(name)) rename(name);
  }
  void rename_variable(Variable& v) const {
    rename(v.name);
    for (Variable::AddressInit& init : v.address_inits) rename(init.symbol);
  }
  void rename_operand(Operand& operand, const std::set<std::string>& shadowed) const {
    if (operand.kind == Operand::Kind::Symbol) rename_unless(operand.name, shadowed);
    for (Operand& element : operand.elements) rename_operand(element, shadowed);
  }

  std::map<std::string, std::string> renames_;
};

// Private symbols whose names another module also uses get a module-unique name.
void rename_private_clashes(std::vector<Module>& modules) {
  std::map<std::string, std::set<size_t>> users;  // name -> modules that declare or define it
  for (size_t i = 0; i < modules.size(); ++i) {
    for (const Variable& v : modules[i].variables) users[v.name].insert(i);
    for (const Function& f : modules[i].functions) users[f.name].insert(i);
  }
  for (size_t i = 0; i < modules.size(); ++i) {
    std::map<std::string, std::string> renames;
    auto consider = [&](const std::string& name) {
      if (users[name].size() > 1) renames[name] = fmt::format("{}$tu{}", name, i);
    };
    for (const Variable& v : modules[i].variables)
      if (is_private(v)) consider(v.name);
    for (const Function& f : modules[i].functions)
      if (is_private(f)) consider(f.name);
    SymbolRenamer(std::move(renames)).apply(modules[i]);
  }
}

Error multiple_definition(const std::string& name, size_t first, size_t second, SourcePos pos) {
  return make_error(ErrorCode::InvalidPtx,
                    fmt::format("linking: {} is defined in translation unit {} and again in {} (line {})", name,
                                first, second, pos.line));
}

// The definitions of one kind of symbol, chosen across modules by the linkage rules.
template <typename Symbol>
class DefinitionTable {
 public:
  // Offers the module's definition or declaration; returns an error on a clash.
  Result<void> offer(Symbol symbol, size_t module_index) {
    if (symbol.is_extern) {
      const std::string name = symbol.name;
      declarations_.try_emplace(name, std::move(symbol));
      return {};
    }
    const std::string name = symbol.name;
    auto it = chosen_.find(name);
    if (it == chosen_.end()) {
      order_.push_back(name);
      chosen_.emplace(name, Chosen{std::move(symbol), module_index});
      return {};
    }
    Chosen& current = it->second;
    if (replaces(symbol, current.symbol)) {
      current = Chosen{std::move(symbol), module_index};
    } else if (!yields(symbol, current.symbol)) {
      return multiple_definition(symbol.name, current.module_index, module_index, symbol.pos);
    }
    return {};
  }

  // Definitions in first-seen order, then the declarations nothing defines.
  void emit(std::vector<Symbol>& out) {
    for (const std::string& name : order_) out.push_back(std::move(chosen_.at(name).symbol));
    for (auto& [name, declaration] : declarations_)
      if (!chosen_.count(name)) out.push_back(std::move(declaration));
  }

 private:
  struct Chosen {
    Symbol symbol;
    size_t module_index;
  };
  static bool is_weak_like(const Variable& v) { return v.is_weak || v.is_common; }
  static bool is_weak_like(const Function& f) { return f.is_weak; }
  static uint64_t size_of(const Variable& v) { return v.size_bytes(); }
  static uint64_t size_of(const Function&) { return 0; }

  // A strong definition replaces a weak one; a larger .common replaces a smaller .common.
  static bool replaces(const Symbol& offered, const Symbol& current) {
    if (is_weak_like(current) && !is_weak_like(offered)) return true;
    if constexpr (std::is_same_v<Symbol, Variable>)
      return offered.is_common && current.is_common && size_of(offered) > size_of(current);
    return false;
  }
  // A weak definition yields to whatever is there.
  static bool yields(const Symbol& offered, const Symbol&) { return is_weak_like(offered); }

  std::vector<std::string> order_;
  std::map<std::string, Chosen> chosen_;
  std::map<std::string, Symbol> declarations_;
};

}  // namespace

Result<Module> link_modules(std::vector<Module> modules) {
  if (modules.empty()) return make_error(ErrorCode::InvalidPtx, "linking: no PTX modules");
  if (modules.size() == 1) return std::move(modules.front());
  rename_private_clashes(modules);

  Module linked;
  linked.target = modules.front().target;
  linked.target_options = modules.front().target_options;
  linked.address_size = modules.front().address_size;
  linked.files.push_back("");  // index 0: unknown
  DefinitionTable<Variable> variables;
  DefinitionTable<Function> functions;
  std::map<std::string, Variable> dynamic_shared;  // one per name, the strictest alignment
  std::vector<std::string> dynamic_shared_order;
  for (size_t i = 0; i < modules.size(); ++i) {
    Module& module = modules[i];
    if (std::tie(module.version_major, module.version_minor) > std::tie(linked.version_major, linked.version_minor)) {
      linked.version_major = module.version_major;
      linked.version_minor = module.version_minor;
    }
    if (module.address_size != linked.address_size)
      return make_error(ErrorCode::InvalidPtx, fmt::format("linking: translation unit {} has .address_size {}, "
                                                           "translation unit 0 has {}",
                                                           i, module.address_size, linked.address_size));
    // .loc file numbers are per module: move them after the ones linked so far.
    const uint32_t file_base = static_cast<uint32_t>(linked.files.size()) - 1;
    for (size_t f = 1; f < module.files.size(); ++f) linked.files.push_back(module.files[f]);
    for (Function& function : module.functions)
      for (Statement& statement : function.body)
        if (statement.instruction.loc.file != 0) statement.instruction.loc.file += file_base;

    for (Variable& v : module.variables) {
      if (is_dynamic_shared(v)) {
        auto [it, inserted] = dynamic_shared.try_emplace(v.name, v);
        if (inserted) dynamic_shared_order.push_back(v.name);
        it->second.align = std::max(it->second.alignment(), v.alignment());
        continue;
      }
      if (auto offered = variables.offer(std::move(v), i); !offered) return offered.error();
    }
    for (Function& f : module.functions)
      if (auto offered = functions.offer(std::move(f), i); !offered) return offered.error();
  }
  for (const std::string& name : dynamic_shared_order) linked.variables.push_back(std::move(dynamic_shared[name]));
  variables.emit(linked.variables);
  functions.emit(linked.functions);
  return linked;
}

}  // namespace cucpu::ptx
