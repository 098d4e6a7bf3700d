// The warp-level matrix instructions (PTX ISA 9.0 §9.7.14): wmma.load / wmma.store /
// wmma.mma, mma.sync, ldmatrix, stmatrix and movmatrix.
//
// A lane's fragment registers go to a buffer of 64-bit slots on its stack
// (matrix_fragments.h); describe_warp_step says what goes in and comes out, and which
// helper (tensor_core_helpers.cpp) runs on the buffers. wmma.load / wmma.store need only
// the lane's own elements: on fibers the lane runs __cucpu_jit_wmma_memory for itself. The
// others need every lane's data: on fibers the lane hands its buffer to the executor's
// __cucpu_warp_step, which runs __cucpu_jit_mma (or __cucpu_jit_matrix_move) once for the
// whole warp, and each lane then reads its results back from its buffer. The compiled block
// strategy fills every lane's buffer itself and calls the helper once for the warp
// (warp_collective_lowering.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "jit/function_lowering.h"
#include "jit/matrix_fragments.h"

namespace cucpu::jit {
namespace {

using ptx::Type;

// The registers of a `{...}` operand (a single register counts as a vector of one).
std::vector<const ptx::Operand*> vector_elements(FunctionLowering& fl, const ptx::Operand& op) {
  std::vector<const ptx::Operand*> elements;
  if (op.kind == ptx::Operand::Kind::Vector) {
    for (const ptx::Operand& element : op.elements) elements.push_back(&element);
  } else {
    elements.push_back(&op);
  }
  for (const ptx::Operand* element : elements) {
    if (element->kind != ptx::Operand::Kind::Register && element->kind != ptx::Operand::Kind::Sink &&
        element->kind != ptx::Operand::Kind::Immediate) {
      fl.fail("a matrix fragment is a vector of registers");
      return {};
    }
  }
  if (elements.size() > kSlotsPerOperand) {
    fl.fail("a matrix fragment has at most 16 registers");
    return {};
  }
  return elements;
}

llvm::Value* slot_pointer(FunctionLowering& fl, llvm::Value* buffer, uint32_t slot) {
  return fl.b.CreateConstGEP1_32(fl.b.getInt64Ty(), buffer, slot);
}

// One register's bits (an immediate's, or 0 for a sink), zero-extended, into a slot.
void store_slot(FunctionLowering& fl, llvm::Value* buffer, uint32_t slot, const ptx::Operand& op) {
  auto& b = fl.b;
  llvm::Value* bits = op.kind == ptx::Operand::Kind::Register    ? fl.read_register_bits(op.reg)
                      : op.kind == ptx::Operand::Kind::Immediate ? b.getInt64(op.imm)
                                                                 : b.getInt64(0);
  b.CreateStore(fl.resize_int(bits, 64, false), slot_pointer(fl, buffer, slot));
}

// A register from a slot (nothing for a sink).
void load_slot(FunctionLowering& fl, llvm::Value* buffer, uint32_t slot, const ptx::Operand& op) {
  if (op.kind != ptx::Operand::Kind::Register) return;
  llvm::Value* bits = fl.b.CreateLoad(fl.b.getInt64Ty(), slot_pointer(fl, buffer, slot));
  fl.write_register_bits(op.reg, fl.resize_int(bits, fl.register_bits(op.reg), false));
}

// The function's one entry alloca named `name`: shared by all its tensor-core instructions,
// so that a kernel with thousands of them keeps a small frame.
llvm::Value* shared_entry_alloca(FunctionLowering& fl, llvm::Type* type, const char* name) {
  for (llvm::Instruction& i : fl.llvm_fn->getEntryBlock()) {
    if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i); a != nullptr && a->getName() == name) return a;
  }
  return fl.entry_alloca(type, 8, name);
}

// The lane's buffer (kMatrixSlots slots).
llvm::Value* lane_buffer(FunctionLowering& fl) {
  return shared_entry_alloca(fl, llvm::ArrayType::get(fl.b.getInt64Ty(), kMatrixSlots), "matrix.lane");
}

