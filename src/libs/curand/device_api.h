// The toolkit's device-API headers compiled as host C++: the generator states, their
// initialization and skip-ahead (with the host copies of the precalculated matrices) and
// the distributions' formulas, exactly as NVIDIA's kernels and host generators use them.
// Where a header picks code by target (NV_IF_ELSE_TARGET), this gets the host's.
#pragma once

#define QUALIFIERS static inline
#define QUALIFIERS_MTGP32 static inline
#include <curand_kernel.h>
