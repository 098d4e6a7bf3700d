// The PTX parser, module level (PTX ISA 9.0 §11: directives): the header directives
// (.version .target .address_size), .file, debug .section blobs (skipped), linkage
// directives, module variables and .entry/.func declarations with their parameters,
// return values and performance directives. Also the token and diagnostic helpers
// every part of the parser uses, and the public entry points of parse.h.
//
// Error handling: a diagnostic is recorded with its position and the parser skips to
// the next `;` or `}` (recover) and goes on; after kMaxDiagnostics it stops. Every loop
// takes at least one token per turn or ends, so no input can make it hang.
#include "ptx/parser.h"

#include <fmt/format.h>

#include <utility>

#include "ptx/literals.h"
#include "ptx/qualifier_words.h"

namespace cucpu::ptx {

// ---------------------------------------------------------------- tokens, diagnostics

Token Parser::take() {
  Token token = lexer_.next();
  if (token.kind != Token::Kind::End) {
    last_end_ = SourcePos{token.pos.line, token.pos.col + static_cast<uint32_t>(token.text.size())};
  }
  return token;
}

bool Parser::accept_punct(char c) {
  if (!peek().is_punct(c)) return false;
  take();
  return true;
}

void Parser::error(SourcePos pos, std::string message) {
  if (stopped_) return;
  out_.diagnostics.push_back(Diagnostic{pos, std::move(message)});
  if (out_.diagnostics.size() >= kMaxDiagnostics) stopped_ = true;
}

void Parser::error_at(const Token& token, std::string message) { error(token.pos, std::move(message)); }

std::optional<FloatLiteral> Parser::take_float_literal() {
  Token token = take();
  auto literal = parse_float_literal(token.text);
  if (!literal) error_at(token, fmt::format("invalid float '{}'", token.text.substr(0, 40)));
  return literal;
}

// "expected X, found Y": what the text has is spelled out, unless it is binary junk.
void Parser::unexpected(const Token& token, std::string_view expected) {
  std::string found;
  switch (token.kind) {
    case Token::Kind::End:
      found = "end of input";
      break;
    case Token::Kind::Invalid:
      found = token.text.starts_with("\"")
                  ? "an unterminated string"
                  : fmt::format("invalid character 0x{:02x}", static_cast<uint8_t>(token.text[0]));
      break;
    default:
      found = fmt::format("'{}'", token.text.substr(0, 40));
      break;
  }
  error_at(token, fmt::format("expected {}, found {}", expected, found));
}

bool Parser::expect_punct(char c, std::string_view context) {
  if (accept_punct(c)) return true;
  unexpected(peek(), fmt::format("'{}' {}", c, context));
  return false;
}

// A missing `;` is reported where it belongs: right after the statement.
bool Parser::expect_semicolon() {
  if (accept_punct(';')) return true;
  const Token& token = peek();
  if (token.kind == Token::Kind::End || token.pos.line != last_end_.line) {
    error(last_end_, "expected ';'");
  } else {
    unexpected(token, "';'");
  }
  return false;
}

// Skips to just after the next `;`, or to (not over) the next `}`.
void Parser::recover() {
  while (true) {
    const Token& token = peek();
    if (token.kind == Token::Kind::End || token.is_punct('}')) return;
    take();
    if (token.is_punct(';')) return;
  }
}

void Parser::skip_line(uint32_t line) {
  while (peek().kind != Token::Kind::End && peek().pos.line == line) take();
}

std::optional<uint64_t> Parser::take_integer(std::string_view what) {
  const Token token = peek();
  if (token.kind != Token::Kind::Integer) {
    unexpected(token, what);
    return std::nullopt;
  }
  take();
  auto value = parse_integer_literal(token.text);
  if (!value) error_at(token, fmt::format("invalid integer '{}'", token.text.substr(0, 40)));
  return value;
}

// ---------------------------------------------------------------- module level

ParseOutput Parser::run() {
  parse_top_level();
  if (out_.diagnostics.empty()) check_module(out_.module, out_.diagnostics, kMaxDiagnostics);
  return std::move(out_);
}

void Parser::parse_top_level() {
  while (!stopped_) {
    const Token& token = peek();
    if (token.kind == Token::Kind::End) return;
    if (token.is_directive(".version")) {
      parse_version();
    } else if (token.is_directive(".target")) {
      parse_target();
    } else if (token.is_directive(".address_size")) {
      parse_address_size();
    } else if (token.is_directive(".file")) {
      parse_file();
    } else if (token.is_directive(".loc")) {
      parse_loc(nullptr);
    } else if (token.is_directive(".section")) {
      skip_section();
    } else if (token.is_directive(".pragma")) {
      take();
      recover();  // `.pragma "nounroll";` has no meaning at module scope for us
    } else if (token.is_punct('@') && peek(1).is_punct('@')) {
      skip_line(token.pos.line);  // @@DWARF lines of old debug PTX
    } else if (token.kind == Token::Kind::Directive) {
      const size_t errors_before = out_.diagnostics.size();
      parse_declaration();
      // A declaration that failed inside braces (an initializer) stops before their `}`.
      if (out_.diagnostics.size() > errors_before) {
        while (peek().is_punct('}') || peek().is_punct(';')) take();
      }
    } else {
      unexpected(token, "a directive");
      take();
      recover();
    }
  }
}

void Parser::parse_version() {
  take();
  const Token token = peek();
  // `9.0` lexes as one Float token; split it at the dot.
  const size_t dot = token.text.find('.');
  if (token.kind != Token::Kind::Float || dot == std::string_view::npos) {
    unexpected(token, "a version number like 9.0");
    recover();
    return;
  }
  take();
  auto major = parse_integer_literal(token.text.substr(0, dot));
  auto minor = parse_integer_literal(token.text.substr(dot + 1));
  if (!major || !minor || *major > 99 || *minor > 99) {
    error_at(token, fmt::format("invalid version '{}'", token.text.substr(0, 20)));
    return;
  }
  out_.module.version_major = static_cast<uint32_t>(*major);
  out_.module.version_minor = static_cast<uint32_t>(*minor);
}

void Parser::parse_target() {
  take();
  bool first = true;
  do {
    const Token token = peek();
    if (token.kind != Token::Kind::Identifier) {
      unexpected(token, "a target name");
      recover();
      return;
    }
    take();
    if (first) {
      out_.module.target = std::string(token.text);
    } else {
      out_.module.target_options.emplace_back(token.text);
    }
    first = false;
  } while (accept_punct(','));
}

void Parser::parse_address_size() {
  const Token directive = take();
  auto size = take_integer("an address size");
  if (!size) return;
  if (*size != 32 && *size != 64) {
    error_at(directive, fmt::format("invalid .address_size {}", *size));
    return;
  }
  out_.module.address_size = static_cast<uint32_t>(*size);
}

// `.file 1 "name" [, timestamp, size]`: ends at the end of its line, like .loc.
void Parser::parse_file() {
  const Token directive = take();
  auto index = take_integer("a file number");
  const Token name = peek();
  if (!index || name.kind != Token::Kind::String) {
    if (index) unexpected(name, "a file name");
    skip_line(directive.pos.line);
    return;
  }
  take();
  if (*index == 0 || *index > 1'000'000) {
    error_at(directive, fmt::format("invalid file number {}", *index));
  } else {
    if (out_.module.files.size() <= *index) out_.module.files.resize(*index + 1);
    out_.module.files[*index] = std::string(name.text.substr(1, name.text.size() - 2));
  }
  skip_line(directive.pos.line);
}

// `.section .debug_info { ... }`: DWARF blobs that cucpu does not read. Skipped by
// counting braces, whatever the contents.
void Parser::skip_section() {
  const Token directive = take();
  while (peek().kind != Token::Kind::End && !peek().is_punct('{')) take();
  int depth = 0;
  while (true) {
    const Token token = take();
    if (token.kind == Token::Kind::End) {
      error_at(directive, "unterminated .section");
      return;
    }
    if (token.is_punct('{')) ++depth;
    if (token.is_punct('}') && --depth == 0) return;
  }
}

void Parser::parse_declaration() {
  Linkage linkage;
  while (peek().kind == Token::Kind::Directive) {
    const std::string_view word = peek().text;
    if (word == ".visible") {
      linkage.is_visible = true;
    } else if (word == ".extern") {
      linkage.is_extern = true;
    } else if (word == ".weak") {
      linkage.is_weak = true;
    } else if (word == ".common") {
      linkage.is_common = true;
    } else {
      break;
    }
    take();
  }
  const Token token = peek();
  if (token.is_directive(".entry") || token.is_directive(".func")) {
    take();
    parse_function(linkage, token.text == ".entry");
    return;
  }
  auto space = token.kind == Token::Kind::Directive ? find_state_space(token.text) : std::nullopt;
  if (space && *space != StateSpace::Reg && *space != StateSpace::SReg && *space != StateSpace::Param) {
    take();
    parse_variables(*space, linkage, out_.module.variables, nullptr);
    return;
  }
  if (token.kind == Token::Kind::Directive) {
    error_at(token, fmt::format("unknown or misplaced directive '{}'", token.text.substr(0, 40)));
  } else {
    unexpected(token, "a declaration");
  }
  take();
  recover();
}

// Adds a function, merging a prototype and its later definition into one entry (at the
// prototype's place), so that find_function finds the body.
void Parser::add_function(Function function, bool has_body) {
  auto it = function_index_.find(function.name);
  if (it == function_index_.end()) {
    function_index_.emplace(function.name, out_.module.functions.size());
    module_symbols_.insert(function.name);
    if (has_body) defined_functions_.insert(function.name);
    out_.module.functions.push_back(std::move(function));
    return;
  }
  if (!has_body) return;  // a second prototype adds nothing
  if (!defined_functions_.insert(function.name).second) {
    error(function.pos, fmt::format("redefinition of function '{}'", function.name));
    return;
  }
  out_.module.functions[it->second] = std::move(function);
}

void Parser::parse_function(const Linkage& linkage, bool is_entry) {
  Function function;
  function.pos = last_end_;
  function.is_entry = is_entry;
  function.is_visible = linkage.is_visible;
  function.is_extern = linkage.is_extern;
  function.is_weak = linkage.is_weak;
  // .func (.param .b32 r) name(...): return values come first.
  if (!is_entry && peek().is_punct('(')) {
    take();
    if (!parse_parameter_list(function.returns, false)) return recover();
  }
  const Token name = peek();
  if (name.kind != Token::Kind::Identifier) {
    unexpected(name, "a function name");
    return recover();
  }
  take();
  function.name = std::string(name.text);
  function.pos = name.pos;
  if (accept_punct('(') && !parse_parameter_list(function.params, false)) return recover();
  parse_performance_directives(function.directives);
  if (stopped_) return;
  if (accept_punct(';')) {
    add_function(std::move(function), false);
    return;
  }
  if (!peek().is_punct('{')) {
    unexpected(peek(), "'{' or ';' after the function header");
    return recover();
  }
  if (function.is_extern) error_at(peek(), fmt::format("extern function '{}' has a body", function.name));
  // Names must be known before the body, for recursive calls.
  module_symbols_.insert(function.name);
  parse_body(function);
  function.is_extern = false;
  add_function(std::move(function), true);
}

// After `(`: parameters separated by `,`, then `)`.
bool Parser::parse_parameter_list(std::vector<Parameter>& out, bool allow_empty_names) {
  if (accept_punct(')')) return true;
  do {
    Parameter parameter;
    if (!parse_parameter(parameter, allow_empty_names)) return false;
    out.push_back(std::move(parameter));
  } while (accept_punct(','));
  return expect_punct(')', "to close the parameter list");
}

// `.param .align 8 .b8 name[48]`, `.param .u64 .ptr .global .align 4 name`, `.reg .b32 name`.
bool Parser::parse_parameter(Parameter& out, bool allow_empty_names) {
  const Token space = peek();
  if (space.is_directive(".param")) {
    out.space = StateSpace::Param;
  } else if (space.is_directive(".reg")) {
    out.space = StateSpace::Reg;
  } else {
    unexpected(space, "'.param' or '.reg'");
    return false;
  }
  take();
  bool have_type = false, after_ptr = false;
  while (peek().kind == Token::Kind::Directive) {
    const Token word = take();
    if (word.text == ".align") {
      auto align = take_integer("an alignment");
      if (!align) return false;
      if (*align == 0 || *align > 65536 || (*align & (*align - 1)) != 0) {
        error_at(word, fmt::format("invalid alignment {}", *align));
        return false;
      }
      (after_ptr ? out.pointee_align : out.align) = static_cast<uint32_t>(*align);
    } else if (word.text == ".ptr") {
      out.is_pointer = true;
      after_ptr = true;
    } else if (auto type = find_type(word.text); type && !have_type) {
      out.type = *type;
      have_type = true;
    } else if (auto pointee = find_state_space(word.text); pointee && after_ptr) {
      out.pointee_space = *pointee;
    } else {
      error_at(word, fmt::format("unexpected '{}' in a parameter declaration", word.text.substr(0, 40)));
      return false;
    }
  }
  if (!have_type) {
    unexpected(peek(), "a parameter type");
    return false;
  }
  const Token name = peek();
  if (name.kind != Token::Kind::Identifier) {
    unexpected(name, "a parameter name");
    return false;
  }
  take();
  if (name.text == "_" && !allow_empty_names) {
    error_at(name, "a parameter needs a name");
    return false;
  }
  out.name = std::string(name.text);
  if (accept_punct('[')) {
    auto size = take_integer("an array size");
    if (!size || !expect_punct(']', "after the array size")) return false;
    if (*size == 0 || *size > (1ull << 32)) {
      error_at(name, fmt::format("invalid parameter array size {}", *size));
      return false;
    }
    out.array_size = *size;
  }
  return true;
}

// `.maxntid 256, 1, 1`, `.minnctapersm 2`, `.noreturn`, ... between header and body.
void Parser::parse_performance_directives(Directives& directives) {
  auto take_triple = [&](uint32_t(&dims)[3]) {
    for (int i = 0; i < 3; ++i) dims[i] = 1;  // omitted dimensions are 1
    int count = 0;
    do {
      auto value = take_integer("a dimension");
      if (!value) return;
      if (count == 3 || *value > UINT32_MAX) {
        error(last_end_, "invalid dimensions");
        return;
      }
      dims[count++] = static_cast<uint32_t>(*value);
    } while (accept_punct(','));
  };
  auto take_count = [&](uint32_t& field) {
    auto value = take_integer("a count");
    if (value && *value > UINT32_MAX) error(last_end_, "count too large");
    if (value) field = static_cast<uint32_t>(*value);
  };
  while (!stopped_ && peek().kind == Token::Kind::Directive) {
    const Token word = take();
    if (word.text == ".maxntid") {
      take_triple(directives.maxntid);
    } else if (word.text == ".reqntid") {
      take_triple(directives.reqntid);
    } else if (word.text == ".reqnctapercluster") {
      take_triple(directives.reqnctapercluster);
    } else if (word.text == ".minnctapersm") {
      take_count(directives.minnctapersm);
    } else if (word.text == ".maxnctapersm") {
      uint32_t ignored = 0;  // deprecated since PTX 2.0, no effect
      take_count(ignored);
    } else if (word.text == ".maxnreg") {
      take_count(directives.maxnreg);
    } else if (word.text == ".maxclusterrank") {
      take_count(directives.maxclusterrank);
    } else if (word.text == ".explicitcluster") {
      directives.explicitcluster = true;
    } else if (word.text == ".noreturn") {
      directives.noreturn = true;
    } else if (word.text == ".pragma") {
      recover();  // `.pragma "nounroll";` before a body: no meaning for us
    } else {
      error_at(word, fmt::format("unknown function directive '{}'", word.text.substr(0, 40)));
      return;
    }
  }
}

// ---------------------------------------------------------------- public API

ParseOutput parse_module(std::string_view text) { return Parser(text).run(); }

std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source_name) {
  return fmt::format("{}:{}:{}: {}", source_name, diagnostic.pos.line, diagnostic.pos.col, diagnostic.message);
}

Result<Module> parse(std::string_view text, std::string_view source_name) {
  ParseOutput output = parse_module(text);
  if (output.diagnostics.empty()) return std::move(output.module);
  std::string message = format_diagnostic(output.diagnostics.front(), source_name);
  if (output.diagnostics.size() > 1) message += fmt::format(" (and {} more errors)", output.diagnostics.size() - 1);
  return make_error(ErrorCode::InvalidPtx, std::move(message));
}

}  // namespace cucpu::ptx
