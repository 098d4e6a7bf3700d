// cucpu ptx FILE...: parse PTX as the runtime would, from PTX files or from the fatbins of
// an nvcc-built program or object. Errors come out as one line with a position and a
// non-zero exit code; each good module gets a one-line summary.
#include <fmt/format.h>

#include "exec/grid.h"
#include "jit/compile.h"
#include "ptx/link.h"
#include "ptx/parse.h"
#include "tools/cucpu/commands.h"
#include "tools/cucpu/ptx_inputs.h"

namespace cucpu::tool {
namespace {

size_t count_instructions(const ptx::Module& module) {
  size_t count = 0;
  for (const auto& function : module.functions)
    for (const auto& statement : function.body) count += statement.kind == ptx::Statement::Kind::Instruction;
  return count;
}

// One module's translation units parsed and, when there are several, linked.
Result<ptx::Module> parse_and_link(const PtxModuleSource& source) {
  std::vector<ptx::Module> units;
  for (const std::string& text : source.units) {
    auto unit = ptx::parse(text, "ptx");
    if (!unit) return unit.error();
    units.push_back(std::move(*unit));
  }
  if (units.size() == 1) return std::move(units.front());
  return ptx::link_modules(std::move(units));
}

// Parses (prints, translates, compiles) one module; false after printing why it failed.
bool check_module(const PtxModuleSource& source, const PtxOptions& options) {
  auto fail = [&](const Error& error) {
    fmt::print(stderr, "{}: {}\n", source.name, error.message);
    return false;
  };
  auto module = parse_and_link(source);
  if (!module) return fail(module.error());
  if (options.print) fmt::print("{}", ptx::print_module(*module));
  if (options.llvm) {
    auto ir = jit::translate_to_llvm_ir(*module);
    if (!ir) return fail(ir.error());
    fmt::print("{}", *ir);
  }
  if (options.compile) {
    jit::CompileOptions compile_options;
    compile_options.runtime = exec::GridExecutor::runtime_symbols();
    auto compiled = jit::compile_module(*module, compile_options);
    if (!compiled) return fail(compiled.error());
  }
  size_t entries = 0;
  for (const auto& function : module->functions) entries += function.is_entry;
  fmt::print("{}: PTX {}.{} for {}, {} kernel(s), {} function(s), {} variable(s), {} instructions\n", source.name,
             module->version_major, module->version_minor, module->target, entries,
             module->functions.size() - entries, module->variables.size(), count_instructions(*module));
  return true;
}

}  // namespace

int check_ptx_files(const PtxOptions& options) {
  auto modules = read_ptx_inputs(options.files, options.arch);
  if (!modules) {
    fmt::print(stderr, "cucpu ptx: {}\n", modules.error().message);
    return 2;
  }
  int failed = 0;
  for (const PtxModuleSource& source : *modules) failed += !check_module(source, options);
  return failed == 0 ? 0 : 1;
}

}  // namespace cucpu::tool
