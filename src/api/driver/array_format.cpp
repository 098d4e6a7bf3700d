// The element formats of CUDA arrays through the driver API (array_format.h).
#include "api/driver/array_format.h"

#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace cucpu::driver {

Result<exec::TexelFormat> to_texel_format(CUarray_format format, unsigned channels) {
  using exec::ChannelKind;
  exec::TexelFormat texel;
  auto set = [&](ChannelKind kind, uint8_t bits) {
    texel.kind = kind;
    texel.channel_bits = bits;
  };
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8: set(ChannelKind::Unsigned, 8); break;
    case CU_AD_FORMAT_UNSIGNED_INT16: set(ChannelKind::Unsigned, 16); break;
    case CU_AD_FORMAT_UNSIGNED_INT32: set(ChannelKind::Unsigned, 32); break;
    case CU_AD_FORMAT_SIGNED_INT8: set(ChannelKind::Signed, 8); break;
    case CU_AD_FORMAT_SIGNED_INT16: set(ChannelKind::Signed, 16); break;
    case CU_AD_FORMAT_SIGNED_INT32: set(ChannelKind::Signed, 32); break;
    case CU_AD_FORMAT_HALF: set(ChannelKind::Float, 16); break;
    case CU_AD_FORMAT_FLOAT: set(ChannelKind::Float, 32); break;
    default: {
      // cuda.h's other formats: packed, block-compressed, YUV and normalized ones.
      const bool known = format == CU_AD_FORMAT_UNORM_INT_101010_2 ||
                         (format >= CU_AD_FORMAT_BC1_UNORM && format <= CU_AD_FORMAT_SNORM_INT16X4);
      if (!known) return Error{ErrorCode::InvalidValue, fmt::format("unknown array format {:#x}", +format)};
      std::string message = fmt::format("array format {:#x} (packed, block-compressed, YUV or normalized)", +format);
      std::fprintf(stderr, "cucpu: %s is not supported yet: CUDA_ERROR_NOT_SUPPORTED\n", message.c_str());
      return Error{ErrorCode::NotSupported, message};
    }
  }
  if (channels != 1 && channels != 2 && channels != 4)
    return Error{ErrorCode::InvalidValue, fmt::format("{} channels (1, 2 or 4)", channels)};
  texel.channels = static_cast<uint8_t>(channels);
  return texel;
}

CUarray_format to_array_format(const exec::TexelFormat& format) {
  switch (format.kind) {
    case exec::ChannelKind::Float: return format.channel_bits == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
    case exec::ChannelKind::Signed:
      return format.channel_bits == 8    ? CU_AD_FORMAT_SIGNED_INT8
             : format.channel_bits == 16 ? CU_AD_FORMAT_SIGNED_INT16
                                         : CU_AD_FORMAT_SIGNED_INT32;
    case exec::ChannelKind::Unsigned: break;
  }
  return format.channel_bits == 8    ? CU_AD_FORMAT_UNSIGNED_INT8
         : format.channel_bits == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                                     : CU_AD_FORMAT_UNSIGNED_INT32;
}

}  // namespace cucpu::driver
