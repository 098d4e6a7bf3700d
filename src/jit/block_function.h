// Internal to src/jit: the compiled block strategy's side of the JIT. A kernel it can run
// is translated a second time, per block shape, into one function that runs a whole block
// (kernel_abi.h CompiledBlockFrame): translate_block_function.cpp.
#pragma once

#include <llvm/IR/Module.h>

#include <map>
#include <string>

#include "jit/function_lowering.h"
#include "jit/translate_module.h"
#include "jit/warp_analysis.h"

namespace cucpu::jit {

// Why the compiled block strategy cannot keep `kernel`'s semantics (independent progress
// of lanes, waits it cannot park, ...); empty when it can. `facts`: every function's.
std::string compiled_strategy_obstacle(const ModuleLowering& module, const ptx::Function& kernel,
                                       const std::map<const ptx::Function*, FunctionFacts>& facts);

// The block function of `kernel` for blocks of `shape`, as `name` in m.module, whose other
// functions and variables are declarations of the module the kernel's scalar translation
// defined. Fills `code` but its entry.
Result<void> translate_block_function(ModuleLowering& m, const ptx::Function& kernel, const FunctionAccess& access,
                                      const std::vector<ParamSlot>& params, const BlockShape& shape,
                                      const std::string& name, CompiledBlockCode& code);

}  // namespace cucpu::jit
