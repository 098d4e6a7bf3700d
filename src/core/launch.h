// Launching a kernel: check the configuration against the device and the kernel, lay
// out the parameter buffer from the host's argument pointers, and queue the grid on a
// stream. Checking is synchronous (its errors are the launch call's); running is not.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/module_registry.h"
#include "core/stream.h"
#include "exec/grid.h"
#include "support/result.h"

namespace cucpu::core {

struct LaunchRequest {
  exec::Dim3 grid;
  exec::Dim3 block;
  size_t dynamic_shared_bytes = 0;
  void** args = nullptr;  // one pointer per kernel parameter, as cudaLaunchKernel takes them
  bool cooperative = false;  // cudaLaunchCooperativeKernel: all blocks resident at once
  // cudaLaunchAttributeClusterDimension, when given (cluster_launch.h checks it).
  exec::Dim3 cluster{};
  bool explicit_cluster = false;
};

// A launch that passed every check, with its own copy of the parameter buffer: it can
// run later, on a stream's thread, and more than once (graphs).
class PreparedLaunch {
 public:
  PreparedLaunch(const jit::KernelInfo& info, const LaunchRequest& request);
  uint8_t* params() { return reinterpret_cast<uint8_t*>(const_cast<std::max_align_t*>(param_slots())); }
  // The cluster shape resolve_cluster_dims chose; `explicit_cluster`: the launch or the
  // kernel named it (the executor then takes this shape as it is).
  void set_cluster(const exec::Dim3& dims, bool explicit_cluster) {
    shape_.cluster = dims;
    shape_.explicit_cluster = explicit_cluster;
  }
  // Runs the grid to completion; an error while it runs becomes the device's sticky error.
  void run() const;

 private:
  const jit::KernelInfo& info_;
  exec::LaunchShape shape_;
  bool cooperative_;
  // The parameter buffer, 16-byte aligned (.param alignments go up to 16): inline for most
  // kernels, so that a launch allocates little (the stream's thread frees what the
  // launching thread allocated: malloc's slow path on both).
  static constexpr std::size_t kInlineParamSlots = 16;
  std::array<std::max_align_t, kInlineParamSlots> inline_params_;
  std::vector<std::max_align_t> large_params_;  // when the parameters take more than that
  const std::max_align_t* param_slots() const {
    return large_params_.empty() ? inline_params_.data() : large_params_.data();
  }
};

// Checks a launch and copies its arguments. A configuration error leaves the device as it was.
Result<std::shared_ptr<const PreparedLaunch>> prepare_launch(const Kernel& kernel, const LaunchRequest& request);

// Checks a launch and queues it on `stream`; with CUDA_LAUNCH_BLOCKING=1 set in the
// environment, returns only when it has run.
Result<void> launch_kernel(const Kernel& kernel, const LaunchRequest& request, Stream& stream);

// The stream command that runs a prepared launch.
Command kernel_command(std::shared_ptr<const PreparedLaunch> launch);

}  // namespace cucpu::core
