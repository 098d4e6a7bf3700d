// Function attributes and block occupancy of a kernel (function_attributes.h). A kernel
// known only by its compiled code (a Kernel with no module: device code of a module the
// host never registered) has the defaults and core's typical register count.
#include "core/function_attributes.h"

#include "core/cluster_launch.h"
#include "core/occupancy.h"

namespace cucpu::core {
namespace {

// What ptxas chose where the program carries a cubin, else the typical count.
int registers_of(const Kernel& kernel) {
  return kernel.module ? kernel.module->registers_per_thread(kernel.device_name) : kRegistersPerThread;
}

}  // namespace

exec::FunctionAttributes function_attributes(const Kernel& kernel, const jit::KernelInfo& info) {
  constexpr int32_t kVersion = 90;  // the PTX and binary version of an sm_90 kernel
  exec::FunctionAttributes attributes;
  attributes.shared_size_bytes = info.static_shared_bytes;
  attributes.const_size_bytes = info.module_const_bytes;
  attributes.local_size_bytes = info.local_bytes;
  attributes.num_regs = registers_of(kernel);
  attributes.max_threads_per_block =
      static_cast<int32_t>(max_threads_per_block(info.max_threads_per_block, attributes.num_regs));
  attributes.ptx_version = kVersion;
  attributes.binary_version = kVersion;
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

}  // namespace cucpu::core
