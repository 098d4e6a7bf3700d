// The runtime functions behind tex, tld4, txq, suld, sust and suq (jit/texture_abi.h):
// they look the handle up, decode the instruction's form from `op` and do the access —
// the sampling maths is texture_sampling.cpp's. Surface x coordinates are byte offsets
// (PTX ISA 9.0 §9.7.10.5 suld); out of range, .trap fails the grid with an illegal
// address as the GPU does, .clamp moves to the nearest element and .zero reads zeros and
// drops stores.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "exec/block_execution.h"
#include "exec/texture_object.h"
#include "exec/texture_sampling.h"
#include "exec/texture_symbols.h"
#include "jit/texture_abi.h"

namespace cucpu::exec {
namespace {

using jit::ImageGeometry;
using jit::ImageQuery;
using jit::SurfaceClamp;

ImageGeometry geometry_of(uint32_t op) { return static_cast<ImageGeometry>(op & jit::kGeometryMask); }

bool is_layered(ImageGeometry g) {
  return g == ImageGeometry::A1d || g == ImageGeometry::A2d || g == ImageGeometry::Acube;
}

// Reports in its own frame: abandon_thread drops the thread's stack without unwinding.
[[gnu::noinline]] void report(jit::ThreadContext* c, ErrorCode code, const char* what, uint64_t handle) {
  static_cast<ThreadExecution*>(c->executor)
      ->block->report_error(code, fmt::format("block ({}, {}, {}), thread ({}, {}, {}): {} (handle {:#x})", c->ctaid[0],
                                              c->ctaid[1], c->ctaid[2], c->tid[0], c->tid[1], c->tid[2], what, handle));
}

[[noreturn]] void fail(jit::ThreadContext* c, ErrorCode code, const char* what, uint64_t handle) {
  report(c, code, what, handle);
  ThreadExecution& self = *static_cast<ThreadExecution*>(c->executor);
  self.block->abandon_thread(self);
  __builtin_unreachable();
}

// The surface element an access addresses, after the out-of-range mode; false: .zero
// and out of range (nothing to read or write).
struct SurfaceAccess {
  int64_t x = 0, y = 0, z = 0, layer = 0;  // x in bytes
};

bool place_access(jit::ThreadContext* c, uint64_t handle, const TexelStorage& s, uint32_t op, const int32_t* coords,
                  uint32_t bytes, SurfaceAccess& a) {
  const ImageGeometry g = geometry_of(op);
  const int32_t* p = coords;
  if (is_layered(g)) a.layer = *p++;
  a.x = p[0];
  if (g == ImageGeometry::G2d || g == ImageGeometry::G3d || g == ImageGeometry::A2d) a.y = p[1];
  if (g == ImageGeometry::G3d) a.z = p[2];
  const int64_t limits[4] = {static_cast<int64_t>(s.width * s.format.bytes()) - bytes + 1,
                             static_cast<int64_t>(s.height), static_cast<int64_t>(s.depth),
                             static_cast<int64_t>(s.layers)};
  int64_t* values[4] = {&a.x, &a.y, &a.z, &a.layer};
  bool inside = true;
  for (int i = 0; i < 4; ++i) inside = inside && *values[i] >= 0 && *values[i] < limits[i];
  if (inside) return true;
  switch (static_cast<SurfaceClamp>((op >> jit::kSurfaceClampShift) & 3u)) {
    case SurfaceClamp::Zero: return false;
    case SurfaceClamp::Clamp:
      for (int i = 0; i < 4; ++i) *values[i] = std::clamp<int64_t>(*values[i], 0, std::max<int64_t>(limits[i] - 1, 0));
      return true;
    case SurfaceClamp::Trap: break;
  }
  fail(c, ErrorCode::IllegalAddress, "surface access out of range in .trap mode", handle);
}

uint8_t* element_address(const TexelStorage& s, const SurfaceAccess& a) {
  return s.data + static_cast<uint64_t>(a.layer) * s.layer_pitch + static_cast<uint64_t>(a.z) * s.slice_pitch +
         static_cast<uint64_t>(a.y) * s.row_pitch + static_cast<uint64_t>(a.x);
}

const SurfaceObject& surface_or_fail(jit::ThreadContext* c, uint64_t handle) {
  const SurfaceObject* surface = find_surface_object(handle);
  if (!surface) fail(c, ErrorCode::IllegalAddress, "not a surface object", handle);
  return *surface;
}

// sust.p: one 32-bit component, converted to the surface's channel (floats to half or
// float, integers truncated to the channel's width).
void store_channel(const TexelFormat& format, uint8_t* channel, uint32_t value) {
  if (format.kind == ChannelKind::Float && format.channel_bits == 16) {
    const auto half = std::bit_cast<uint16_t>(static_cast<_Float16>(std::bit_cast<float>(value)));
    std::memcpy(channel, &half, 2);
    return;
  }
  std::memcpy(channel, &value, format.channel_bits / 8u);  // little-endian: the low bytes
}

// OpenCL's channel type and order codes, which the PTX ISA's txq/suq return (§9.7.10.4).
uint32_t channel_data_type(const TexelFormat& f, bool normalized) {
  if (f.kind == ChannelKind::Float) return f.channel_bits == 16 ? 0x10DD : 0x10DE;  // CL_HALF_FLOAT, CL_FLOAT
  const uint32_t step = f.channel_bits == 8 ? 0 : f.channel_bits == 16 ? 1 : 2;
  if (normalized && f.channel_bits < 32) return (f.kind == ChannelKind::Signed ? 0x10D0 : 0x10D2) + step;  // *NORM_INT*
  return (f.kind == ChannelKind::Signed ? 0x10D7 : 0x10DA) + step;  // CL_SIGNED_INT8.., CL_UNSIGNED_INT8..
}
uint32_t channel_order(const TexelFormat& f) { return f.channels == 1 ? 0x10B0 : f.channels == 2 ? 0x10B2 : 0x10B5; }

uint32_t query_storage(const TexelStorage& s, ImageQuery query, bool normalized_float) {
  switch (query) {
    case ImageQuery::Width: return static_cast<uint32_t>(s.width);
    case ImageQuery::Height: return static_cast<uint32_t>(s.height);
    case ImageQuery::Depth: return static_cast<uint32_t>(s.depth);
    case ImageQuery::ChannelDataType: return channel_data_type(s.format, normalized_float);
    case ImageQuery::ChannelOrder: return channel_order(s.format);
    case ImageQuery::ArraySize: return static_cast<uint32_t>(s.cubemap ? s.layers / 6 : s.layers);
    case ImageQuery::NumMipmapLevels: return 1;  // cucpu has no mipmapped arrays
    case ImageQuery::NumSamples: return 1;
    case ImageQuery::MemoryLayout: return s.linear ? 0 : 1;  // pitch-linear vs block-linear
    default: return 0;
  }
}

}  // namespace

extern "C" void __cucpu_tex(jit::ThreadContext* c, uint64_t handle, uint32_t op, const uint32_t* coords,
                            uint32_t* result) {
  const TextureObject* texture = find_texture_object(handle);
  if (!texture) fail(c, ErrorCode::IllegalAddress, "not a texture object", handle);
  const ImageGeometry g = geometry_of(op);
  const uint32_t* p = coords;
  uint64_t layer = 0;
  if (is_layered(g)) layer = *p++;
  FetchResult r;
  float f[3];
  for (int i = 0; i < 3; ++i) f[i] = std::bit_cast<float>(p[i]);
  if (g == ImageGeometry::Cube || g == ImageGeometry::Acube) {
    r = sample_cubemap(*texture, f[0], f[1], f[2], layer);
  } else if (op & jit::kTexGather) {
    r = gather(*texture, f, layer, (op >> jit::kTexComponentShift) & 3u);
  } else if (op & jit::kTexIntegerCoords) {
    int32_t i[3];
    std::memcpy(i, p, sizeof i);
    r = fetch_texel(*texture, i, layer);
  } else {
    r = sample(*texture, f, layer);
  }
  std::memcpy(result, r.bits, sizeof r.bits);
}

extern "C" void __cucpu_suld(jit::ThreadContext* c, uint64_t handle, uint32_t op, const int32_t* coords,
                             uint8_t* result) {
  const SurfaceObject& surface = surface_or_fail(c, handle);
  const uint32_t bytes = (op >> jit::kSurfaceBytesShift) & 0xffu;
  SurfaceAccess a;
  if (!place_access(c, handle, surface.storage, op, coords, bytes, a)) {
    std::memset(result, 0, bytes);
    return;
  }
  std::memcpy(result, element_address(surface.storage, a), bytes);
}

extern "C" void __cucpu_sust(jit::ThreadContext* c, uint64_t handle, uint32_t op, const int32_t* coords,
                             const uint8_t* values) {
  const SurfaceObject& surface = surface_or_fail(c, handle);
  const TexelFormat& format = surface.storage.format;
  const bool formatted = (op & jit::kSurfaceFormatted) != 0;
  const uint32_t bytes = formatted ? format.bytes() : (op >> jit::kSurfaceBytesShift) & 0xffu;
  SurfaceAccess a;
  if (!place_access(c, handle, surface.storage, op, coords, bytes, a)) return;
  uint8_t* element = element_address(surface.storage, a);
  if (!formatted) {
    std::memcpy(element, values, bytes);
    return;
  }
  const uint32_t components = std::min<uint32_t>((op >> jit::kSurfaceComponentsShift) & 7u, format.channels);
  for (uint32_t i = 0; i < components; ++i) {
    uint32_t value;
    std::memcpy(&value, values + 4 * i, 4);
    store_channel(format, element + i * (format.channel_bits / 8u), value);
  }
}

extern "C" uint32_t __cucpu_txq(jit::ThreadContext* c, uint64_t handle, uint32_t query) {
  const TextureObject* texture = find_texture_object(handle);
  if (!texture) fail(c, ErrorCode::IllegalAddress, "not a texture object", handle);
  const Sampler& s = texture->sampler;
  switch (static_cast<ImageQuery>(query)) {
    case ImageQuery::NormalizedCoords: return s.normalized_coords ? 1 : 0;
    case ImageQuery::FilterMode: return static_cast<uint32_t>(s.filter);
    case ImageQuery::AddrMode0: return static_cast<uint32_t>(s.address[0]);
    case ImageQuery::AddrMode1: return static_cast<uint32_t>(s.address[1]);
    case ImageQuery::AddrMode2: return static_cast<uint32_t>(s.address[2]);
    default: return query_storage(texture->storage, static_cast<ImageQuery>(query), s.normalized_float);
  }
}

extern "C" uint32_t __cucpu_suq(jit::ThreadContext* c, uint64_t handle, uint32_t query) {
  const SurfaceObject& surface = surface_or_fail(c, handle);
  if (static_cast<ImageQuery>(query) == ImageQuery::Width)  // suq.width: in elements
    return static_cast<uint32_t>(surface.storage.width);
  return query_storage(surface.storage, static_cast<ImageQuery>(query), false);
}

jit::RuntimeSymbols texture_symbols() {
  return jit::RuntimeSymbols{
      {jit::kTex, reinterpret_cast<void*>(&__cucpu_tex)},   {jit::kSuld, reinterpret_cast<void*>(&__cucpu_suld)},
      {jit::kSust, reinterpret_cast<void*>(&__cucpu_sust)}, {jit::kTxq, reinterpret_cast<void*>(&__cucpu_txq)},
      {jit::kSuq, reinterpret_cast<void*>(&__cucpu_suq)},
  };
}

}  // namespace cucpu::exec
