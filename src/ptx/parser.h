// The PTX parser's state, shared by the files that implement it: parser.cpp (module
// level: header directives, linkage, functions, parameters), parse_declaration.cpp
// (variables, registers, initializers), parse_body.cpp (function bodies: scopes,
// labels, tables) and parse_instruction.cpp (instructions, qualifiers, operands).
// Internal to src/ptx; users include parse.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ptx/lexer.h"
#include "ptx/literals.h"
#include "ptx/parse.h"

namespace cucpu::ptx {

class Parser {
 public:
  static constexpr size_t kMaxDiagnostics = 20;
  static constexpr uint64_t kMaxRegistersPerDeclaration = 1u << 20;
  static constexpr uint64_t kMaxInitializerBytes = 256u << 20;
  static constexpr unsigned kMaxInitializerDepth = 64;
  static constexpr size_t kMaxScopeDepth = 1024;

  explicit Parser(std::string_view text) : lexer_(text) {}
  ParseOutput run();

 private:
  // Linkage directives in front of a declaration.
  struct Linkage {
    bool is_visible = false, is_extern = false, is_weak = false, is_common = false;
  };

  // One `{ }` scope of a function body: source name -> flat register index / local name.
  struct Scope {
    std::unordered_map<std::string, uint32_t> registers;
    std::unordered_map<std::string, std::string> locals;
  };

  // What is known while one function body is parsed.
  struct BodyState {
    Function* function = nullptr;
    std::vector<Scope> scopes;
    std::unordered_set<std::string> flat_names;             // registers and locals, after renaming
    std::unordered_map<std::string, uint32_t> next_suffix;  // renaming: the next `$N` to try
    std::unordered_map<std::string, std::vector<Operand>> branch_tables;
    std::unordered_set<std::string> prototypes;  // .callprototype and .calltargets labels
    std::unordered_set<std::string> labels;
    DebugLoc loc;
  };

  // --- tokens and diagnostics (parser.cpp)
  const Token& peek(size_t ahead = 0) { return lexer_.peek(ahead); }
  Token take();
  bool accept_punct(char c);
  bool expect_punct(char c, std::string_view context);
  bool expect_semicolon();
  void error(SourcePos pos, std::string message);
  void error_at(const Token& token, std::string message);
  void unexpected(const Token& token, std::string_view expected);
  void recover();
  void skip_line(uint32_t line);
  bool stopped() const { return stopped_; }
  std::optional<uint64_t> take_integer(std::string_view what);
  // Takes a Float token and reads its literal; reports an invalid one.
  std::optional<FloatLiteral> take_float_literal();

  // --- module level (parser.cpp)
  void parse_top_level();
  void parse_version();
  void parse_target();
  void parse_address_size();
  void parse_file();
  void skip_section();
  void parse_declaration();
  void parse_function(const Linkage& linkage, bool is_entry);
  bool parse_parameter_list(std::vector<Parameter>& out, bool allow_empty_names);
  bool parse_parameter(Parameter& out, bool allow_empty_names);
  void parse_performance_directives(Directives& directives);
  void add_function(Function function, bool has_body);

  // --- declarations (parse_declaration.cpp)
  void parse_variables(StateSpace space, const Linkage& linkage, std::vector<Variable>& out, BodyState* body);
  void parse_registers(BodyState& body);
  bool parse_initializer(Variable& variable);
  bool parse_initializer_aggregate(Variable& variable, const std::vector<uint64_t>& dims, size_t level,
                                   uint64_t& cursor, unsigned depth);
  bool parse_initializer_scalar(Variable& variable, uint64_t index);
  bool parse_address_initializer(Variable& variable, uint64_t offset, uint64_t mask);
  std::string declare_local_name(BodyState& body, const std::string& name, SourcePos pos, bool is_register);

  // --- function bodies (parse_body.cpp)
  void parse_body(Function& function);
  void parse_body_directive(BodyState& body);
  void parse_labelled(BodyState& body);
  void parse_branch_targets(BodyState& body, const std::string& name);
  void parse_loc(BodyState* body);

  // --- instructions (parse_instruction.cpp)
  void parse_instruction(BodyState& body);
  bool parse_qualifiers(Instruction& instruction, bool& cache_hint);
  bool parse_call_operands(BodyState& body, Instruction& instruction);
  bool parse_operand_list(BodyState& body, std::vector<Operand>& out, char close);
  bool parse_operand(BodyState& body, Operand& out);
  bool parse_name_operand(BodyState& body, Operand& out);
  bool parse_lane_selector(Operand& out);
  bool parse_address(BodyState& body, Operand& out);
  bool parse_immediate(Operand& out, bool negative);
  bool finish_branch_operands(BodyState& body, Instruction& instruction);
  std::optional<uint32_t> find_register(const BodyState& body, const std::string& name) const;
  std::string resolve_symbol(const BodyState& body, const std::string& name) const;

  Lexer lexer_;
  ParseOutput out_;
  bool stopped_ = false;
  SourcePos last_end_;  // just past the last token taken: where a missing `;` belongs
  std::unordered_map<std::string, size_t> function_index_;
  std::unordered_set<std::string> defined_functions_;
  std::unordered_set<std::string> module_symbols_;
};

// Semantic checks after a clean parse (checks.cpp): every label and symbol a function
// uses exists, guards are predicates. Appends to `diagnostics`.
void check_module(const Module& module, std::vector<Diagnostic>& diagnostics, size_t max_diagnostics);

}  // namespace cucpu::ptx
