// __cucpu_warp_step: a step run once for a whole warp with every lane's buffer (the
// tensor-core instructions, warp_step.cpp).
#pragma once

#include "jit/kernel_abi.h"

namespace cucpu::exec {

jit::RuntimeSymbols warp_step_symbols();  // __cucpu_warp_step by its kernel_abi.h name

}  // namespace cucpu::exec
