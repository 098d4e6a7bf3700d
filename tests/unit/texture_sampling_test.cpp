// The sampler maths of exec/texture_sampling.h: address modes on texel indices, linear
// filtering's 1.8 fixed-point weights, texel conversion (normalized float, sRGB, half),
// border colours, gathers and cubemap faces (CUDA Programming Guide, "Texture Fetching").
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <vector>

#include "exec/texture_sampling.h"

using namespace cucpu::exec;

namespace {

float as_float(uint32_t bits) { return std::bit_cast<float>(bits); }

// A 4x4 float texture T[y][x] = 10 y + x (the conformance program's).
struct FloatTexture {
  std::vector<float> texels;
  TextureObject object;
  FloatTexture(FilterMode filter, AddressMode mode, bool normalized) : texels(16) {
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) texels[y * 4 + x] = 10.0f * y + x;
    TexelStorage& s = object.storage;
    s.data = reinterpret_cast<uint8_t*>(texels.data());
    s.format = TexelFormat{1, 32, ChannelKind::Float};
    s.width = s.height = 4;
    s.row_pitch = 16;
    s.slice_pitch = s.layer_pitch = 64;
    s.dimensions = 2;
    object.sampler.filter = filter;
    object.sampler.address[0] = object.sampler.address[1] = mode;
    object.sampler.normalized_coords = normalized;
  }
  float at(float x, float y) const {
    const float c[2] = {x, y};
    return as_float(sample(object, c, 0).bits[0]);
  }
};

TEST(TextureSampling, AddressModesOnTexelIndices) {
  EXPECT_EQ(apply_address_mode(-1, 4, AddressMode::Clamp), 0);
  EXPECT_EQ(apply_address_mode(9, 4, AddressMode::Clamp), 3);
  EXPECT_EQ(apply_address_mode(-1, 4, AddressMode::Wrap), 3);
  EXPECT_EQ(apply_address_mode(9, 4, AddressMode::Wrap), 1);
  // Mirror repeats 0 1 2 3 3 2 1 0 0 1 ...
  EXPECT_EQ(apply_address_mode(4, 4, AddressMode::Mirror), 3);
  EXPECT_EQ(apply_address_mode(7, 4, AddressMode::Mirror), 0);
  EXPECT_EQ(apply_address_mode(8, 4, AddressMode::Mirror), 0);
  EXPECT_EQ(apply_address_mode(-1, 4, AddressMode::Mirror), 0);
  EXPECT_EQ(apply_address_mode(-2, 4, AddressMode::Mirror), 1);
  EXPECT_EQ(apply_address_mode(-1, 4, AddressMode::Border), -1);
  EXPECT_EQ(apply_address_mode(4, 4, AddressMode::Border), -1);
  EXPECT_EQ(apply_address_mode(3, 4, AddressMode::Border), 3);
}

TEST(TextureSampling, LinearWeightsHaveEightFractionalBits) {
  LinearSplit s = split_for_linear(0.25f);
  EXPECT_EQ(s.lower, 0);
  EXPECT_EQ(s.weight, 64u);
  s = split_for_linear(-0.5f);
  EXPECT_EQ(s.lower, -1);
  EXPECT_EQ(s.weight, 128u);
  s = split_for_linear(1.0f / 3.0f);  // 85.33 / 256 -> 85 / 256
  EXPECT_EQ(s.lower, 0);
  EXPECT_EQ(s.weight, 85u);
  s = split_for_linear(2.999f);  // 767.74 / 256 -> 768 / 256: the next texel, weight 0
  EXPECT_EQ(s.lower, 3);
  EXPECT_EQ(s.weight, 0u);
}

TEST(TextureSampling, LinearWeightsRoundHalfUp) {
  EXPECT_EQ(split_for_linear(1.0f / 512.0f).weight, 1u);  // 0.5 / 256: up (H100), not to even
  EXPECT_EQ(split_for_linear(0.001f).weight, 0u);         // 0.256 / 256
  EXPECT_EQ(split_for_linear(3.0f / 512.0f).weight, 2u);  // 1.5 / 256
  EXPECT_EQ(split_for_linear(0.9990234f).weight, 0u);     // 255.75 / 256 -> the next texel
  EXPECT_EQ(split_for_linear(0.9990234f).lower, 1);
}

TEST(TextureSampling, PointSamplingUsesTexelCentres) {
  FloatTexture t(FilterMode::Point, AddressMode::Clamp, false);
  EXPECT_EQ(t.at(0.5f, 0.5f), 0.0f);
  EXPECT_EQ(t.at(3.5f, 2.5f), 23.0f);
  EXPECT_EQ(t.at(-3.0f, 1.5f), 10.0f);
  EXPECT_EQ(t.at(10.0f, 2.5f), 23.0f);
  EXPECT_EQ(t.at(0.999f, 0.0f), 0.0f);
  EXPECT_EQ(t.at(1.0f, 0.0f), 1.0f);
}

