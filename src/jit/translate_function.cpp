// One PTX function body -> one LLVM function: registers become entry-block allocas,
// labels become basic blocks, `@%p` guards branch around their instruction, and each
// instruction goes to the lowering of its family (lower_*.cpp). Kernels are
// `void(ThreadContext*)` and find their parameters in ctx->params; a .func receives
// pointers to its .param parameters and returns after the context (function_lowering.h).
#include <fmt/format.h>

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "jit/translate_module.h"

namespace cucpu::jit {
namespace {

using LowerFamily = bool (*)(FunctionLowering&, const ptx::Instruction&);
constexpr LowerFamily kFamilies[] = {
    lower_async_proxy,  // st.async, red.async, cp.reduce.async.bulk: before lower_data_movement, lower_atomics, lower_async_copy
    lower_cluster,  // barrier.cluster, cvta.shared::cluster: before lower_synchronization and lower_data_movement
    lower_control_flow,     lower_data_movement,    lower_integer_arithmetic,
    lower_packed_integer,   lower_video,            // .u16x2/.s16x2 before the float families' min/max
    lower_bit_manipulation, lower_narrow_float,     // cvt with fp8/fp6/fp4/ue8m0 pairs, before the half family
    lower_half_precision,                           // before the f32/f64, compare and cvt families
    lower_float_arithmetic, lower_comparison,       lower_conversion,
    lower_atomics,          lower_warp_collectives, lower_synchronization,
    lower_async_copy,       lower_tensor_core,      lower_texture,
};

bool terminated(FunctionLowering& fl) { return fl.b.GetInsertBlock()->getTerminator() != nullptr; }

// Gives every register its alloca, zero-initialized so that reading a register before
// writing it is deterministic.
void allocate_registers(FunctionLowering& fl) {
  fl.registers.assign(fl.fn.registers.size(), nullptr);
  for (size_t i = 0; i < fl.fn.registers.size(); ++i) {
    const ptx::Register& r = fl.fn.registers[i];
    unsigned bits = r.type == ptx::Type::Pred ? 1 : ptx::bit_width(r.type);
    if (r.vector != 1 || bits == 0) {
      fl.fail(fmt::format("register {} of a vector or untyped kind is not supported yet", r.name));
      return;
    }
    llvm::AllocaInst* a = fl.b.CreateAlloca(fl.int_type(bits), nullptr, r.name);
    fl.b.CreateStore(llvm::ConstantInt::get(fl.int_type(bits), 0), a);
    fl.registers[i] = a;
  }
}

void bind_parameters(FunctionLowering& fl, const std::vector<ParamSlot>* kernel_params) {
  auto& b = fl.b;
  if (kernel_params != nullptr) {
    llvm::Value* field = b.CreateGEP(b.getInt8Ty(), fl.thread_context, b.getInt64(offsetof(ThreadContext, params)));
    llvm::Value* buffer = b.CreateAlignedLoad(fl.ptr_type(), field, llvm::Align(8), "params");
    for (size_t i = 0; i < fl.fn.params.size(); ++i) {
      SymbolBinding s;
      s.space = ptx::StateSpace::Param;
      s.parameter = &fl.fn.params[i];
      s.address = b.CreateGEP(b.getInt8Ty(), buffer, b.getInt64((*kernel_params)[i].offset), fl.fn.params[i].name);
      fl.symbols[fl.fn.params[i].name] = s;
    }
    return;
  }
  unsigned arg = 1;
  auto bind = [&](const ptx::Parameter& p, bool is_return) {
    if (p.space == ptx::StateSpace::Reg) {
      // A .reg parameter is a register of the body (the parser declared it first):
      // copied in from the caller's memory here, copied out at ret (emit_return).
      llvm::Value* caller_memory = fl.llvm_fn->getArg(arg++);
      caller_memory->setName(p.name);
      uint32_t reg = 0;
      while (reg < fl.fn.registers.size() && fl.fn.registers[reg].name != p.name) ++reg;
      if (reg == fl.fn.registers.size()) {
        fl.fail(fmt::format(".reg parameter {} has no register", p.name));
        return;
      }
      if (is_return) {
        fl.register_returns.emplace_back(reg, caller_memory);
      } else {
        fl.write_register_bits(reg, b.CreateLoad(fl.int_type(fl.register_bits(reg)), caller_memory));
      }
      return;
    }
    SymbolBinding s;
    s.space = ptx::StateSpace::Param;
    s.parameter = &p;
    s.address = fl.llvm_fn->getArg(arg++);
    s.address->setName(p.name);
    fl.symbols[p.name] = s;
  };
  for (const ptx::Parameter& p : fl.fn.returns) bind(p, true);
  for (const ptx::Parameter& p : fl.fn.params) bind(p, false);
}

// .local variables and the .param variables of call sequences live in the frame.
void allocate_frame_variables(FunctionLowering& fl) {
  for (const ptx::Variable& v : fl.fn.locals) {
    if (v.space != ptx::StateSpace::Local && v.space != ptx::StateSpace::Param) continue;
    uint64_t size = v.size_bytes();
    if (size == 0) {
      fl.fail(fmt::format("{} variable {} has no size", ptx::spelling(v.space), v.name));
      return;
    }
    SymbolBinding s;
    s.space = v.space;
    s.variable = &v;
    s.address = fl.b.CreateAlloca(llvm::ArrayType::get(fl.b.getInt8Ty(), size), nullptr, v.name);
    llvm::cast<llvm::AllocaInst>(s.address)->setAlignment(llvm::Align(std::max<uint32_t>(v.alignment(), 1)));
    fl.symbols[v.name] = s;
  }
}

// Independent thread scheduling (CUDA Programming Guide, compute capability 7.x): a lane
// that spins until another lane of its warp releases a lock must let that lane run. A
// loop that reads memory other threads write (an atom, an ld.volatile/.relaxed/.acquire,
// a nanosleep, an mbarrier.test_wait) may be such a spin loop: its backward branch gets a yield point, and the
// function counts as waiting for other threads, so that its kernel runs on fibers.
// Other loops get nothing: they cannot depend on another thread's progress.
bool may_wait_on_memory(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Atom:
    case ptx::Opcode::Nanosleep:
      return true;
    case ptx::Opcode::Mbarrier:
      return inst.q.operation == ptx::Operation::TestWait;
    case ptx::Opcode::Ld:
      return inst.q.sem == ptx::Semantics::Volatile || inst.q.sem == ptx::Semantics::Relaxed ||
             inst.q.sem == ptx::Semantics::MmioRelaxed || inst.q.sem == ptx::Semantics::Acquire ||
             inst.q.sem == ptx::Semantics::SeqCst;
    default:
      return false;
  }
}

// The backward branches whose loop body (from the target label to the branch, in text
// order) has an instruction that may wait on memory.
std::set<const ptx::Instruction*> find_spin_loop_branches(const ptx::Function& function) {
  std::map<std::string, size_t> label_at;
  std::vector<size_t> waits_before(function.body.size() + 1, 0);  // prefix counts
  for (size_t i = 0; i < function.body.size(); ++i) {
    const ptx::Statement& s = function.body[i];
    if (s.kind == ptx::Statement::Kind::Label) label_at.emplace(s.label, i);
    const bool waits = s.kind == ptx::Statement::Kind::Instruction && may_wait_on_memory(s.instruction);
    waits_before[i + 1] = waits_before[i] + (waits ? 1 : 0);
  }
  std::set<const ptx::Instruction*> branches;
  for (size_t i = 0; i < function.body.size(); ++i) {
    const ptx::Statement& s = function.body[i];
    if (s.kind != ptx::Statement::Kind::Instruction || s.instruction.opcode != ptx::Opcode::Bra ||
        s.instruction.operands.size() != 1)
      continue;
    auto target = label_at.find(s.instruction.operands[0].name);
    if (target != label_at.end() && target->second < i && waits_before[i] > waits_before[target->second])
      branches.insert(&s.instruction);
  }
  return branches;
}

// How many passes over a spin loop's back-edge a thread makes between yields: a yield is
// a fiber switch (tens of ns) when another thread can run, so a few iterations apart.
constexpr uint32_t kSpinsBetweenYields = 16;

struct YieldPoints {
  std::set<const ptx::Instruction*> branches;  // find_spin_loop_branches
  llvm::AllocaInst* budget = nullptr;          // back-edges left before the next yield
};

// --budget; at zero: refill it and call __cucpu_yield.
void emit_yield_point(FunctionLowering& fl, llvm::AllocaInst* budget) {
  auto& b = fl.b;
  llvm::Value* left = b.CreateSub(b.CreateLoad(b.getInt32Ty(), budget), b.getInt32(1));
  b.CreateStore(left, budget);
  llvm::BasicBlock* yield = fl.new_block("yield");
  llvm::BasicBlock* after = fl.new_block("after.yield");
  b.CreateCondBr(b.CreateICmpEQ(left, b.getInt32(0)), yield, after);
  b.SetInsertPoint(yield);
  b.CreateStore(b.getInt32(kSpinsBetweenYields), budget);
  llvm::Type* args[] = {fl.ptr_type()};
  b.CreateCall(fl.runtime_function(kYield, b.getVoidTy(), args), {fl.thread_context});
  b.CreateBr(after);
  b.SetInsertPoint(after);
}

// Lowers one instruction, branching around it when it has a guard.
void lower_statement(FunctionLowering& fl, const ptx::Instruction& inst, const YieldPoints& yields) {
  fl.current = &inst;
  auto& b = fl.b;
  if (inst.opcode == ptx::Opcode::Bra) {
    if (yields.branches.count(&inst)) emit_yield_point(fl, yields.budget);
    lower_control_flow(fl, inst);
    return;
  }
  llvm::BasicBlock* after = nullptr;
  if (inst.guard) {
    ptx::Operand guard;
    guard.kind = ptx::Operand::Kind::Register;
    guard.reg = inst.guard->reg;
    guard.negated = inst.guard->negated;
    llvm::Value* condition = fl.read(guard, ptx::Type::Pred);
    llvm::BasicBlock* then = fl.new_block("guarded");
    after = fl.new_block("after.guard");
    b.CreateCondBr(condition, then, after);
    b.SetInsertPoint(then);
  }
  lower_instruction(fl, inst);
  if (after != nullptr) {
    if (!terminated(fl)) b.CreateBr(after);
    b.SetInsertPoint(after);
  } else if (terminated(fl)) {
    b.SetInsertPoint(fl.new_block("dead"));  // what follows a ret/bra until the next label
  }
}

}  // namespace

