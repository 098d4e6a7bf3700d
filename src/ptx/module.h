// ptx::Module: the parsed and checked form of one PTX text.
//
// Spellings become meanings once, in the parser: `.rn` is Rounding::NearestEven,
// `%tid.x` is SpecialRegister::Tid with component 0, `%r5` is register number 5 of
// its function. The printer, the checks and the JIT read only these meanings.
// The opcodes and qualifiers are the tables in opcodes.def and qualifiers.def.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cucpu::ptx {

// A position in the PTX text (1-based), for diagnostics.
struct SourcePos {
  uint32_t line = 0;
  uint32_t col = 0;
};

// A position in the CUDA source, from `.loc file line col` (file 0 = unknown).
struct DebugLoc {
  uint32_t file = 0;
  uint32_t line = 0;
};

enum class Type : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  // Narrow formats of tensor-core operands and conversions (PTX ISA 9.0 §5.2.5): 1- and
  // 4-bit integers, fp8 (e4m3, e5m2), fp6 (e2m3, e3m2), fp4 (e2m1), the ue8m0 scale, and
  // their packed pairs.
  B1, U4, S4,
  E4m3, E5m2, E2m3, E3m2, E2m1, Ue8m0,
  E4m3x2, E5m2x2, E2m3x2, E3m2x2, E2m1x2, Ue8m0x2,
  // Two 16-bit integers in a .b32 (add/min/max .u16x2 .s16x2, PTX ISA 9.0 §9.7.1).
  U16x2, S16x2,
};

unsigned bit_width(Type type);     // Pred: 1; None: 0
bool is_signed_int(Type type);     // S8..S64
bool is_unsigned_int(Type type);   // U8..U64
bool is_bits(Type type);           // B8..B128
bool is_integer(Type type);        // signed, unsigned or bits: what integer arithmetic takes
bool is_float(Type type);          // F16..F64 (incl. packed and TF32)
bool is_narrow_float(Type type);   // E4m3..Ue8m0x2 (fp8/fp6/fp4/ue8m0, single or packed)
bool is_packed_int(Type type);     // U16x2, S16x2
const char* spelling(Type type);   // ".u32"

enum class StateSpace : uint8_t {
  Generic,  // no space named: generic addressing
  Reg,
  SReg,
  Const,
  Global,
  Local,
  Param,
  Shared,         // .shared / .shared::cta
  SharedCluster,  // .shared::cluster
  Tex,
};
const char* spelling(StateSpace space);  // ".global"; "" for Generic

enum class SpecialRegister : uint8_t {
#define PTX_SREG(name, spelling, components) name,
#include "ptx/special_registers.def"
};
const char* spelling(SpecialRegister sreg);  // "%tid"

// Qualifier enums. The values and their spellings are listed in qualifiers.def.
#define PTX_QUALIFIER_GROUP(Group) enum class Group : uint8_t { None,
#define PTX_QUALIFIER(Group, Name, spelling) Name,
#define PTX_QUALIFIER_GROUP_END(Group) };
#include "ptx/qualifiers.def"

// ".rn" for Rounding::NearestEven; "" for None. (Scope::Gpu on membar is spelled ".gl".)
#define PTX_QUALIFIER_GROUP(Group) const char* spelling(Group value);
#define PTX_QUALIFIER(Group, Name, spelling)
#include "ptx/qualifiers.def"

