// The driver's entry points that NVIDIA's device runtime library (libcudadevrt.a) calls
// (jit::kDeviceRuntimeDriverFunctions), for when its PTX is compiled as code of its own.
#pragma once

#include "jit/kernel_abi.h"

namespace cucpu::exec {

// __cucpu_devrt.NAME for every NAME of jit::kDeviceRuntimeDriverFunctions.
jit::RuntimeSymbols device_runtime_driver_symbols();

}  // namespace cucpu::exec
