// Texture fetches as the GPU computes them (CUDA Programming Guide, appendix "Texture
// Fetching"): address modes on texel indices, point and linear filtering with the
// hardware's 1.8 fixed-point weights, texel centres at +0.5, conversion of 8/16-bit
// integers to normalized floats, sRGB decoding, border colours, cubemap face selection and
// gathers (tld4). Pure functions over texture_object.h's descriptions: no device state.
// Where the guide is silent the rules are the ones an H100 follows
// (tests/e2e/texture_sampling_edges.cu); texture_sampling.cpp says which.
#pragma once

#include <cstdint>

#include "exec/texture_object.h"

namespace cucpu::exec {

// The four 32-bit words a tex/tld4 writes: floats when the texture reads as floats (a
// float format, or integers read as normalized floats), else the integers, sign- or
// zero-extended. Channels the format lacks read 0, alpha included (H100: a float or
// int2 texture reads w = 0, not 1).
struct FetchResult {
  uint32_t bits[4] = {0, 0, 0, 0};
};

// What `index` becomes in a dimension of `size` texels under `mode`: wrapped, mirrored,
// or clamped into [0, size); -1 when it falls outside with AddressMode::Border.
int64_t apply_address_mode(int64_t index, uint64_t size, AddressMode mode);

// Linear filtering of a coordinate in texel space: xB = x - 0.5, the lower texel
// floor(xB), and the upper texel's weight frac(xB) held with 8 fractional bits, as the
// guide's "Linear Filtering" says the hardware keeps it. The rounding is half up:
// floor(xB * 256 + 0.5) (H100: xB = 1/512 gives 1/256; 0.001 gives 0).
struct LinearSplit {
  int64_t lower = 0;
  uint32_t weight = 0;  // of lower + 1, in 1/256: 0..255
};
LinearSplit split_for_linear(double texel_coordinate);

// Whether a texture reads as floats (float format, or normalized-float read mode).
bool reads_as_float(const TextureObject& texture);

// tex at float coordinates (texel units, or [0, 1) with normalized coordinates; as many as
// the storage has dimensions) in one layer (clamped into the layers there are).
FetchResult sample(const TextureObject& texture, const float* coords, uint64_t layer);
// tex with integer coordinates: the texel at those indices, point sampled; on linear
// memory (tex1Dfetch) an index outside the buffer reads zeros.
FetchResult fetch_texel(const TextureObject& texture, const int32_t* coords, uint64_t layer);
// tld4 (tex2Dgather): one component of the four texels linear filtering at (x, y) blends,
// in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j).
FetchResult gather(const TextureObject& texture, const float* coords, uint64_t layer, unsigned component);

// Cubemap addressing (guide "Cubemap Textures"): the face the direction (x, y, z) hits and
// the normalized face coordinates ((s/m + 1)/2, (t/m + 1)/2). Ties go to z, then y, then x
// (H100: (1, 1, 1) reads +z); the null direction reads +z's last texel (s = t = 1).
struct CubeFace {
  unsigned face = 0;  // +x -x +y -y +z -z
  float s = 0, t = 0;
};
CubeFace select_cube_face(float x, float y, float z);
// texCubemap / texCubemapLayered: the face of cube `cube` (layer cube * 6 + face).
FetchResult sample_cubemap(const TextureObject& texture, float x, float y, float z, uint64_t cube);

// A texel's channels as floats, as a normalized-float or float texture reads them (point
// sampling: the same values linear filtering gives at weight 0).
void decode_texel_as_float(const TexelFormat& format, const Sampler& sampler, const uint8_t* texel, float out[4]);

}  // namespace cucpu::exec