// Fails unless a fragment has `expected` registers.
bool expect_registers(FunctionLowering& fl, const std::vector<const ptx::Operand*>& registers, size_t expected,
                      const char* which) {
  if (registers.size() == expected) return true;
  fl.fail(fmt::format("the {} fragment of this form has {} registers", which, expected));
  return false;
}

// Registers of an operand's fragment: its elements per lane over the elements a register
// holds; wmma's f16 A and B fragments are always eight registers, whatever their share of
// the matrix (PTX ISA 9.0 §9.7.14.4.1), so they hold elements more than once.
size_t fragment_registers(const MatrixForm& form, MatrixOperand operand, Type type, bool is_wmma) {
  if (is_wmma && type == Type::F16 && operand != MatrixOperand::C) return 8;
  const size_t elements = product_elements_per_lane(form, operand);
  return std::max<size_t>(1, elements / elements_per_register(type));
}

bool is_f16_pair_input(Type d, Type c) {
  return (d == Type::F16 || d == Type::F32) && (c == Type::F16 || c == Type::F32);
}

// The forms cucpu computes: the element types of A/B and C/D, by shape (PTX ISA 9.0
// §9.7.14.4.1 and §9.7.14.5.1).
bool valid_product(ptx::Shape shape, const MatrixForm& f) {
  using S = ptx::Shape;
  const bool float_acc = (f.d == Type::F32 || f.d == Type::F16) && (f.c == Type::F32 || f.c == Type::F16);
  const bool f32_acc = f.d == Type::F32 && f.c == Type::F32;
  const bool int_acc = f.d == Type::S32 && f.c == Type::S32;
  const bool int8 = (f.a == Type::S8 || f.a == Type::U8) && (f.b == Type::S8 || f.b == Type::U8);
  const bool int4 = (f.a == Type::S4 || f.a == Type::U4) && (f.b == Type::S4 || f.b == Type::U4);
  const bool fp8 = (f.a == Type::E4m3 || f.a == Type::E5m2) && (f.b == Type::E4m3 || f.b == Type::E5m2);
  const bool f16 = f.a == Type::F16 && f.b == Type::F16, bf16 = f.a == Type::BF16 && f.b == Type::BF16;
  const bool tf32 = f.a == Type::TF32 && f.b == Type::TF32, b1 = f.a == Type::B1 && f.b == Type::B1;
  const bool f64 = f.a == Type::F64 && f.b == Type::F64 && f.c == Type::F64 && f.d == Type::F64;
  switch (shape) {
    case S::M16n16k16:
    case S::M32n8k16:
    case S::M8n32k16:
      return (f16 && float_acc) || (bf16 && f32_acc) || (int8 && int_acc);
    case S::M16n16k8:
      return tf32 && f32_acc;
    case S::M8n8k4:  // ptxas: ".dtype must be '.f32' when .ctype is '.f32'"
      return f64 || (f16 && float_acc && !(f.c == Type::F32 && f.d == Type::F16));
    case S::M8n8k16:
      return int8 && int_acc;
    case S::M8n8k32:
      return int4 && int_acc;
    case S::M8n8k128:
    case S::M16n8k128:
    case S::M16n8k256:
      return (b1 && int_acc) || (shape == S::M16n8k128 && int4 && int_acc);
    case S::M16n8k4:
      return (tf32 && f32_acc) || f64;
    case S::M16n8k8:
      return (f16 && float_acc) || (bf16 && f32_acc) || (tf32 && f32_acc) || f64;
    case S::M16n8k16:
      return (f16 && float_acc) || (bf16 && f32_acc) || (int8 && int_acc) || f64;
    case S::M16n8k32:
      return (int8 && int_acc) || (int4 && int_acc) || (fp8 && float_acc);
    case S::M16n8k64:
      return int4 && int_acc;
    default:
      return false;
  }
}

// Each register of a fragment to slots first, first + 1, ... (of step.offered or step.results).
void in_slots(std::vector<std::pair<uint32_t, const ptx::Operand*>>& slots, uint32_t first,
              const std::vector<const ptx::Operand*>& registers) {
  for (size_t i = 0; i < registers.size(); ++i) slots.emplace_back(first + static_cast<uint32_t>(i), registers[i]);
}