// The qualifiers of one instruction, as meanings. Fields an opcode does not take stay
// at their defaults; the parser rejects qualifiers an opcode does not accept.
struct Qualifiers {
  Type type = Type::None;        // the (destination) type: add.s32, cvt.f32.s32 -> F32
  Type src_type = Type::None;    // a second type: cvt.f32.s32 -> S32, set.u32.f32, mul.wide source
  StateSpace space = StateSpace::Generic;  // ld/st/atom/red/cvta/isspacep
  bool to_space = false;         // cvta.to.global
  Rounding rounding = Rounding::None;
  MulMode mul_mode = MulMode::None;        // .lo .hi .wide
  Compare compare = Compare::None;         // setp/set comparison
  BoolOp bool_op = BoolOp::None;           // setp.and / .or / .xor combining
  AtomicOp atomic_op = AtomicOp::None;     // atom/red/redux/bar.red operation
  BarrierMode barrier = BarrierMode::None; // bar.sync / .arrive / .red
  ShuffleMode shuffle = ShuffleMode::None; // shfl .up .down .bfly .idx
  VoteMode vote = VoteMode::None;          // vote .all .any .uni .ballot
  Semantics sem = Semantics::None;         // .relaxed .acquire .release .acq_rel .sc .volatile
  Scope scope = Scope::None;               // .cta .cluster .gpu .sys
  Operation operation = Operation::None;   // testp property, prmt mode, bfind.shiftamt, griddepcontrol,
                                           // cp.async / mbarrier / wmma operation
  // Tensor-core operands (wmma, mma, ldmatrix, stmatrix, movmatrix). mma.sync's four types
  // d.a.b.c are type, src_type, b_type, c_type; wmma.mma's two (d.c) are type, src_type.
  // Video instructions' three types d.a.b (vadd4.s32.u32.s32) are type, src_type, b_type;
  // vset's two, a.b, are type and src_type.
  Type b_type = Type::None;
  Type c_type = Type::None;
  SecondaryOp secondary = SecondaryOp::None;  // video .add (accumulate), .min, .max
  Shape shape = Shape::None;
  Fragment fragment = Fragment::None;  // wmma.load.a ... wmma.store.d
  Layout layout = Layout::None;        // wmma.load/store: memory layout; wmma/mma.mma: A's layout
  Layout layout_b = Layout::None;      // wmma/mma.mma: B's layout
  uint8_t matrices = 0;                // ldmatrix/stmatrix .x1 .x2 .x4
  bool trans = false;                  // ldmatrix/stmatrix/movmatrix .trans
  bool satfinite = false;              // cvt / mma / wmma .satfinite
  // cp.async / cp.async.bulk and mbarrier (PTX ISA 9.0 §9.7.9.25, §9.7.13.15).
  StateSpace src_space = StateSpace::Generic;  // cp: the source space (space is the destination)
  bool async = false;        // cp.async
  bool bulk = false;         // cp.async.bulk
  bool on_mbarrier = false;  // cp.async.mbarrier.arrive
  bool noinc = false;        // cp.async.mbarrier.arrive.noinc
  bool complete_tx = false;  // cp.async.bulk completion .mbarrier::complete_tx::bytes
  bool bulk_group = false;   // cp.async.bulk completion .bulk_group
  bool multicast = false;    // cp.async.bulk .multicast::cluster
  bool read_only = false;    // cp.async.bulk.wait_group.read
  bool tensor = false;       // cp{.reduce}.async.bulk{.prefetch}.tensor
  uint8_t tensor_rank = 0;   // its .1d to .5d: 1 to 5
  bool im2col = false;       // ... .tensor .im2col load mode (else .tile)
  Proxy proxy = Proxy::None; // fence.proxy.<kind>; the .async space is in `space`
  bool expect_tx = false;    // mbarrier.arrive.expect_tx / arrive_drop.expect_tx
  bool no_complete = false;  // mbarrier.arrive.noComplete
  bool parity = false;       // mbarrier.test_wait/try_wait.parity
  uint8_t vector = 1;                      // .v2 .v4 .v8: elements per access
  bool ftz = false;
  bool sat = false;
  bool approx = false;
  bool full = false;
  bool carry = false;      // .cc on add/sub/mad
  bool uni = false;        // bra.uni / call.uni
  bool sync = false;       // .sync on shfl/vote/redux/match/elect; bar.warp.sync is Bar with
                           // sync set and barrier None
  bool aligned = false;    // .aligned on bar/barrier
  bool relu = false;
  bool nan = false;        // .NaN on min/max
  bool xorsign_abs = false; // .xorsign.abs on min/max
  bool shift_left = false; // shf.l (else shf.r)
  bool clamp = false;      // shf .clamp (else .wrap)
  bool nc = false;         // ld.global.nc
  // The qualifier words, in order, of a family parsed but not modelled yet (kWord rows of
  // opcodes.def: tex, suld, wgmma, ...); empty for all others.
  std::vector<Word> words;
};

enum class Opcode : uint16_t {
#define PTX_OPCODE(Name, spelling, groups) Name,
#include "ptx/opcodes.def"
};
const char* spelling(Opcode opcode);  // "add"
bool is_video(Opcode opcode);         // vadd2 ... vset4: may carry lane selectors

// A lane selector written after a register operand of a video instruction (PTX ISA 9.0
// §9.7.17): `.b3210`, `.h10` on a source pick a byte or half-word of the operand pair for
// each result lane; `.b0`, `.h1`, `.b210` on the destination are the lanes it writes.
struct LaneSelector {
  uint8_t lane_bits = 0;            // 8 for `.b...`, 16 for `.h...`; 0: none written
  uint8_t count = 0;                // how many digits
  std::array<uint8_t, 4> digits{};  // as written, leftmost (most significant lane) first
};

struct Operand {
  enum class Kind : uint8_t {
    Register,         // reg: index into Function::registers
    SpecialRegister,  // sreg, component (0..3 = x,y,z,w; 0 for scalar registers)
    Immediate,        // imm: raw bits; imm_is_float says it was written as 0f/0d/float
    Symbol,           // name: a variable, function or label used as a value (its address)
    Address,          // [base + offset]: base is a Register or Symbol operand (or none: [imm]);
                      // texture/surface operands [handle, sampler, {coords}] have more elements
    Vector,           // { elements }: ld.v4 destinations, mov pack/unpack
    Label,            // name: a branch target
    Sink,             // `_`: a destination (or vector element) whose value is discarded
  };
  Kind kind = Kind::Register;
  uint32_t reg = 0;
  SpecialRegister sreg{};
  uint8_t component = 0;
  bool negated = false;  // !%p as a predicate source operand
  uint64_t imm = 0;
  bool imm_is_float = false;
  bool imm_is_double = false;  // 0d... literal
  std::string name;
  int64_t offset = 0;                 // Address displacement
  std::vector<Operand> elements;      // Vector elements; Address: the base (if any), then any
                                      // texture coordinates
  LaneSelector selector;              // Register of a video instruction: `%r1.b3210`
};

