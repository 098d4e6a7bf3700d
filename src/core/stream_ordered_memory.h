// The stream-ordered allocator's allocations and frees outside a capture, for both APIs
// (cudaMallocAsync/cuMemAllocAsync, cudaFreeAsync/cuMemFreeAsync): a block from a pool,
// made to wait for a pending free on another stream it reuses; a free that returns the
// block when the stream reaches it (pool blocks, graph allocations, and cudaMalloc memory).
#pragma once

#include <cstddef>

#include "core/memory_pool.h"
#include "core/stream.h"
#include "support/result.h"

namespace cucpu::core {

Result<void*> allocate_in_stream_order(Stream& stream, MemoryPool& pool, size_t size);
Result<void> free_in_stream_order(Stream& stream, void* pointer);

}  // namespace cucpu::core