// wmma.mma / mma.sync d, a, b, c.
bool describe_product(FunctionLowering& fl, const ptx::Instruction& inst, bool is_wmma, WarpStepOperands& step) {
  const ptx::Qualifiers& q = inst.q;
  if (!fl.expect_operands(inst, 4)) return false;
  MatrixForm form;
  form.shape = q.shape;
  form.satfinite = q.satfinite;
  form.bit_op = q.bool_op;
  if (q.b_type == Type::None) {  // wmma .dtype.ctype: f16 inputs
    if (!is_wmma || !is_f16_pair_input(q.type, q.src_type)) {
      fl.fail("expected the types d.a.b.c (or wmma's d.c with f16 inputs)");
      return false;
    }
    form.a = form.b = Type::F16;
    form.d = q.type;
    form.c = q.src_type;
  } else {
    form.d = q.type;
    form.a = q.src_type;
    form.b = q.b_type;
    form.c = q.c_type;
  }
  if (!valid_product(q.shape, form) || (is_wmma && is_quad_pair_form(form))) {
    fl.fail("this shape and combination of types is not a tensor-core product of sm_90");
    return false;
  }
  if ((form.a == Type::B1) != (form.bit_op != ptx::BoolOp::None) || form.bit_op == ptx::BoolOp::Or) {
    fl.fail(".b1 products take .xor.popc or .and.popc, and only they do");
    return false;
  }
  if (!is_wmma && is_quad_pair_form(form)) {
    // The quad-pair form takes any layouts of A and B, and its fragments follow them.
    if (q.layout == ptx::Layout::None || q.layout_b == ptx::Layout::None) {
      fl.fail("mma.m8n8k4 with .f16 names the layouts of A and B (.row or .col each)");
      return false;
    }
    form.a_column_major = q.layout == ptx::Layout::Col;
    form.b_column_major = q.layout_b == ptx::Layout::Col;
  } else if (!is_wmma && (q.layout != ptx::Layout::Row || q.layout_b != ptx::Layout::Col) &&
             !(form.a == Type::F64 && q.shape == ptx::Shape::M8n8k4)) {
    fl.fail("mma.sync takes .row.col");
    return false;
  }
  if (is_wmma && (q.layout == ptx::Layout::None || q.layout_b == ptx::Layout::None)) {
    fl.fail("wmma.mma names the layouts of A and B");
    return false;
  }
  auto d = vector_elements(fl, inst.operands[0]);
  auto a = vector_elements(fl, inst.operands[1]);
  auto b = vector_elements(fl, inst.operands[2]);
  auto c = vector_elements(fl, inst.operands[3]);
  if (fl.failed() || !expect_registers(fl, a, fragment_registers(form, MatrixOperand::A, form.a, is_wmma), "A") ||
      !expect_registers(fl, b, fragment_registers(form, MatrixOperand::B, form.b, is_wmma), "B") ||
      !expect_registers(fl, c, fragment_registers(form, MatrixOperand::C, form.c, is_wmma), "C") ||
      !expect_registers(fl, d, fragment_registers(form, MatrixOperand::C, form.d, is_wmma), "D")) {
    return false;
  }
  in_slots(step.offered, kSlotA, a);
  in_slots(step.offered, kSlotB, b);
  in_slots(step.offered, kSlotC, c);
  const uint64_t encoded = encode(form);
  step.constants.emplace_back(kSlotForm, encoded);
  step.helper = "__cucpu_jit_mma";
  step.operation = static_cast<uint32_t>(encoded);
  in_slots(step.results, kSlotD, d);
  return true;
}

