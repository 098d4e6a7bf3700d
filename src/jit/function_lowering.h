// Internal to src/jit: the state one PTX function's translation works on, shared by
// the instruction lowerings (lower_*.cpp), and the module-wide facts they read.
//
// Value model: every PTX register is an alloca of an integer as wide as the register
// (i1 for .pred); float instructions bitcast on read and write. mem2reg/SROA remove the
// allocas. An instruction reads an operand "as" its instruction type (ptx::Type): the
// register is truncated or extended to that width and bitcast to float where the type
// is a float; writing does the reverse (extension follows the signedness of the type,
// as PTX's relaxed register-width rules say for ld/cvt).
//
// Errors: lowering code records the first error with fail() and keeps going with a
// poison value; the translator checks failed() after each instruction and stops.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jit/compile.h"
#include "jit/register_access.h"
#include "jit/shared_layout.h"
#include "ptx/module.h"
#include "support/result.h"

namespace cucpu::jit {

// What the module translation knows before any body is translated.
struct ModuleLowering {
  const ptx::Module* ptx = nullptr;
  llvm::LLVMContext* context = nullptr;
  llvm::Module* module = nullptr;
  const ModuleSharedLayout* shared = nullptr;
  std::map<std::string, llvm::GlobalVariable*> globals;                    // module .global/.const by name
  std::map<const ptx::Variable*, llvm::GlobalVariable*> function_statics;  // .global/.const in a body
  std::map<std::string, const ptx::Function*> ptx_functions;
  std::map<std::string, llvm::Function*> functions;  // defined functions by PTX name
  std::vector<const ptx::Function*> address_taken;   // the .func an indirect call may reach
  bool func_exits = false;  // some .func executes exit: calls check ThreadContext::exited
  std::vector<KernelInfo> kernels;                   // filled by translate_module
};

// What a PTX name means inside one function body.
struct SymbolBinding {
  enum class Kind : uint8_t { Memory, SharedOffset, Function };
  Kind kind = Kind::Memory;
  ptx::StateSpace space = ptx::StateSpace::Global;
  llvm::Value* address = nullptr;  // Memory: a pointer (global, alloca, parameter slot)
  uint64_t shared_offset = 0;      // SharedOffset: offset in the block's shared window
  llvm::Function* function = nullptr;
  const ptx::Variable* variable = nullptr;    // the declaration, when a variable
  const ptx::Parameter* parameter = nullptr;  // the declaration, when a parameter
};

class FunctionLowering {
 public:
  FunctionLowering(ModuleLowering& module, const ptx::Function& function, llvm::Function* llvm_function);

  ModuleLowering& m;
  const ptx::Function& fn;
  llvm::Function* llvm_fn;
  llvm::LLVMContext& ctx;
  llvm::IRBuilder<> b;
  llvm::Value* thread_context = nullptr;  // ThreadContext*
  llvm::Value* shared_base = nullptr;     // ctx->shared_base, loaded at entry
  // Where each register lives: an alloca of the function (translate_function.cpp), or a
  // slot of the compiled block strategy's register file; loaded and stored as an integer
  // of the register's width.
  std::vector<llvm::Value*> registers;
  std::map<std::string, llvm::BasicBlock*> labels;
  std::map<std::string, SymbolBinding> symbols;
  llvm::Value* carry_flag = nullptr;  // where CC.CF of add.cc/addc lives (an i1), made on first use
  // Notes an access of CC.CF (the pseudo register kCarryFlag of register_access.h).
  void note_carry_access(bool write);
  const ptx::Instruction* current = nullptr;
  bool waits_for_other_threads = false;  // calls bar.sync / redux.sync / ...
  std::vector<const ptx::Function*> callees;
  // The .reg return values of a .func: each register and the caller's memory that ret
  // copies it to (.reg parameters are copied in at entry: translate_function.cpp).
  std::vector<std::pair<uint32_t, llvm::Value*>> register_returns;
  // Which registers each statement's lowering read and wrote (register_access.h); null:
  // not recorded. current_statement is the index into fn.body being lowered.
  FunctionAccess* access_log = nullptr;
  uint32_t current_statement = 0;
  // Where the thread's .local memory lies, for 32-bit .local addresses (function_lowering.cpp
  // local_address_from_32_bits); null: a frame.anchor alloca of this function.
  llvm::Value* local_anchor = nullptr;
  // The block's .shared memory is touched by this code's thread alone while it runs (the
  // compiled block function runs every warp of the block on one host thread), so atom and
  // red on .shared need no atomic instructions: a load, the operation and a store.
  bool shared_is_thread_private = false;
  // The value of a special register as the caller of the lowering defines it (the compiled
  // block function's lanes: translate_block_function.cpp); null or returning null: read
  // ThreadContext.
  std::function<llvm::Value*(ptx::SpecialRegister, unsigned component)> special_register_override;
  // Lane-wise lowering (the compiled block strategy): with `lanes` non-zero, every value is
  // a vector of that many lanes, read() and write() go to these hooks, and value_type()
  // and shaped() give vector types. Only the lowerings its caller knows to be width-generic
  // run this way (translate_block_function.cpp lowers_lane_wise).
  unsigned lanes = 0;
  std::function<llvm::Value*(const ptx::Operand&, ptx::Type)> lanes_read;
  std::function<void(const ptx::Operand&, ptx::Type, llvm::Value*)> lanes_write;

