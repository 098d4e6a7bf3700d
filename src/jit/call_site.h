// Internal to src/jit: the parts of a PTX `call` instruction, however the parser
// grouped them: `call{.uni} (ret...), callee, (arg...);`.
// Indirect calls (a register callee, with a prototype) are decoded but not lowered yet.
#pragma once

#include <vector>

#include "ptx/module.h"

namespace cucpu::jit {

struct CallSite {
  const ptx::Operand* callee = nullptr;  // a Symbol (direct) or Register (indirect)
  std::vector<const ptx::Operand*> returns;
  std::vector<const ptx::Operand*> arguments;
};

// Splits the operands of a call; `is_function(name)` says which symbol is the callee.
template <typename IsFunction>
CallSite decode_call(const ptx::Instruction& inst, IsFunction is_function) {
  CallSite site;
  // The callee is the first operand that names a function, else the first register.
  size_t callee_index = inst.operands.size();
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    const ptx::Operand& op = inst.operands[i];
    if (op.kind == ptx::Operand::Kind::Symbol && is_function(op.name)) {
      callee_index = i;
      break;
    }
  }
  if (callee_index == inst.operands.size()) {
    for (size_t i = 0; i < inst.operands.size(); ++i) {
      const ptx::Operand& op = inst.operands[i];
      if (op.kind == ptx::Operand::Kind::Register) {
        callee_index = i;
        break;
      }
    }
  }
  if (callee_index == inst.operands.size()) return site;
  site.callee = &inst.operands[callee_index];
  auto flatten = [](const ptx::Operand& op, std::vector<const ptx::Operand*>& out) {
    if (op.kind == ptx::Operand::Kind::Vector) {
      for (const ptx::Operand& element : op.elements) out.push_back(&element);
    } else {
      out.push_back(&op);
    }
  };
  for (size_t i = 0; i < callee_index; ++i) flatten(inst.operands[i], site.returns);
  for (size_t i = callee_index + 1; i < inst.operands.size(); ++i) flatten(inst.operands[i], site.arguments);
  return site;
}

}  // namespace cucpu::jit
