// Internal to src/jit: a module's object code loaded into ORC.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>

#include "jit/compile.h"
#include "jit/module_facts.h"

namespace cucpu::jit {

// Links `object` (emit_object's, fresh or from the disk cache) into a new LLJIT and fills
// in the entry of each kernel and the address of each variable that `facts` lists.
Result<std::unique_ptr<CompiledModule>> load_into_orc(ModuleFacts facts, std::unique_ptr<llvm::MemoryBuffer> object,
                                                      llvm::orc::JITTargetMachineBuilder target,
                                                      const RuntimeSymbols& runtime);

}  // namespace cucpu::jit
