// CUarray_format + channel count <-> exec::TexelFormat: the element formats of CUDA
// arrays and of textures over linear memory through the driver API (1, 2 or 4 channels
// of 8/16/32-bit integers, half or float). The normalized, block-compressed and NV12
// formats are not supported.
#pragma once

#include <cuda.h>

#include "exec/texture_object.h"
#include "support/result.h"

namespace cucpu::driver {

// InvalidValue for a format or channel count the driver rejects; NotSupported (named on
// stderr) for the special formats cucpu lacks.
Result<exec::TexelFormat> to_texel_format(CUarray_format format, unsigned channels);
CUarray_format to_array_format(const exec::TexelFormat& format);

}  // namespace cucpu::driver
