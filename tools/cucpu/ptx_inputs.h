// What `cucpu ptx` checks: the PTX modules found in its input files. A module is one or
// more translation units that the runtime would link into one (ptx/link.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/result.h"

namespace cucpu::tool {

struct PtxModuleSource {
  std::string name;                // for messages: the file, and which fatbin of it
  std::vector<std::string> units;  // PTX texts, linked together when more than one
};

// Plain PTX files together make one module (an -rdc program's units, linked). A program,
// shared library or object built by nvcc gives the modules the runtime would load from it:
// the translation units of an -rdc link (`__nv_relfatbin`, libcudadevrt left out) as one
// module, else each fatbin in `.nv_fatbin` with PTX for `arch` as a module of its own; a
// fatbin file likewise. Unreadable files and binaries without such PTX are errors.
Result<std::vector<PtxModuleSource>> read_ptx_inputs(const std::vector<std::string>& files, uint32_t arch);

}  // namespace cucpu::tool
