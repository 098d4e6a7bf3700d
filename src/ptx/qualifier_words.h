// Spellings to meanings: opcode names, type and state-space words, and the qualifier
// words after an opcode (read within the groups that opcode accepts, accepted_qualifiers.h).
#pragma once

#include <optional>
#include <string_view>

#include "ptx/module.h"

namespace cucpu::ptx {

std::optional<Opcode> find_opcode(std::string_view name);                     // "add"
std::optional<Type> find_type(std::string_view word);                         // ".u32"
std::optional<StateSpace> find_state_space(std::string_view word);            // ".global", ".shared::cta"
std::optional<SpecialRegister> find_special_register(std::string_view name);  // "%tid"
unsigned special_register_components(SpecialRegister sreg);                   // 3 for %tid, 0 for %laneid

enum class QualifierOutcome : uint8_t {
  Applied,    // stored in Qualifiers
  Dropped,    // accepted with no meaning for cucpu (cache operators, eviction hints)
  CacheHint,  // .L2::cache_hint: dropped, and so is its cache-policy operand
  Duplicate,  // the opcode accepts the word, but its field is already set
  Unknown,    // no group the opcode accepts has this word
};

// Reads one `.word` of an instruction of `opcode` into `q`.
QualifierOutcome apply_qualifier(Opcode opcode, std::string_view word, Qualifiers& q);

}  // namespace cucpu::ptx
