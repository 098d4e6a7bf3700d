// For unit tests that run PTX on the executor: compiles a PTX text against the executor's
// runtime functions, as core/module_registry does for a program's modules.
#pragma once

#include <memory>
#include <string>

#include "exec/grid.h"
#include "jit/compile.h"
#include "ptx/parse.h"

namespace cucpu::test {

inline Result<std::unique_ptr<jit::CompiledModule>> compile_with_executor(const std::string& ptx_text,
                                                                         const char* source_name) {
  auto module = ptx::parse(ptx_text, source_name);
  if (!module) return module.error();
  jit::CompileOptions options;
  options.runtime = exec::GridExecutor::runtime_symbols();
  return jit::compile_module(*module, options);
}

}  // namespace cucpu::test
