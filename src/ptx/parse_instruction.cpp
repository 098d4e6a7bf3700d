// Instructions (PTX ISA 9.0 §9: instruction statements): an optional guard `@%p` /
// `@!%p`, the opcode, its qualifier words (turned into Qualifiers within the groups the
// opcode accepts, opcodes.def), and the operands: registers (resolved to their index
// through the scope stack), special registers with their component, immediates,
// symbols, addresses `[base+offset]`, vectors `{a, _, b}`, `d|p` destination pairs,
// negated predicates `!%p`, branch labels, brx.idx tables and the call form
// `call (rets), target, (args)`.
#include <fmt/format.h>

#include "ptx/literals.h"
#include "ptx/parser.h"
#include "ptx/qualifier_words.h"

namespace cucpu::ptx {

void Parser::parse_instruction(BodyState& body) {
  Instruction instruction;
  instruction.pos = peek().pos;
  instruction.loc = body.loc;
  if (accept_punct('@')) {
    Guard guard;
    guard.negated = accept_punct('!');
    const Token predicate = peek();
    if (predicate.kind != Token::Kind::Identifier) {
      unexpected(predicate, "a guard predicate");
      return recover();
    }
    take();
    auto index = find_register(body, std::string(predicate.text));
    if (!index) {
      error_at(predicate, fmt::format("undeclared register '{}'", predicate.text.substr(0, 40)));
      return recover();
    }
    guard.reg = *index;
    instruction.guard = guard;
  }
  const Token name = peek();
  if (name.kind != Token::Kind::Identifier) {
    unexpected(name, "an opcode");
    return recover();
  }
  take();
  auto opcode = find_opcode(name.text);
  if (!opcode) {
    error_at(name, fmt::format("unknown opcode '{}'", name.text.substr(0, 40)));
    return recover();
  }
  instruction.opcode = *opcode;
  bool cache_hint = false;
  if (!parse_qualifiers(instruction, cache_hint)) return recover();
  const bool parsed = *opcode == Opcode::Call ? parse_call_operands(body, instruction)
                                              : parse_operand_list(body, instruction.operands, ';');
  if (!parsed || !finish_branch_operands(body, instruction)) return recover();
  // The cache-policy operand of .L2::cache_hint goes with the hint.
  if (cache_hint && !instruction.operands.empty()) instruction.operands.pop_back();
  if (!expect_semicolon()) return recover();
  Statement statement;
  statement.pos = instruction.pos;
  statement.instruction = std::move(instruction);
  body.function->body.push_back(std::move(statement));
}

bool Parser::parse_qualifiers(Instruction& instruction, bool& cache_hint) {
  const std::string_view opcode = spelling(instruction.opcode);
  while (peek().kind == Token::Kind::Directive) {
    const Token word = take();
    // bar.warp.sync: the warp barrier of __syncwarp, Bar with flag sync (module.h).
    if (instruction.opcode == Opcode::Bar && word.text == ".warp") {
      if (!peek().is_directive(".sync") || instruction.q.sync) {
        unexpected(peek(), "'.sync' after bar.warp");
        return false;
      }
      take();
      instruction.q.sync = true;
      continue;
    }
    switch (apply_qualifier(instruction.opcode, word.text, instruction.q)) {
      case QualifierOutcome::Applied:
      case QualifierOutcome::Dropped:
        break;
      case QualifierOutcome::CacheHint:
        cache_hint = true;
        break;
      case QualifierOutcome::Duplicate:
        error_at(word, fmt::format("conflicting qualifier '{}' on '{}'", word.text.substr(0, 40), opcode));
        return false;
      case QualifierOutcome::Unknown:
        error_at(word, fmt::format("unknown qualifier '{}' for '{}'", word.text.substr(0, 40), opcode));
        return false;
    }
  }
  return true;
}

// Operands separated by `,` (and `|` in a destination pair) up to `close`, not taken.
bool Parser::parse_operand_list(BodyState& body, std::vector<Operand>& out, char close) {
  const Token& first = peek();
  if (first.is_punct(close) || first.is_punct(';') || first.is_punct('}') || first.kind == Token::Kind::End)
    return true;
  do {
    Operand operand;
    if (!parse_operand(body, operand)) return false;
    out.push_back(std::move(operand));
    if (close == ';' && out.size() == 1 && accept_punct('|')) {
      Operand second;
      if (!parse_operand(body, second)) return false;
      out.push_back(std::move(second));
    }
  } while (accept_punct(','));
  return true;
}

bool Parser::parse_operand(BodyState& body, Operand& out) {
  const Token token = peek();
  if (token.is_punct('!')) {
    take();
    if (peek().kind != Token::Kind::Identifier) {
      unexpected(peek(), "a predicate after '!'");
      return false;
    }
    if (!parse_name_operand(body, out)) return false;
    if (out.kind != Operand::Kind::Register) {
      error_at(token, "only a register can be negated");
      return false;
    }
    out.negated = true;
    return true;
  }
  if (token.is_punct('-')) {
    take();
    return parse_immediate(out, true);
  }
  if (token.kind == Token::Kind::Integer || token.kind == Token::Kind::Float) return parse_immediate(out, false);
  if (token.is_punct('[')) return parse_address(body, out);
  if (token.kind == Token::Kind::Identifier) return parse_name_operand(body, out);
  if (token.is_punct('{')) {
    take();
    out.kind = Operand::Kind::Vector;
    do {
      // Elements are plain operands: no nested vectors (which would also let `{{{...`
      // recurse without bound).
      Operand element;
      const Token& next = peek();
      if (next.is_punct('{') || next.is_punct('[')) {
        unexpected(next, "a vector element");
        return false;
      }
      if (!parse_operand(body, element)) return false;
      out.elements.push_back(std::move(element));
    } while (accept_punct(','));
    return expect_punct('}', "to close the vector");
  }
  unexpected(token, "an operand");
  return false;
}

// A name: `_`, a register, a special register (with `.x`), or a symbol.
bool Parser::parse_name_operand(BodyState& body, Operand& out) {
  const Token token = take();
  const std::string name(token.text);
  if (name == "_") {
    out.kind = Operand::Kind::Sink;
    return true;
  }
  if (auto index = find_register(body, name)) {
    out.kind = Operand::Kind::Register;
    out.reg = *index;
    return parse_lane_selector(out);
  }
  if (auto sreg = find_special_register(name)) {
    out.kind = Operand::Kind::SpecialRegister;
    out.sreg = *sreg;
    if (special_register_components(*sreg) == 0) return true;
    const Token component = peek();
    static constexpr std::string_view kComponents[] = {".x", ".y", ".z", ".w"};
    for (uint8_t i = 0; i < special_register_components(*sreg) && i < 4; ++i) {
      if (component.is_directive(kComponents[i])) {
        take();
        out.component = i;
        return true;
      }
    }
    unexpected(component, fmt::format("a component (.x, .y, .z) of '{}'", name));
    return false;
  }
  if (name.starts_with('%')) {
    error_at(token, fmt::format("undeclared register '{}'", token.text.substr(0, 40)));
    return false;
  }
  out.kind = Operand::Kind::Symbol;
  out.name = resolve_symbol(body, name);
  return true;
}

// A video instruction's lane selector after a register: `.b` and one to four byte digits
// 0-7, or `.h` and one or two half-word digits 0-3 (which ones an operand may take is the
// lowering's check: lower_video.cpp). Any other word after a register is left for the caller.
bool Parser::parse_lane_selector(Operand& out) {
  const Token word = peek();
  if (word.kind != Token::Kind::Directive || word.text.size() < 3) return true;
  const char unit = word.text[1];
  const std::string_view digits = word.text.substr(2);
  if ((unit != 'b' && unit != 'h') || digits.find_first_not_of("0123456789") != std::string_view::npos) return true;
  const size_t lanes = unit == 'b' ? 8 : 4;  // of the operand pair {b, a}
  bool valid = digits.size() <= lanes / 2;
  for (char digit : digits) valid = valid && static_cast<size_t>(digit - '0') < lanes;
  if (!valid) {
    error_at(word, fmt::format("invalid lane selector '{}'", word.text.substr(0, 40)));
    return false;
  }
  take();
  out.selector.lane_bits = unit == 'b' ? 8 : 16;
  out.selector.count = static_cast<uint8_t>(digits.size());
  for (size_t i = 0; i < digits.size(); ++i) out.selector.digits[i] = static_cast<uint8_t>(digits[i] - '0');
  return true;
}

// `[%rd1]`, `[%rd1+16]`, `[%rd1+-4]`, `[sym]`, `[sym+4]`, `[1024]`, `[tex, {%f1, %f2}]`.
bool Parser::parse_address(BodyState& body, Operand& out) {
  take();  // [
  out.kind = Operand::Kind::Address;
  const Token token = peek();
  bool have_offset = false;
  if (token.kind == Token::Kind::Identifier) {
    Operand base;
    if (!parse_name_operand(body, base)) return false;
    if (base.kind != Operand::Kind::Register && base.kind != Operand::Kind::Symbol) {
      error_at(token, "an address base must be a register or a symbol");
      return false;
    }
    out.elements.push_back(std::move(base));
    // Texture and surface operands: `[tex, {x, y}]`, `[tex, sampler, {x}]` (PTX ISA 9.0
    // §9.7.10.3): the handle, then the coordinates, as further elements.
    while (accept_punct(',')) {
      Operand element;
      if (peek().is_punct('[')) {
        unexpected(peek(), "a texture coordinate or sampler");
        return false;
      }
      if (!parse_operand(body, element)) return false;
      out.elements.push_back(std::move(element));
    }
    if (out.elements.size() > 1) return expect_punct(']', "to close the texture operand");
  } else if (token.kind == Token::Kind::Integer || token.is_punct('-')) {
    have_offset = true;
  } else {
    unexpected(token, "an address");
    return false;
  }
  bool negative = false;
  if (have_offset) {
    negative = accept_punct('-');
  } else if (accept_punct('+')) {
    negative = accept_punct('-');
    have_offset = true;
  } else if (accept_punct('-')) {
    negative = true;
    have_offset = true;
  }
  if (have_offset) {
    const Token number = peek();
    auto value = take_integer("an address offset");
    if (!value) return false;
    if (*value > static_cast<uint64_t>(INT64_MAX)) {
      error_at(number, "address offset out of range");
      return false;
    }
    out.offset = negative ? -static_cast<int64_t>(*value) : static_cast<int64_t>(*value);
  }
  return expect_punct(']', "to close the address");
}

bool Parser::parse_immediate(Operand& out, bool negative) {
  const Token token = peek();
  out.kind = Operand::Kind::Immediate;
  if (token.kind == Token::Kind::Integer) {
    take();
    auto value = parse_integer_literal(token.text);
    if (!value) {
      error_at(token, fmt::format("invalid or out-of-range integer '{}'", token.text.substr(0, 40)));
      return false;
    }
    out.imm = negative ? 0 - *value : *value;
    return true;
  }
  if (token.kind == Token::Kind::Float) {
    auto literal = take_float_literal();
    if (!literal) return false;
    out.imm_is_float = true;
    out.imm_is_double = literal->is_double;
    out.imm = literal->bits;
    if (negative) out.imm ^= literal->is_double ? (1ull << 63) : (1ull << 31);
    return true;
  }
  unexpected(token, "a number");
  return false;
}

// call{.uni} (rets), target, (args) [, prototype];  the prototype is checked, then dropped.
bool Parser::parse_call_operands(BodyState& body, Instruction& instruction) {
  Operand returns, target, arguments;
  returns.kind = arguments.kind = Operand::Kind::Vector;
  if (accept_punct('(')) {
    if (!parse_operand_list(body, returns.elements, ')') || !expect_punct(')', "after the return values") ||
        !expect_punct(',', "after the return values")) {
      return false;
    }
  }
  const Token name = peek();
  if (name.kind != Token::Kind::Identifier) {
    unexpected(name, "a call target");
    return false;
  }
  if (!parse_name_operand(body, target)) return false;
  if (target.kind != Operand::Kind::Symbol && target.kind != Operand::Kind::Register) {
    error_at(name, "a call target must be a function or a register");
    return false;
  }
  if (accept_punct(',')) {
    if (accept_punct('(')) {
      if (!parse_operand_list(body, arguments.elements, ')') || !expect_punct(')', "after the arguments")) return false;
      if (!accept_punct(',')) {
        instruction.operands = {std::move(returns), std::move(target), std::move(arguments)};
        return true;
      }
    }
    const Token prototype = peek();
    if (prototype.kind != Token::Kind::Identifier) {
      unexpected(prototype, "a call prototype");
      return false;
    }
    take();
    if (!body.prototypes.contains(std::string(prototype.text))) {
      error_at(prototype, fmt::format("unknown call prototype '{}'", prototype.text.substr(0, 40)));
      return false;
    }
  }
  instruction.operands = {std::move(returns), std::move(target), std::move(arguments)};
  return true;
}

// bra's operand is a label; brx.idx's second operand names a .branchtargets table.
bool Parser::finish_branch_operands(BodyState& body, Instruction& instruction) {
  auto& operands = instruction.operands;
  if (instruction.opcode == Opcode::Bra) {
    if (operands.size() != 1 || operands[0].kind != Operand::Kind::Symbol) {
      error(instruction.pos, "bra takes one label");
      return false;
    }
    operands[0].kind = Operand::Kind::Label;
  } else if (instruction.opcode == Opcode::Brx) {
    if (operands.size() != 2 || operands[1].kind != Operand::Kind::Symbol) {
      error(instruction.pos, "brx.idx takes an index and a .branchtargets table");
      return false;
    }
    auto table = body.branch_tables.find(operands[1].name);
    if (table == body.branch_tables.end()) {
      error(instruction.pos, fmt::format("unknown branch table '{}'", operands[1].name));
      return false;
    }
    operands[1] = Operand{};
    operands[1].kind = Operand::Kind::Vector;
    operands[1].elements = table->second;
  }
  return true;
}

std::optional<uint32_t> Parser::find_register(const BodyState& body, const std::string& name) const {
  for (auto scope = body.scopes.rbegin(); scope != body.scopes.rend(); ++scope) {
    auto it = scope->registers.find(name);
    if (it != scope->registers.end()) return it->second;
    if (scope->locals.contains(name)) return std::nullopt;  // shadowed by a variable
  }
  return std::nullopt;
}

std::string Parser::resolve_symbol(const BodyState& body, const std::string& name) const {
  for (auto scope = body.scopes.rbegin(); scope != body.scopes.rend(); ++scope) {
    auto it = scope->locals.find(name);
    if (it != scope->locals.end()) return it->second;
  }
  return name;
}

}  // namespace cucpu::ptx
