// Parsing PTX text into a ptx::Module, and printing one back.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ptx/module.h"
#include "support/result.h"

namespace cucpu::ptx {

struct Diagnostic {
  SourcePos pos;
  std::string message;  // without position
};

// Everything the parser and checks found; module is usable only when diagnostics is empty.
struct ParseOutput {
  Module module;
  std::vector<Diagnostic> diagnostics;
};

// Parses and checks a whole PTX module. Collects diagnostics and keeps going where it can;
// never throws, never crashes on any input.
ParseOutput parse_module(std::string_view text);

// parse_module, with the diagnostics folded into one Error (ErrorCode::InvalidPtx) whose
// message is "<source_name>:<line>:<col>: <message>" for the first diagnostic (and a count of the rest).
Result<Module> parse(std::string_view text, std::string_view source_name = "ptx");

// Formats a diagnostic as "<source_name>:<line>:<col>: <message>".
std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source_name = "ptx");

// PTX text for a module; parse(print(m)) gives back an equal module.
std::string print_module(const Module& module);

}  // namespace cucpu::ptx
