// Declarations of state (PTX ISA 9.0 §5.4: variables): `.global/.const/.shared/.local/
// .param` variables at module or function scope, with .align, .vN, arrays (also
// multi-dimensional and unsized `[]`) and initializers; and `.reg` registers, including
// the parameterized form `%r<22>` that declares %r0..%r21.
//
// Initializers are laid out into Variable::init exactly as the variable sits in memory:
// every element at its offset, the rest zero, so init is size_bytes() long (for an
// unsized array the initializer fixes the size). Nested braces address sub-arrays, and
// the components of a .vN element count as an innermost dimension. Addresses of
// symbols (`sym`, `sym+4`, `generic(sym)`, and in .b8 arrays the byte-mask form
// `0xFF(sym)`, `0xFF00(sym)`, ...) leave zeros in init and an AddressInit entry.
//
// Names declared in a nested `{ }` scope that are already used in the function are
// renamed `name$N`, so Function::registers and Function::locals are flat and unique.
#include <fmt/format.h>

#include "ptx/literals.h"
#include "ptx/parser.h"
#include "ptx/qualifier_words.h"

namespace cucpu::ptx {
namespace {

uint64_t scalar_bytes(Type type) { return (bit_width(type) + 7) / 8; }

void store_little_endian(std::vector<uint8_t>& bytes, uint64_t offset, uint64_t value, uint64_t size) {
  for (uint64_t i = 0; i < size && i < 8; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

// The dimensions initializers walk: the array dimensions, then the vector components.
std::vector<uint64_t> initializer_dims(const Variable& variable) {
  std::vector<uint64_t> dims = variable.dims;
  if (variable.vector > 1) dims.push_back(variable.vector);
  return dims;
}

// Elements in one entry of dimension `level` (the product of the inner dimensions).
uint64_t stride(const std::vector<uint64_t>& dims, size_t level) {
  uint64_t product = 1;
  for (size_t i = level + 1; i < dims.size(); ++i) product *= dims[i];
  return product;
}

}  // namespace

std::string Parser::declare_local_name(BodyState& body, const std::string& name, SourcePos pos, bool is_register) {
  Scope& scope = body.scopes.back();
  if (scope.registers.contains(name) || scope.locals.contains(name)) {
    error(pos, fmt::format("redeclaration of '{}'", name));
  }
  std::string flat = name;
  if (body.flat_names.contains(flat)) {
    uint32_t& suffix = body.next_suffix[name];
    do {
      flat = fmt::format("{}${}", name, ++suffix);
    } while (body.flat_names.contains(flat));
  }
  body.flat_names.insert(flat);
  if (is_register) {
    scope.registers[name] = static_cast<uint32_t>(body.function->registers.size());
  } else {
    scope.locals[name] = flat;
  }
  return flat;
}

void Parser::parse_registers(BodyState& body) {
  take();  // .reg
  Register proto;
  while (peek().kind == Token::Kind::Directive) {
    const Token word = take();
    if (word.text == ".v2" || word.text == ".v4" || word.text == ".v8") {
      proto.vector = static_cast<uint8_t>(word.text[2] - '0');
    } else if (auto type = find_type(word.text); type && proto.type == Type::None) {
      proto.type = *type;
    } else {
      error_at(word, fmt::format("unexpected '{}' in a register declaration", word.text.substr(0, 40)));
      return recover();
    }
  }
  if (proto.type == Type::None) {
    unexpected(peek(), "a register type");
    return recover();
  }
  do {
    const Token name = peek();
    if (name.kind != Token::Kind::Identifier || name.text == "_") {
      unexpected(name, "a register name");
      return recover();
    }
    take();
    uint64_t count = 0;  // name<N> declares name0..name(N-1)
    const bool parameterized = accept_punct('<');
    if (parameterized) {
      auto value = take_integer("a register count");
      if (!value || !expect_punct('>', "after the register count")) return recover();
      if (*value > kMaxRegistersPerDeclaration) {
        error_at(name, fmt::format("register count {} too large", *value));
        return recover();
      }
      count = *value;
    }
    auto declare = [&](std::string register_name) {
      Register reg = proto;
      reg.name = declare_local_name(body, register_name, name.pos, true);
      body.function->registers.push_back(std::move(reg));
    };
    if (!parameterized) declare(std::string(name.text));
    for (uint64_t i = 0; i < count; ++i) declare(fmt::format("{}{}", name.text, i));
  } while (accept_punct(','));
  if (!expect_semicolon()) recover();
}

void Parser::parse_variables(StateSpace space, const Linkage& linkage, std::vector<Variable>& out, BodyState* body) {
  Variable proto;
  proto.space = space;
  proto.is_extern = linkage.is_extern;
  proto.is_visible = linkage.is_visible;
  proto.is_weak = linkage.is_weak;
  proto.is_common = linkage.is_common;
  bool have_type = false;
  while (peek().kind == Token::Kind::Directive) {
    const Token word = take();
    if (word.text == ".align") {
      auto align = take_integer("an alignment");
      if (!align) return recover();
      if (*align == 0 || *align > 65536 || (*align & (*align - 1)) != 0) {
        error_at(word, fmt::format("invalid alignment {}", *align));
        return recover();
      }
      proto.align = static_cast<uint32_t>(*align);
    } else if (word.text == ".v2" || word.text == ".v4" || word.text == ".v8") {
      proto.vector = static_cast<uint8_t>(word.text[2] - '0');
    } else if (word.text == ".attribute") {
      // `.attribute(.managed)`: managed memory is registered by the host stub
      // (__cudaRegisterManagedVar), so the attribute adds nothing here.
      if (!expect_punct('(', "after .attribute")) return recover();
      while (peek().kind == Token::Kind::Directive) take();
      if (!expect_punct(')', "after the attributes")) return recover();
    } else if (auto type = find_type(word.text); type && !have_type) {
      proto.type = *type;
      have_type = true;
    } else {
      error_at(word, fmt::format("unexpected '{}' in a variable declaration", word.text.substr(0, 40)));
      return recover();
    }
  }
  if (!have_type) {
    unexpected(peek(), "a variable type");
    return recover();
  }
  do {
    const Token name = peek();
    if (name.kind != Token::Kind::Identifier || name.text == "_") {
      unexpected(name, "a variable name");
      return recover();
    }
    take();
    Variable variable = proto;
    variable.name = std::string(name.text);
    variable.pos = name.pos;
    while (accept_punct('[')) {
      if (accept_punct(']')) {
        if (!variable.dims.empty()) {
          error_at(name, "only the first dimension of an array may be unsized");
          return recover();
        }
        variable.dims.push_back(0);
        continue;
      }
      auto dim = take_integer("an array size");
      if (!dim || !expect_punct(']', "after the array size")) return recover();
      if (*dim == 0 || *dim > (1ull << 40)) {
        error_at(name, fmt::format("invalid array size {}", *dim));
        return recover();
      }
      variable.dims.push_back(*dim);
    }
    if (variable.dims.size() > kMaxInitializerDepth) {
      error_at(name, "too many array dimensions");
      return recover();
    }
    if (accept_punct('=') && !parse_initializer(variable)) return recover();
    if (body != nullptr) {
      variable.name = declare_local_name(*body, variable.name, name.pos, false);
    } else if (!module_symbols_.insert(variable.name).second) {
      error_at(name, fmt::format("redeclaration of '{}'", variable.name));
    }
    out.push_back(std::move(variable));
  } while (accept_punct(','));
  if (!expect_semicolon()) recover();
}

bool Parser::parse_initializer(Variable& variable) {
  const std::vector<uint64_t> dims = initializer_dims(variable);
  const bool unsized = !dims.empty() && dims[0] == 0;
  if (!unsized) {
    if (variable.size_bytes() > kMaxInitializerBytes) {
      error(variable.pos, fmt::format("initializer of '{}' too large", variable.name));
      return false;
    }
    variable.init.assign(variable.size_bytes(), 0);
  }
  if (dims.empty()) return parse_initializer_scalar(variable, 0);
  uint64_t cursor = 0;
  if (!parse_initializer_aggregate(variable, dims, 0, cursor, 0)) return false;
  if (unsized) {
    const uint64_t inner = stride(dims, 0);
    variable.dims[0] = std::max<uint64_t>(1, (cursor + inner - 1) / inner);
    variable.init.resize(variable.size_bytes(), 0);
  }
  return true;
}

// `{ a, b, {c, d}, ... }` for dimension `level`, starting at element `cursor`.
bool Parser::parse_initializer_aggregate(Variable& variable, const std::vector<uint64_t>& dims, size_t level,
                                         uint64_t& cursor, unsigned depth) {
  if (!expect_punct('{', "to start an array initializer")) return false;
  const uint64_t start = cursor;
  const uint64_t inner = stride(dims, level);
  const bool sized = dims[level] != 0;
  const uint64_t end = start + dims[level] * inner;
  if (!accept_punct('}')) {
    do {
      if (sized && cursor >= end) {
        error_at(peek(), fmt::format("too many initializers for '{}'", variable.name));
        return false;
      }
      if (peek().is_punct('{')) {
        if (level + 1 >= dims.size() || depth + 1 >= kMaxInitializerDepth) {
          error_at(peek(), "too many braces in initializer");
          return false;
        }
        // A nested list fills one whole entry of this dimension.
        const uint64_t entry = start + (cursor - start + inner - 1) / inner * inner;
        cursor = entry;
        if (!parse_initializer_aggregate(variable, dims, level + 1, cursor, depth + 1)) return false;
        cursor = entry + inner;
      } else {
        if (!parse_initializer_scalar(variable, cursor)) return false;
        ++cursor;
      }
    } while (accept_punct(','));
    if (!expect_punct('}', "to close the initializer")) return false;
  }
  if (sized) {
    if (cursor > end) {
      error(last_end_, fmt::format("too many initializers for '{}'", variable.name));
      return false;
    }
    cursor = end;
  }
  return true;
}

// One element: an integer, a float, or the address of a symbol.
bool Parser::parse_initializer_scalar(Variable& variable, uint64_t index) {
  const uint64_t size = scalar_bytes(variable.type);
  const uint64_t offset = index * size;
  if (offset + size > variable.init.size()) {
    // Unsized arrays grow with their initializer (capped); sized ones were checked.
    if (offset + size > kMaxInitializerBytes) {
      error_at(peek(), "initializer too large");
      return false;
    }
    variable.init.resize(offset + size, 0);
  }
  const bool negative = accept_punct('-');
  const Token token = peek();
  if (token.kind == Token::Kind::Integer) {
    take();
    auto value = parse_integer_literal(token.text);
    if (!value) {
      error_at(token, fmt::format("invalid integer '{}'", token.text.substr(0, 40)));
      return false;
    }
    if (!negative && peek().is_punct('(')) return parse_address_initializer(variable, offset, *value);
    uint64_t bits = negative ? 0 - *value : *value;
    if (variable.type == Type::F32) {
      bits = double_to_float_bits(negative ? -static_cast<double>(*value) : static_cast<double>(*value));
    } else if (variable.type == Type::F64) {
      bits = double_to_bits(negative ? -static_cast<double>(*value) : static_cast<double>(*value));
    }
    store_little_endian(variable.init, offset, bits, size);
    return true;
  }
  if (token.kind == Token::Kind::Float) {
    auto literal = take_float_literal();
    if (!literal) return false;
    const double value = negative ? -literal_as_double(*literal) : literal_as_double(*literal);
    uint64_t bits = literal->bits;
    if (variable.type == Type::F32 && (literal->is_double || negative)) bits = double_to_float_bits(value);
    if (variable.type == Type::F64 && (!literal->is_double || negative)) bits = double_to_bits(value);
    store_little_endian(variable.init, offset, bits, size);
    return true;
  }
  if (token.kind == Token::Kind::Identifier && !negative) return parse_address_initializer(variable, offset, 0);
  unexpected(token, "an initializer value");
  return false;
}

// `sym`, `sym+4`, `generic(sym)+4`; with mask != 0 the byte form `0xFF00(sym)` of .u8
// arrays, whose eight masks together hold one address: only the lowest (0xFF) records it.
bool Parser::parse_address_initializer(Variable& variable, uint64_t offset, uint64_t mask) {
  if (mask != 0) take();  // (
  Variable::AddressInit address;
  address.offset = offset;
  Token name = peek();
  if (name.kind == Token::Kind::Identifier && name.text == "generic" && peek(1).is_punct('(')) {
    take();
    take();
    address.generic = true;
    name = peek();
  }
  if (name.kind != Token::Kind::Identifier) {
    unexpected(name, "a symbol name");
    return false;
  }
  take();
  address.symbol = std::string(name.text);
  if (address.generic && !expect_punct(')', "after generic(symbol")) return false;
  if (accept_punct('+')) {
    const bool negative = accept_punct('-');
    auto addend = take_integer("an offset");
    if (!addend) return false;
    address.addend = negative ? -static_cast<int64_t>(*addend) : static_cast<int64_t>(*addend);
  }
  if (mask != 0) {
    if (!expect_punct(')', "after the masked symbol")) return false;
    uint64_t byte = 0;
    while (byte < 8 && mask != (0xFFull << (8 * byte))) ++byte;
    if (byte == 8) {
      error(last_end_, "a byte mask must select one byte of the address");
      return false;
    }
    if (byte != 0) return true;
  }
  variable.address_inits.push_back(std::move(address));
  return true;
}

}  // namespace cucpu::ptx
