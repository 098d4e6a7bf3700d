// Internal to src/jit: the host as an LLVM target, the optimization pipeline and code
// generation.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>

#include "support/result.h"

namespace cucpu::jit {

// The host CPU with all its features; initializes LLVM's native target once.
Result<llvm::orc::JITTargetMachineBuilder> detect_host_target();

// Gives the module the target's data layout, triple and CPU features, then runs the
// new pass manager's default pipeline at `level` (0..3).
Result<void> optimize_module(llvm::Module& module, llvm::orc::JITTargetMachineBuilder& target, int level);

// The module's native code: an ELF relocatable object in memory, generated for the target
// as LLJIT prepares it for its linker, so that load_into_orc can link it (and a disk cache
// entry can keep it).
Result<std::unique_ptr<llvm::MemoryBuffer>> emit_object(llvm::Module& module,
                                                        const llvm::orc::JITTargetMachineBuilder& target);

}  // namespace cucpu::jit
