// The runtime functions of the texture and surface instructions (texture_fetch.cpp)
// under their jit/texture_abi.h names.
#pragma once

#include "jit/kernel_abi.h"

namespace cucpu::exec {

jit::RuntimeSymbols texture_symbols();

}  // namespace cucpu::exec
