// compile_module: the JIT pipeline as a script. ptx::Module -> LLVM IR
// (translate_module) -> host-optimized IR (optimize_module) -> an object file
// (emit_object) -> native code in ORC (load_into_orc). Every step returns an error
// rather than running code it cannot translate faithfully.
#include "jit/compile.h"

#include <llvm/Support/raw_ostream.h>

#include <iostream>

#include "jit/host_target.h"
#include "jit/orc_module.h"
#include "jit/translate_module.h"
#include "support/log.h"

namespace cucpu::jit {
namespace {

std::string print(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return os.str();
}

}  // namespace

Result<std::unique_ptr<CompiledModule>> compile_module(const ptx::Module& module, const CompileOptions& options) {
  // Find the host target (CPU name and features).
  auto target = detect_host_target();
  if (!target) return target.error();
  // Translate PTX to LLVM IR; unsupported instructions stop here.
  auto context = std::make_unique<llvm::LLVMContext>();
  auto translated = translate_module(module, *context);
  if (!translated) return translated.error();
  // Optimize for the host.
  if (auto r = optimize_module(*translated->module, *target, options.optimization); !r) return r.error();
  // Show the IR if asked.
  if (options.dump_ir) std::cerr << print(*translated->module);
  if (log::enabled(log::Category::Jit)) log::write(log::Category::Jit, print(*translated->module));
  // Generate native code.
  auto object = emit_object(*translated->module, *target);
  if (!object) return object.error();
  // Load the code and look up kernels and variables.
  return load_into_orc(std::move(translated->facts), std::move(*object), std::move(*target), options.runtime);
}

Result<std::string> translate_to_llvm_ir(const ptx::Module& module) {
  llvm::LLVMContext context;
  auto translated = translate_module(module, context);
  if (!translated) return translated.error();
  return print(*translated->module);
}

}  // namespace cucpu::jit
