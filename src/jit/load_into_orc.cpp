// Loads a module's object code into an ORC LLJIT for the host and looks up what the
// executor needs: each kernel's entry point and each module variable's address. The
// object is emit_object's, just generated or read back from the disk cache: the same
// loading either way.
// Symbols outside the module resolve to the executor's runtime functions
// (CompileOptions::runtime), cucpu's own helpers (rounding_helpers.cpp), and then the
// process (libm functions the transcendental lowerings call, compiler-rt builtins).
#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include <map>
#include <mutex>

#include "jit/block_compiler.h"
#include "jit/function_lowering.h"
#include "jit/orc_module.h"
#include "support/log.h"

namespace cucpu::jit {
namespace {

// Every loaded kernel by its entry address: a device-side launch names its kernel by the
// value `mov.u64 %rd, kernel` gives, which is the entry's address (find_kernel_by_entry).
std::mutex kernels_by_entry_mutex;
std::map<const void*, const KernelInfo*> kernels_by_entry;

class OrcModule final : public CompiledModule {
 public:
  ~OrcModule() override {
    std::lock_guard guard(kernels_by_entry_mutex);
    for (const auto& [name, info] : kernels) kernels_by_entry.erase(reinterpret_cast<const void*>(info.entry));
  }

  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::map<std::string, KernelInfo> kernels;
  std::vector<std::unique_ptr<OrcBlockCompiler>> block_compilers;
  std::map<std::string, GlobalInfo> globals;

  const KernelInfo* find_kernel(const std::string& name) const override {
    auto it = kernels.find(name);
    return it == kernels.end() ? nullptr : &it->second;
  }
  const GlobalInfo* find_global(const std::string& name) const override {
    auto it = globals.find(name);
    return it == globals.end() ? nullptr : &it->second;
  }
  std::vector<std::string> kernel_names() const override {
    std::vector<std::string> names;
    for (const auto& [name, info] : kernels) names.push_back(name);
    return names;
  }
};

Error jit_error(llvm::Error error) {
  return make_error(ErrorCode::Unknown, "LLVM JIT: " + llvm::toString(std::move(error)));
}

}  // namespace

Result<std::unique_ptr<CompiledModule>> load_into_orc(ModuleFacts facts, std::unique_ptr<llvm::MemoryBuffer> object,
                                                      llvm::orc::JITTargetMachineBuilder target,
                                                      const RuntimeSymbols& runtime,
                                                      std::shared_ptr<const ptx::Module> ptx,
                                                      std::map<std::string, FunctionAccess> kernel_access,
                                                      BlockFunctionCache block_cache) {
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(target)).create();
  if (!jit) return jit_error(jit.takeError());
  auto result = std::make_unique<OrcModule>();
  result->jit = std::move(*jit);
  llvm::orc::LLJIT& lljit = *result->jit;
  lljit.getExecutionSession().setErrorReporter(
      [](llvm::Error error) { log::debug(log::Category::Jit, "ORC: {}", llvm::toString(std::move(error))); });

  llvm::orc::SymbolMap symbols;
  auto add = [&](const RuntimeSymbols& from) {
    for (const auto& [name, address] : from) {
      symbols[lljit.mangleAndIntern(name)] = llvm::orc::ExecutorSymbolDef(
          llvm::orc::ExecutorAddr::fromPtr(address), llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
    }
  };
  add(runtime);
  add(jit_helper_symbols());
  add(half_precision_helper_symbols());
  add(mbarrier_helper_symbols());
  add(tensor_copy_helper_symbols());
  add(tensor_core_helper_symbols());
  add(narrow_float_helper_symbols());
  add(special_function_helper_symbols());
  llvm::orc::JITDylib& library = lljit.getMainJITDylib();
  if (auto error = library.define(llvm::orc::absoluteSymbols(std::move(symbols)))) return jit_error(std::move(error));
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(lljit.getDataLayout().getGlobalPrefix());
  if (!process) return jit_error(process.takeError());
  library.addGenerator(std::move(*process));

  if (auto error = lljit.addObjectFile(std::move(object))) return jit_error(std::move(error));
  for (KernelInfo& kernel : facts.kernels) {
    auto address = lljit.lookup(kernel.name);
    if (!address) return jit_error(address.takeError());
    kernel.entry = address->toPtr<KernelEntry>();
    const ptx::Function* body = nullptr;
    if (ptx != nullptr)
      for (const ptx::Function& f : ptx->functions)
        if (f.is_entry && !f.is_extern && f.name == kernel.name) body = &f;
    if (kernel.compiled_obstacle.empty() && body != nullptr) {
      std::optional<FunctionAccess> access;
      if (auto it = kernel_access.find(kernel.name); it != kernel_access.end()) access = std::move(it->second);
      result->block_compilers.push_back(
          std::make_unique<OrcBlockCompiler>(lljit, ptx, *body, std::move(access), kernel.params, block_cache));
      kernel.block_compiler = result->block_compilers.back().get();
    }
    log::debug(log::Category::Jit, "kernel {}: {}", kernel.name,
               kernel.block_compiler ? "compiled block strategy" : "fibers: " + kernel.compiled_obstacle);
    result->kernels[kernel.name] = kernel;
  }
  {
    std::lock_guard guard(kernels_by_entry_mutex);
    for (const auto& [name, info] : result->kernels) kernels_by_entry[reinterpret_cast<const void*>(info.entry)] = &info;
  }
  for (GlobalInfo& global : facts.globals) {
    auto address = lljit.lookup(global.name);
    if (!address) return jit_error(address.takeError());
    global.address = address->toPtr<void*>();
    result->globals[global.name] = global;
  }
  return std::unique_ptr<CompiledModule>(std::move(result));
}

const KernelInfo* find_kernel_by_entry(const void* entry) {
  std::lock_guard guard(kernels_by_entry_mutex);
  auto it = kernels_by_entry.find(entry);
  return it == kernels_by_entry.end() ? nullptr : it->second;
}

}  // namespace cucpu::jit