// wmma.load.{a,b,c} r, [p]{, stride} / wmma.store.d [p], r{, stride}: each lane moves its
// own elements (no lane waits for another): slot 0 its address, 1 its stride, 2 the form,
// 3 the number of registers | 1 << 32 for a store, 4... the registers.
bool describe_wmma_memory(FunctionLowering& fl, const ptx::Instruction& inst, WarpStepOperands& step) {
  const ptx::Qualifiers& q = inst.q;
  const bool load = q.operation == ptx::Operation::Load;
  if (inst.operands.size() != 2 && inst.operands.size() != 3) {
    fl.fail(load ? "expected the fragment, [address] and an optional stride"
                 : "expected [address], the fragment and an optional stride");
    return false;
  }
  MatrixForm form;
  form.shape = q.shape;
  form.a = q.type;
  form.column_major = q.layout == ptx::Layout::Col;
  switch (q.fragment) {
    case ptx::Fragment::A: form.operand = MatrixOperand::A; break;
    case ptx::Fragment::B: form.operand = MatrixOperand::B; break;
    case ptx::Fragment::C:
    case ptx::Fragment::D: form.operand = MatrixOperand::C; break;
    default: fl.fail("wmma.load/store names its matrix (.a, .b, .c or .d)"); return false;
  }
  if (load == (q.fragment == ptx::Fragment::D) || q.layout == ptx::Layout::None) {
    fl.fail(load ? "wmma.load takes .a, .b or .c and a layout" : "wmma.store takes .d and a layout");
    return false;
  }
  const MatrixDims dims = matrix_dims(q.shape);
  if (dims.m == 0 || q.type == Type::None) {
    fl.fail("wmma needs an m-n-k shape and a type");
    return false;
  }
  auto registers = vector_elements(fl, inst.operands[load ? 0 : 1]);
  if (fl.failed() || !expect_registers(fl, registers, fragment_registers(form, form.operand, q.type, true), "memory"))
    return false;
  step.helper = "__cucpu_jit_wmma_memory";
  step.meets = false;
  step.address = &inst.operands[load ? 1 : 0];
  step.space = q.space;
  if (inst.operands.size() == 3) {
    step.offered.emplace_back(1, &inst.operands[2]);
  } else {  // without a stride, rows (or columns) follow each other: the leading dimension
    const MatrixPosition size = operand_size(dims, form.operand);
    step.constants.emplace_back(1, form.column_major ? size.row : size.col);
  }
  step.constants.emplace_back(2, encode(form));
  step.constants.emplace_back(3, registers.size() | uint64_t{load ? 0u : 1u} << 32);
  if (load) {
    in_slots(step.results, 4, registers);
  } else {
    in_slots(step.offered, 4, registers);
  }
  return true;
}

// ldmatrix / stmatrix / movmatrix on .m8n8 .b16 matrices.
bool describe_matrix_move(FunctionLowering& fl, const ptx::Instruction& inst, WarpStepOperands& step) {
  const ptx::Qualifiers& q = inst.q;
  if (q.shape != ptx::Shape::M8n8 || (q.type != Type::B16 && q.type != Type::None)) {
    fl.fail(fmt::format("{} supports .m8n8 .b16 matrices only", ptx::spelling(inst.opcode)));
    return false;
  }
  const bool move = inst.opcode == ptx::Opcode::Movmatrix;
  const uint32_t kind = inst.opcode == ptx::Opcode::Ldmatrix ? 0 : inst.opcode == ptx::Opcode::Stmatrix ? 1 : 2;
  const uint32_t matrices = move ? 1 : q.matrices;
  if (!fl.expect_operands(inst, 2)) return false;
  if (matrices != 1 && matrices != 2 && matrices != 4) {
    fl.fail("expected .x1, .x2 or .x4");
    return false;
  }
  if (move && !q.trans) {
    fl.fail("movmatrix takes .trans");
    return false;
  }
  const uint32_t flags = matrices | (q.trans ? 1u << 8 : 0) | kind << 16;
  step.constants.emplace_back(1, flags);
  step.helper = "__cucpu_jit_matrix_move";
  step.operation = flags;
  if (move) {
    in_slots(step.offered, 2, vector_elements(fl, inst.operands[1]));
    in_slots(step.results, 3, vector_elements(fl, inst.operands[0]));
    return !fl.failed();
  }
  auto registers = vector_elements(fl, inst.operands[kind == 0 ? 0 : 1]);
  if (registers.size() != matrices) {
    fl.fail(fmt::format("expected {} registers", matrices));
    return false;
  }
  step.address = &inst.operands[kind == 0 ? 1 : 0];
  step.space = q.space;
  if (kind == 1) in_slots(step.offered, 2, registers);
  if (kind == 0) in_slots(step.results, 2, registers);
  return !fl.failed();
}