TEST(TextureSampling, LinearFilteringBlendsNeighbours) {
  FloatTexture t(FilterMode::Linear, AddressMode::Clamp, false);
  EXPECT_FLOAT_EQ(t.at(0.75f, 0.5f), 0.25f);
  EXPECT_FLOAT_EQ(t.at(1.5f, 1.0f), 6.0f);
  EXPECT_FLOAT_EQ(t.at(2.0f, 2.0f), 16.5f);
  EXPECT_FLOAT_EQ(t.at(0.0f, 0.5f), 0.0f);  // clamped: texel 0 on both sides
  // A third of the way: weight 85/256, not 1/3.
  EXPECT_FLOAT_EQ(t.at(0.5f + 1.0f / 3.0f, 0.5f), 85.0f / 256.0f);
}

TEST(TextureSampling, NormalizedCoordinatesWrapMirrorBorder) {
  FloatTexture wrap(FilterMode::Point, AddressMode::Wrap, true);
  EXPECT_EQ(wrap.at(0.375f, 0.125f), 1.0f);
  EXPECT_EQ(wrap.at(1.125f, 0.375f), 10.0f);
  EXPECT_EQ(wrap.at(-0.125f, 0.625f), 23.0f);
  FloatTexture mirror(FilterMode::Point, AddressMode::Mirror, true);
  EXPECT_EQ(mirror.at(1.125f, 0.125f), 3.0f);
  EXPECT_EQ(mirror.at(0.125f, 1.375f), 20.0f);
  FloatTexture border(FilterMode::Point, AddressMode::Border, true);
  border.object.sampler.border[0] = 7.0f;
  EXPECT_EQ(border.at(-0.1f, 0.5f), 7.0f);
  EXPECT_EQ(border.at(1.2f, 0.5f), 7.0f);
  EXPECT_EQ(border.at(0.625f, 0.875f), 32.0f);
  // Linear filtering at the edge blends with the border colour.
  FloatTexture linear_border(FilterMode::Linear, AddressMode::Border, false);
  EXPECT_FLOAT_EQ(linear_border.at(0.25f, 0.5f), 0.0f * 0.75f + 0.0f * 0.25f);
  EXPECT_FLOAT_EQ(linear_border.at(4.0f, 0.5f), 3.0f * 0.5f);
}

TEST(TextureSampling, WrapAndMirrorClampWithUnnormalizedCoordinates) {
  FloatTexture t(FilterMode::Point, AddressMode::Wrap, false);
  EXPECT_EQ(t.at(5.5f, 0.5f), 3.0f);
}

TEST(TextureSampling, NormalizedFloatReadsOfIntegers) {
  const uint8_t u8[4] = {0, 51, 255, 128};
  TexelFormat f{4, 8, ChannelKind::Unsigned};
  Sampler s;
  s.normalized_float = true;
  float out[4];
  decode_texel_as_float(f, s, u8, out);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_FLOAT_EQ(out[1], 0.2f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_FLOAT_EQ(out[3], 128.0f / 255.0f);
  const int8_t s8[2] = {-128, 127};
  decode_texel_as_float(TexelFormat{2, 8, ChannelKind::Signed}, s, reinterpret_cast<const uint8_t*>(s8), out);
  EXPECT_EQ(out[0], -1.0f);  // -128/127 clamps to -1
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 0.0f);  // missing channels: 0, alpha too (H100)
  EXPECT_EQ(out[3], 0.0f);
  const uint16_t u16 = 65535;
  decode_texel_as_float(TexelFormat{1, 16, ChannelKind::Unsigned}, s, reinterpret_cast<const uint8_t*>(&u16), out);
  EXPECT_EQ(out[0], 1.0f);
}

TEST(TextureSampling, SrgbDecodesColourNotAlpha) {
  const uint8_t texel[4] = {128, 10, 255, 128};
  Sampler s;
  s.normalized_float = true;
  s.srgb = true;
  float out[4];
  decode_texel_as_float(TexelFormat{4, 8, ChannelKind::Unsigned}, s, texel, out);
  // Through 16 fractional bits, truncated to 12: 0.2158605 reads 884 / 4096.
  EXPECT_EQ(out[0], 884.0f / 4096.0f);
  EXPECT_EQ(out[1], 12.0f / 4096.0f);  // 10/255/12.92 = 12.43 / 4096
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_FLOAT_EQ(out[3], 128.0f / 255.0f);
}

