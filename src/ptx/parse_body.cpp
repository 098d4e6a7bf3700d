// Function bodies (PTX ISA 9.0 §11.1: statements): a flat list of instructions and
// labels, declarations of registers and local variables, nested `{ }` scopes (flattened
// here: inner names are renamed apart, see parse_declaration.cpp), `.loc` debug
// positions that apply to the instructions after them, `.pragma` (dropped), and the
// labelled directives `.branchtargets` (the tables of brx.idx), `.callprototype` and
// `.calltargets` (the signatures of indirect calls, which the argument variables already
// carry). Scopes are a stack, not recursion, so no nesting depth can overflow the stack.
#include <fmt/format.h>

#include "ptx/literals.h"
#include "ptx/parser.h"
#include "ptx/qualifier_words.h"

namespace cucpu::ptx {

void Parser::parse_body(Function& function) {
  BodyState body;
  body.function = &function;
  body.scopes.emplace_back();
  // Parameters are names of the outermost scope; a .reg parameter is also a register.
  for (auto* list : {&function.returns, &function.params}) {
    for (const Parameter& parameter : *list) {
      if (parameter.space == StateSpace::Reg) {
        const std::string name = declare_local_name(body, parameter.name, function.pos, true);
        function.registers.push_back(Register{name, parameter.type, 1});
      } else {
        body.scopes.back().locals[parameter.name] = parameter.name;
        body.flat_names.insert(parameter.name);
      }
    }
  }
  take();  // {
  body.scopes.emplace_back();
  while (!stopped_) {
    const Token& token = peek();
    if (token.kind == Token::Kind::End) {
      error_at(token, fmt::format("unexpected end of input: missing '}}' of function '{}'", function.name));
      return;
    }
    if (token.is_punct('}')) {
      take();
      body.scopes.pop_back();
      if (body.scopes.size() == 1) return;
    } else if (token.is_punct('{')) {
      if (body.scopes.size() > kMaxScopeDepth) {
        error_at(token, "scopes nested too deeply");
        return;
      }
      take();
      body.scopes.emplace_back();
    } else if (token.kind == Token::Kind::Directive) {
      parse_body_directive(body);
    } else if (token.kind == Token::Kind::Identifier && peek(1).is_punct(':')) {
      parse_labelled(body);
    } else if (token.kind == Token::Kind::Identifier || token.is_punct('@')) {
      parse_instruction(body);
    } else {
      unexpected(token, "an instruction");
      take();
      recover();
    }
  }
}

void Parser::parse_body_directive(BodyState& body) {
  const Token& token = peek();
  if (token.is_directive(".reg")) return parse_registers(body);
  if (token.is_directive(".loc")) return parse_loc(&body);
  if (token.is_directive(".pragma")) {
    take();
    return recover();  // "nounroll" and friends: no meaning for a CPU
  }
  auto space = find_state_space(token.text);
  if (space && *space != StateSpace::Reg && *space != StateSpace::SReg) {
    take();
    return parse_variables(*space, Linkage{}, body.function->locals, &body);
  }
  error_at(token, fmt::format("unknown or misplaced directive '{}'", token.text.substr(0, 40)));
  take();
  recover();
}

// `name:` then a label, or a labelled table/prototype directive.
void Parser::parse_labelled(BodyState& body) {
  const Token name = take();
  take();  // :
  const std::string label(name.text);
  if (peek().is_directive(".branchtargets")) {
    take();
    return parse_branch_targets(body, label);
  }
  if (peek().is_directive(".callprototype") || peek().is_directive(".calltargets")) {
    take();
    body.prototypes.insert(label);
    return recover();
  }
  if (!body.labels.insert(label).second) {
    error_at(name, fmt::format("duplicate label '{}'", label));
    return;
  }
  Statement statement;
  statement.kind = Statement::Kind::Label;
  statement.label = label;
  statement.pos = name.pos;
  body.function->body.push_back(std::move(statement));
}

// `tbl: .branchtargets L1, L2, L3;`
void Parser::parse_branch_targets(BodyState& body, const std::string& name) {
  std::vector<Operand> targets;
  do {
    const Token token = peek();
    if (token.kind != Token::Kind::Identifier) {
      unexpected(token, "a label");
      return recover();
    }
    take();
    Operand target;
    target.kind = Operand::Kind::Label;
    target.name = std::string(token.text);
    targets.push_back(std::move(target));
  } while (accept_punct(','));
  if (!expect_semicolon()) return recover();
  body.branch_tables[name] = std::move(targets);
}

// `.loc file line column [, function_name ..., inlined_at ...]`: ends at its line's end.
void Parser::parse_loc(BodyState* body) {
  const Token directive = take();
  DebugLoc loc;
  for (uint32_t* field : {&loc.file, &loc.line}) {
    const Token token = peek();
    if (token.kind != Token::Kind::Integer || token.pos.line != directive.pos.line) {
      unexpected(token, "a .loc file and line");
      return skip_line(directive.pos.line);
    }
    take();
    auto value = parse_integer_literal(token.text);
    if (!value || *value > UINT32_MAX) {
      error_at(token, "invalid .loc number");
      return skip_line(directive.pos.line);
    }
    *field = static_cast<uint32_t>(*value);
  }
  skip_line(directive.pos.line);
  if (body != nullptr) body->loc = loc;
}

}  // namespace cucpu::ptx
