// cucpu info: what a CUDA program will see as its device, and how cucpu will run it.
#include <fmt/format.h>

#include "core/device.h"
#include "exec/grid.h"
#include "tools/cucpu/commands.h"

namespace cucpu::tool {

int print_device_info() {
  using A = core::DeviceAttribute;
  auto attr = [](A a) { return core::device_attribute(a); };
  fmt::print("device 0: {}\n", core::device_name());
  fmt::print("  compute capability   {}.{} (PTX up to compute_{} is used; CUCPU_DEVICE=sm_XX chooses another)\n",
             core::compute_capability_major(), core::compute_capability_minor(), core::device_arch());
  fmt::print("  devices              {} (CUCPU_DEVICE_COUNT)\n", core::device_count());
  fmt::print("  multiprocessors      {} (emulated); {} worker threads run the blocks\n",
             attr(A::cudaDevAttrMultiProcessorCount), exec::GridExecutor::instance().worker_count());
  fmt::print("  global memory        {:.1f} GiB (the host's memory)\n",
             static_cast<double>(core::total_memory_bytes()) / (1u << 30));
  fmt::print("  threads per block    {} (block at most {} x {} x {})\n", attr(A::cudaDevAttrMaxThreadsPerBlock),
             attr(A::cudaDevAttrMaxBlockDimX), attr(A::cudaDevAttrMaxBlockDimY), attr(A::cudaDevAttrMaxBlockDimZ));
  fmt::print("  grid                 at most {} x {} x {}\n", attr(A::cudaDevAttrMaxGridDimX),
             attr(A::cudaDevAttrMaxGridDimY), attr(A::cudaDevAttrMaxGridDimZ));
  fmt::print("  shared memory        {} bytes per block ({} with opt-in)\n",
             attr(A::cudaDevAttrMaxSharedMemoryPerBlock), attr(A::cudaDevAttrMaxSharedMemoryPerBlockOptin));
  fmt::print("  warp size            {}\n", attr(A::cudaDevAttrWarpSize));
  return 0;
}

}  // namespace cucpu::tool
