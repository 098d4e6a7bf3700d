// The small helpers of ptx::Module: type widths and classes, the spellings of types,
// spaces, special registers, opcodes and qualifier values (all read from the .def
// tables, so a new row needs no code here), and the sizes and alignments of variables
// and parameters that the JIT lays memory out with.
#include "ptx/module.h"

#include <limits>

namespace cucpu::ptx {

unsigned bit_width(Type type) {
  switch (type) {
    case Type::None:
      return 0;
    case Type::Pred:
      return 1;
    case Type::B1:
      return 1;
    case Type::U4:
    case Type::S4:
    case Type::E2m1:
      return 4;
    case Type::E2m3:
    case Type::E3m2:
      return 6;
    case Type::B8:
    case Type::U8:
    case Type::S8:
    case Type::E4m3:
    case Type::E5m2:
    case Type::Ue8m0:
    case Type::E2m1x2:
      return 8;
    case Type::E4m3x2:
    case Type::E5m2x2:
    case Type::E2m3x2:
    case Type::E3m2x2:
    case Type::Ue8m0x2:
      return 16;
    case Type::B16:
    case Type::U16:
    case Type::S16:
    case Type::F16:
    case Type::BF16:
      return 16;
    case Type::B32:
    case Type::U32:
    case Type::S32:
    case Type::F32:
    case Type::TF32:
    case Type::F16x2:
    case Type::BF16x2:
    case Type::U16x2:
    case Type::S16x2:
      return 32;
    case Type::B64:
    case Type::U64:
    case Type::S64:
    case Type::F64:
      return 64;
    case Type::B128:
      return 128;
  }
  return 0;
}

bool is_signed_int(Type type) { return type >= Type::S8 && type <= Type::S64; }
bool is_unsigned_int(Type type) { return type >= Type::U8 && type <= Type::U64; }
bool is_bits(Type type) { return type >= Type::B8 && type <= Type::B128; }
bool is_integer(Type type) { return is_signed_int(type) || is_unsigned_int(type) || is_bits(type); }
bool is_float(Type type) { return type >= Type::F16 && type <= Type::F64; }
bool is_narrow_float(Type type) { return type >= Type::E4m3 && type <= Type::Ue8m0x2; }
bool is_packed_int(Type type) { return type == Type::U16x2 || type == Type::S16x2; }

const char* spelling(Type type) {
  switch (type) {
    case Type::None:
      return "";
    case Type::Pred:
      return ".pred";
    case Type::B8:
      return ".b8";
    case Type::B16:
      return ".b16";
    case Type::B32:
      return ".b32";
    case Type::B64:
      return ".b64";
    case Type::B128:
      return ".b128";
    case Type::U8:
      return ".u8";
    case Type::U16:
      return ".u16";
    case Type::U32:
      return ".u32";
    case Type::U64:
      return ".u64";
    case Type::S8:
      return ".s8";
    case Type::S16:
      return ".s16";
    case Type::S32:
      return ".s32";
    case Type::S64:
      return ".s64";
    case Type::F16:
      return ".f16";
    case Type::F16x2:
      return ".f16x2";
    case Type::BF16:
      return ".bf16";
    case Type::BF16x2:
      return ".bf16x2";
    case Type::TF32:
      return ".tf32";
    case Type::F32:
      return ".f32";
    case Type::F64:
      return ".f64";
    case Type::B1:
      return ".b1";
    case Type::U4:
      return ".u4";
    case Type::S4:
      return ".s4";
    case Type::E4m3:
      return ".e4m3";
    case Type::E5m2:
      return ".e5m2";
    case Type::E2m3:
      return ".e2m3";
    case Type::E3m2:
      return ".e3m2";
    case Type::E2m1:
      return ".e2m1";
    case Type::Ue8m0:
      return ".ue8m0";
    case Type::E4m3x2:
      return ".e4m3x2";
    case Type::E5m2x2:
      return ".e5m2x2";
    case Type::E2m3x2:
      return ".e2m3x2";
    case Type::E3m2x2:
      return ".e3m2x2";
    case Type::E2m1x2:
      return ".e2m1x2";
    case Type::Ue8m0x2:
      return ".ue8m0x2";
    case Type::U16x2:
      return ".u16x2";
    case Type::S16x2:
      return ".s16x2";
  }
  return "";
}

const char* spelling(StateSpace space) {
  switch (space) {
    case StateSpace::Generic:
      return "";
    case StateSpace::Reg:
      return ".reg";
    case StateSpace::SReg:
      return ".sreg";
    case StateSpace::Const:
      return ".const";
    case StateSpace::Global:
      return ".global";
    case StateSpace::Local:
      return ".local";
    case StateSpace::Param:
      return ".param";
    case StateSpace::Shared:
      return ".shared";
    case StateSpace::SharedCluster:
      return ".shared::cluster";
    case StateSpace::Tex:
      return ".tex";
  }
  return "";
}

const char* spelling(SpecialRegister sreg) {
  switch (sreg) {
#define PTX_SREG(name, text, components) \
  case SpecialRegister::name:            \
    return text;
#include "ptx/special_registers.def"
  }
  return "";
}

const char* spelling(Opcode opcode) {
  switch (opcode) {
#define PTX_OPCODE(Name, text, groups) \
  case Opcode::Name:                   \
    return text;
#include "ptx/opcodes.def"
  }
  return "";
}

bool is_video(Opcode opcode) {
  switch (opcode) {
    case Opcode::Vabsdiff2: case Opcode::Vabsdiff4: case Opcode::Vadd2: case Opcode::Vadd4:
    case Opcode::Vavrg2: case Opcode::Vavrg4: case Opcode::Vmax2: case Opcode::Vmax4:
    case Opcode::Vmin2: case Opcode::Vmin4: case Opcode::Vset2: case Opcode::Vset4:
    case Opcode::Vsub2: case Opcode::Vsub4:
      return true;
    default:
      return false;
  }
}

// One switch per qualifier group, generated from qualifiers.def.
#define PTX_QUALIFIER_GROUP(Group)    \
  const char* spelling(Group value) { \
    switch (value) {                  \
      case Group::None:               \
        return "";
#define PTX_QUALIFIER(Group, Name, text) \
  case Group::Name:                      \
    return text;
#define PTX_QUALIFIER_GROUP_END(Group) \
  }                                    \
  return "";                           \
  }
#include "ptx/qualifiers.def"

bool has_destination_pair(const Instruction& instruction) {
  const size_t count = instruction.operands.size();
  const Qualifiers& q = instruction.q;
  switch (instruction.opcode) {
    case Opcode::Setp:
      return count == (q.bool_op != BoolOp::None ? 5u : 4u);
    case Opcode::Shfl:
      return count == (q.sync ? 6u : 5u);
    case Opcode::Match:
      return q.vote == VoteMode::All && count == 4;
    case Opcode::Elect:
      return count == 3;
    default:
      return false;
  }
}

namespace {

// Bytes of one scalar of `type`; predicates and .b8 occupy one byte.
uint64_t type_bytes(Type type) { return (bit_width(type) + 7) / 8; }

// a * b, or the largest value when the product does not fit (a malformed declaration
// must not wrap around to a small size).
uint64_t saturating_multiply(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a) return std::numeric_limits<uint64_t>::max();
  return a * b;
}

}  // namespace

uint64_t Variable::element_bytes() const { return type_bytes(type) * vector; }

uint64_t Variable::size_bytes() const {
  uint64_t size = element_bytes();
  for (uint64_t dim : dims) size = saturating_multiply(size, dim);
  return size;
}

uint32_t Variable::alignment() const { return align != 0 ? align : static_cast<uint32_t>(element_bytes()); }

uint64_t Parameter::size_bytes() const {
  const uint64_t element = type_bytes(type);
  return array_size != 0 ? saturating_multiply(element, array_size) : element;
}

uint32_t Parameter::alignment() const { return align != 0 ? align : static_cast<uint32_t>(type_bytes(type)); }

const Function* Module::find_function(const std::string& name) const {
  // A declaration and a later definition share one entry (the parser merges them).
  for (const Function& function : functions) {
    if (function.name == name) return &function;
  }
  return nullptr;
}

const Variable* Module::find_variable(const std::string& name) const {
  for (const Variable& variable : variables) {
    if (variable.name == name) return &variable;
  }
  return nullptr;
}

}  // namespace cucpu::ptx
