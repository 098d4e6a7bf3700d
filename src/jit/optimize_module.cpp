// Prepares a translated module for the host and optimizes it: the host target
// (JITTargetMachineBuilder::detectHost, so native CPU features such as AVX are used),
// then the standard new-pass-manager pipeline at the requested level. mem2reg/SROA in
// that pipeline turn the register allocas of the translation into SSA values.
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>

#include <algorithm>
#include <mutex>

#include "jit/host_target.h"

namespace cucpu::jit {

Result<llvm::orc::JITTargetMachineBuilder> detect_host_target() {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) return make_error(ErrorCode::Unknown, "LLVM: " + llvm::toString(builder.takeError()));
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  return std::move(*builder);
}

Result<void> optimize_module(llvm::Module& module, llvm::orc::JITTargetMachineBuilder& target, int level) {
  auto machine = target.createTargetMachine();
  if (!machine) return make_error(ErrorCode::Unknown, "LLVM: " + llvm::toString(machine.takeError()));
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple().str());
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", (*machine)->getTargetCPU());
    f.addFnAttr("target-features", (*machine)->getTargetFeatureString());
    // Frames larger than a page touch each page on the way down, so that a big .local
    // array hits a fiber stack's guard page instead of stepping over it.
    f.addFnAttr("probe-stack", "inline-asm");
    // Address 0 is an address like any other to PTX: a store through a null pointer must
    // fault (cudaErrorIllegalAddress), not be deleted by LLVM as undefined behaviour.
    f.addFnAttr(llvm::Attribute::NullPointerIsValid);
  }

  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder passes(machine->get());
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(cgscc);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, cgscc, modules);
  llvm::OptimizationLevel levels[] = {llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
                                      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel chosen = levels[std::clamp(level, 0, 3)];
  llvm::ModulePassManager pipeline = chosen == llvm::OptimizationLevel::O0
                                         ? passes.buildO0DefaultPipeline(chosen)
                                         : passes.buildPerModuleDefaultPipeline(chosen);
  pipeline.run(module, modules);
  return {};
}

}  // namespace cucpu::jit
