// Launching a kernel: check the configuration against the device and the kernel, lay
// out the parameter buffer from the host's argument pointers, and run the grid.
#pragma once

#include <cstddef>

#include "core/module_registry.h"
#include "exec/grid.h"
#include "support/result.h"

namespace cucpu::core {

struct LaunchRequest {
  exec::Dim3 grid;
  exec::Dim3 block;
  size_t dynamic_shared_bytes = 0;
  void** args = nullptr;  // one pointer per kernel parameter, as cudaLaunchKernel takes them
  bool cooperative = false;  // cudaLaunchCooperativeKernel: all blocks resident at once
};

// Runs the grid to completion. A configuration error is returned and leaves the device
// as it was; an error while the grid runs becomes the device's sticky error.
Result<void> launch_kernel(const Kernel& kernel, const LaunchRequest& request);

}  // namespace cucpu::core
