// Copies and sets as stream commands, each returning to the host when the Runtime API's
// "API synchronization behavior" table says it does. What decides is where each end
// lives (the memory registry knows device, managed and page-locked memory; anything else
// is pageable host memory):
//   - synchronous copies (cudaMemcpy, cudaMemcpy2D/3D, symbol copies) wait for the copy,
//     except device to device, which only queues it;
//   - asynchronous copies are queued; a pageable source is staged into a buffer of the
//     command's own first (the caller may reuse its memory at once); a pageable
//     destination, or host to host, makes the call wait for the copy;
//   - synchronous sets (cudaMemset*) are queued unless they write page-locked host memory;
//     asynchronous sets are always queued.
// Waiting means for the command, i.e. for everything before it in its stream too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/stream.h"
#include "core/strided_copy.h"
#include "support/result.h"

namespace cucpu::core {

enum class HostSync { Synchronous, Asynchronous };  // cudaMemcpy vs cudaMemcpyAsync

Result<void> submit_copy(Stream& stream, void* dst, const void* src, size_t bytes, HostSync sync);
Result<void> submit_set(Stream& stream, void* dst, int value, size_t bytes, HostSync sync);
// cuMemsetD16/D32: `count` elements of `element_bytes` (2 or 4) set to the low bytes of `value`.
Result<void> submit_fill(Stream& stream, void* dst, uint32_t value, size_t element_bytes, size_t count,
                         HostSync sync);
// cuMemsetD2D8/16/32: `height` rows of `width` elements of `element_bytes` (1, 2 or 4),
// `pitch` bytes apart, in one command; the caller has checked the rows.
Result<void> submit_fill_2d(Stream& stream, void* dst, size_t pitch, uint32_t value, size_t element_bytes,
                            size_t width, size_t height, HostSync sync);
// The pitched forms; an asynchronous copy from pageable memory waits for its stream and
// copies at once rather than staging a strided source.
Result<void> submit_strided_copy(Stream& stream, const StridedCopy& copy, HostSync sync);
Result<void> submit_strided_set(Stream& stream, const StridedSet& set, HostSync sync);

}  // namespace cucpu::core