  // Records the first error (naming the current instruction and its line).
  void fail(const std::string& why);
  // Fails (and returns false) unless the instruction has exactly `count` operands.
  bool expect_operands(const ptx::Instruction& inst, size_t count);
  bool failed() const { return error_.has_value(); }
  const Error& error() const { return *error_; }

  // --- types
  llvm::Type* value_type(ptx::Type type);  // i1 / iN / float / double (f16, bf16: i16); `lanes` of them
  llvm::Type* scalar_value_type(ptx::Type type);  // value_type of one lane
  llvm::Type* shaped(llvm::Type* scalar);  // `scalar`, or `lanes` of it in lane-wise lowering
  // The integer type of `bits` with the shape of `like` (a scalar, or a vector's lanes).
  llvm::Type* int_like(llvm::Value* like, unsigned bits);
  llvm::IntegerType* int_type(unsigned bits) { return llvm::IntegerType::get(ctx, bits); }
  llvm::Type* ptr_type() { return llvm::PointerType::getUnqual(ctx); }
  llvm::Value* i32(uint64_t v) { return b.getInt32(static_cast<uint32_t>(v)); }
  llvm::Value* i64(uint64_t v) { return b.getInt64(v); }

  // --- operands
  llvm::Value* read(const ptx::Operand& op, ptx::Type type);
  void write(const ptx::Operand& op, ptx::Type type, llvm::Value* value);
  bool is_sink(const ptx::Operand& op) const;     // the `_` destination
  llvm::Value* read_register_bits(uint32_t reg);  // the register's stored integer
  void write_register_bits(uint32_t reg, llvm::Value* bits);
  unsigned register_bits(uint32_t reg) const;

  // The host pointer an Address operand ([base+offset]) designates in `space`.
  llvm::Value* address(const ptx::Operand& op, ptx::StateSpace space);
  // The value of a symbol used as an operand (its address in its own space).
  llvm::Value* symbol_value(const std::string& name, unsigned bits);
  const SymbolBinding* find_symbol(const std::string& name);
  llvm::Value* special_register(ptx::SpecialRegister sreg, unsigned component);

  // --- conversions between PTX typed values and bits
  llvm::Value* to_type(llvm::Value* bits, ptx::Type type);  // iN -> value of `type`
  llvm::Value* to_bits(llvm::Value* value);                 // float -> same-width int
  llvm::Value* resize_int(llvm::Value* v, unsigned bits, bool sign_extend);

  // --- helpers used by several families
  llvm::Value* flush_subnormal(llvm::Value* v);  // .ftz on an f32 value
  llvm::Value* saturate_unit(llvm::Value* v);    // .sat: clamp to [0, 1], NaN -> 0
  // An f32 NaN result becomes the GPU's canonical NaN 0x7fffffff (what sm_90 gives for
  // every f32 arithmetic result that is NaN, whatever the inputs' payloads; seen on an
  // H200, tests/e2e/integer_float_basics). Other types pass unchanged.
  llvm::Value* canonicalize_nan(llvm::Value* v);
  // Whether an instruction may look at the bits of a NaN in `destination` (nan_bits.h):
  // where none does, an f32 add/sub/mul/fma result may keep the host's NaN.
  bool nan_bits_seen(const ptx::Operand& destination) const;
  llvm::AllocaInst* entry_alloca(llvm::Type* type, uint64_t align, const std::string& name);
  llvm::BasicBlock* new_block(const std::string& name);
  llvm::Function* intrinsic(unsigned id, llvm::ArrayRef<llvm::Type*> types);
  llvm::FunctionCallee runtime_function(const char* name, llvm::Type* result, llvm::ArrayRef<llvm::Type*> params);
  // A call of a pure helper on scalars (directed rounding, the special function models):
  // `result` and vector `args` are one lane's in lane-wise lowering, where it is called once
  // per lane (the helpers have no vector form); arguments that are scalars go to every lane.
  llvm::Value* call_pure_helper(const char* name, llvm::Type* result, llvm::ArrayRef<llvm::Value*> args);
  llvm::Value* load_context_u32(size_t offset);
  llvm::Value* load_context_u64(size_t offset);
  void emit_return();  // ret: hands the .reg return values to the caller, then returns
  std::string describe(const ptx::Instruction& inst) const;  // "add.s32"

