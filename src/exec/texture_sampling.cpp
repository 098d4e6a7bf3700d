// The sampler maths of texture_sampling.h. A fetch goes: coordinates to texel space
// (times the size when normalized), then per dimension the texel index (point: floor(x);
// linear: floor(x - 0.5) and a weight), the address mode on each index, the texels read
// and converted to floats or integers, and for linear filtering the weighted sum.
// Wrap and mirror exist for normalized coordinates only (guide "Texture Fetching");
// with unnormalized coordinates they clamp.
//
// Linear filtering's arithmetic, as an H100 and an H200 do it (tests/e2e/texture_sampling_edges.cu,
// tests/e2e/texture_rotation.cu):
// - each dimension's weight is the coordinate's fraction rounded to 1/256 (half up); in
//   2D the corners' weights are 1/256 too, made so that they sum to one: the upper corner
//   takes (a * b + 128) >> 8 and the others what is left of a, b and 256 (weights 205,
//   179 give 15, 62, 36, 143, as rounding each product would; but where those roundings
//   sum to 255 or 257, the GPU's do not). 3D corners round each product (not measured);
// - float texels blend exactly and the sum is rounded once to float (to half for half
//   texels: 0.5 * 0.333 + 0.5 * -2.5 = -1.0835 reads -1.08398438, the nearest half).
//   A 512 x 512 image rotated with normalized, wrapped coordinates (NVIDIA's
//   simpleTexture) comes out as on the GPU to the last bit only so;
// - unsigned normalized texels blend in fixed point: each texel as unorm16 (8-bit t as
//   t * 257), times its corner's weight, and the sum rounded to unorm16 (0.5 * 1.0 reads
//   32768 / 65535 = 0.500007629);
// - sRGB channels decode through 16 fractional bits and the sum is truncated to 12 (the
//   GPU's sRGB reads are multiples of 2^-12). This fits the GPU's reads at a texel centre
//   and halfway between two texels but not a 2D blend near 1.0: the rule is incomplete;
// - a 1D texture with border addressing is filtered as a 2D one of height 1 at y = 0, so
//   half of every read is the border colour (GPU: border 8, x = 0.25 reads 5, not 2);
// - integer texels read as integers (the driver API allows linear filtering of those,
//   the runtime does not) blend their values with the same weights and round half up
//   (H200: 8-bit 200 and 50 at weights 192 and 64 read 163; signed texels are assumed
//   to do the same).
#include "exec/texture_sampling.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace cucpu::exec {
namespace {

// Far outside any texture but safe to convert to int64 (NaN reads as 0).
float tame(float x) { return std::isnan(x) ? 0.0f : std::clamp(x, -1.0e12f, 1.0e12f); }

uint64_t size_of(const TexelStorage& s, unsigned dimension) {
  return dimension == 0 ? s.width : dimension == 1 ? s.height : s.depth;
}

// A coordinate in texel space. A normalized one is first cut to 21 fractional bits (floor),
// then scaled exactly: 327,680 random linear reads of 1D textures 7, 100, 192, 333 and
// 1000 texels wide and 262,144 of 2D ones 192 x 160 on an H200 fit this to the last bit
// (tests/e2e/texture_rotation.cu), and none of float products, other cuts or rounding.
double texel_space(float coordinate, uint64_t size, bool normalized) {
  const double x = tame(coordinate);
  if (!normalized) return x;
  return std::clamp(std::floor(x * 0x1p21) * 0x1p-21 * static_cast<double>(size), -1.0e12, 1.0e12);
}

AddressMode mode_of(const Sampler& sampler, unsigned dimension, bool normalized) {
  const AddressMode mode = sampler.address[dimension];
  if (!normalized && (mode == AddressMode::Wrap || mode == AddressMode::Mirror)) return AddressMode::Clamp;
  return mode;
}

const uint8_t* texel_address(const TexelStorage& s, const int64_t* index, uint64_t layer) {
  return s.data + layer * s.layer_pitch + static_cast<uint64_t>(index[2]) * s.slice_pitch +
         static_cast<uint64_t>(index[1]) * s.row_pitch + static_cast<uint64_t>(index[0]) * s.format.bytes();
}

// A resource of no texels (linear memory of size 0) reads zeros.
bool empty(const TexelStorage& s) { return s.width == 0 || s.height == 0 || s.depth == 0 || s.layers == 0; }

uint64_t clamp_layer(const TexelStorage& s, uint64_t layer) { return std::min<uint64_t>(layer, s.layers - 1); }

// An sRGB-encoded 8-bit channel as linear, in 1/65536 (see the file comment).
uint32_t srgb_to_linear16(uint32_t encoded) {
  const double c = encoded / 255.0;
  const double linear = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  return static_cast<uint32_t>(std::floor(linear * 65536.0 + 0.5));
}
float srgb_result(uint64_t linear16_times_256) {
  return static_cast<float>(linear16_times_256 >> 12) / 4096.0f;  // truncated to 12 fractional bits
}

// The raw channel, sign- or zero-extended (floats: their bits).
uint32_t channel_bits(const TexelFormat& format, const uint8_t* texel, unsigned channel) {
  const uint8_t* p = texel + channel * (format.channel_bits / 8u);
  switch (format.channel_bits) {
    case 8: return format.kind == ChannelKind::Signed ? static_cast<uint32_t>(static_cast<int8_t>(*p)) : *p;
    case 16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      if (format.kind == ChannelKind::Signed) return static_cast<uint32_t>(static_cast<int16_t>(v));
      return v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

FetchResult float_result(const float (&v)[4]) {
  FetchResult r;
  for (int i = 0; i < 4; ++i) r.bits[i] = std::bit_cast<uint32_t>(v[i]);
  return r;
}

FetchResult read_integers(const TexelFormat& format, const uint8_t* texel) {
  FetchResult r;
  for (unsigned c = 0; c < format.channels; ++c) r.bits[c] = channel_bits(format, texel, c);
  return r;
}

// A border channel as the texture reads it: normalized reads of integer texels see it in
// the texels' own precision (H200: border 0.75 of 8-bit unsigned texels blends as 191 /
// 255; the nearest step is assumed, and the same for point reads and signed texels).
float border_channel(const TextureObject& t, unsigned c) {
  const TexelFormat& f = t.storage.format;
  const float border = t.sampler.border[c];
  if (f.kind == ChannelKind::Float || !t.sampler.normalized_float) return border;
  const bool is_signed = f.kind == ChannelKind::Signed;
  const double steps = std::ldexp(1.0, f.channel_bits - (is_signed ? 1 : 0)) - 1.0;
  return static_cast<float>(std::nearbyint(std::clamp(static_cast<double>(border), is_signed ? -1.0 : 0.0, 1.0) * steps) / steps);
}

// The border colour, in the channels the format has (H100: border 8 on a float texture
// reads 8 0 0 0).
FetchResult border_result(const TextureObject& t) {
  FetchResult r;
  const bool as_float = reads_as_float(t);
  for (unsigned i = 0; i < t.storage.format.channels; ++i)
    r.bits[i] = as_float ? std::bit_cast<uint32_t>(border_channel(t, i))
                         : static_cast<uint32_t>(static_cast<int32_t>(t.sampler.border[i]));
  return r;
}

bool outside(const int64_t* index) { return index[0] < 0 || index[1] < 0 || index[2] < 0; }

// One texel at already addressed indices (-1 in any: the border).
FetchResult read_texel(const TextureObject& t, const int64_t* index, uint64_t layer) {
  if (outside(index)) return border_result(t);
  const uint8_t* texel = texel_address(t.storage, index, layer);
  if (!reads_as_float(t)) return read_integers(t.storage.format, texel);
  float v[4];
  decode_texel_as_float(t.storage.format, t.sampler, texel, v);
  return float_result(v);
}

FetchResult sample_point(const TextureObject& t, const float* coords, uint64_t layer, bool normalized) {
  int64_t index[3] = {0, 0, 0};
  for (unsigned d = 0; d < t.storage.dimensions; ++d) {
    const uint64_t size = size_of(t.storage, d);
    const double x = texel_space(coords[d], size, normalized);
    index[d] = apply_address_mode(static_cast<int64_t>(std::floor(x)), size, mode_of(t.sampler, d, normalized));
  }
  return read_texel(t, index, layer);
}

// How linear filtering blends one channel (see the file comment).
enum class Blend { Float, Half, Unorm, Srgb, Snorm };

Blend blend_of(const TextureObject& t, unsigned channel) {
  const TexelFormat& f = t.storage.format;
  if (f.kind == ChannelKind::Float) return f.channel_bits == 16 ? Blend::Half : Blend::Float;
  if (f.kind == ChannelKind::Signed) return Blend::Snorm;
  return t.sampler.srgb && f.channel_bits == 8 && channel < 3 ? Blend::Srgb : Blend::Unorm;
}

// One corner of the filter footprint: its texel (nullptr: the border) and weight in 1/256.
struct Corner {
  const uint8_t* texel = nullptr;
  uint32_t weight = 0;
};

// A channel in the fixed-point units the unorm and sRGB blends use (1/65535, 1/65536).
double fixed_channel(const TextureObject& t, const Corner& corner, unsigned c, Blend blend) {
  const TexelFormat& f = t.storage.format;
  if (c >= f.channels) return 0.0;
  if (!corner.texel) return blend == Blend::Srgb ? t.sampler.border[c] * 65536.0 : border_channel(t, c) * 65535.0;
  const uint32_t bits = channel_bits(f, corner.texel, c);
  if (blend == Blend::Srgb) return srgb_to_linear16(bits);
  return f.channel_bits == 8 ? bits * 257.0 : bits;
}

float blend_channel(const TextureObject& t, const Corner* corners, unsigned count, unsigned c) {
  const Blend blend = blend_of(t, c);
  if (blend == Blend::Unorm || blend == Blend::Srgb) {
    double sum = 0;  // in 1/256 of a unorm16 step
    for (unsigned i = 0; i < count; ++i) sum += corners[i].weight * fixed_channel(t, corners[i], c, blend);
    if (blend == Blend::Srgb) return srgb_result(static_cast<uint64_t>(std::max(sum, 0.0)));  // a negative border: 0
    return static_cast<float>(std::floor(sum / 256.0 + 0.5) / 65535.0);
  }
  const float border = std::bit_cast<float>(border_result(t).bits[c]);
  double sum = 0;  // exact unless the texels' magnitudes lie 2^20 apart
  for (unsigned i = 0; i < count; ++i) {
    float value = border;
    if (corners[i].texel) {
      float texel[4];
      decode_texel_as_float(t.storage.format, t.sampler, corners[i].texel, texel);
      value = texel[c];
    }
    sum += corners[i].weight / 256.0 * value;
  }
  return blend == Blend::Half ? static_cast<float>(static_cast<_Float16>(sum)) : static_cast<float>(sum);
}

// Integer texels read as integers, blended (see the file comment).
FetchResult blend_integers(const TextureObject& t, const Corner* corners, unsigned count) {
  const TexelFormat& f = t.storage.format;
  const FetchResult border = border_result(t);
  FetchResult r;
  for (unsigned c = 0; c < f.channels; ++c) {
    double sum = 0;  // in 1/256 of a step; exact
    for (unsigned i = 0; i < count; ++i) {
      const uint32_t bits = corners[i].texel ? channel_bits(f, corners[i].texel, c) : border.bits[c];
      const double value = f.kind == ChannelKind::Signed ? static_cast<int32_t>(bits) : static_cast<double>(bits);
      sum += corners[i].weight * value;
    }
    const double rounded = std::floor(sum / 256.0 + 0.5);
    r.bits[c] = f.kind == ChannelKind::Signed ? static_cast<uint32_t>(static_cast<int32_t>(rounded))
                                              : static_cast<uint32_t>(rounded);
  }
  return r;
}

// The corners' weights in 1/256 from the dimensions' (see the file comment); corner k is
// the upper texel in dimension d where bit d of k is set.
void corner_weights(const uint32_t* weight, unsigned dims, uint32_t* out) {
  const uint32_t a = weight[0], b = weight[1];
  if (dims == 1) {
    out[0] = 256 - a;
    out[1] = a;
  } else if (dims == 2) {
    out[3] = (a * b + 128) >> 8;
    out[1] = a - out[3];
    out[2] = b - out[3];
    out[0] = 256 - a - b + out[3];
  } else {
    for (unsigned corner = 0; corner < 8; ++corner) {
      uint64_t w = 1;
      for (unsigned d = 0; d < 3; ++d) w *= (corner >> d) & 1u ? weight[d] : 256u - weight[d];
      out[corner] = static_cast<uint32_t>((w + (uint64_t{1} << 15)) >> 16);
    }
  }
}

// The texels a linear filter (or a gather) reads in each of the first `dims` dimensions,
// addressed, and the upper one's weight in 1/256.
struct LinearFootprint {
  int64_t lower[3] = {0, 0, 0}, upper[3] = {0, 0, 0};
  uint32_t weight[3] = {0, 0, 0};
};

LinearFootprint linear_footprint(const TextureObject& t, const float* coords, unsigned dims, bool normalized) {
  LinearFootprint f;
  for (unsigned d = 0; d < dims; ++d) {
    const uint64_t size = size_of(t.storage, d);
    const LinearSplit split = split_for_linear(texel_space(coords[d], size, normalized) - 0.5);
    const AddressMode mode = mode_of(t.sampler, d, normalized);
    f.lower[d] = apply_address_mode(split.lower, size, mode);
    f.upper[d] = apply_address_mode(split.lower + 1, size, mode);
    f.weight[d] = split.weight;
  }
  return f;
}

FetchResult sample_linear(const TextureObject& t, const float* coords, uint64_t layer, bool normalized) {
  // A 1D texture with border addressing is filtered as 2D at y = 0: the texels of row -1
  // are the border's.
  const bool as_2d = t.storage.dimensions == 1 && mode_of(t.sampler, 1, normalized) == AddressMode::Border;
  const unsigned dims = as_2d ? 2 : t.storage.dimensions;
  const float at_row_0[2] = {coords[0], 0.0f};
  const LinearFootprint footprint = linear_footprint(t, as_2d ? at_row_0 : coords, dims, normalized);
  const auto& [lower, upper, weight] = footprint;
  uint32_t weights[8];
  corner_weights(weight, dims, weights);
  Corner corners[8];
  const unsigned count = 1u << dims;
  for (unsigned corner = 0; corner < count; ++corner) {
    int64_t index[3] = {0, 0, 0};
    for (unsigned d = 0; d < dims; ++d) index[d] = (corner >> d) & 1u ? upper[d] : lower[d];
    corners[corner] = Corner{outside(index) ? nullptr : texel_address(t.storage, index, layer), weights[corner]};
  }
  if (!reads_as_float(t)) return blend_integers(t, corners, count);
  float result[4];
  for (unsigned c = 0; c < 4; ++c) result[c] = blend_channel(t, corners, count, c);
  return float_result(result);
}

FetchResult sample_at(const TextureObject& t, const float* coords, uint64_t layer, bool normalized) {
  if (t.sampler.filter == FilterMode::Linear) return sample_linear(t, coords, layer, normalized);
  return sample_point(t, coords, layer, normalized);
}

}  // namespace

int64_t apply_address_mode(int64_t index, uint64_t size, AddressMode mode) {
  const auto n = static_cast<int64_t>(size);
  switch (mode) {
    case AddressMode::Wrap: return ((index % n) + n) % n;
    case AddressMode::Mirror: {
      const int64_t m = ((index % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case AddressMode::Border: return index < 0 || index >= n ? -1 : index;
    case AddressMode::Clamp: break;
  }
  return std::clamp<int64_t>(index, 0, n - 1);
}

LinearSplit split_for_linear(double texel_coordinate) {
  const auto fixed = static_cast<int64_t>(std::floor(texel_coordinate * 256.0 + 0.5));
  return LinearSplit{fixed >> 8, static_cast<uint32_t>(fixed & 255)};
}

bool reads_as_float(const TextureObject& texture) {
  return texture.storage.format.kind == ChannelKind::Float ||
         (texture.sampler.normalized_float && texture.storage.format.channel_bits < 32);
}

void decode_texel_as_float(const TexelFormat& format, const Sampler& sampler, const uint8_t* texel, float out[4]) {
  out[0] = out[1] = out[2] = out[3] = 0.0f;
  for (unsigned c = 0; c < format.channels; ++c) {
    const uint32_t bits = channel_bits(format, texel, c);
    if (format.kind == ChannelKind::Float) {
      out[c] = format.channel_bits == 16 ? static_cast<float>(std::bit_cast<_Float16>(static_cast<uint16_t>(bits)))
                                         : std::bit_cast<float>(bits);
    } else if (format.kind == ChannelKind::Unsigned) {
      out[c] = static_cast<float>(bits) / static_cast<float>((1u << format.channel_bits) - 1u);
      if (sampler.srgb && format.channel_bits == 8 && c < 3) out[c] = srgb_result(uint64_t{srgb_to_linear16(bits)} * 256);
    } else {
      const float max = static_cast<float>((1u << (format.channel_bits - 1)) - 1u);
      out[c] = std::max(static_cast<float>(static_cast<int32_t>(bits)) / max, -1.0f);
    }
  }
}

FetchResult sample(const TextureObject& texture, const float* coords, uint64_t layer) {
  if (empty(texture.storage)) return FetchResult{};
  return sample_at(texture, coords, clamp_layer(texture.storage, layer), texture.sampler.normalized_coords);
}

FetchResult fetch_texel(const TextureObject& t, const int32_t* coords, uint64_t layer) {
  if (empty(t.storage)) return FetchResult{};
  int64_t index[3] = {0, 0, 0};
  if (t.storage.linear) {
    if (coords[0] < 0 || static_cast<uint64_t>(coords[0]) >= t.storage.width) return FetchResult{};
    index[0] = coords[0];
    return read_texel(t, index, 0);
  }
  for (unsigned d = 0; d < t.storage.dimensions; ++d) {
    const AddressMode mode = t.sampler.address[d] == AddressMode::Border ? AddressMode::Border : AddressMode::Clamp;
    index[d] = apply_address_mode(coords[d], size_of(t.storage, d), mode);
  }
  return read_texel(t, index, clamp_layer(t.storage, layer));
}

FetchResult gather(const TextureObject& t, const float* coords, uint64_t layer, unsigned component) {
  if (empty(t.storage)) return FetchResult{};
  layer = clamp_layer(t.storage, layer);
  const LinearFootprint footprint = linear_footprint(t, coords, 2, t.sampler.normalized_coords);
  const auto& [lower, upper, weight] = footprint;
  const int64_t corners[4][3] = {
      {lower[0], upper[1], 0}, {upper[0], upper[1], 0}, {upper[0], lower[1], 0}, {lower[0], lower[1], 0}};
  FetchResult r;
  for (int i = 0; i < 4; ++i) r.bits[i] = read_texel(t, corners[i], layer).bits[component & 3u];
  return r;
}

CubeFace select_cube_face(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  CubeFace f;
  float m, s, t;
  if (az >= ax && az >= ay) {  // ties: z, then y, then x
    m = az;
    f.face = z >= 0 ? 4 : 5;
    s = z >= 0 ? x : -x;
    t = -y;
  } else if (ay >= ax) {
    m = ay;
    f.face = y >= 0 ? 2 : 3;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    m = ax;
    f.face = x >= 0 ? 0 : 1;
    s = x >= 0 ? -z : z;
    t = -y;
  }
  if (m == 0.0f) {  // the null direction: +z, its last texel
    f.s = f.t = 1.0f;
    return f;
  }
  f.s = (s / m + 1.0f) * 0.5f;
  f.t = (t / m + 1.0f) * 0.5f;
  return f;
}

FetchResult sample_cubemap(const TextureObject& texture, float x, float y, float z, uint64_t cube) {
  const CubeFace f = select_cube_face(x, y, z);
  const float coords[2] = {f.s, f.t};
  TextureObject face = texture;
  face.storage.dimensions = 2;
  face.sampler.address[0] = face.sampler.address[1] = AddressMode::Clamp;
  return sample_at(face, coords, clamp_layer(texture.storage, cube * 6 + f.face), true);
}

}  // namespace cucpu::exec
