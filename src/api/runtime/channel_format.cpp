// The channel formats of CUDA arrays and textures (channel_format.h).
#include "api/runtime/channel_format.h"

#include <fmt/format.h>

namespace cucpu::runtime {

Result<exec::TexelFormat> to_texel_format(const cudaChannelFormatDesc& desc) {
  exec::TexelFormat format;
  switch (desc.f) {
    case cudaChannelFormatKindSigned: format.kind = exec::ChannelKind::Signed; break;
    case cudaChannelFormatKindUnsigned: format.kind = exec::ChannelKind::Unsigned; break;
    case cudaChannelFormatKindFloat: format.kind = exec::ChannelKind::Float; break;
    case cudaChannelFormatKindNone: return Error{ErrorCode::InvalidValue, "channel format kind none"};
    default:
      return Error{ErrorCode::NotSupported,
                   fmt::format("channel format kind {} (compressed, NV12 or packed) is not supported by cucpu",
                               static_cast<int>(desc.f))};
  }
  const int bits[4] = {desc.x, desc.y, desc.z, desc.w};
  int channels = 0;
  while (channels < 4 && bits[channels] != 0) ++channels;
  for (int i = channels; i < 4; ++i)
    if (bits[i] != 0) return Error{ErrorCode::InvalidValue, "channel sizes with a gap"};
  for (int i = 1; i < channels; ++i)
    if (bits[i] != bits[0]) return Error{ErrorCode::InvalidValue, "channels of different sizes"};
  if (channels == 0 || channels == 3) return Error{ErrorCode::InvalidValue, "a format has 1, 2 or 4 channels"};
  const bool size_ok = format.kind == exec::ChannelKind::Float ? bits[0] == 16 || bits[0] == 32
                                                               : bits[0] == 8 || bits[0] == 16 || bits[0] == 32;
  if (!size_ok) return Error{ErrorCode::InvalidValue, fmt::format("{}-bit channels", bits[0])};
  format.channels = static_cast<uint8_t>(channels);
  format.channel_bits = static_cast<uint8_t>(bits[0]);
  return format;
}

cudaChannelFormatDesc to_channel_desc(const exec::TexelFormat& format) {
  cudaChannelFormatDesc desc{};
  int* bits[4] = {&desc.x, &desc.y, &desc.z, &desc.w};
  for (int i = 0; i < format.channels; ++i) *bits[i] = format.channel_bits;
  desc.f = format.kind == exec::ChannelKind::Float      ? cudaChannelFormatKindFloat
           : format.kind == exec::ChannelKind::Signed ? cudaChannelFormatKindSigned
                                                      : cudaChannelFormatKindUnsigned;
  return desc;
}

}  // namespace cucpu::runtime
