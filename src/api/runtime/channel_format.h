// cudaChannelFormatDesc <-> exec::TexelFormat: the formats CUDA arrays and textures over
// linear memory may have (1, 2 or 4 equal channels of 8/16/32-bit integers, 16/32-bit
// floats). The block-compressed, NV12 and packed-normalized kinds are not supported.
#pragma once

#include <cuda_runtime_api.h>

#include "exec/texture_object.h"
#include "support/result.h"

namespace cucpu::runtime {

// InvalidValue for a descriptor CUDA rejects (cudaErrorInvalidChannelDescriptor is the
// caller's to return where CUDA gives it); NotSupported for the special kinds.
Result<exec::TexelFormat> to_texel_format(const cudaChannelFormatDesc& desc);
cudaChannelFormatDesc to_channel_desc(const exec::TexelFormat& format);

}  // namespace cucpu::runtime
