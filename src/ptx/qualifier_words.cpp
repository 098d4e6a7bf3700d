// The tables that turn spellings into meanings, built once from opcodes.def,
// qualifiers.def and special_registers.def. A qualifier word maps to a list of
// candidates (group, setter); apply_qualifier takes the first candidate whose group the
// opcode accepts, so `.and` is BoolOp::And on setp and AtomicOp::And on atom, and a
// second type word is the source type only where the opcode accepts one (cvt, set).
#include "ptx/qualifier_words.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "ptx/accepted_qualifiers.h"

namespace cucpu::ptx {

namespace accepts {

uint64_t accepted_qualifiers(Opcode opcode) {
  switch (opcode) {
#define PTX_OPCODE(Name, text, groups) \
  case Opcode::Name:                   \
    return groups;
#include "ptx/opcodes.def"
  }
  return 0;
}

}  // namespace accepts

namespace {

using Outcome = QualifierOutcome;
using Setter = Outcome (*)(Qualifiers& q, uint64_t accepted, uint8_t value);

struct Candidate {
  uint64_t group;
  Setter set;
  uint8_t value;
};

// Where each enumerated group lives in Qualifiers.
template <typename Group>
Group Qualifiers::*field_of();
template <>
Rounding Qualifiers::*field_of<Rounding>() {
  return &Qualifiers::rounding;
}
template <>
MulMode Qualifiers::*field_of<MulMode>() {
  return &Qualifiers::mul_mode;
}
template <>
Compare Qualifiers::*field_of<Compare>() {
  return &Qualifiers::compare;
}
template <>
BoolOp Qualifiers::*field_of<BoolOp>() {
  return &Qualifiers::bool_op;
}
template <>
AtomicOp Qualifiers::*field_of<AtomicOp>() {
  return &Qualifiers::atomic_op;
}
template <>
BarrierMode Qualifiers::*field_of<BarrierMode>() {
  return &Qualifiers::barrier;
}
template <>
ShuffleMode Qualifiers::*field_of<ShuffleMode>() {
  return &Qualifiers::shuffle;
}
template <>
VoteMode Qualifiers::*field_of<VoteMode>() {
  return &Qualifiers::vote;
}
template <>
Semantics Qualifiers::*field_of<Semantics>() {
  return &Qualifiers::sem;
}
template <>
Scope Qualifiers::*field_of<Scope>() {
  return &Qualifiers::scope;
}
template <>
Operation Qualifiers::*field_of<Operation>() {
  return &Qualifiers::operation;
}

template <>
SecondaryOp Qualifiers::*field_of<SecondaryOp>() {
  return &Qualifiers::secondary;
}

template <>
Proxy Qualifiers::*field_of<Proxy>() {
  return &Qualifiers::proxy;
}

template <>
Shape Qualifiers::*field_of<Shape>() {
  return &Qualifiers::shape;
}
template <>
Fragment Qualifiers::*field_of<Fragment>() {
  return &Qualifiers::fragment;
}
template <>
Layout Qualifiers::*field_of<Layout>() {
  return &Qualifiers::layout;  // a second layout word goes to layout_b (set_layout)
}

template <typename Group>
Outcome set_group(Qualifiers& q, uint64_t, uint8_t value) {
  Group& field = q.*field_of<Group>();
  if (field != Group::None) return Outcome::Duplicate;
  field = static_cast<Group>(value);
  return Outcome::Applied;
}

// A word of a family not modelled yet: kept in order, repeats included (mma.f32.bf16.bf16.f32).
template <>
Outcome set_group<Word>(Qualifiers& q, uint64_t, uint8_t value) {
  q.words.push_back(static_cast<Word>(value));
  return Outcome::Applied;
}

// Types in order: type, then src_type, then (mma.sync's d.a.b.c) b_type and c_type.
Outcome set_type(Qualifiers& q, uint64_t accepted, uint8_t value) {
  const bool matrix = (accepted & accepts::kMatrixTypes) != 0;
  if (q.type == Type::None) {
    q.type = static_cast<Type>(value);
  } else if ((accepted & accepts::kSrcType) && q.src_type == Type::None) {
    q.src_type = static_cast<Type>(value);
  } else if ((matrix || (accepted & accepts::kThirdType)) && q.b_type == Type::None) {
    q.b_type = static_cast<Type>(value);
  } else if (matrix && q.c_type == Type::None) {
    q.c_type = static_cast<Type>(value);
  } else {
    return Outcome::Duplicate;
  }
  return Outcome::Applied;
}

// A first space is the (destination) space; cp's second is its source space.
Outcome set_space(Qualifiers& q, uint64_t accepted, uint8_t value) {
  if (q.space == StateSpace::Generic) {
    q.space = static_cast<StateSpace>(value);
  } else if ((accepted & accepts::kSrcSpace) && q.src_space == StateSpace::Generic) {
    q.src_space = static_cast<StateSpace>(value);
  } else {
    return Outcome::Duplicate;
  }
  return Outcome::Applied;
}

// wmma/mma `.row.col`: the second layout word is B's (the first, A's or the memory's of
// wmma.load/store, went to Qualifiers::layout).
Outcome set_layout_b(Qualifiers& q, uint64_t, uint8_t value) {
  if (q.layout_b != Layout::None) return Outcome::Duplicate;
  q.layout_b = static_cast<Layout>(value);
  return Outcome::Applied;
}

Outcome set_matrices(Qualifiers& q, uint64_t, uint8_t value) {
  if (q.matrices != 0) return Outcome::Duplicate;
  q.matrices = value;
  return Outcome::Applied;
}

// mbarrier.arrive.expect_tx / arrive_drop.expect_tx: a modifier of the arrival. (Alone,
// `.expect_tx` is the operation: Operation::ExpectTx, tried first.)
Outcome set_arrive_expect_tx(Qualifiers& q, uint64_t, uint8_t) {
  if (q.expect_tx || (q.operation != Operation::Arrive && q.operation != Operation::ArriveDrop))
    return Outcome::Duplicate;
  q.expect_tx = true;
  return Outcome::Applied;
}

// cp...tensor.1d to .5d: only after .tensor.
Outcome set_tensor_rank(Qualifiers& q, uint64_t, uint8_t value) {
  if (!q.tensor || q.tensor_rank != 0) return Outcome::Duplicate;
  q.tensor_rank = value;
  return Outcome::Applied;
}

Outcome set_vector(Qualifiers& q, uint64_t, uint8_t value) {
  if (q.vector != 1) return Outcome::Duplicate;
  q.vector = value;
  return Outcome::Applied;
}

template <bool Qualifiers::*Flag, bool Value>
Outcome set_flag(Qualifiers& q, uint64_t, uint8_t) {
  if constexpr (Value) {
    if (q.*Flag) return Outcome::Duplicate;
  }
  q.*Flag = Value;
  return Outcome::Applied;
}

// ld/st.mmio.relaxed.sys: `.mmio` set Semantics::MmioRelaxed, whose spelling goes on with
// `.relaxed` (PTX ISA 9.0 "ld"); anywhere else a second order is a conflict.
Outcome relaxed_after_mmio(Qualifiers& q, uint64_t, uint8_t) {
  return q.sem == Semantics::MmioRelaxed ? Outcome::Dropped : Outcome::Duplicate;
}

Outcome drop(Qualifiers&, uint64_t, uint8_t) { return Outcome::Dropped; }
Outcome cache_hint(Qualifiers&, uint64_t, uint8_t) { return Outcome::CacheHint; }

using WordTable = std::unordered_map<std::string_view, std::vector<Candidate>>;

void add_types(WordTable& table) {
  static constexpr Type kTypes[] = {Type::Pred, Type::B8,  Type::B16, Type::B32,   Type::B64,  Type::B128,
                                    Type::U8,   Type::U16, Type::U32, Type::U64,   Type::S8,   Type::S16,
                                    Type::S32,  Type::S64, Type::F16, Type::F16x2, Type::BF16, Type::BF16x2,
                                    Type::TF32, Type::F32, Type::F64, Type::B1, Type::U4, Type::S4,
                                    Type::E4m3, Type::E5m2, Type::E2m3, Type::E3m2, Type::E2m1, Type::Ue8m0,
                                    Type::E4m3x2, Type::E5m2x2, Type::E2m3x2, Type::E3m2x2, Type::E2m1x2,
                                    Type::Ue8m0x2, Type::U16x2, Type::S16x2};
  for (Type type : kTypes) table[spelling(type)].push_back({accepts::kType, set_type, static_cast<uint8_t>(type)});
}

void add_spaces(WordTable& table) {
  const std::pair<std::string_view, StateSpace> spaces[] = {
      {".global", StateSpace::Global},      {".shared", StateSpace::Shared},
      {".shared::cta", StateSpace::Shared}, {".shared::cluster", StateSpace::SharedCluster},
      {".local", StateSpace::Local},        {".param", StateSpace::Param},
      {".param::entry", StateSpace::Param}, {".param::func", StateSpace::Param},
      {".const", StateSpace::Const},        {".tex", StateSpace::Tex}};
  for (const auto& [word, space] : spaces) {
    table[word].push_back({accepts::kSpace, set_space, static_cast<uint8_t>(space)});
  }
}

void add_groups(WordTable& table) {
#define PTX_QUALIFIER(Group, Name, text) \
  table[text].push_back({accepts::k##Group, set_group<Group>, static_cast<uint8_t>(Group::Name)});
#include "ptx/qualifiers.def"
  table[".row"].push_back({accepts::kLayout, set_layout_b, static_cast<uint8_t>(Layout::Row)});
  table[".col"].push_back({accepts::kLayout, set_layout_b, static_cast<uint8_t>(Layout::Col)});
  // membar spells the GPU scope `.gl` (PTX ISA 9.0 §9.7.13.4).
  table[".gl"].push_back({accepts::kScope, set_group<Scope>, static_cast<uint8_t>(Scope::Gpu)});
}

void add_flags(WordTable& table) {
  using namespace accepts;
  table[".to"].push_back({kTo, set_flag<&Qualifiers::to_space, true>, 0});
  table[".v2"].push_back({kVector, set_vector, 2});
  table[".v4"].push_back({kVector, set_vector, 4});
  table[".v8"].push_back({kVector, set_vector, 8});
  table[".ftz"].push_back({kFtz, set_flag<&Qualifiers::ftz, true>, 0});
  table[".sat"].push_back({kSat, set_flag<&Qualifiers::sat, true>, 0});
  table[".approx"].push_back({kApprox, set_flag<&Qualifiers::approx, true>, 0});
  table[".full"].push_back({kFull, set_flag<&Qualifiers::full, true>, 0});
  table[".cc"].push_back({kCarry, set_flag<&Qualifiers::carry, true>, 0});
  table[".uni"].push_back({kUni, set_flag<&Qualifiers::uni, true>, 0});
  table[".sync"].push_back({kSync, set_flag<&Qualifiers::sync, true>, 0});
  table[".aligned"].push_back({kAligned, set_flag<&Qualifiers::aligned, true>, 0});
  table[".relu"].push_back({kRelu, set_flag<&Qualifiers::relu, true>, 0});
  table[".NaN"].push_back({kNan, set_flag<&Qualifiers::nan, true>, 0});
  table[".xorsign"].push_back({kXorsign, set_flag<&Qualifiers::xorsign_abs, true>, 0});
  table[".abs"].push_back({kXorsign, drop, 0});  // only after .xorsign
  table[".l"].push_back({kShift, set_flag<&Qualifiers::shift_left, true>, 0});
  table[".r"].push_back({kShift, set_flag<&Qualifiers::shift_left, false>, 0});
  table[".clamp"].push_back({kClamp, set_flag<&Qualifiers::clamp, true>, 0});
  table[".wrap"].push_back({kClamp, set_flag<&Qualifiers::clamp, false>, 0});
  table[".nc"].push_back({kNc, set_flag<&Qualifiers::nc, true>, 0});
  table[".noftz"].push_back({kNoftz, drop, 0});
  table[".idx"].push_back({kIdx, drop, 0});
  table[".x1"].push_back({kMatrixCount, set_matrices, 1});
  table[".x2"].push_back({kMatrixCount, set_matrices, 2});
  table[".x4"].push_back({kMatrixCount, set_matrices, 4});
  table[".trans"].push_back({kTrans, set_flag<&Qualifiers::trans, true>, 0});
  table[".satfinite"].push_back({kSatfinite, set_flag<&Qualifiers::satfinite, true>, 0});
  table[".popc"].push_back({kPopc, drop, 0});  // only after .xor / .and
  table[".async"].push_back({kAsyncCopy, set_flag<&Qualifiers::async, true>, 0});
  table[".bulk"].push_back({kAsyncCopy, set_flag<&Qualifiers::bulk, true>, 0});
  table[".mbarrier"].push_back({kAsyncCopy, set_flag<&Qualifiers::on_mbarrier, true>, 0});
  table[".noinc"].push_back({kAsyncCopy, set_flag<&Qualifiers::noinc, true>, 0});
  table[".read"].push_back({kAsyncCopy, set_flag<&Qualifiers::read_only, true>, 0});
  table[".mbarrier::complete_tx::bytes"].push_back({kAsyncCopy, set_flag<&Qualifiers::complete_tx, true>, 0});
  table[".bulk_group"].push_back({kAsyncCopy, set_flag<&Qualifiers::bulk_group, true>, 0});
  table[".multicast::cluster"].push_back({kAsyncCopy, set_flag<&Qualifiers::multicast, true>, 0});
  table[".tensor"].push_back({kAsyncCopy, set_flag<&Qualifiers::tensor, true>, 0});
  const std::string_view ranks[] = {".1d", ".2d", ".3d", ".4d", ".5d"};
  for (uint8_t rank = 1; rank <= 5; ++rank) table[ranks[rank - 1]].push_back({kAsyncCopy, set_tensor_rank, rank});
  table[".tile"].push_back({kAsyncCopy, drop, 0});  // the default load mode
  table[".im2col"].push_back({kAsyncCopy, set_flag<&Qualifiers::im2col, true>, 0});
  table[".proxy"].push_back({kProxy, drop, 0});  // the kind that follows says it
  // fence.mbarrier_init.release.cluster orders mbarrier.init before later cluster accesses:
  // cucpu lowers it as the plain fence.release.cluster, which orders at least as much.
  table[".mbarrier_init"].push_back({kProxy, drop, 0});
  table[".parity"].push_back({kMbarrier, set_flag<&Qualifiers::parity, true>, 0});
  table[".noComplete"].push_back({kMbarrier, set_flag<&Qualifiers::no_complete, true>, 0});
  table[".expect_tx"].push_back({kMbarrier, set_arrive_expect_tx, 0});
  table[".relaxed"].push_back({kSemantics, relaxed_after_mmio, 0});
  // Cache operators and hints change no result on a CPU (PTX ISA 9.0 §9.7.9.1).
  for (std::string_view word : {".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".L1", ".L2", ".unified"}) {
    table[word].push_back({kCache, drop, 0});
  }
  table[".L2::cache_hint"].push_back({kCache, cache_hint, 0});
  // prefetch{.space}.tensormap: a prefetch, a no-op like the others.
  table[".tensormap"].push_back({kCache, drop, 0});
}

const WordTable& word_table() {
  static const WordTable table = [] {
    WordTable t;
    add_types(t);
    add_spaces(t);
    add_groups(t);
    add_flags(t);
    return t;
  }();
  return table;
}

}  // namespace

std::optional<Opcode> find_opcode(std::string_view name) {
  static const std::unordered_map<std::string_view, Opcode> table = [] {
    std::unordered_map<std::string_view, Opcode> t;
#define PTX_OPCODE(Name, text, groups) t.emplace(text, Opcode::Name);
#include "ptx/opcodes.def"
    return t;
  }();
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::optional<Type> find_type(std::string_view word) {
  auto it = word_table().find(word);
  if (it == word_table().end()) return std::nullopt;
  for (const Candidate& candidate : it->second) {
    if (candidate.group == accepts::kType) return static_cast<Type>(candidate.value);
  }
  return std::nullopt;
}

std::optional<StateSpace> find_state_space(std::string_view word) {
  if (word == ".reg") return StateSpace::Reg;
  if (word == ".sreg") return StateSpace::SReg;
  auto it = word_table().find(word);
  if (it == word_table().end()) return std::nullopt;
  for (const Candidate& candidate : it->second) {
    if (candidate.group == accepts::kSpace) return static_cast<StateSpace>(candidate.value);
  }
  return std::nullopt;
}

std::optional<SpecialRegister> find_special_register(std::string_view name) {
  static const std::unordered_map<std::string_view, SpecialRegister> table = [] {
    std::unordered_map<std::string_view, SpecialRegister> t;
#define PTX_SREG(Name, text, components) t.emplace(text, SpecialRegister::Name);
#include "ptx/special_registers.def"
    return t;
  }();
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

unsigned special_register_components(SpecialRegister sreg) {
  switch (sreg) {
#define PTX_SREG(Name, text, components) \
  case SpecialRegister::Name:            \
    return components;
#include "ptx/special_registers.def"
  }
  return 0;
}

QualifierOutcome apply_qualifier(Opcode opcode, std::string_view word, Qualifiers& q) {
  const uint64_t accepted = accepts::accepted_qualifiers(opcode);
  // Eviction priorities and access sizes: .L1::evict_last, .L2::256B, ...
  if ((accepted & accepts::kCache) && word != ".L2::cache_hint" &&
      (word.starts_with(".L1::") || word.starts_with(".L2::"))) {
    return Outcome::Dropped;
  }
  auto it = word_table().find(word);
  if (it == word_table().end()) return Outcome::Unknown;
  bool duplicate = false;
  for (const Candidate& candidate : it->second) {
    if (!(accepted & candidate.group)) continue;
    const Outcome outcome = candidate.set(q, accepted, candidate.value);
    if (outcome != Outcome::Duplicate) return outcome;
    duplicate = true;
  }
  return duplicate ? Outcome::Duplicate : Outcome::Unknown;
}

}  // namespace cucpu::ptx
