// Internal to src/jit: a translated, optimized module loaded into ORC.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/LLVMContext.h>

#include <memory>

#include "jit/compile.h"
#include "jit/translate_module.h"

namespace cucpu::jit {

Result<std::unique_ptr<CompiledModule>> load_into_orc(TranslatedModule translated,
                                                      std::unique_ptr<llvm::LLVMContext> context,
                                                      llvm::orc::JITTargetMachineBuilder target,
                                                      const RuntimeSymbols& runtime,
                                                      std::shared_ptr<const ptx::Module> ptx);

}  // namespace cucpu::jit