struct Guard {
  uint32_t reg = 0;     // a .pred register
  bool negated = false; // @!%p
};

struct Instruction {
  Opcode opcode{};
  Qualifiers q;
  std::optional<Guard> guard;
  // PTX order: destination(s) first. A `d|p` destination pair is two operands (see
  // has_destination_pair). call is always three operands: Vector of return values (maybe
  // empty), target (Symbol or Register), Vector of arguments (maybe empty); the
  // .callprototype / .calltargets operand is dropped (the argument variables carry the
  // signature). brx.idx's table is a Vector of Label operands. An `.L2::cache_hint`
  // qualifier and its cache-policy operand are dropped.
  std::vector<Operand> operands;
  SourcePos pos;
  DebugLoc loc;
};

// True when operands[0] and operands[1] were written `d|p` (setp, shfl, match.all, elect):
// both are destinations. Decided by opcode and operand count, so the IR needs no flag.
bool has_destination_pair(const Instruction& instruction);

// A register (one element of a `.reg .b32 %r<22>;` declaration).
struct Register {
  std::string name;  // "%r5"
  Type type = Type::None;
  uint8_t vector = 1;  // .reg .v4 .f32 %v;
};

// A variable in any state space, module-level or function-local.
struct Variable {
  std::string name;
  StateSpace space = StateSpace::Global;
  Type type = Type::B8;        // element type
  uint8_t vector = 1;          // .v2/.v4 element vectors
  uint32_t align = 0;          // .align N; 0 = natural alignment of the element
  std::vector<uint64_t> dims;  // array dimensions; 0 in the first = unsized (extern .shared x[])
  bool is_extern = false;
  bool is_visible = false;
  bool is_weak = false;
  bool is_common = false;
  std::vector<uint8_t> init;   // initializer bytes (little-endian), empty = none; when present
                               // size_bytes() long: each element at its offset, the rest zero
  // Initializer entries that are addresses of symbols: at byte offset, symbol + addend.
  struct AddressInit {
    uint64_t offset = 0;
    std::string symbol;
    int64_t addend = 0;
    bool generic = false;  // generic(sym)
  };
  std::vector<AddressInit> address_inits;
  SourcePos pos;

  uint64_t element_bytes() const;  // size of one element (type * vector)
  uint64_t size_bytes() const;     // total size; 0 for unsized arrays
  uint32_t alignment() const;      // align, or the element's natural alignment
};

// A kernel or function parameter (.param), or a .func return value.
struct Parameter {
  std::string name;
  Type type = Type::B8;
  uint32_t align = 0;          // .align N (0 = natural)
  uint64_t array_size = 0;     // .b8 p[24] -> 24 elements; 0 = scalar
  bool is_pointer = false;     // .ptr
  StateSpace pointee_space = StateSpace::Generic;  // .ptr.global
  uint32_t pointee_align = 0;
  StateSpace space = StateSpace::Param;  // .param, or .reg for .func register params

  uint64_t size_bytes() const;
  uint32_t alignment() const;
};

// Performance-tuning directives of an entry.
struct Directives {
  uint32_t maxntid[3] = {0, 0, 0};
  uint32_t reqntid[3] = {0, 0, 0};
  uint32_t minnctapersm = 0;
  uint32_t maxnreg = 0;
  uint32_t reqnctapercluster[3] = {0, 0, 0};
  bool explicitcluster = false;
  uint32_t maxclusterrank = 0;
  bool noreturn = false;
};

// One statement of a function body: an instruction or a label.
struct Statement {
  enum class Kind : uint8_t { Instruction, Label };
  Kind kind = Kind::Instruction;
  Instruction instruction;  // Kind::Instruction
  std::string label;        // Kind::Label
  SourcePos pos;
};

struct Function {
  std::string name;
  bool is_entry = false;       // .entry (kernel) or .func
  bool is_visible = false;
  bool is_extern = false;      // declaration only
  bool is_weak = false;
  std::vector<Parameter> params;
  std::vector<Parameter> returns;  // .func (.param .b32 r) name(...)
  Directives directives;
  std::vector<Register> registers;  // .reg parameters first (same names), then the body's
  std::vector<Variable> locals;    // .local/.shared/.param/.const declared in the body
  std::vector<Statement> body;     // flattened: nested { } scopes are renamed apart
  SourcePos pos;
};

struct Module {
  uint32_t version_major = 0, version_minor = 0;  // .version
  std::string target;                             // .target sm_90 (first target)
  std::vector<std::string> target_options;        // texmode_*, debug, ...
  uint32_t address_size = 64;
  std::vector<Variable> variables;  // module scope
  std::vector<Function> functions;  // in text order
  std::vector<std::string> files;   // .file N "name": files[N] (index 0 unused)

  const Function* find_function(const std::string& name) const;
  const Variable* find_variable(const std::string& name) const;
};

}  // namespace cucpu::ptx
