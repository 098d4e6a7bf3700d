// What ptxas recorded about each kernel in a cubin (the ELF of an sm_XX fatbin entry):
// the register count it chose. cucpu runs the PTX, never the cubin, but a program that
// carries a cubin for the emulated arch gets the numbers the GPU would report from it.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "fatbin/fatbin.h"
#include "support/result.h"

namespace cucpu::fatbin {

// Registers per thread of each function the cubin describes, by (mangled) name, from the
// EIATTR_REGCOUNT attributes of its `.nv.info*` sections. A malformed ELF is
// ErrorCode::InvalidImage naming what is wrong; never a read out of bounds.
Result<std::map<std::string, int>> read_register_counts(std::span<const uint8_t> elf);

// The register counts of the cubin for exactly compute capability `arch` among `entries`
// (an sm_89 cubin says nothing of what ptxas would choose for sm_90); empty when there is none.
Result<std::map<std::string, int>> register_counts_for_arch(const std::vector<Entry>& entries, uint32_t arch);

}  // namespace cucpu::fatbin
