// Running a described copy (core/strided_copy.h) on a driver stream: a synchronous one
// returns when the guide's table says (core/memory_commands.h) and then shows pending
// device printf output and the sticky error. Shared by the pitched and the array copies.
#pragma once

#include <cuda.h>

#include "core/memory_commands.h"
#include "core/stream_handle.h"
#include "core/strided_copy.h"
#include "support/result.h"

namespace cucpu::driver {

CUresult submit_copy(const Result<core::StridedCopy>& copy, CUstream stream, core::NullStream null_stream,
                     core::HostSync sync);

}  // namespace cucpu::driver
