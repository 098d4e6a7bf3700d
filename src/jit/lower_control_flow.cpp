// Control flow: bra (guarded: a conditional branch), brx.idx (a switch over its label
// table), ret and exit, and calls of .func
// defined in the module, direct or through a function pointer (lower_indirect_call).
// nvcc's calling sequence passes arguments and results through .param variables of the
// caller's frame (`st.param [param0]; call (retval0), f, (param0); ld.param [retval0]`);
// the callee gets pointers to them, so ld.param and st.param on either side are ordinary
// frame accesses that inlining and SROA remove. Registers passed to .reg parameters (or
// to scalar .param ones) go through slots of the caller's frame the same way, so every
// .func has one ABI, whichever way it is called (function_lowering.h ptx_function_type).
// exit inside a .func sets ThreadContext::exited and returns; each call returns at once
// when it comes back with the flag set, so the thread leaves its kernel as from an exit
// there (only in modules where some .func exits: ModuleLowering::func_exits).
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

// brx.idx index, table: a jump to the index-th label of the table. An index past the
// table is undefined behaviour in PTX; here it ends the thread like trap.
void lower_indexed_branch(FunctionLowering& fl, const ptx::Instruction& inst) {
  auto& b = fl.b;
  if (inst.operands.size() != 2 || inst.operands[1].kind != ptx::Operand::Kind::Vector) {
    fl.fail("expected an index and a .branchtargets table");
    return;
  }
  llvm::Value* index = fl.read(inst.operands[0], ptx::Type::U32);
  std::vector<llvm::BasicBlock*> targets;
  for (const ptx::Operand& label : inst.operands[1].elements) {
    auto target = fl.labels.find(label.name);
    if (target == fl.labels.end()) {
      fl.fail(fmt::format("unknown label {}", label.name));
      return;
    }
    targets.push_back(target->second);
  }
  if (fl.failed()) return;
  llvm::BasicBlock* out_of_range = fl.new_block("brx.out_of_range");
  llvm::SwitchInst* jump = b.CreateSwitch(index, out_of_range, static_cast<unsigned>(targets.size()));
  for (size_t i = 0; i < targets.size(); ++i) jump->addCase(b.getInt32(static_cast<uint32_t>(i)), targets[i]);
  b.SetInsertPoint(out_of_range);
  b.CreateCall(fl.runtime_function(kTrap, b.getVoidTy(), {fl.ptr_type()}), {fl.thread_context});
  b.CreateUnreachable();
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

// trap, and brkpt (which ends the launch alike when no debugger is attached).
void lower_trap(FunctionLowering& fl, const char* runtime_symbol) {
  fl.b.CreateCall(fl.runtime_function(runtime_symbol, fl.b.getVoidTy(), {fl.ptr_type()}), {fl.thread_context});
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

// What a call passes: the context, then one pointer per result and per argument; and the
// results that come back through a slot into a register.
struct CallFrame {
  struct CopyBack {
    llvm::Value* slot;
    const ptx::Operand* destination;
    ptx::Type type;
  };
  std::vector<llvm::Value*> args;
  std::vector<CopyBack> copy_backs;
};

// A .param variable of this frame (or of our own signature) passes by its address.
llvm::Value* param_memory(FunctionLowering& fl, const ptx::Operand& op) {
  if (op.kind != ptx::Operand::Kind::Symbol) return nullptr;
  const SymbolBinding* s = fl.find_symbol(op.name);
  if (s == nullptr || s->kind != SymbolBinding::Kind::Memory) return nullptr;
  return s->address;
}

// The type a register or immediate travels as: the callee's declaration (a .reg parameter,
// or a scalar .param given a register), else, through a pointer, the register's own type.
bool operand_type(FunctionLowering& fl, const ptx::Operand& op, const ptx::Parameter* declared, ptx::Type& type) {
  if (declared != nullptr) {
    if (declared->array_size != 0) {
      fl.fail(fmt::format("{} is an array: pass a .param variable", declared->name));
      return false;
    }
    type = declared->type;
    return true;
  }
  if (op.kind == ptx::Operand::Kind::Register && op.reg < fl.fn.registers.size()) {
    type = fl.fn.registers[op.reg].type;
    return true;
  }
  fl.fail("an indirect call passes .param variables or registers (an immediate has no type without its prototype)");
  return false;
}

// Builds the frame of a call to `callee` (null: an indirect call, whose prototype the
// argument variables carry).
bool pass_operands(FunctionLowering& fl, const CallSite& site, const ptx::Function* callee, CallFrame& frame) {
  frame.args.push_back(fl.thread_context);
  for (size_t i = 0; i < site.returns.size(); ++i) {
    const ptx::Operand& op = *site.returns[i];
    if (llvm::Value* p = param_memory(fl, op)) {
      frame.args.push_back(p);
      continue;
    }
    ptx::Type type;
    if (op.kind != ptx::Operand::Kind::Register && !fl.is_sink(op)) {
      fl.fail("call results must be .param variables or registers");
      return false;
    }
    if (fl.is_sink(op)) {
      if (callee == nullptr) {
        fl.fail("an indirect call cannot discard a result with `_`");
        return false;
      }
      type = callee->returns[i].type;
    } else if (!operand_type(fl, op, callee != nullptr ? &callee->returns[i] : nullptr, type)) {
      return false;
    }
    const uint32_t align = callee != nullptr ? callee->returns[i].alignment() : 8;
    llvm::AllocaInst* slot = fl.entry_alloca(fl.value_type(type), align, "result");
    frame.args.push_back(slot);
    frame.copy_backs.push_back({slot, &op, type});
  }
  for (size_t i = 0; i < site.arguments.size(); ++i) {
    const ptx::Operand& op = *site.arguments[i];
    if (llvm::Value* p = param_memory(fl, op)) {
      frame.args.push_back(p);
      continue;
    }
    // A register or immediate argument: spill it to a slot of the parameter's type.
    ptx::Type type;
    if (!operand_type(fl, op, callee != nullptr ? &callee->params[i] : nullptr, type)) return false;
    const uint32_t align = callee != nullptr ? callee->params[i].alignment() : 8;
    llvm::AllocaInst* slot = fl.entry_alloca(fl.value_type(type), align, "arg");
    fl.b.CreateStore(fl.read(op, type), slot);
    frame.args.push_back(slot);
  }
  return !fl.failed();
}

// exit inside a .func: the thread ends (ThreadContext::exited), its callers return.
void lower_exit_in_func(FunctionLowering& fl) {
  auto& b = fl.b;
  llvm::Value* flag = b.CreateGEP(b.getInt8Ty(), fl.thread_context, b.getInt64(offsetof(ThreadContext, exited)));
  b.CreateAlignedStore(b.getInt32(1), flag, llvm::Align(4));
  fl.emit_return();
}

// After a call of a .func: return at once if the thread exited inside it.
void return_if_exited(FunctionLowering& fl) {
  auto& b = fl.b;
  if (!fl.m.func_exits) return;
  llvm::Value* exited = b.CreateICmpNE(fl.load_context_u32(offsetof(ThreadContext, exited)), b.getInt32(0));
  llvm::BasicBlock* leave = fl.new_block("exited");
  llvm::BasicBlock* go_on = fl.new_block("not_exited");
  b.CreateCondBr(exited, leave, go_on);
  b.SetInsertPoint(leave);
  if (fl.fn.is_entry) {
    b.CreateRetVoid();
  } else {
    fl.emit_return();
  }
  b.SetInsertPoint(go_on);
}

void copy_results_back(FunctionLowering& fl, const CallFrame& frame) {
  for (const CallFrame::CopyBack& c : frame.copy_backs) {
    fl.write(*c.destination, c.type, fl.b.CreateLoad(fl.value_type(c.type), c.slot));
  }
}

// call (rets), %rd, (args), prototype: %rd holds the address of a .func (mov.u64 %rd, f;
// or a function pointer read from memory), called with the ABI of direct calls. The
// address must be one the module took of a .func with as many results and arguments:
// any other (null, data, a kernel) ends the thread with cudaErrorIllegalAddress, where the
// GPU would fault on the jump.
void lower_indirect_call(FunctionLowering& fl, const CallSite& site) {
  auto& b = fl.b;
  llvm::Value* target = b.CreateIntToPtr(fl.read(*site.callee, ptx::Type::U64), fl.ptr_type());
  CallFrame frame;
  if (fl.failed() || !pass_operands(fl, site, nullptr, frame)) return;
  llvm::Value* valid = b.getFalse();
  for (const ptx::Function* f : fl.m.address_taken) {
    if (f->returns.size() != site.returns.size() || f->params.size() != site.arguments.size()) continue;
    valid = b.CreateOr(valid, b.CreateICmpEQ(target, fl.m.functions.at(f->name)));
    fl.callees.push_back(f);  // what the kernel may reach (does it wait for other threads?)
  }
  llvm::BasicBlock* call = fl.new_block("call.indirect");
  llvm::BasicBlock* bad = fl.new_block("call.bad_target");
  b.CreateCondBr(valid, call, bad);
  b.SetInsertPoint(bad);
  b.CreateCall(fl.runtime_function(kBadCallTarget, b.getVoidTy(), {fl.ptr_type(), fl.ptr_type()}),
               {fl.thread_context, target});
  b.CreateUnreachable();
  b.SetInsertPoint(call);
  std::vector<llvm::Type*> params(frame.args.size(), fl.ptr_type());
  b.CreateCall(llvm::FunctionType::get(b.getVoidTy(), params, false), target, frame.args);
  return_if_exited(fl);
  copy_results_back(fl, frame);
}

void lower_call(FunctionLowering& fl, const ptx::Instruction& inst) {
  CallSite site = decode_call(inst, [&](const std::string& name) { return fl.m.ptx_functions.count(name) != 0; });
  if (site.callee == nullptr) {
    fl.fail("call without a callee");
    return;
  }
  if (site.callee->kind != ptx::Operand::Kind::Symbol) {
    lower_indirect_call(fl, site);
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
  CallFrame frame;
  if (!pass_operands(fl, site, callee, frame)) return;
  fl.b.CreateCall(target->second, frame.args);
  return_if_exited(fl);
  copy_results_back(fl, frame);
  fl.callees.push_back(callee);
}

}  // namespace

bool lower_control_flow(FunctionLowering& fl, const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Bra:
      lower_branch(fl, inst);
      return true;
    case ptx::Opcode::Brx:
      lower_indexed_branch(fl, inst);
      return true;
    case ptx::Opcode::Ret:
      fl.emit_return();
      return true;
    case ptx::Opcode::Exit:
      // exit ends the thread; from a kernel body that is a return.
      if (fl.fn.is_entry) {
        fl.b.CreateRetVoid();
      } else {
        lower_exit_in_func(fl);
      }
      return true;
    case ptx::Opcode::Call:
      lower_call(fl, inst);
      return true;
    case ptx::Opcode::Trap:
      lower_trap(fl, kTrap);
      return true;
    case ptx::Opcode::Brkpt:
      lower_trap(fl, kBreakpoint);
      return true;
    default:
      return false;
  }
}

}  // namespace cucpu::jit
