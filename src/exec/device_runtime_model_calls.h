// The device runtime functions that core's device model answers (device_model_queries.h):
// device-side cudaGetDeviceCount, cudaDeviceGetAttribute, cudaDeviceGetCacheConfig,
// cudaDeviceGetSharedMemConfig, cudaFuncGetAttributes, the occupancy calculator, and the
// pitched copies and sets cudaMemcpy2DAsync, cudaMemcpy3DAsync, cudaMemset2DAsync,
// cudaMemset3DAsync. Each has the signature of every __cucpu_devrt.* function (kernel_abi.h);
// device_runtime.cpp lists them under their __cudaCDP2* names.
#pragma once

#include <cstdint>

#include "jit/kernel_abi.h"

namespace cucpu::exec::devrt {

// cudaMemcpy3DParms of driver_types.h as device code lays it out (every field 8 bytes but
// the last; api/runtime checks the layout): arrays, positions (cudaPos), pitched pointers
// (cudaPitchedPtr: ptr, pitch, xsize, ysize), the extent (cudaExtent) and the kind.
struct Memcpy3DParms {
  uint64_t src_array;
  uint64_t src_pos[3];
  uint64_t src_ptr[4];
  uint64_t dst_array;
  uint64_t dst_pos[3];
  uint64_t dst_ptr[4];
  uint64_t extent[3];
  uint32_t kind;
};

void get_device_count(jit::ThreadContext* context, void* const* args, void* result);
void device_get_attribute(jit::ThreadContext* context, void* const* args, void* result);
void device_get_cache_config(jit::ThreadContext* context, void* const* args, void* result);
void device_get_shared_mem_config(jit::ThreadContext* context, void* const* args, void* result);
void func_get_attributes(jit::ThreadContext* context, void* const* args, void* result);
void occupancy_max_active_blocks(jit::ThreadContext* context, void* const* args, void* result);
void occupancy_max_active_blocks_with_flags(jit::ThreadContext* context, void* const* args, void* result);
void memcpy_2d_async(jit::ThreadContext* context, void* const* args, void* result);
void memcpy_3d_async(jit::ThreadContext* context, void* const* args, void* result);
void memset_2d_async(jit::ThreadContext* context, void* const* args, void* result);
void memset_3d_async(jit::ThreadContext* context, void* const* args, void* result);

}  // namespace cucpu::exec::devrt
