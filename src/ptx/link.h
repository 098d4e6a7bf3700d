// Linking the PTX modules of a relocatable-device-code (-rdc) program into one module,
// as nvlink links their machine code: each translation unit's PTX declares what it uses
// from the others `.extern` and defines what it offers `.visible`.
#pragma once

#include <vector>

#include "ptx/module.h"
#include "support/result.h"

namespace cucpu::ptx {

// One module holding every definition of `modules`. An `.extern` declaration resolves to
// another module's `.visible` definition; `.weak` definitions yield to a strong one (or
// the first weak one wins); `.common` variables take the largest size; symbols private
// to a module are renamed when another module uses the same name. Two strong definitions
// of one visible name are ErrorCode::InvalidPtx naming it. Declarations that nothing
// defines stay `.extern` (the runtime provides vprintf, malloc, the device runtime...).
Result<Module> link_modules(std::vector<Module> modules);

}  // namespace cucpu::ptx
