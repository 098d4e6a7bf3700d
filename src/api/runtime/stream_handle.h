// cudaStream_t as the runtime API hands it over: NULL, cudaStreamLegacy and
// cudaStreamPerThread name default streams; anything else must be a stream that
// cudaStreamCreate* made and cudaStreamDestroy has not destroyed.
#pragma once

#include <cuda_runtime_api.h>

#include "core/stream.h"

namespace cucpu::runtime {

// What NULL means to an entry point: the legacy stream, or the calling thread's stream
// for the _ptsz/_ptds entry points that --default-stream per-thread compiles to.
enum class NullStream { Legacy, PerThread };

// The stream, or null for an invalid handle.
core::Stream* to_stream(cudaStream_t handle, NullStream null_stream);

}  // namespace cucpu::runtime
