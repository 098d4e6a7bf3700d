// Control flow: bra (guarded: a conditional branch), ret and exit, and direct calls of
// .func defined in the module. nvcc's calling sequence passes arguments and results
// through .param variables of the caller's frame (`st.param [param0]; call (retval0),
// f, (param0); ld.param [retval0]`); the callee gets pointers to them, so ld.param and
// st.param on either side are ordinary frame accesses that inlining and SROA remove.
// Calls of the device library externs nvcc emits (vprintf, malloc, free, __assertfail) and
// trap become calls of runtime functions (kernel_abi.h); the last two never return. The
// device runtime's externs (dynamic parallelism) go to lower_device_runtime_call.cpp.
#include <fmt/format.h>

#include "jit/call_site.h"
#include "jit/kernel_abi.h"
#include "jit/function_lowering.h"

namespace cucpu::jit {
namespace {

void lower_branch(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.operands.size() != 1 ||
      (inst.operands[0].kind != ptx::Operand::Kind::Label && inst.operands[0].kind != ptx::Operand::Kind::Symbol)) {
    fl.fail("expected one label operand");
    return;
  }
  auto target = fl.labels.find(inst.operands[0].name);
  if (target == fl.labels.end()) {
    fl.fail(fmt::format("unknown label {}", inst.operands[0].name));
    return;
  }
  if (inst.guard) {
    ptx::Operand guard;
    guard.reg = inst.guard->reg;
    guard.negated = inst.guard->negated;
    llvm::Value* condition = fl.read(guard, ptx::Type::Pred);
    llvm::BasicBlock* fallthrough = fl.new_block("fallthrough");
    b.CreateCondBr(condition, target->second, fallthrough);
    b.SetInsertPoint(fallthrough);
  } else {
    b.CreateBr(target->second);
    b.SetInsertPoint(fl.new_block("dead"));
  }
}

// An operand of a call as `type`: a .param variable of this frame is loaded, a register
// or immediate read.
llvm::Value* read_call_operand(FunctionLowering& fl, const ptx::Operand& op, ptx::Type type) {
  if (op.kind == ptx::Operand::Kind::Symbol) {
    const SymbolBinding* s = fl.find_symbol(op.name);
    if (s != nullptr && s->kind == SymbolBinding::Kind::Memory) return fl.b.CreateLoad(fl.value_type(type), s->address);
  }
  return fl.read(op, type);
}

llvm::Value* read_pointer(FunctionLowering& fl, const ptx::Operand& op) {
  return fl.b.CreateIntToPtr(read_call_operand(fl, op, ptx::Type::U64), fl.ptr_type());
}

// Ends the current block after a runtime function that never returns.
void end_thread_here(FunctionLowering& fl) {
  fl.b.CreateUnreachable();
  fl.b.SetInsertPoint(fl.new_block("dead"));
}

void lower_trap(FunctionLowering& fl) {
  fl.b.CreateCall(fl.runtime_function(kTrap, fl.b.getVoidTy(), {fl.ptr_type()}), {fl.thread_context});
  end_thread_here(fl);
}

// vprintf(format, args) and __assertfail(message, file, line, function, char_size), the
// externs of CUDA's device library (CUDA Programming Guide "Formatted Output",
// "Assertion"). Returns false for any other callee.
bool lower_device_library_call(FunctionLowering& fl, const CallSite& site, const std::string& name) {
  auto& b = fl.b;
  llvm::Type* ptr = fl.ptr_type();
  if (name == "vprintf") {
    if (site.arguments.size() != 2 || site.returns.size() > 1) {
      fl.fail("vprintf takes two arguments and returns one result");
      return true;
    }
    llvm::Value* format = read_pointer(fl, *site.arguments[0]);
    llvm::Value* args = read_pointer(fl, *site.arguments[1]);
    if (fl.failed()) return true;
    llvm::Value* count =
        b.CreateCall(fl.runtime_function(kVprintf, b.getInt32Ty(), {ptr, ptr, ptr}), {fl.thread_context, format, args});
    if (site.returns.size() == 1) {
      const ptx::Operand& result = *site.returns[0];
      const SymbolBinding* s = result.kind == ptx::Operand::Kind::Symbol ? fl.find_symbol(result.name) : nullptr;
      if (s == nullptr || s->kind != SymbolBinding::Kind::Memory) {
        fl.fail("call results must be .param variables");
        return true;
      }
      b.CreateStore(count, s->address);
    }
    return true;
  }
  if (name == "malloc" || name == "free") {
    // malloc(size) -> pointer and free(pointer), the device heap (CUDA Programming Guide
    // "Dynamic Global Memory Allocation and Operations").
    const bool is_malloc = name == "malloc";
    if (site.arguments.size() != 1 || site.returns.size() != (is_malloc ? 1u : 0u)) {
      fl.fail(is_malloc ? "malloc takes one argument and returns one result" : "free takes one argument");
      return true;
    }
    llvm::Value* argument = read_call_operand(fl, *site.arguments[0], ptx::Type::U64);
    if (fl.failed()) return true;
    if (!is_malloc) {
      b.CreateCall(fl.runtime_function(kFree, b.getVoidTy(), {ptr, ptr}),
                   {fl.thread_context, b.CreateIntToPtr(argument, ptr)});
      return true;
    }
    llvm::Value* block =
        b.CreateCall(fl.runtime_function(kMalloc, ptr, {ptr, b.getInt64Ty()}), {fl.thread_context, argument});
    const ptx::Operand& result = *site.returns[0];
    const SymbolBinding* s = result.kind == ptx::Operand::Kind::Symbol ? fl.find_symbol(result.name) : nullptr;
    if (s == nullptr || s->kind != SymbolBinding::Kind::Memory) {
      fl.fail("call results must be .param variables");
      return true;
    }
    b.CreateStore(b.CreatePtrToInt(block, b.getInt64Ty()), s->address);
    return true;
  }
  if (name == "__assertfail") {
    if (site.arguments.size() != 5 || !site.returns.empty()) {
      fl.fail("__assertfail takes five arguments and returns nothing");
      return true;
    }
    llvm::Value* message = read_pointer(fl, *site.arguments[0]);
    llvm::Value* file = read_pointer(fl, *site.arguments[1]);
    llvm::Value* line = read_call_operand(fl, *site.arguments[2], ptx::Type::U32);
    llvm::Value* function = read_pointer(fl, *site.arguments[3]);
    llvm::Value* char_size = read_call_operand(fl, *site.arguments[4], ptx::Type::U64);
    if (fl.failed()) return true;
    b.CreateCall(fl.runtime_function(kAssertFail, b.getVoidTy(), {ptr, ptr, ptr, b.getInt32Ty(), ptr, b.getInt64Ty()}),
                 {fl.thread_context, message, file, line, function, char_size});
    end_thread_here(fl);
    return true;
  }
  return false;
}

void lower_call(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  CallSite site = decode_call(inst, [&](const std::string& name) { return fl.m.ptx_functions.count(name) != 0; });
  if (site.callee == nullptr) {
    fl.fail("call without a callee");
    return;
  }
  if (site.callee->kind != ptx::Operand::Kind::Symbol) {
    fl.fail("indirect calls are not supported yet");
    return;
  }
  const std::string& name = site.callee->name;
  const ptx::Function* callee = fl.m.ptx_functions.at(name);
  auto target = fl.m.functions.find(name);
  if (target == fl.m.functions.end() && lower_device_library_call(fl, site, name)) return;
  if (target == fl.m.functions.end() && lower_device_runtime_call(fl, site, *callee)) return;
  if (target == fl.m.functions.end()) {
    fl.fail(fmt::format("call to external function {} is not supported yet", name));
    return;
  }
  if (callee->is_entry) {
    fl.fail(fmt::format("{} is a kernel; only .func can be called", name));
    return;
  }
  if (site.returns.size() != callee->returns.size() || site.arguments.size() != callee->params.size()) {
    fl.fail(fmt::format("call to {} with {} results and {} arguments; it declares {} and {}", name, site.returns.size(),
                        site.arguments.size(), callee->returns.size(), callee->params.size()));
    return;
  }
  // A .param variable of this frame (or of our own signature) passes by its address.
  auto param_memory = [&](const ptx::Operand& op) -> llvm::Value* {
    if (op.kind != ptx::Operand::Kind::Symbol) return nullptr;
    const SymbolBinding* s = fl.find_symbol(op.name);
    if (s == nullptr || s->kind != SymbolBinding::Kind::Memory) return nullptr;
    return s->address;
  };
  std::vector<llvm::Value*> args{fl.thread_context};
  for (const ptx::Operand* op : site.returns) {
    llvm::Value* p = param_memory(*op);
    if (p == nullptr) {
      fl.fail("call results must be .param variables");
      return;
    }
    args.push_back(p);
  }
  for (size_t i = 0; i < site.arguments.size(); ++i) {
    const ptx::Operand& op = *site.arguments[i];
    if (llvm::Value* p = param_memory(op)) {
      args.push_back(p);
      continue;
    }
    // A register or immediate argument: spill it to a slot of the parameter's type.
    const ptx::Parameter& param = callee->params[i];
    if (param.array_size != 0) {
      fl.fail(fmt::format("argument {} of {} must be a .param variable", i, name));
      return;
    }
    llvm::AllocaInst* slot = fl.entry_alloca(fl.value_type(param.type), param.alignment(), "arg");
    b.CreateStore(fl.read(op, param.type), slot);
    args.push_back(slot);
  }
  if (fl.failed()) return;
  b.CreateCall(target->second, args);
  fl.callees.push_back(callee);
}

}  // namespace

bool lower_control_flow(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Bra:
      lower_branch(fl, inst);
      return true;
    case ptx::Opcode::Ret:
      fl.b.CreateRetVoid();
      return true;
    case ptx::Opcode::Exit:
      // exit ends the thread; from a kernel body that is a return.
      if (!fl.fn.is_entry) {
        fl.fail("exit inside a .func is not supported yet");
      } else {
        fl.b.CreateRetVoid();
      }
      return true;
    case ptx::Opcode::Call:
      lower_call(fl, inst);
      return true;
    case ptx::Opcode::Trap:
      lower_trap(fl);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
