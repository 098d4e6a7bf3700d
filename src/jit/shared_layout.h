// Internal to src/jit: where each .shared variable lives in a block's shared window.
#pragma once

#include <cstdint>
#include <map>

#include "ptx/module.h"

namespace cucpu::jit {

// Offsets from the start of the block's window, which begins with the reserved shared
// memory (kernel_abi.h kReservedSharedBytes): the first variable's offset is at least that.
struct SharedLayout {
  std::map<const ptx::Variable*, uint64_t> offsets;  // sized .shared variables
  uint64_t static_bytes = 0;    // the end of the last variable
  uint64_t dynamic_offset = 0;  // where unsized `extern .shared x[]` arrays start
};

struct ModuleSharedLayout {
  // Kernels: the kernel's own layout. A .func: the layout common to every kernel
  // (a .func is compiled once, so what it uses sits at the same offset everywhere).
  std::map<const ptx::Function*, SharedLayout> functions;
};

// The variable `name` means inside `function` (its own declarations first), or null.
const ptx::Variable* resolve_variable(const ptx::Module& module, const ptx::Function& function,
                                      const std::string& name);

ModuleSharedLayout lay_out_shared_memory(const ptx::Module& module);

}  // namespace cucpu::jit
