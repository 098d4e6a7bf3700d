// Internal to src/jit: ptx::Module -> llvm::Module, plus what the executor needs to
// know about each kernel and module variable (addresses are filled in after JIT).
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <vector>

#include "jit/compile.h"
#include "jit/function_lowering.h"
#include "jit/module_facts.h"
#include "ptx/module.h"
#include "support/result.h"

namespace cucpu::jit {

struct TranslatedModule {
  std::unique_ptr<llvm::Module> module;
  ModuleFacts facts;
};

Result<TranslatedModule> translate_module(const ptx::Module& module, llvm::LLVMContext& context);

// What translating one body found out.
struct FunctionFacts {
  bool waits_for_other_threads = false;
  std::vector<const ptx::Function*> callees;
};

// Whether `kernel` or anything it calls waits at barrier.cluster (lower_cluster.cpp).
bool reaches_cluster_barrier(const ptx::Function& kernel, const std::map<const ptx::Function*, FunctionFacts>& facts);

// Fills `llvm_function` with the body of `function`. kernel_params: the parameter
// buffer layout when `function` is a kernel.
Result<FunctionFacts> translate_function(ModuleLowering& module, const ptx::Function& function,
                                         llvm::Function* llvm_function, const std::vector<ParamSlot>* kernel_params);

}  // namespace cucpu::jit
