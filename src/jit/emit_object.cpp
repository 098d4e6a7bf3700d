// Code generation to an object file in memory. LLJIT would generate the same code itself
// from an IR module; generating it here instead gives the object to keep in the disk
// cache, and one way of loading (load_into_orc adds objects) whether the code was just
// compiled or read back. The target machine is prepared as LLJIT prepares its own
// (LLJITBuilderState::prepareForConstruction: for JITLink on x86-64 ELF, the small code
// model and position-independent code), so the object is one its linker expects.
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include "jit/host_target.h"

namespace cucpu::jit {

Result<std::unique_ptr<llvm::MemoryBuffer>> emit_object(llvm::Module& module,
                                                        const llvm::orc::JITTargetMachineBuilder& target) {
  auto fail = [](llvm::Error error) {
    return make_error(ErrorCode::Unknown, "LLVM: " + llvm::toString(std::move(error)));
  };
  llvm::orc::LLJITBuilder prepared;
  prepared.setJITTargetMachineBuilder(target);
  if (auto error = prepared.prepareForConstruction()) return fail(std::move(error));
  auto machine = prepared.JTMB->createTargetMachine();
  if (!machine) return fail(machine.takeError());
  llvm::orc::SimpleCompiler compile(**machine);
  auto object = compile(module);
  if (!object) return fail(object.takeError());
  return std::move(*object);
}

}  // namespace cucpu::jit
