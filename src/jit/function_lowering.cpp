// Operand access for the instruction lowerings: reading and writing registers as
// typed values, immediates, special registers, symbol addresses and the host pointer
// an address operand designates in each state space (see function_lowering.h and
// DESIGN.md "Execution model": device addresses are host addresses, except .shared
// ones, which are offsets into ThreadContext::shared_base).
#include "jit/function_lowering.h"
#include "jit/nan_bits.h"

#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include <bit>
#include <cfloat>
#include <cstddef>

namespace cucpu::jit {

FunctionLowering::FunctionLowering(ModuleLowering& module, const ptx::Function& function, llvm::Function* llvm_function)
    : m(module), fn(function), llvm_fn(llvm_function), ctx(*module.context), b(*module.context) {
  // A .func's registers may be its caller's (.reg parameters): every one counts as seen.
  if (function.is_entry) nan_bits_seen_ = registers_whose_nan_bits_are_seen(function);
}

bool FunctionLowering::nan_bits_seen(const ptx::Operand& destination) const {
  if (destination.kind != ptx::Operand::Kind::Register) return true;
  return destination.reg >= nan_bits_seen_.size() || nan_bits_seen_[destination.reg] != 0;
}

void FunctionLowering::fail(const std::string& why) {
  if (error_) return;
  std::string where = current != nullptr ? fmt::format("line {}: `{}`", current->pos.line, describe(*current))
                                         : fmt::format("function {}", fn.name);
  error_ = make_error(ErrorCode::InvalidPtx, fmt::format("{}: {}", where, why));
}

std::string FunctionLowering::describe(const ptx::Instruction& inst) const {
  std::string text = ptx::spelling(inst.opcode);
  if (inst.q.space != ptx::StateSpace::Generic) text += ptx::spelling(inst.q.space);
  if (inst.q.vector > 1) text += fmt::format(".v{}", inst.q.vector);
  if (inst.q.type != ptx::Type::None) text += ptx::spelling(inst.q.type);
  if (inst.q.src_type != ptx::Type::None) text += ptx::spelling(inst.q.src_type);
  return text;
}

// --- types ------------------------------------------------------------------------

llvm::Type* FunctionLowering::shaped(llvm::Type* scalar) {
  return lanes == 0 ? scalar : llvm::FixedVectorType::get(scalar, lanes);
}

llvm::Type* FunctionLowering::int_like(llvm::Value* like, unsigned bits) {
  llvm::Type* t = like->getType();
  if (auto* vector = llvm::dyn_cast<llvm::VectorType>(t)) return llvm::VectorType::get(int_type(bits), vector);
  return int_type(bits);
}

llvm::Type* FunctionLowering::value_type(ptx::Type type) {
  return shaped(scalar_value_type(type));
}

llvm::Type* FunctionLowering::scalar_value_type(ptx::Type type) {
  switch (type) {
    case ptx::Type::Pred:
      return b.getInt1Ty();
    case ptx::Type::F32:
      return b.getFloatTy();
    case ptx::Type::F64:
      return b.getDoubleTy();
    case ptx::Type::None:
      fail("instruction has no type");
      return b.getInt32Ty();
    default:
      return int_type(ptx::bit_width(type));
  }
}

unsigned FunctionLowering::register_bits(uint32_t reg) const {
  if (reg >= fn.registers.size()) return 0;
  const ptx::Register& r = fn.registers[reg];
  return r.type == ptx::Type::Pred ? 1 : ptx::bit_width(r.type);
}

llvm::Value* FunctionLowering::read_register_bits(uint32_t reg) {
  if (reg >= registers.size() || registers[reg] == nullptr) {
    fail("register out of range");
    return llvm::PoisonValue::get(b.getInt32Ty());
  }
  if (access_log != nullptr) access_log->note(current_statement, reg, false);
  return b.CreateLoad(int_type(register_bits(reg)), registers[reg], fn.registers[reg].name);
}

void FunctionLowering::write_register_bits(uint32_t reg, llvm::Value* bits) {
  if (reg >= registers.size() || registers[reg] == nullptr) {
    fail("register out of range");
    return;
  }
  if (access_log != nullptr) access_log->note(current_statement, reg, true);
  b.CreateStore(bits, registers[reg]);
}

void FunctionLowering::note_carry_access(bool write) {
  if (access_log != nullptr) access_log->note(current_statement, carry_flag_register(fn), write);
}

llvm::Value* FunctionLowering::resize_int(llvm::Value* v, unsigned bits, bool sign_extend) {
  unsigned have = v->getType()->getScalarSizeInBits();
  if (have == bits) return v;
  llvm::Type* to = int_like(v, bits);
  if (have > bits) return b.CreateTrunc(v, to);
  return sign_extend ? b.CreateSExt(v, to) : b.CreateZExt(v, to);
}

llvm::Value* FunctionLowering::to_type(llvm::Value* bits, ptx::Type type) {
  llvm::Type* t = value_type(type);
  return t == bits->getType() ? bits : b.CreateBitCast(bits, t);
}

llvm::Value* FunctionLowering::to_bits(llvm::Value* value) {
  llvm::Type* t = value->getType();
  if (t->isIntOrIntVectorTy()) return value;
  return b.CreateBitCast(value, int_like(value, t->getScalarSizeInBits()));
}

// --- operands ---------------------------------------------------------------------

bool FunctionLowering::is_sink(const ptx::Operand& op) const { return op.kind == ptx::Operand::Kind::Sink; }

static llvm::Value* immediate(FunctionLowering& fl, const ptx::Operand& op, ptx::Type type) {
  auto& b = fl.b;
  if (type == ptx::Type::Pred) return b.getInt1(op.imm != 0);
  if (type == ptx::Type::F32 || type == ptx::Type::F64) {
    double value;
    if (op.imm_is_double) {
      value = std::bit_cast<double>(op.imm);
    } else if (op.imm_is_float) {
      value = std::bit_cast<float>(static_cast<uint32_t>(op.imm));
    } else {
      value = static_cast<double>(static_cast<int64_t>(op.imm));
    }
    if (type == ptx::Type::F64) return llvm::ConstantFP::get(b.getDoubleTy(), value);
    // An f32 operand written as 0f keeps its exact bits (NaN payloads included).
    if (op.imm_is_float && !op.imm_is_double) {
      return b.CreateBitCast(b.getInt32(static_cast<uint32_t>(op.imm)), b.getFloatTy());
    }
    return llvm::ConstantFP::get(b.getFloatTy(), static_cast<float>(value));
  }
  unsigned bits = ptx::bit_width(type);
  if (op.imm_is_double && bits == 32 && !is_bits(type)) {
    fl.fail("a double literal where an integer is expected");
  }
  return fl.to_type(llvm::ConstantInt::get(fl.int_type(bits), op.imm), type);
}

llvm::Value* FunctionLowering::read(const ptx::Operand& op, ptx::Type type) {
  if (lanes != 0) return lanes_read(op, type);
  llvm::Type* want = value_type(type);
  if (op.negated && type != ptx::Type::Pred) fail("`!` on an operand that is not a predicate");
  switch (op.kind) {
    case ptx::Operand::Kind::Register: {
      unsigned have = register_bits(op.reg);
      llvm::Value* bits = read_register_bits(op.reg);
      if (failed()) return llvm::PoisonValue::get(want);
      if (type == ptx::Type::Pred) {
        if (have != 1) {
          fail(fmt::format("register {} is not a predicate", fn.registers[op.reg].name));
          return llvm::PoisonValue::get(want);
        }
        return op.negated ? b.CreateNot(bits) : bits;
      }
      if (have == 1) {
        fail(fmt::format("predicate {} used as a {} value", fn.registers[op.reg].name, ptx::spelling(type)));
        return llvm::PoisonValue::get(want);
      }
      return to_type(resize_int(bits, ptx::bit_width(type), ptx::is_signed_int(type)), type);
    }
    case ptx::Operand::Kind::Immediate:
      return immediate(*this, op, type);
    case ptx::Operand::Kind::SpecialRegister: {
      llvm::Value* v = special_register(op.sreg, op.component);
      // %is_explicit_cluster is a predicate (PTX ISA 10.x), read with mov.pred.
      if (type == ptx::Type::Pred && op.sreg == ptx::SpecialRegister::IsExplicitCluster)
        return b.CreateICmpNE(v, b.getInt32(0));
      if (type == ptx::Type::Pred || ptx::is_float(type)) {
        fail("special register read as a non-integer");
        return llvm::PoisonValue::get(want);
      }
      return to_type(resize_int(v, ptx::bit_width(type), false), type);
    }
    case ptx::Operand::Kind::Symbol: {
      if (type == ptx::Type::Pred || ptx::is_float(type)) {
        fail(fmt::format("address of {} read as a non-integer", op.name));
        return llvm::PoisonValue::get(want);
      }
      return to_type(symbol_value(op.name, ptx::bit_width(type)), type);
    }
    default:
      fail("unexpected operand kind");
      return llvm::PoisonValue::get(want);
  }
}

void FunctionLowering::write(const ptx::Operand& op, ptx::Type type, llvm::Value* value) {
  if (is_sink(op)) return;
  if (lanes != 0) return lanes_write(op, type, value);
  if (op.kind != ptx::Operand::Kind::Register) {
    fail("destination is not a register");
    return;
  }
  unsigned have = register_bits(op.reg);
  if ((have == 1) != (type == ptx::Type::Pred)) {
    fail(fmt::format("register {} does not fit a {} result",
                     op.reg < fn.registers.size() ? fn.registers[op.reg].name : "?", ptx::spelling(type)));
    return;
  }
  write_register_bits(op.reg, resize_int(to_bits(value), have, ptx::is_signed_int(type)));
}

// --- symbols and addresses --------------------------------------------------------

const SymbolBinding* FunctionLowering::find_symbol(const std::string& name) {
  auto it = symbols.find(name);
  if (it != symbols.end()) return &it->second;
  SymbolBinding binding;
  if (const ptx::Variable* v = resolve_variable(*m.ptx, fn, name)) {
    binding.variable = v;
    binding.space = v->space;
    if (v->space == ptx::StateSpace::Shared || v->space == ptx::StateSpace::SharedCluster) {
      const SharedLayout& layout = m.shared->functions.at(&fn);
      binding.kind = SymbolBinding::Kind::SharedOffset;
      auto offset = layout.offsets.find(v);
      if (!v->dims.empty() && v->dims[0] == 0) {
        binding.shared_offset = layout.dynamic_offset;
      } else if (offset != layout.offsets.end()) {
        binding.shared_offset = offset->second;
      } else {
        fail(fmt::format("no shared-memory slot for {}", name));
        return nullptr;
      }
    } else if (auto s = m.function_statics.find(v); s != m.function_statics.end()) {
      binding.address = s->second;
    } else if (auto g = m.globals.find(name); g != m.globals.end() && v->space != ptx::StateSpace::Local) {
      binding.address = g->second;
    } else {
      fail(fmt::format("variable {} in {} space has no storage", name, ptx::spelling(v->space)));
      return nullptr;
    }
  } else if (auto f = m.functions.find(name); f != m.functions.end()) {
    binding.kind = SymbolBinding::Kind::Function;
    binding.function = f->second;
    binding.address = f->second;
  } else {
    fail(fmt::format("unknown symbol {}", name));
    return nullptr;
  }
  return &symbols.emplace(name, binding).first->second;
}

llvm::Value* FunctionLowering::symbol_value(const std::string& name, unsigned bits) {
  const SymbolBinding* s = find_symbol(name);
  if (s == nullptr) return llvm::PoisonValue::get(int_type(bits));
  if (s->kind == SymbolBinding::Kind::SharedOffset) return llvm::ConstantInt::get(int_type(bits), s->shared_offset);
  // A 32-bit .local address keeps the low half of the host address; address() puts the
  // high half back from the current frame (see local_address_from_32_bits).
  return resize_int(b.CreatePtrToInt(s->address, b.getInt64Ty()), bits, false);
}

// The stack is one contiguous region per thread (a fiber stack), so a 32-bit local
// address is the host address nearest to any address of the current frame with those
// low 32 bits: frame + sign_extend(low - low32(frame)).
static llvm::Value* local_address_from_32_bits(FunctionLowering& fl, llvm::Value* low32) {
  auto& b = fl.b;
  if (fl.local_anchor == nullptr) fl.local_anchor = fl.entry_alloca(b.getInt8Ty(), 1, "frame.anchor");
  llvm::Value* frame = b.CreatePtrToInt(fl.local_anchor, b.getInt64Ty());
  llvm::Value* delta = b.CreateSub(low32, b.CreateTrunc(frame, b.getInt32Ty()));
  return b.CreateIntToPtr(b.CreateAdd(frame, b.CreateSExt(delta, b.getInt64Ty())), fl.ptr_type());
}

llvm::Value* FunctionLowering::address(const ptx::Operand& op, ptx::StateSpace space) {
  const ptx::Operand* base = nullptr;
  int64_t offset = 0;
  if (op.kind == ptx::Operand::Kind::Address) {
    base = op.elements.empty() ? nullptr : &op.elements[0];
    offset = op.offset;
  } else if (op.kind == ptx::Operand::Kind::Register || op.kind == ptx::Operand::Kind::Symbol) {
    base = &op;
  } else {
    fail("expected an address operand");
    return llvm::PoisonValue::get(ptr_type());
  }
  bool shared_window = space == ptx::StateSpace::Shared || space == ptx::StateSpace::SharedCluster;
  auto byte_offset = [&](llvm::Value* p, int64_t delta) {
    return delta == 0 ? p : b.CreateGEP(b.getInt8Ty(), p, b.getInt64(static_cast<uint64_t>(delta)));
  };
  if (base == nullptr) {
    if (shared_window) return byte_offset(shared_base, offset);
    return b.CreateIntToPtr(b.getInt64(static_cast<uint64_t>(offset)), ptr_type());
  }
  if (base->kind == ptx::Operand::Kind::Symbol) {
    const SymbolBinding* s = find_symbol(base->name);
    if (s == nullptr) return llvm::PoisonValue::get(ptr_type());
    switch (s->kind) {
      case SymbolBinding::Kind::Memory:
        return byte_offset(s->address, offset);
      case SymbolBinding::Kind::SharedOffset:
        // A generic access to a .shared variable by name reaches it through the window too.
        if (shared_window || space == ptx::StateSpace::Generic) {
          return byte_offset(shared_base, static_cast<int64_t>(s->shared_offset) + offset);
        }
        fail(fmt::format(".shared variable {} accessed as {}", base->name, ptx::spelling(space)));
        return llvm::PoisonValue::get(ptr_type());
      case SymbolBinding::Kind::Function:
        fail("a function used as a data address");
        return llvm::PoisonValue::get(ptr_type());
    }
  }
  if (base->kind != ptx::Operand::Kind::Register) {
    fail("unexpected address base");
    return llvm::PoisonValue::get(ptr_type());
  }
  unsigned bits = register_bits(base->reg);
  llvm::Value* v = read_register_bits(base->reg);
  if (failed()) return llvm::PoisonValue::get(ptr_type());
  if (bits != 32 && bits != 64) {
    fail("address register is neither 32 nor 64 bits");
    return llvm::PoisonValue::get(ptr_type());
  }
  // A .shared::cluster address is a signed offset from the thread's own window: lower
  // ranks' shared memory lies below it (kernel_abi.h, ThreadContext::shared_stride).
  if (space == ptx::StateSpace::SharedCluster)
    return byte_offset(b.CreateGEP(b.getInt8Ty(), shared_base, resize_int(resize_int(v, 32, false), 64, true)), offset);
  if (shared_window) return byte_offset(b.CreateGEP(b.getInt8Ty(), shared_base, resize_int(v, 64, false)), offset);
  if (space == ptx::StateSpace::Local && bits == 32) {
    return local_address_from_32_bits(*this, b.CreateAdd(v, b.getInt32(static_cast<uint32_t>(offset))));
  }
  return byte_offset(b.CreateIntToPtr(resize_int(v, 64, false), ptr_type()), offset);
}

// --- special registers ------------------------------------------------------------

llvm::Value* FunctionLowering::load_context_u32(size_t offset) {
  llvm::Value* p = b.CreateGEP(b.getInt8Ty(), thread_context, b.getInt64(offset));
  return b.CreateAlignedLoad(b.getInt32Ty(), p, llvm::Align(4));
}

llvm::Value* FunctionLowering::load_context_u64(size_t offset) {
  llvm::Value* p = b.CreateGEP(b.getInt8Ty(), thread_context, b.getInt64(offset));
  return b.CreateAlignedLoad(b.getInt64Ty(), p, llvm::Align(8));
}

llvm::Value* FunctionLowering::special_register(ptx::SpecialRegister sreg, unsigned component) {
  using S = ptx::SpecialRegister;
  if (special_register_override) {
    if (llvm::Value* v = special_register_override(sreg, component)) return v;
  }
  auto vector_field = [&](size_t offset) -> llvm::Value* {
    if (component > 2) {
      fail(fmt::format("{} has no component {}", ptx::spelling(sreg), component));
      return b.getInt32(0);
    }
    return load_context_u32(offset + 4 * component);
  };
  auto lane_bit = [&]() { return b.CreateShl(b.getInt32(1), load_context_u32(offsetof(ThreadContext, laneid))); };
  switch (sreg) {
    case S::Tid:
      return vector_field(offsetof(ThreadContext, tid));
    case S::Ntid:
      return vector_field(offsetof(ThreadContext, ntid));
    case S::Ctaid:
      return vector_field(offsetof(ThreadContext, ctaid));
    case S::Nctaid:
      return vector_field(offsetof(ThreadContext, nctaid));
    case S::Laneid:
      return load_context_u32(offsetof(ThreadContext, laneid));
    case S::Warpid:
      return load_context_u32(offsetof(ThreadContext, warpid));
    case S::Nwarpid:
      return load_context_u32(offsetof(ThreadContext, nwarpid));
    case S::Smid:
      return load_context_u32(offsetof(ThreadContext, smid));
    case S::Nsmid:
      return load_context_u32(offsetof(ThreadContext, nsmid));
    case S::DynamicSmemSize:
      return load_context_u32(offsetof(ThreadContext, dynamic_smem_size));
    case S::TotalSmemSize:
      return load_context_u32(offsetof(ThreadContext, total_smem_size));
    case S::AggrSmemSize:
      return load_context_u32(offsetof(ThreadContext, aggr_smem_size));
    case S::WarpSize:
      return b.getInt32(32);
    case S::Gridid:
      return load_context_u64(offsetof(ThreadContext, gridid));
    case S::CurrentGraphExec:
      return load_context_u64(offsetof(ThreadContext, graph_exec));
    case S::ClusterCtaid:
      return vector_field(offsetof(ThreadContext, cluster_ctaid));
    case S::ClusterNctaid:
      return vector_field(offsetof(ThreadContext, cluster_nctaid));
    case S::ClusterId:
      return vector_field(offsetof(ThreadContext, clusterid));
    case S::Nclusterid:
      return vector_field(offsetof(ThreadContext, nclusterid));
    case S::ClusterCtarank:
      return load_context_u32(offsetof(ThreadContext, cluster_ctarank));
    case S::ClusterNctarank:
      return load_context_u32(offsetof(ThreadContext, cluster_nctarank));
    case S::IsExplicitCluster:
      return load_context_u32(offsetof(ThreadContext, is_explicit_cluster));
    case S::ReservedSmemOffsetBegin:  // the reserved shared memory's layout, as an H100 reads it
    case S::ReservedSmemOffset0:      // (kernel_abi.h kReservedSharedBytes)
    case S::ReservedSmemOffset1:
      return b.getInt32(0);
    case S::ReservedSmemOffsetEnd:
      return b.getInt32(kReservedSharedInUse);
    case S::ReservedSmemOffsetCap:
      return b.getInt32(kReservedSharedBytes);
    case S::Envreg1:  // the grid workspace address, high half (cooperative_groups/details/driver_abi.h)
      return b.CreateTrunc(b.CreateLShr(load_context_u64(offsetof(ThreadContext, grid_workspace)), 32),
                           b.getInt32Ty());
    case S::Envreg2:  // ... and its low half
      return b.CreateTrunc(load_context_u64(offsetof(ThreadContext, grid_workspace)), b.getInt32Ty());
    // The driver's other environment registers have no documented meaning for a program
    // (PTX ISA 9.0 §10.30: "defined in the driver documentation"); cucpu's driver defines
    // none of them, so they read 0. An H100 (driver 580) shows 0x38432c8, 1 and 0x120 in
    // %envreg0, 6 and 10 of an ordinary launch, the rest 0.
    case S::Envreg0:
    case S::Envreg3:
    case S::Envreg4:
    case S::Envreg5:
    case S::Envreg6:
    case S::Envreg7:
    case S::Envreg8:
    case S::Envreg9:
    case S::Envreg10:
    case S::Envreg11:
    case S::Envreg12:
    case S::Envreg13:
    case S::Envreg14:
    case S::Envreg15:
    case S::Envreg16:
    case S::Envreg17:
    case S::Envreg18:
    case S::Envreg19:
    case S::Envreg20:
    case S::Envreg21:
    case S::Envreg22:
    case S::Envreg23:
    case S::Envreg24:
    case S::Envreg25:
    case S::Envreg26:
    case S::Envreg27:
    case S::Envreg28:
    case S::Envreg29:
    case S::Envreg30:
    case S::Envreg31:
      return b.getInt32(0);
    // Performance-monitoring counters count only events a profiler has configured; with none
    // configured an H100 reads 0 from all of them (and pmevent counts nothing: see
    // lower_synchronization.cpp).
    case S::Pm0:
    case S::Pm1:
    case S::Pm2:
    case S::Pm3:
    case S::Pm4:
    case S::Pm5:
    case S::Pm6:
    case S::Pm7:
      return b.getInt32(0);
    case S::Pm064:
    case S::Pm164:
    case S::Pm264:
    case S::Pm364:
    case S::Pm464:
    case S::Pm564:
    case S::Pm664:
    case S::Pm764:
      return b.getInt64(0);
    case S::LanemaskEq:
      return lane_bit();
    case S::LanemaskLt:
      return b.CreateSub(lane_bit(), b.getInt32(1));
    case S::LanemaskGe:
      return b.CreateNot(b.CreateSub(lane_bit(), b.getInt32(1)));
    case S::LanemaskLe: {
      // (2 << lane) - 1 is all ones for lane 31 (the shift wraps to 0).
      llvm::Value* two = b.CreateShl(b.getInt32(2), load_context_u32(offsetof(ThreadContext, laneid)));
      return b.CreateSub(two, b.getInt32(1));
    }
    case S::LanemaskGt: {
      llvm::Value* two = b.CreateShl(b.getInt32(2), load_context_u32(offsetof(ThreadContext, laneid)));
      return b.CreateNot(b.CreateSub(two, b.getInt32(1)));
    }
    case S::Clock:
    case S::ClockHi:
    case S::Clock64: {
      llvm::Value* cycles = b.CreateCall(intrinsic(llvm::Intrinsic::readcyclecounter, {}));
      if (sreg == S::Clock64) return cycles;
      if (sreg == S::ClockHi) cycles = b.CreateLShr(cycles, 32);
      return b.CreateTrunc(cycles, b.getInt32Ty());
    }
    case S::Globaltimer:
    case S::GlobaltimerLo:
    case S::GlobaltimerHi: {
      llvm::Value* ns = b.CreateCall(runtime_function("__cucpu_jit_globaltimer", b.getInt64Ty(), {}));
      if (sreg == S::Globaltimer) return ns;
      if (sreg == S::GlobaltimerHi) ns = b.CreateLShr(ns, 32);
      return b.CreateTrunc(ns, b.getInt32Ty());
    }
    default:
      fail(fmt::format("special register {} is not supported yet", ptx::spelling(sreg)));
      return b.getInt32(0);
  }
}

// --- shared helpers ---------------------------------------------------------------

void FunctionLowering::emit_return() {
  for (const auto& [reg, caller_memory] : register_returns) b.CreateStore(read_register_bits(reg), caller_memory);
  b.CreateRetVoid();
}

llvm::Value* FunctionLowering::flush_subnormal(llvm::Value* v) {
  if (!v->getType()->getScalarType()->isFloatTy()) return v;
  llvm::Value* magnitude = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  llvm::Value* subnormal = b.CreateFCmpOLT(magnitude, llvm::ConstantFP::get(v->getType(), FLT_MIN));
  llvm::Value* zero = b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, llvm::ConstantFP::get(v->getType(), 0.0), v);
  return b.CreateSelect(subnormal, zero, v);
}

