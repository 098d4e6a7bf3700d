// Function attributes and block occupancy of a kernel (function_attributes.h). A kernel
// known only by its compiled code (a Kernel with no module: device code of a module the
// host never registered) has the defaults and core's typical register count.
#include "core/function_attributes.h"

#include <algorithm>

#include "core/cluster_launch.h"
#include "core/device.h"
#include "core/occupancy.h"

namespace cucpu::core {
namespace {

// What ptxas chose where the program carries a cubin, else the typical count.
int registers_of(const Kernel& kernel) {
  return kernel.module ? kernel.module->registers_per_thread(kernel.device_name) : kRegistersPerThread;
}

}  // namespace

exec::FunctionAttributes function_attributes(const Kernel& kernel, const jit::KernelInfo& info) {
  constexpr int32_t kBinaryVersion = 90;  // the code runs as an sm_90 kernel's
  exec::FunctionAttributes attributes;
  attributes.shared_size_bytes = info.static_shared_bytes;
  attributes.const_size_bytes = info.module_const_bytes;
  attributes.local_size_bytes = info.local_bytes;
  attributes.num_regs = registers_of(kernel);
  attributes.max_threads_per_block =
      static_cast<int32_t>(max_threads_per_block(info.max_threads_per_block, attributes.num_regs));
  // The PTX's own architecture, as a GPU reports the PTX it compiled: CUB's host code picks
  // its tuning by it, which must agree with the tuning compiled into the device code.
  attributes.ptx_version = info.ptx_arch != 0 ? static_cast<int32_t>(info.ptx_arch) : kBinaryVersion;
  attributes.binary_version = kBinaryVersion;
  attributes.cache_mode_ca = 0;
  attributes.max_dynamic_shared_size_bytes =
      static_cast<int32_t>(max_dynamic_shared_bytes(kernel.max_dynamic_shared_bytes, info.static_shared_bytes));
  attributes.preferred_shmem_carveout = kernel.preferred_shared_carveout;
  const exec::Dim3 cluster = required_cluster_dims(info, kernel);
  attributes.cluster_dim_must_be_set = info.explicit_cluster;
  attributes.required_cluster_width = static_cast<int32_t>(cluster.x);
  attributes.required_cluster_height = static_cast<int32_t>(cluster.y);
  attributes.required_cluster_depth = static_cast<int32_t>(cluster.z);
  attributes.cluster_scheduling_policy_preference = kernel.cluster_scheduling_policy;
  attributes.non_portable_cluster_size_allowed = kernel.non_portable_cluster_size_allowed;
  return attributes;
}

int kernel_max_active_blocks_per_sm(const Kernel& kernel, const jit::KernelInfo& info, uint32_t block_threads,
                                    size_t dynamic_shared_bytes) {
  const int registers = registers_of(kernel);
  // A block larger than the kernel's maximum is not refused: an H100 gives 4 blocks of 512
  // threads for a __launch_bounds__(256) kernel (e2e dp_device_runtime_queries).
  if (dynamic_shared_bytes > max_dynamic_shared_bytes(kernel.max_dynamic_shared_bytes, info.static_shared_bytes))
    return 0;  // such a block cannot launch at all
  // The carveout preference counts: an H100 gives 8 blocks of 128 threads at 0%, 16 at 50%
  // (e2e cluster_occupancy).
  return max_active_blocks_per_sm(block_threads, info.dynamic_shared_offset + dynamic_shared_bytes, registers,
                                  kernel.preferred_shared_carveout);
}

Result<void> set_function_attribute(Kernel& kernel, int attribute, int value) {
  // The numbers of cudaFuncAttribute (and CUfunction_attribute) that may be set.
  enum : int {
    kMaxDynamicSharedMemorySize = 8,
    kPreferredSharedMemoryCarveout = 9,
    kClusterDimMustBeSet = 10,
    kRequiredClusterWidth = 11,
    kRequiredClusterDepth = 13,
    kNonPortableClusterSizeAllowed = 14,
    kClusterSchedulingPolicyPreference = 15,
  };
  const Error invalid{ErrorCode::InvalidValue, "invalid function attribute value"};
  switch (attribute) {
    case kMaxDynamicSharedMemorySize: {
      auto info = modules().load_kernel(kernel);
      if (!info) return info.error();
      int optin = device_attribute(DeviceAttribute::cudaDevAttrMaxSharedMemoryPerBlockOptin);
      if (value < 0 || value + static_cast<int>((*info)->static_shared_bytes) > optin) return invalid;
      kernel.max_dynamic_shared_bytes = value;
      return {};
    }
    case kPreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return invalid;
      kernel.preferred_shared_carveout = value;  // a hint: a CPU has no L1/shared split
      return {};
    case kRequiredClusterWidth:
    case kRequiredClusterWidth + 1:
    case kRequiredClusterDepth: {
      auto info = modules().load_kernel(kernel);
      if (!info) return info.error();
      // A compile-time shape cannot be changed (driver_types.h, cudaFuncAttributes); an
      // H100 says cudaErrorInvalidValue (e2e cluster_launch_rules).
      if ((*info)->cluster_dims[0] != 0 || value < 0) return invalid;
      kernel.required_cluster[attribute - kRequiredClusterWidth] = static_cast<uint32_t>(value);
      return {};
    }
    case kClusterDimMustBeSet:
      return invalid;  // read-only: the H200 refuses every value (e2e setter_sweep)
    case kNonPortableClusterSizeAllowed:
      // Any nonzero value allows, a negative one too; an H100 takes 2 and reads it back
      // (e2e cluster_launch_rules, setter_sweep).
      kernel.non_portable_cluster_size_allowed = value;
      return {};
    case kClusterSchedulingPolicyPreference:
      if (value < 0 || value > 2) return invalid;  // default, spread, load balancing
      kernel.cluster_scheduling_policy = value;    // a hint: placement on SMs
      return {};
    default:
      return invalid;  // no such attribute, or a read-only one
  }
}

PotentialBlockSize max_potential_block_size(const Kernel& kernel, const jit::KernelInfo& info,
                                            const std::function<size_t(int)>& dynamic_shared_bytes,
                                            int block_size_limit) {
  const int occupancy_limit = device_attribute(DeviceAttribute::cudaDevAttrMaxThreadsPerMultiProcessor);
  const int granularity = device_attribute(DeviceAttribute::cudaDevAttrWarpSize);
  const int device_max = device_attribute(DeviceAttribute::cudaDevAttrMaxThreadsPerBlock);
  const int kernel_max = function_attributes(kernel, info).max_threads_per_block;
  if (block_size_limit == 0) block_size_limit = device_max;
  block_size_limit = std::min({block_size_limit, device_max, kernel_max});
  const int aligned_limit = (block_size_limit + granularity - 1) / granularity * granularity;
  PotentialBlockSize best;
  int blocks = 0, best_occupancy = 0;
  for (int aligned = aligned_limit; aligned > 0; aligned -= granularity) {
    const int size = std::min(aligned, block_size_limit);
    const int resident = kernel_max_active_blocks_per_sm(kernel, info, static_cast<uint32_t>(size),
                                                         dynamic_shared_bytes(size));
    if (size * resident > best_occupancy) {
      best.block_size = size;
      blocks = resident;
      best_occupancy = size * resident;
    }
    if (best_occupancy == occupancy_limit) break;
  }
  best.min_grid_size = blocks * device_attribute(DeviceAttribute::cudaDevAttrMultiProcessorCount);
  return best;
}

}  // namespace cucpu::core