TEST(TextureSampling, HalfTexelsReadAsFloats) {
  const uint16_t half_1_5 = 0x3e00;
  float out[4];
  decode_texel_as_float(TexelFormat{1, 16, ChannelKind::Float}, Sampler{}, reinterpret_cast<const uint8_t*>(&half_1_5),
                        out);
  EXPECT_EQ(out[0], 1.5f);
}

TEST(TextureSampling, IntegerTexturesReadIntegers) {
  const int16_t texels[3] = {-5, 7, 300};
  TextureObject t;
  t.storage.data = reinterpret_cast<uint8_t*>(const_cast<int16_t*>(texels));
  t.storage.format = TexelFormat{1, 16, ChannelKind::Signed};
  t.storage.width = 3;
  t.storage.row_pitch = t.storage.slice_pitch = t.storage.layer_pitch = 6;
  t.storage.linear = true;
  int32_t i = 0;
  EXPECT_EQ(static_cast<int32_t>(fetch_texel(t, &i, 0).bits[0]), -5);
  i = 2;
  FetchResult r = fetch_texel(t, &i, 0);
  EXPECT_EQ(r.bits[0], 300u);
  EXPECT_EQ(r.bits[1], 0u);
  EXPECT_EQ(r.bits[3], 0u);  // missing channels read 0, alpha too (H100)
  i = 3;  // outside linear memory: zeros
  r = fetch_texel(t, &i, 0);
  EXPECT_EQ(r.bits[0], 0u);
  EXPECT_EQ(r.bits[3], 0u);
}

TEST(TextureSampling, GatherReturnsTheFootprintInOrder) {
  FloatTexture t(FilterMode::Point, AddressMode::Clamp, false);
  const float c[2] = {1.0f, 1.0f};  // footprint: texels (0..1, 0..1)
  const FetchResult r = gather(t.object, c, 0, 0);
  EXPECT_EQ(as_float(r.bits[0]), 10.0f);  // (i, j+1)
  EXPECT_EQ(as_float(r.bits[1]), 11.0f);  // (i+1, j+1)
  EXPECT_EQ(as_float(r.bits[2]), 1.0f);   // (i+1, j)
  EXPECT_EQ(as_float(r.bits[3]), 0.0f);   // (i, j)
}

TEST(TextureSampling, CubemapFaces) {
  CubeFace f = select_cube_face(1.0f, 0.0f, 0.0f);
  EXPECT_EQ(f.face, 0u);
  EXPECT_EQ(f.s, 0.5f);
  EXPECT_EQ(f.t, 0.5f);
  f = select_cube_face(-1.0f, 0.5f, 0.5f);  // -x: s = z, t = -y
  EXPECT_EQ(f.face, 1u);
  EXPECT_EQ(f.s, 0.75f);
  EXPECT_EQ(f.t, 0.25f);
  f = select_cube_face(0.5f, 2.0f, -1.0f);  // +y: s = x, t = z
  EXPECT_EQ(f.face, 2u);
  EXPECT_EQ(f.s, 0.625f);
  EXPECT_EQ(f.t, 0.25f);
  EXPECT_EQ(select_cube_face(0.0f, -3.0f, 1.0f).face, 3u);
  EXPECT_EQ(select_cube_face(0.0f, 0.0f, 2.0f).face, 4u);
  f = select_cube_face(0.5f, 0.0f, -1.0f);  // -z: s = -x
  EXPECT_EQ(f.face, 5u);
  EXPECT_EQ(f.s, 0.25f);
}

TEST(TextureSampling, CubemapTiesGoToZThenY) {
  CubeFace f = select_cube_face(1.0f, 1.0f, 1.0f);  // H100: +z, s = 1, t = 0
  EXPECT_EQ(f.face, 4u);
  EXPECT_EQ(f.s, 1.0f);
  EXPECT_EQ(f.t, 0.0f);
  EXPECT_EQ(select_cube_face(1.0f, -1.0f, 0.5f).face, 3u);
  f = select_cube_face(0.0f, 0.0f, 0.0f);  // H100: +z's last texel
  EXPECT_EQ(f.face, 4u);
  EXPECT_EQ(f.s, 1.0f);
  EXPECT_EQ(f.t, 1.0f);
}

// A texture over `texels` (width x height, one layer) of `format`, linear, clamped.
TextureObject linear_texture(void* texels, TexelFormat format, uint64_t width, uint64_t height) {
  TextureObject t;
  TexelStorage& s = t.storage;
  s.data = static_cast<uint8_t*>(texels);
  s.format = format;
  s.width = width;
  s.height = height;
  s.row_pitch = width * format.bytes();
  s.slice_pitch = s.layer_pitch = s.row_pitch * height;
  s.dimensions = height > 1 ? 2 : 1;
  t.sampler.filter = FilterMode::Linear;
  t.sampler.address[0] = t.sampler.address[1] = t.sampler.address[2] = AddressMode::Clamp;
  return t;
}