bool FunctionLowering::expect_operands(const ptx::Instruction& inst, size_t count) {
  if (inst.operands.size() == count) return true;
  fail(fmt::format("expected {} operands", count));
  return false;
}

llvm::Value* FunctionLowering::canonicalize_nan(llvm::Value* v) {
  if (!v->getType()->getScalarType()->isFloatTy()) return v;
  llvm::Value* canonical = b.CreateBitCast(llvm::ConstantInt::get(int_like(v, 32), 0x7fffffff), v->getType());
  return b.CreateSelect(b.CreateFCmpUNO(v, v), canonical, v);
}

llvm::Value* FunctionLowering::saturate_unit(llvm::Value* v) {
  llvm::Type* t = v->getType();
  llvm::Value* zero = llvm::ConstantFP::get(t, 0.0);
  llvm::Value* one = llvm::ConstantFP::get(t, 1.0);
  // Ordered compares: NaN and -0.0 become +0.0 (PTX ISA 9.7.3 "Saturation").
  llvm::Value* low = b.CreateSelect(b.CreateFCmpOGT(v, zero), v, zero);
  return b.CreateSelect(b.CreateFCmpOLT(low, one), low, one);
}

llvm::AllocaInst* FunctionLowering::entry_alloca(llvm::Type* type, uint64_t align, const std::string& name) {
  llvm::BasicBlock& entry = llvm_fn->getEntryBlock();
  llvm::IRBuilder<> at_entry(&entry, entry.begin());
  llvm::AllocaInst* a = at_entry.CreateAlloca(type, nullptr, name);
  a->setAlignment(llvm::Align(align == 0 ? 1 : align));
  return a;
}

