// Which registers each statement of a PTX body reads and writes, recorded while the
// scalar translation lowers it (FunctionLowering::read_register_bits/write_register_bits).
// Taking the sets from the lowerings themselves, rather than from a table of operand
// roles, keeps them exact for every instruction the JIT knows: the compiled block
// strategy's liveness and uniformity analyses (warp_analysis.h) depend on them.
// No LLVM here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ptx/module.h"

namespace cucpu::jit {

// CC.CF of add.cc/addc is one more register, numbered after the function's own.
inline uint32_t carry_flag_register(const ptx::Function& function) {
  return static_cast<uint32_t>(function.registers.size());
}

struct StatementAccess {
  std::vector<uint32_t> reads;   // sorted, unique
  std::vector<uint32_t> writes;  // sorted, unique
};

struct FunctionAccess {
  std::vector<StatementAccess> statements;  // indexed like Function::body; labels stay empty

  void note(uint32_t statement, uint32_t reg, bool write) {
    if (statement >= statements.size()) statements.resize(statement + 1);
    std::vector<uint32_t>& set = write ? statements[statement].writes : statements[statement].reads;
    auto at = std::lower_bound(set.begin(), set.end(), reg);
    if (at == set.end() || *at != reg) set.insert(at, reg);
  }
  const StatementAccess& at(uint32_t statement) const {
    static const StatementAccess none;
    return statement < statements.size() ? statements[statement] : none;
  }
};

}  // namespace cucpu::jit