TEST(TextureSampling, UnormLinearBlendsInUnorm16) {
  // The H100's uchar4 reads (tests/e2e/texture_sampling_edges.cu).
  uint8_t texels[2][2][4] = {{{0, 64, 128, 255}, {255, 10, 200, 0}}, {{1, 2, 3, 4}, {250, 251, 252, 253}}};
  TextureObject t = linear_texture(texels, TexelFormat{4, 8, ChannelKind::Unsigned}, 2, 2);
  t.sampler.normalized_float = true;
  const float half_way[2] = {1.0f, 0.5f};
  FetchResult r = sample(t, half_way, 0);
  EXPECT_EQ(as_float(r.bits[0]), 32768.0f / 65535.0f);  // 0.500007629: 32767.5 rounds up
  EXPECT_EQ(as_float(r.bits[1]), 37.0f / 255.0f);
  // Weights 205/256, 179/256: the corners weigh 15, 62, 36, 143 / 256.
  const float inside[2] = {1.3f, 1.2f};
  r = sample(t, inside, 0);
  EXPECT_EQ(as_float(r.bits[0]), 0.790386796f);
  EXPECT_EQ(as_float(r.bits[1]), 0.575143039f);
  EXPECT_EQ(as_float(r.bits[2]), 0.773037314f);
  EXPECT_EQ(as_float(r.bits[3]), 0.615014851f);
  t.sampler.srgb = true;  // colour channels through 12 fractional bits, alpha as before
  r = sample(t, half_way, 0);
  EXPECT_EQ(as_float(r.bits[1]), 111.0f / 4096.0f);
  EXPECT_EQ(as_float(r.bits[2]), 1624.0f / 4096.0f);
  EXPECT_EQ(as_float(r.bits[3]), 32768.0f / 65535.0f);
}

TEST(TextureSampling, HalfLinearRoundsToHalf) {
  _Float16 texels[2] = {static_cast<_Float16>(0.333f), static_cast<_Float16>(-2.5f)};
  TextureObject t = linear_texture(texels, TexelFormat{1, 16, ChannelKind::Float}, 2, 1);
  const float x = 1.0f;
  EXPECT_EQ(as_float(sample(t, &x, 0).bits[0]), -1.08398438f);  // -1.08349609 to the nearest half
}

TEST(TextureSampling, OneDimensionalBorderFiltersHalfTheBorderRow) {
  float texels[2] = {0.0f, 1.0f};
  TextureObject t = linear_texture(texels, TexelFormat{1, 32, ChannelKind::Float}, 2, 1);
  t.sampler.address[0] = t.sampler.address[1] = AddressMode::Border;
  for (float& b : t.sampler.border) b = 8.0f;
  float x = 0.25f;  // H100: 5 = 0.5 * 8 + 0.5 * (0.25 * 8)
  FetchResult r = sample(t, &x, 0);
  EXPECT_EQ(as_float(r.bits[0]), 5.0f);
  EXPECT_EQ(r.bits[1], 0u);  // the border colour in the channels the format has only
  EXPECT_EQ(r.bits[3], 0u);
  x = 2.0f;
  EXPECT_EQ(as_float(sample(t, &x, 0).bits[0]), 6.25f);
  t.sampler.address[1] = AddressMode::Clamp;
  x = 0.5f + 1.0f / 3.0f;
  EXPECT_EQ(as_float(sample(t, &x, 0).bits[0]), 85.0f / 256.0f);
}

TEST(TextureSampling, EmptyLinearMemoryReadsZeros) {
  TextureObject t;
  t.storage.width = 0;
  t.storage.linear = true;
  const float x = 0.5f;
  const int32_t i = 0;
  EXPECT_EQ(sample(t, &x, 0).bits[0], 0u);
  EXPECT_EQ(fetch_texel(t, &i, 0).bits[0], 0u);
}

TEST(TextureSampling, LayersClampToTheArray) {
  std::vector<float> texels = {1.0f, 2.0f, 3.0f};  // three 1-texel layers
  TextureObject t;
  t.storage.data = reinterpret_cast<uint8_t*>(texels.data());
  t.storage.format = TexelFormat{1, 32, ChannelKind::Float};
  t.storage.layers = 3;
  t.storage.row_pitch = t.storage.slice_pitch = t.storage.layer_pitch = 4;
  t.storage.layered = true;
  const float x = 0.5f;
  EXPECT_EQ(as_float(sample(t, &x, 1).bits[0]), 2.0f);
  EXPECT_EQ(as_float(sample(t, &x, 7).bits[0]), 3.0f);
}

}  // namespace