// A warp step on fibers: the lane's buffer filled, the lanes meet in __cucpu_warp_step,
// which runs the helper once with every lane's buffer (or, for a step whose lanes do not
// meet, the lane runs it for itself), and the lane's results read back.
void lower_warp_step(FunctionLowering& fl, const ptx::Instruction& inst) {
  WarpStepOperands step;
  if (!describe_warp_step(fl, inst, step)) return;
  auto& b = fl.b;
  llvm::Value* buffer = lane_buffer(fl);
  for (const auto& [slot, value] : step.constants) b.CreateStore(b.getInt64(value), slot_pointer(fl, buffer, slot));
  for (const auto& [slot, op] : step.offered) store_slot(fl, buffer, slot, *op);
  if (step.address != nullptr) {
    llvm::Value* address = fl.address(*step.address, step.space);
    if (fl.failed()) return;
    b.CreateStore(b.CreatePtrToInt(address, b.getInt64Ty()), slot_pointer(fl, buffer, 0));
  }
  llvm::Type* step_args[] = {fl.ptr_type(), b.getInt32Ty(), b.getInt32Ty()};
  llvm::FunctionCallee helper = fl.runtime_function(step.helper, b.getVoidTy(), step_args);
  if (!step.meets) {  // the helper, for this lane alone
    llvm::Value* lane = fl.special_register(ptx::SpecialRegister::Laneid, 0);
    llvm::Value* lanes = shared_entry_alloca(fl, llvm::ArrayType::get(fl.ptr_type(), kWarpLanes), "matrix.lanes");
    b.CreateStore(buffer, b.CreateGEP(fl.ptr_type(), lanes, lane));
    b.CreateCall(helper, {lanes, b.CreateShl(b.getInt32(1), lane), b.getInt32(1)});
  } else {
    llvm::Type* args[] = {fl.ptr_type(), b.getInt32Ty(), fl.ptr_type(), fl.ptr_type(), b.getInt32Ty()};
    b.CreateCall(fl.runtime_function(kWarpStep, b.getVoidTy(), args),
                 {fl.thread_context, b.getInt32(0xffffffffu), buffer, helper.getCallee(), b.getInt32(step.operation)});
    fl.waits_for_other_threads = true;
  }
  for (const auto& [slot, op] : step.results) load_slot(fl, buffer, slot, *op);
}

}  // namespace

bool lower_tensor_core(FunctionLowering& fl, const ptx::Instruction& inst) {
  if (!is_warp_step(inst)) return false;
  lower_warp_step(fl, inst);
  return true;
}

bool is_warp_step(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case ptx::Opcode::Wmma:
    case ptx::Opcode::Mma:
    case ptx::Opcode::Ldmatrix:
    case ptx::Opcode::Stmatrix:
    case ptx::Opcode::Movmatrix: return true;
    default: return false;
  }
}

bool describe_warp_step(FunctionLowering& fl, const ptx::Instruction& inst, WarpStepOperands& step) {
  if (!is_warp_step(inst)) {
    fl.fail("not a tensor-core warp step");
    return false;
  }
  if (!inst.q.sync || !inst.q.aligned) {
    fl.fail(fmt::format("{} is .sync.aligned", ptx::spelling(inst.opcode)));
    return false;
  }
  switch (inst.opcode) {
    case ptx::Opcode::Wmma:
      switch (inst.q.operation) {
        case ptx::Operation::Load:
        case ptx::Operation::Store: return describe_wmma_memory(fl, inst, step);
        case ptx::Operation::Mma: return describe_product(fl, inst, true, step);
        default: fl.fail("wmma needs .load, .store or .mma"); return false;
      }
    case ptx::Opcode::Mma: return describe_product(fl, inst, false, step);
    default: return describe_matrix_move(fl, inst, step);
  }
}

}  // namespace cucpu::jit
