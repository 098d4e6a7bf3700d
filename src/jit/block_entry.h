// Internal to src/jit: the entry of a block function (kernel_abi.h BlockEntry), which runs
// a worker's blocks one after another through the function's body: block_entry.cpp.
#pragma once

#include <llvm/IR/Module.h>

#include <string>

#include "jit/warp_analysis.h"

namespace cucpu::jit {

// Defines `name` in `module`: the BlockEntry around `body`, which runs one block of `shape`
// (arguments: the frame, and its register file).
void emit_block_entry(llvm::Module& module, llvm::Function* body, const BlockShape& shape, const std::string& name);

}  // namespace cucpu::jit
