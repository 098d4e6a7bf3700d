// Freeing memory as cudaFree/cuMemFree and cudaFreeHost/cuMemFreeHost do: a
// stream-ordered allocation goes back to its pool without waiting; a graph's allocation
// must be live; anything else waits for all queued work (which may still use it) first.
#pragma once

#include "support/result.h"

namespace cucpu::core {

// Device or managed memory (null: nothing to do).
Result<void> free_device_memory(void* pointer);
// Page-locked host memory from cudaMallocHost/cudaHostAlloc/cuMemAllocHost.
Result<void> free_host_memory(void* pointer);

}  // namespace cucpu::core
