// The GNU build ID of the binary that holds a piece of cucpu's code: a hash the linker
// computes over the whole linked file, so every rebuild that changes anything in it
// gets a new one. The JIT's disk cache keys on it (jit/disk_cache.h).
#pragma once

#include <string>

namespace cucpu {

// The build ID (lowercase hex) of the loaded ELF object whose segments contain `address`,
// or "" when that object has none (linked without --build-id) or none contains it.
std::string build_id_of(const void* address);

}  // namespace cucpu
