// A stream handle as both APIs hand it over (cudaStream_t and CUstream are one): NULL,
// the legacy stream (cudaStreamLegacy, CU_STREAM_LEGACY: 0x1) and the per-thread stream
// (cudaStreamPerThread, CU_STREAM_PER_THREAD: 0x2) name default streams; anything else
// must be a stream that was created and not destroyed, whose handle is its address.
#pragma once

#include "core/stream.h"

namespace cucpu::core {

// What NULL means to an entry point: the legacy stream, or the calling thread's stream
// for the _ptsz/_ptds entry points that --default-stream per-thread compiles to.
enum class NullStream { Legacy, PerThread };

// The stream, or null for an invalid handle.
Stream* to_stream(const void* handle, NullStream null_stream);

}  // namespace cucpu::core