llvm::BasicBlock* FunctionLowering::new_block(const std::string& name) {
  return llvm::BasicBlock::Create(ctx, name, llvm_fn);
}

llvm::Function* FunctionLowering::intrinsic(unsigned id, llvm::ArrayRef<llvm::Type*> types) {
  return llvm::Intrinsic::getDeclaration(m.module, static_cast<llvm::Intrinsic::ID>(id), types);
}

llvm::FunctionCallee FunctionLowering::runtime_function(const char* name, llvm::Type* result,
                                                        llvm::ArrayRef<llvm::Type*> params) {
  return m.module->getOrInsertFunction(name, llvm::FunctionType::get(result, params, false));
}

llvm::Value* FunctionLowering::call_pure_helper(const char* name, llvm::Type* result, llvm::ArrayRef<llvm::Value*> args) {
  std::vector<llvm::Type*> params;
  for (llvm::Value* a : args) params.push_back(a->getType()->getScalarType());
  if (!result->isVectorTy()) return b.CreateCall(runtime_function(name, result, params), args);
  // Every lane at once, through the helper's 32-lane form (lane_helper.h): its arguments
  // and results as arrays of lanes.
  const unsigned count = llvm::cast<llvm::FixedVectorType>(result)->getNumElements();
  auto lanes_of = [&](llvm::Type* t, const char* what) {
    return entry_alloca(llvm::ArrayType::get(t->getScalarType(), count), 64, what);
  };
  std::vector<llvm::Value*> arrays;
  llvm::AllocaInst* out = lanes_of(result, "helper.out");
  arrays.push_back(out);
  for (llvm::Value* a : args) {
    llvm::AllocaInst* in = lanes_of(a->getType(), "helper.in");
    llvm::Value* lanes = a->getType()->isVectorTy() ? a : b.CreateVectorSplat(count, a);
    b.CreateAlignedStore(lanes, in, llvm::Align(64));
    arrays.push_back(in);
  }
  const std::string lanes_name = std::string(name) + ".x32";
  std::vector<llvm::Type*> pointers(arrays.size(), ptr_type());
  b.CreateCall(runtime_function(lanes_name.c_str(), b.getVoidTy(), pointers), arrays);
  return b.CreateAlignedLoad(result, out, llvm::Align(64));
}

llvm::FunctionType* ptx_function_type(llvm::LLVMContext& context, const ptx::Function& function) {
  std::vector<llvm::Type*> params(1 + function.returns.size() + function.params.size(),
                                  llvm::PointerType::getUnqual(context));
  return llvm::FunctionType::get(llvm::Type::getVoidTy(context), params, false);
}

ptx::Type bits_type(unsigned bits) {
  switch (bits) {
    case 8:
      return ptx::Type::B8;
    case 16:
      return ptx::Type::B16;
    case 32:
      return ptx::Type::B32;
    case 64:
      return ptx::Type::B64;
    case 128:
      return ptx::Type::B128;
    default:
      return ptx::Type::None;
  }
}

}  // namespace cucpu::jit
