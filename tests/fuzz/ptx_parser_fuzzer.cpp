// libFuzzer target for the PTX front end: any bytes go to parse_module, which must
// neither crash nor hang nor trip a sanitizer; a module that parses cleanly must print
// as text that parses again, cleanly, and prints as the same text (parse.h promises
// parse(print(m)) == m; printing twice is the part a fuzzer can check cheaply).
// Built with clang -fsanitize=fuzzer by build_and_run.sh, and with g++ and
// replay_main.cpp as the ctest fuzz.ptx_parser_corpus (README.md beside this file).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ptx/parse.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& first, const std::string& second) {
  std::fprintf(stderr, "ptx_parser_fuzzer: %s\n--- printed:\n%s\n--- then:\n%s\n", what, first.c_str(), second.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cucpu::ptx;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ParseOutput output = parse_module(text);
  if (!output.diagnostics.empty()) {
    // Diagnostics must be formattable (positions within the text, messages non-empty).
    for (const Diagnostic& diagnostic : output.diagnostics) {
      if (diagnostic.message.empty() || diagnostic.pos.line == 0) fail("empty diagnostic", "", "");
      (void)format_diagnostic(diagnostic);
    }
    return 0;
  }
  const std::string printed = print_module(output.module);
  ParseOutput reparsed = parse_module(printed);
  if (!reparsed.diagnostics.empty())
    fail("printed module does not parse", printed, format_diagnostic(reparsed.diagnostics.front()));
  const std::string reprinted = print_module(reparsed.module);
  if (reprinted != printed) fail("printing is not a fixed point", printed, reprinted);
  return 0;
}
