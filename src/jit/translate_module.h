// Internal to src/jit: ptx::Module -> llvm::Module, plus what the executor needs to
// know about each kernel and module variable (addresses are filled in after JIT).
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <set>
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
  // For the kernels the compiled block strategy can run: the registers each statement of
  // the kernel accesses (FunctionFacts::access), which its block functions are made from.
  std::map<std::string, FunctionAccess> kernel_access;
};

// Declares, in m.module, what translate_module defines (variables, functions) and finds
// what it finds about the module (address-taken functions, exit in a .func): for block
// functions compiled later into a module of their own (block_function.h).
Result<void> declare_module(ModuleLowering& m);

Result<TranslatedModule> translate_module(const ptx::Module& module, llvm::LLVMContext& context);

// What translating one body found out.
struct FunctionFacts {
  bool waits_for_other_threads = false;
  std::vector<const ptx::Function*> callees;
  FunctionAccess access;  // the registers each statement read and wrote
};

// Whether `kernel` or anything it calls waits at barrier.cluster (lower_cluster.cpp).
bool reaches_cluster_barrier(const ptx::Function& kernel, const std::map<const ptx::Function*, FunctionFacts>& facts);

// The backward branches of spin loops: loops that read memory other threads write, which
// get yield points (independent thread scheduling; translate_function.cpp).
std::set<const ptx::Instruction*> spin_loop_branches(const ptx::Function& function);

// Fills `llvm_function` with the body of `function`. kernel_params: the parameter
// buffer layout when `function` is a kernel.
Result<FunctionFacts> translate_function(ModuleLowering& module, const ptx::Function& function,
                                         llvm::Function* llvm_function, const std::vector<ParamSlot>* kernel_params);

}  // namespace cucpu::jit
