// A memory pool's attributes as both APIs set and read them (cudaMemPoolAttr and
// CUmemPool_attribute share their numbers): the reuse policies are ints, the sizes 64-bit;
// the high watermarks can only be set to 0, which resets them, and the current sizes are
// read-only (cuda_runtime_api.h, cudaMemPoolSetAttribute).
#pragma once

#include "core/memory_pool.h"
#include "support/result.h"

namespace cucpu::core {

Result<void> set_pool_attribute(MemoryPool& pool, int attribute, const void* value);
Result<void> get_pool_attribute(const MemoryPool& pool, int attribute, void* value);

}  // namespace cucpu::core
