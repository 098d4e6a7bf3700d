// Texture and surface objects as the device sees them: where the texels are, how they are
// laid out, and how a fetch addresses, filters and converts them (CUDA Programming Guide
// "Texture and Surface Memory"). The runtime API builds them from cudaResourceDesc and
// cudaTextureDesc (api/runtime/texture_api.cpp) and registers them here; a kernel names
// one by the .u64 handle of tex/tld4/txq/suld/sust/suq, and the runtime functions of
// texture_fetch.cpp look the handle up. No CUDA headers: these are cucpu's own words.
#pragma once

#include <cstdint>

namespace cucpu::exec {

enum class ChannelKind : uint8_t { Signed, Unsigned, Float };  // cudaChannelFormatKind's three

// One texel: `channels` (1, 2 or 4) channels of `channel_bits` (8, 16 or 32) each, in the
// order x y z w. Float channels are 16 (half) or 32 bits.
struct TexelFormat {
  uint8_t channels = 1;
  uint8_t channel_bits = 32;
  ChannelKind kind = ChannelKind::Float;
  uint32_t bytes() const { return channels * channel_bits / 8u; }
};

// The texels: `layers` images of width x height x depth texels (1D: height = depth = 1),
// rows `row_pitch` bytes apart, depth slices `slice_pitch` apart, layers `layer_pitch`
// apart. A cubemap is six 2D layers per cube (face order +x -x +y -y +z -z).
struct TexelStorage {
  uint8_t* data = nullptr;
  TexelFormat format;
  uint64_t width = 1, height = 1, depth = 1, layers = 1;
  uint64_t row_pitch = 0, slice_pitch = 0, layer_pitch = 0;
  uint8_t dimensions = 1;  // 1, 2 or 3: how many coordinates address one layer
  bool layered = false;
  bool cubemap = false;
  bool linear = false;  // cudaResourceTypeLinear: tex1Dfetch only, out-of-range reads give 0
};

// The values are those of cudaTextureAddressMode and cudaTextureFilterMode.
enum class AddressMode : uint8_t { Wrap = 0, Clamp = 1, Mirror = 2, Border = 3 };
enum class FilterMode : uint8_t { Point = 0, Linear = 1 };

struct Sampler {
  AddressMode address[3] = {AddressMode::Wrap, AddressMode::Wrap, AddressMode::Wrap};
  FilterMode filter = FilterMode::Point;
  bool normalized_float = false;   // cudaReadModeNormalizedFloat: 8/16-bit integers read as [0,1] / [-1,1]
  bool normalized_coords = false;  // coordinates in [0, 1) rather than [0, size)
  bool srgb = false;               // 8-bit unsigned RGB channels decoded from sRGB
  float border[4] = {0, 0, 0, 0};
};

struct TextureObject {
  TexelStorage storage;
  Sampler sampler;
};

struct SurfaceObject {
  TexelStorage storage;
};

// The handle tables. Handles start at 1 (0 is never an object); a destroyed handle finds
// nothing until it is handed out again. Lookups take no lock: kernels fetch concurrently.
uint64_t add_texture_object(const TextureObject& object);  // 0 when the table is full
bool remove_texture_object(uint64_t handle);                // false: not a live handle
const TextureObject* find_texture_object(uint64_t handle);  // nullptr: not a live handle
uint64_t add_surface_object(const SurfaceObject& object);
bool remove_surface_object(uint64_t handle);
const SurfaceObject* find_surface_object(uint64_t handle);

}  // namespace cucpu::exec
