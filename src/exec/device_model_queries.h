// What the device runtime asks of the device model (device attributes, function attributes,
// occupancy) and of core's memory checks (pitched copies and sets), which live in core, a
// layer above exec: core hands exec its answers (core::provide_device_model_queries, before
// it compiles a module) and the device runtime reads them here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "jit/compile.h"
#include "support/result.h"

namespace cucpu::exec {

// cudaFuncAttributes of driver_types.h (CUDA 13.0) field for field, so that a device-side
// cudaFuncGetAttributes writes device code's struct whole (api/runtime checks the layout).
struct FunctionAttributes {
  std::size_t shared_size_bytes = 0;
  std::size_t const_size_bytes = 0;
  std::size_t local_size_bytes = 0;
  int32_t max_threads_per_block = 0;
  int32_t num_regs = 0;
  int32_t ptx_version = 0;
  int32_t binary_version = 0;
  int32_t cache_mode_ca = 0;
  int32_t max_dynamic_shared_size_bytes = 0;
  int32_t preferred_shmem_carveout = 0;
  int32_t cluster_dim_must_be_set = 0;
  int32_t required_cluster_width = 0;
  int32_t required_cluster_height = 0;
  int32_t required_cluster_depth = 0;
  int32_t cluster_scheduling_policy_preference = 0;
  int32_t non_portable_cluster_size_allowed = 0;
  int32_t reserved[16] = {};
};

// One side of a pitched copy between linear memory: cudaPitchedPtr's pointer, pitch and
// sizes, and the cudaPos the box starts at (x in bytes).
struct PitchedSide {
  void* ptr = nullptr;
  std::size_t pitch = 0, xsize = 0, ysize = 0;
  std::size_t x = 0, y = 0, z = 0;
};

// cudaExtent: width in bytes, height in rows, depth in slices.
struct PitchedExtent {
  std::size_t width = 0, height = 0, depth = 0;
};

// A checked copy or set, to run in stream order; empty when it moves no bytes.
using MemoryCommand = std::function<void()>;

struct DeviceModelQueries {
  int (*device_count)() = nullptr;
  // An attribute number's value on device `ordinal`; nullopt where a GPU rejects the number.
  std::optional<int> (*device_attribute)(int number, int ordinal) = nullptr;
  int (*cache_config)(int ordinal) = nullptr;  // the device's cudaFuncCache setting
  // cudaFuncGetAttributes of a kernel, with what the host set for it (cudaFuncSetAttribute).
  FunctionAttributes (*function_attributes)(const jit::KernelInfo& kernel) = nullptr;
  // cudaOccupancyMaxActiveBlocksPerMultiprocessor: 0 where such a block cannot launch.
  int (*max_active_blocks_per_sm)(const jit::KernelInfo& kernel, uint32_t block_threads,
                                  std::size_t dynamic_shared_bytes) = nullptr;
  // cudaMemcpy2DAsync, cudaMemcpy3DAsync (linear memory), cudaMemset2DAsync and
  // cudaMemset3DAsync with the host API's checks (core/strided_copy.h).
  Result<MemoryCommand> (*copy_2d)(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                                   std::size_t width, std::size_t height) = nullptr;
  Result<MemoryCommand> (*copy_3d)(const PitchedSide& dst, const PitchedSide& src, PitchedExtent extent) = nullptr;
  Result<MemoryCommand> (*set_2d)(void* dst, std::size_t pitch, int value, std::size_t width,
                                  std::size_t height) = nullptr;
  Result<MemoryCommand> (*set_3d)(const PitchedSide& dst, int value, PitchedExtent extent) = nullptr;
};

// `queries` must live as long as the process.
void set_device_model_queries(const DeviceModelQueries* queries);
// Null until core has provided them.
const DeviceModelQueries* device_model_queries();

}  // namespace cucpu::exec
