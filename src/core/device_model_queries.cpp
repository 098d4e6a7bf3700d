// core's answers to the device runtime's questions (exec/device_model_queries.h): the same
// functions the runtime API's cudaDeviceGetAttribute, cudaGetDeviceCount,
// cudaDeviceGetCacheConfig, cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor
// and the pitched cudaMemcpy2D/3DAsync and cudaMemset2D/3DAsync answer with (api/runtime).
// Device code names a kernel by its compiled code, and does not see what the host set with
// cudaFuncSetAttribute: on an H100 its cudaFuncGetAttributes reports 0 for the maximum
// dynamic shared memory and the carveout the host set, and its occupancy calculator ignores
// that carveout (e2e dp_device_runtime_queries).
#include "core/device_model_queries.h"

#include "core/device.h"
#include "core/device_settings.h"
#include "core/function_attributes.h"
#include "core/module_registry.h"
#include "core/strided_copy.h"
#include "exec/device_model_queries.h"

namespace cucpu::core {
namespace {

// The registered kernel of `info`, or the defaults of one nobody set anything for.
const Kernel& kernel_of(const jit::KernelInfo& info) {
  static const Kernel unregistered;
  const Kernel* kernel = modules().find_kernel_of(info);
  return kernel ? *kernel : unregistered;
}

// The kernel as device code sees it: without the attributes the host set.
Kernel device_view(const jit::KernelInfo& info) {
  Kernel kernel = kernel_of(info);
  kernel.max_dynamic_shared_bytes = -1;
  kernel.preferred_shared_carveout = -1;
  return kernel;
}

exec::FunctionAttributes kernel_function_attributes(const jit::KernelInfo& info) {
  exec::FunctionAttributes attributes = function_attributes(device_view(info), info);
  attributes.max_dynamic_shared_size_bytes = 0;
  attributes.preferred_shmem_carveout = 0;
  return attributes;
}

int kernel_max_active_blocks(const jit::KernelInfo& info, uint32_t block_threads, std::size_t dynamic_shared_bytes) {
  return kernel_max_active_blocks_per_sm(device_view(info), info, block_threads, dynamic_shared_bytes);
}

PitchedPointer pitched_pointer(const exec::PitchedSide& side) {
  return PitchedPointer{side.ptr, side.pitch, side.xsize, side.ysize};
}

Position3D position(const exec::PitchedSide& side) { return Position3D{side.x, side.y, side.z}; }

Extent3D extent_of(exec::PitchedExtent extent) { return Extent3D{extent.width, extent.height, extent.depth}; }

// The command of a checked copy or set: empty when it moves nothing.
template <typename Description, typename Run>
Result<exec::MemoryCommand> command_for(Result<Description> description, Run run) {
  if (!description) return description.error();
  if (is_empty(*description)) return exec::MemoryCommand{};
  return exec::MemoryCommand{[copy = *description, run] { run(copy); }};
}

Result<exec::MemoryCommand> copy_2d(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                                    std::size_t width, std::size_t height) {
  return command_for(describe_copy_2d(dst, dst_pitch, src, src_pitch, width, height), run_strided_copy);
}

Result<exec::MemoryCommand> copy_3d(const exec::PitchedSide& dst, const exec::PitchedSide& src,
                                    exec::PitchedExtent extent) {
  return command_for(
      describe_copy_3d(pitched_pointer(dst), position(dst), pitched_pointer(src), position(src), extent_of(extent)),
      run_strided_copy);
}

Result<exec::MemoryCommand> set_2d(void* dst, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  return command_for(describe_set_2d(dst, pitch, value, width, height), run_strided_set);
}

Result<exec::MemoryCommand> set_3d(const exec::PitchedSide& dst, int value, exec::PitchedExtent extent) {
  return command_for(describe_set_3d(pitched_pointer(dst), value, extent_of(extent)), run_strided_set);
}

}  // namespace

void provide_device_model_queries() {
  static const exec::DeviceModelQueries queries{
      .device_count = [] { return device_count(); },
      .device_attribute = [](int number, int ordinal) { return device_attribute(number, ordinal); },
      .cache_config = [](int ordinal) { return device_settings(ordinal).cache_config; },
      .function_attributes = kernel_function_attributes,
      .max_active_blocks_per_sm = kernel_max_active_blocks,
      .copy_2d = copy_2d,
      .copy_3d = copy_3d,
      .set_2d = set_2d,
      .set_3d = set_3d,
  };
  exec::set_device_model_queries(&queries);
}

}  // namespace cucpu::core
