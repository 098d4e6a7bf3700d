// cucpu ptx FILE: parse a PTX file as the runtime would. Errors come out as one line
// with a position and a non-zero exit code; a good file gets a one-line summary.
#include <fmt/format.h>

#include <fstream>
#include <iterator>

#include "exec/grid.h"
#include "jit/compile.h"
#include "ptx/parse.h"
#include "tools/cucpu/commands.h"

namespace cucpu::tool {
namespace {

size_t count_instructions(const ptx::Module& module) {
  size_t count = 0;
  for (const auto& function : module.functions)
    for (const auto& statement : function.body) count += statement.kind == ptx::Statement::Kind::Instruction;
  return count;
}

}  // namespace

int check_ptx_file(const PtxOptions& options) {
  std::ifstream file(options.file, std::ios::binary);
  if (!file) {
    fmt::print(stderr, "cucpu ptx: cannot open {}\n", options.file);
    return 2;
  }
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  auto module = ptx::parse(text, "ptx");
  if (!module) {
    fmt::print(stderr, "{}: {}\n", options.file, module.error().message);
    return 1;
  }
  if (options.print) fmt::print("{}", ptx::print_module(*module));
  if (options.llvm) {
    auto ir = jit::translate_to_llvm_ir(*module);
    if (!ir) {
      fmt::print(stderr, "{}: {}\n", options.file, ir.error().message);
      return 1;
    }
    fmt::print("{}", *ir);
  }
  if (options.compile) {
    jit::CompileOptions compile_options;
    compile_options.runtime = exec::GridExecutor::runtime_symbols();
    auto compiled = jit::compile_module(*module, compile_options);
    if (!compiled) {
      fmt::print(stderr, "{}: {}\n", options.file, compiled.error().message);
      return 1;
    }
  }
  size_t entries = 0;
  for (const auto& function : module->functions) entries += function.is_entry;
  fmt::print("{}: PTX {}.{} for {}, {} kernel(s), {} function(s), {} variable(s), {} instructions\n",
             options.file, module->version_major, module->version_minor, module->target, entries,
             module->functions.size() - entries, module->variables.size(), count_instructions(*module));
  return 0;
}

}  // namespace cucpu::tool
