// Internal to src/jit: a module's object code loaded into ORC.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/MemoryBuffer.h>

#include <map>
#include <optional>
#include <memory>
#include <string>

#include "jit/compile.h"
#include "jit/disk_cache.h"
#include "jit/module_facts.h"
#include "jit/register_access.h"

namespace cucpu::jit {

// Where the compiled block strategy keeps the module's block functions between runs: the
// disk cache and the module's key there (none: they are compiled every run).
struct BlockFunctionCache {
  const DiskCache* cache = nullptr;
  std::optional<CacheKey> module_key;
};

// Links `object` (emit_object's, fresh or from the disk cache) into a new LLJIT and fills
// in the entry of each kernel and the address of each variable that `facts` lists. Kernels
// the compiled block strategy can run get a block compiler over `ptx`, with their register
// accesses from `kernel_access` (empty when the module came from the cache: the compiler
// then translates the module again when it first needs them).
Result<std::unique_ptr<CompiledModule>> load_into_orc(ModuleFacts facts, std::unique_ptr<llvm::MemoryBuffer> object,
                                                      llvm::orc::JITTargetMachineBuilder target,
                                                      const RuntimeSymbols& runtime,
                                                      std::shared_ptr<const ptx::Module> ptx,
                                                      std::map<std::string, FunctionAccess> kernel_access,
                                                      BlockFunctionCache block_cache);

}  // namespace cucpu::jit