 private:
  std::optional<Error> error_;
  std::vector<uint8_t> nan_bits_seen_;  // per register; empty (all seen) for a .func
};

// One family of instructions each; a lowering returns false when it does not handle
// the opcode (the translator then reports it as unsupported).
// barrier.cluster mapa getctarank isspacep, cvta with .shared::cluster (takes these before
// lower_data_movement and lower_synchronization).
bool lower_cluster(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_data_movement(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_integer_arithmetic(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_bit_manipulation(FunctionLowering& fl, const ptx::Instruction& inst);
// add/min/max on .u16x2/.s16x2 (takes these before the float families, which know min/max).
bool lower_packed_integer(FunctionLowering& fl, const ptx::Instruction& inst);
// The SIMD video instructions vadd2 ... vset4.
bool lower_video(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_float_arithmetic(FunctionLowering& fl, const ptx::Instruction& inst);
// f16/bf16 and their x2 forms, cvt to them and to tf32 (takes these before the others).
bool lower_half_precision(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_comparison(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_conversion(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_atomics(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_synchronization(FunctionLowering& fl, const ptx::Instruction& inst);
// shfl/vote/match/activemask/elect and bar.warp.sync (takes these before lower_synchronization).
bool lower_warp_collectives(FunctionLowering& fl, const ptx::Instruction& inst);
bool lower_control_flow(FunctionLowering& fl, const ptx::Instruction& inst);
// cvt to and from fp8/fp6/fp4/ue8m0 pairs (takes these before lower_half_precision).
bool lower_narrow_float(FunctionLowering& fl, const ptx::Instruction& inst);
// cp.async, cp.async.bulk and mbarrier.
bool lower_async_copy(FunctionLowering& fl, const ptx::Instruction& inst);
// st.async, red.async, cp.reduce.async.bulk (not .tensor), discard, applypriority.
bool lower_async_proxy(FunctionLowering& fl, const ptx::Instruction& inst);
// wmma, mma, ldmatrix, stmatrix, movmatrix.
bool lower_tensor_core(FunctionLowering& fl, const ptx::Instruction& inst);

// A tensor-core instruction as a step of the whole warp (wmma, mma, ldmatrix, stmatrix,
// movmatrix): what each lane puts in its buffer of 64-bit slots (matrix_fragments.h), the
// helper that runs once for the warp on every lane's buffer, and what each lane takes back.
struct WarpStepOperands {
  const char* helper = nullptr;  // void helper(void* const* lanes, uint32_t members, uint32_t stride)
  bool meets = true;             // the lanes need each other's data (not wmma.load / wmma.store)
  uint32_t operation = 0;        // on fibers, lanes meet only at the same operation
  std::vector<std::pair<uint32_t, uint64_t>> constants;              // slot, a value every lane stores
  std::vector<std::pair<uint32_t, const ptx::Operand*>> offered;     // slot, a register, immediate or sink
  const ptx::Operand* address = nullptr;  // ldmatrix / stmatrix: slot 0 gets its host address
  ptx::StateSpace space = ptx::StateSpace::Generic;
  std::vector<std::pair<uint32_t, const ptx::Operand*>> results;     // slot, a register or sink
};
bool is_warp_step(const ptx::Instruction& inst);
// False, after fl.fail, when the instruction is malformed or not a warp step.
bool describe_warp_step(FunctionLowering& fl, const ptx::Instruction& inst, WarpStepOperands& step);
// tex, tld4, txq, suld, sust, suq with object handles (lower_texture.cpp).
bool lower_texture(FunctionLowering& fl, const ptx::Instruction& inst);

// .b8 .. .b128 by width in bits; None for other widths (function_lowering.cpp).
ptx::Type bits_type(unsigned bits);

// One instruction by its family's lowering, without its guard (translate_function.cpp).
void lower_instruction(FunctionLowering& fl, const ptx::Instruction& inst);

struct CallSite;
// A call of a device runtime extern (__cudaCDP2*, kernel_abi.h kDeviceRuntimeFunctions);
// false for any other callee (lower_device_runtime_call.cpp).
bool lower_device_runtime_call(FunctionLowering& fl, const CallSite& site, const ptx::Function& callee);

// Directed-rounding arithmetic the generated code calls (rounding_helpers.cpp).
// mode: 0 = .rn, 1 = .rz, 2 = .rm, 3 = .rp.
int rounding_mode_argument(ptx::Rounding rounding);  // -1 when not one of the four
RuntimeSymbols jit_helper_symbols();
RuntimeSymbols half_precision_helper_symbols();  // __cucpu_jit_narrow (lower_half_precision.cpp)
RuntimeSymbols mbarrier_helper_symbols();        // __cucpu_jit_mbarrier_* (mbarrier_helpers.cpp)
RuntimeSymbols tensor_copy_helper_symbols();     // __cucpu_jit_tensor_copy (tensor_copy_helpers.cpp)
RuntimeSymbols tensor_core_helper_symbols();     // __cucpu_jit_wmma_*, __cucpu_jit_mma (tensor_core_helpers.cpp)
RuntimeSymbols narrow_float_helper_symbols();    // fp8/fp6/fp4 conversions (lower_narrow_float.cpp)
RuntimeSymbols special_function_helper_symbols(); // MUFU models (special_function_unit.cpp)

// The LLVM signature of a .func: void(ThreadContext*, one pointer per return value, one
// per parameter), each pointing at the caller's parameter memory (.param or .reg alike),
// for direct and indirect calls.
llvm::FunctionType* ptx_function_type(llvm::LLVMContext& context, const ptx::Function& function);

}  // namespace cucpu::jit
