// Semantic checks that need the whole module (PTX allows forward references to labels
// and, across a module, to functions): every label a branch names exists in its
// function, lane selectors stand only on video instructions, every symbol an operand or initializer names is a variable, function or
// parameter in scope, and every guard is a predicate register. Run only on a module
// that parsed cleanly, so that one error does not echo as many.
#include <fmt/format.h>

#include <string_view>
#include <unordered_set>

#include "ptx/parser.h"

namespace cucpu::ptx {
namespace {

class ModuleChecker {
 public:
  ModuleChecker(const Module& module, std::vector<Diagnostic>& diagnostics, size_t max_diagnostics)
      : module_(module), diagnostics_(diagnostics), max_diagnostics_(max_diagnostics) {
    for (const Variable& variable : module.variables) module_symbols_.insert(variable.name);
    for (const Function& function : module.functions) module_symbols_.insert(function.name);
  }

  void run() {
    for (const Variable& variable : module_.variables) check_initializer(variable);
    for (const Function& function : module_.functions) check_function(function);
  }

 private:
  void report(SourcePos pos, std::string message) {
    if (diagnostics_.size() < max_diagnostics_) diagnostics_.push_back(Diagnostic{pos, std::move(message)});
  }

  void check_initializer(const Variable& variable) {
    for (const Variable::AddressInit& address : variable.address_inits) {
      if (!module_symbols_.contains(address.symbol)) {
        report(variable.pos,
               fmt::format("undeclared symbol '{}' in the initializer of '{}'", address.symbol, variable.name));
      }
    }
  }

  void check_function(const Function& function) {
    labels_.clear();
    local_symbols_.clear();
    for (const Statement& statement : function.body) {
      if (statement.kind == Statement::Kind::Label) labels_.insert(statement.label);
    }
    for (const Variable& local : function.locals) local_symbols_.insert(local.name);
    for (const Parameter& parameter : function.params) local_symbols_.insert(parameter.name);
    for (const Parameter& parameter : function.returns) local_symbols_.insert(parameter.name);
    for (const Statement& statement : function.body) {
      if (statement.kind != Statement::Kind::Instruction) continue;
      const Instruction& instruction = statement.instruction;
      if (instruction.guard && (instruction.guard->reg >= function.registers.size() ||
                                function.registers[instruction.guard->reg].type != Type::Pred)) {
        report(instruction.pos, "the guard is not a .pred register");
      }
      for (const Operand& operand : instruction.operands) check_operand(function, instruction, operand);
    }
  }

  void check_operand(const Function& function, const Instruction& instruction, const Operand& operand) {
    switch (operand.kind) {
      case Operand::Kind::Label:
        if (!labels_.contains(operand.name)) {
          report(instruction.pos, fmt::format("undeclared label '{}'", operand.name));
        }
        break;
      case Operand::Kind::Symbol:
        if (!local_symbols_.contains(operand.name) && !module_symbols_.contains(operand.name)) {
          report(instruction.pos, fmt::format("undeclared symbol '{}'", operand.name));
        }
        break;
      case Operand::Kind::Register:
        if (operand.reg >= function.registers.size()) report(instruction.pos, "register index out of range");
        if (operand.selector.lane_bits != 0 && !is_video(instruction.opcode)) {
          report(instruction.pos, fmt::format("a lane selector on '{}', which is no video instruction",
                                              spelling(instruction.opcode)));
        }
        break;
      case Operand::Kind::Address:
      case Operand::Kind::Vector:
        for (const Operand& element : operand.elements) check_operand(function, instruction, element);
        break;
      default:
        break;
    }
  }

  const Module& module_;
  std::vector<Diagnostic>& diagnostics_;
  size_t max_diagnostics_;
  std::unordered_set<std::string_view> module_symbols_;
  std::unordered_set<std::string_view> labels_;
  std::unordered_set<std::string_view> local_symbols_;
};

}  // namespace

void check_module(const Module& module, std::vector<Diagnostic>& diagnostics, size_t max_diagnostics) {
  ModuleChecker(module, diagnostics, max_diagnostics).run();
}

}  // namespace cucpu::ptx
