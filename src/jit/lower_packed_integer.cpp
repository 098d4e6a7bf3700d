// Packed 16-bit integer arithmetic (PTX ISA 9.0 §9.7.1): add, min and max (.relu on .s16x2)
// on .u16x2/.s16x2, each half-word of the .b32 operands on its own, as one <2 x i16> vector
// operation. ptxas takes no other opcode, .sat or .cc on these types.
#include <fmt/format.h>
#include <llvm/IR/Intrinsics.h>

#include "jit/function_lowering.h"

namespace cucpu::jit {

bool lower_packed_integer(FunctionLowering& fl, const ptx::Instruction& inst) {
  const ptx::Type type = inst.q.type;
  if (!ptx::is_packed_int(type)) return false;
  auto& b = fl.b;
  const bool is_signed = type == ptx::Type::S16x2;
  const ptx::Opcode opcode = inst.opcode;
  if (opcode != ptx::Opcode::Add && opcode != ptx::Opcode::Min && opcode != ptx::Opcode::Max) {
    fl.fail(fmt::format("{} is an instruction of add, min and max only", ptx::spelling(type)));
    return true;
  }
  if (inst.q.sat || inst.q.carry || (inst.q.relu && (opcode == ptx::Opcode::Add || !is_signed))) {
    fl.fail("takes none of these qualifiers (.relu only on min/max.s16x2)");
    return true;
  }
  if (!fl.expect_operands(inst, 3)) return true;
  llvm::Type* pair = llvm::FixedVectorType::get(b.getInt16Ty(), 2);
  llvm::Value* x = b.CreateBitCast(fl.read(inst.operands[1], ptx::Type::B32), pair);
  llvm::Value* y = b.CreateBitCast(fl.read(inst.operands[2], ptx::Type::B32), pair);
  llvm::Value* result = nullptr;
  if (opcode == ptx::Opcode::Add) {
    result = b.CreateAdd(x, y);
  } else {
    const bool min = opcode == ptx::Opcode::Min;
    const llvm::Intrinsic::ID id = min ? (is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin)
                                       : (is_signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax);
    result = b.CreateBinaryIntrinsic(id, x, y);
    if (inst.q.relu)
      result = b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, result, llvm::Constant::getNullValue(pair));
  }
  fl.write(inst.operands[0], ptx::Type::B32, b.CreateBitCast(result, b.getInt32Ty()));
  return true;
}

}  // namespace cucpu::jit
