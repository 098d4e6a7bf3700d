// The driver's copy structs (CUDA_MEMCPY2D, CUDA_MEMCPY3D: linear memory or CUDA arrays on
// either side) as core's strided copies (core/strided_copy.h, core/cuda_array.h), and
// running a described copy on a driver stream: a synchronous one returns when the guide's
// table says (core/memory_commands.h) and then shows pending device printf output and the
// sticky error. Shared by the pitched and array copies and the graphs' memcpy nodes.
#pragma once

#include <cuda.h>

#include "core/memory_commands.h"
#include "core/stream_handle.h"
#include "core/strided_copy.h"
#include "support/result.h"

namespace cucpu::driver {

// InvalidValue for an unknown memory type or a dead array handle; otherwise core's
// description or its error (a box outside an array, a width above a pitch, ...).
Result<core::StridedCopy> describe_copy(const CUDA_MEMCPY2D& copy);
Result<core::StridedCopy> describe_copy(const CUDA_MEMCPY3D& copy);

CUresult submit_copy(const Result<core::StridedCopy>& copy, CUstream stream, core::NullStream null_stream,
                     core::HostSync sync);

}  // namespace cucpu::driver
