// A launch's arguments through the driver (cuLaunchKernel, kernel graph nodes): one
// pointer per kernel parameter, from kernelParams or from the `extra` packed buffer
// (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE, the parameters at their aligned offsets).
#pragma once

#include <cuda.h>

#include <vector>

#include "core/module_registry.h"

namespace cucpu::driver {

// `*args` becomes `params`, or pointers into the `extra` buffer kept in `*unpacked`.
// Both given, or an `extra` list the driver refuses, is CUDA_ERROR_INVALID_VALUE.
CUresult kernel_arguments(core::Kernel& kernel, void** params, void** extra, std::vector<void*>* unpacked,
                          void*** args);

}  // namespace cucpu::driver