void lower_instruction(FunctionLowering& fl, const ptx::Instruction& inst) {
  for (LowerFamily family : kFamilies)
    if (family(fl, inst)) return;
  fl.fail("instruction is not supported yet");
}

std::set<const ptx::Instruction*> spin_loop_branches(const ptx::Function& function) {
  return find_spin_loop_branches(function);
}

Result<FunctionFacts> translate_function(ModuleLowering& module, const ptx::Function& function,
                                         llvm::Function* llvm_function, const std::vector<ParamSlot>* kernel_params) {
  FunctionLowering fl(module, function, llvm_function);
  FunctionAccess access;
  access.statements.resize(function.body.size());
  auto& b = fl.b;
  b.SetInsertPoint(llvm::BasicBlock::Create(fl.ctx, "entry", llvm_function));
  fl.thread_context = llvm_function->getArg(0);
  fl.thread_context->setName("ctx");
  llvm::Value* shared_field =
      b.CreateGEP(b.getInt8Ty(), fl.thread_context, b.getInt64(offsetof(ThreadContext, shared_base)));
  fl.shared_base = b.CreateAlignedLoad(fl.ptr_type(), shared_field, llvm::Align(8), "shared");
  allocate_registers(fl);
  bind_parameters(fl, kernel_params);
  allocate_frame_variables(fl);
  if (fl.failed()) return fl.error();

  for (const ptx::Statement& s : function.body) {
    if (s.kind == ptx::Statement::Kind::Label) fl.labels.emplace(s.label, nullptr);
  }
  for (auto& [name, block] : fl.labels) block = fl.new_block(name);
  fl.access_log = &access;  // from here on, only the body's own accesses
  YieldPoints yields;
  yields.branches = find_spin_loop_branches(function);
  if (!yields.branches.empty()) {
    yields.budget = b.CreateAlloca(b.getInt32Ty(), nullptr, "yield.budget");
    b.CreateStore(b.getInt32(kSpinsBetweenYields), yields.budget);
    fl.waits_for_other_threads = true;
  }
  llvm::BasicBlock* body = fl.new_block("body");
  b.CreateBr(body);
  b.SetInsertPoint(body);

  for (const ptx::Statement& s : function.body) {
    fl.current_statement = static_cast<uint32_t>(&s - function.body.data());
    if (s.kind == ptx::Statement::Kind::Label) {
      llvm::BasicBlock* block = fl.labels.at(s.label);
      if (!terminated(fl)) b.CreateBr(block);
      // Keep blocks in text order: it makes the IR readable and the golden tests stable.
      block->moveAfter(b.GetInsertBlock());
      b.SetInsertPoint(block);
      continue;
    }
    lower_statement(fl, s.instruction, yields);
    if (fl.failed()) return fl.error();
  }
  fl.current = nullptr;
  fl.access_log = nullptr;
  if (!terminated(fl)) fl.emit_return();  // falling off the end returns
  for (llvm::BasicBlock& block : *llvm_function) {
    if (block.getTerminator() == nullptr) {
      b.SetInsertPoint(&block);
      b.CreateUnreachable();
    }
  }
  return FunctionFacts{fl.waits_for_other_threads, fl.callees, std::move(access)};
}

}  // namespace cucpu::jit
