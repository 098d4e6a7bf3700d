// Internal to src/jit: what the executor needs to know about a module besides its code.
// Translation finds it out; a disk cache entry keeps it beside the object code, so that
// a module loaded from the cache is described exactly as a freshly compiled one.
#pragma once

#include <vector>

#include "jit/compile.h"

namespace cucpu::jit {

struct ModuleFacts {
  std::vector<KernelInfo> kernels;  // entry still null: filled in once the code is loaded
  std::vector<GlobalInfo> globals;  // address still null: likewise
};

}  // namespace cucpu::jit
