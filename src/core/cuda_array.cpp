// CUDA arrays: allocation, the set of live handles, and copies with arrays as strided
// copies (cuda_array.h).
#include "core/cuda_array.h"

#include "core/device.h"

#include <mutex>
#include <new>
#include <set>

namespace cucpu::core {
namespace {

struct LiveArrays {
  std::mutex mutex;
  std::set<const CudaArray*> arrays;
};

LiveArrays& live() {
  static auto* arrays = new LiveArrays;  // never destroyed: arrays may be freed during exit
  return *arrays;
}

// An array side as pitched memory; its position and width in bytes. False: the box
// (x_bytes + width_bytes, y + height, z + depth) reaches outside the array.
bool array_as_pitched(const CudaArray& array, uint64_t x_bytes, uint64_t y, uint64_t z, uint64_t width_bytes,
                      uint64_t height, uint64_t depth, PitchedPointer& pointer) {
  if (x_bytes + width_bytes > array.row_bytes() || y + height > array.rows() || z + depth > array.slices())
    return false;
  pointer = PitchedPointer{array.data.get(), array.row_bytes(), array.row_bytes(), array.rows()};
  return true;
}

using A = DeviceAttribute;

bool at_most(uint64_t value, A limit) { return value <= static_cast<uint64_t>(device_attribute(limit)); }

}  // namespace

bool array_extent_fits(uint64_t width, uint64_t height, uint64_t depth, bool layered, bool cubemap) {
  if (width == 0) return false;
  if (cubemap) {
    if (width != height || depth == 0 || depth % 6 != 0 || (!layered && depth != 6)) return false;
    return layered ? at_most(width, A::cudaDevAttrMaxTextureCubemapLayeredWidth) &&
                         at_most(depth / 6, A::cudaDevAttrMaxTextureCubemapLayeredLayers)
                   : at_most(width, A::cudaDevAttrMaxTextureCubemapWidth);
  }
  if (layered) {
    if (depth == 0) return false;
    return height == 0 ? at_most(width, A::cudaDevAttrMaxTexture1DLayeredWidth) &&
                             at_most(depth, A::cudaDevAttrMaxTexture1DLayeredLayers)
                       : at_most(width, A::cudaDevAttrMaxTexture2DLayeredWidth) &&
                             at_most(height, A::cudaDevAttrMaxTexture2DLayeredHeight) &&
                             at_most(depth, A::cudaDevAttrMaxTexture2DLayeredLayers);
  }
  if (height == 0 && depth != 0) return false;
  if (depth != 0)
    return at_most(width, A::cudaDevAttrMaxTexture3DWidth) && at_most(height, A::cudaDevAttrMaxTexture3DHeight) &&
           at_most(depth, A::cudaDevAttrMaxTexture3DDepth);
  if (height != 0)
    return at_most(width, A::cudaDevAttrMaxTexture2DWidth) && at_most(height, A::cudaDevAttrMaxTexture2DHeight);
  return at_most(width, A::cudaDevAttrMaxTexture1DWidth);
}

uint8_t* array_bytes(const CudaArray& array, uint64_t offset, uint64_t count) {
  const uint64_t total = array.row_bytes() * array.rows() * array.slices();
  if (offset > total || count > total - offset) return nullptr;
  return array.data.get() + offset;
}

exec::TexelStorage CudaArray::storage() const {
  exec::TexelStorage s;
  s.data = data.get();
  s.format = format;
  s.width = width;
  s.height = rows();
  s.row_pitch = row_bytes();
  s.slice_pitch = row_bytes() * rows();
  s.layered = layered;
  s.cubemap = cubemap;
  if (layered || cubemap) {
    s.layers = slices();
    s.layer_pitch = s.slice_pitch;
    s.dimensions = height == 0 ? 1 : 2;
  } else {
    s.depth = slices();
    s.layer_pitch = s.slice_pitch * s.depth;
    s.dimensions = depth != 0 ? 3 : height != 0 ? 2 : 1;
  }
  return s;
}

Result<CudaArray*> create_array(const exec::TexelFormat& format, uint64_t width, uint64_t height, uint64_t depth,
                                unsigned flags, bool layered, bool cubemap) {
  auto array = std::make_unique<CudaArray>();
  array->format = format;
  array->width = width;
  array->height = height;
  array->depth = depth;
  array->flags = flags;
  array->layered = layered;
  array->cubemap = cubemap;
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(array->row_bytes(), array->rows(), &bytes) ||
      __builtin_mul_overflow(bytes, array->slices(), &bytes))
    return Error{ErrorCode::MemoryAllocation, "CUDA array too large"};
  array->data.reset(new (std::nothrow) uint8_t[bytes]());
  if (!array->data) return Error{ErrorCode::MemoryAllocation, "out of memory for a CUDA array"};
  std::lock_guard lock(live().mutex);
  live().arrays.insert(array.get());
  return array.release();
}

bool destroy_array(CudaArray* array) {
  {
    std::lock_guard lock(live().mutex);
    if (live().arrays.erase(array) == 0) return false;
  }
  delete array;
  return true;
}

CudaArray* find_array(const void* handle) {
  auto* array = static_cast<CudaArray*>(const_cast<void*>(handle));
  std::lock_guard lock(live().mutex);
  return live().arrays.contains(array) ? array : nullptr;
}

Result<StridedCopy> describe_array_copy_3d(const CopySide& dst, const CopySide& src, Extent3D extent) {
  const CudaArray* element_source = dst.array ? dst.array : src.array;
  const uint64_t element = element_source ? element_source->format.bytes() : 1;
  const uint64_t width_bytes = extent.width * element;
  auto side = [&](const CopySide& s, PitchedPointer& pointer, Position3D& position) {
    pointer = s.pointer;
    position = s.position;
    if (!s.array) return true;
    position.x = s.position.x * s.array->format.bytes();
    return array_as_pitched(*s.array, position.x, s.position.y, s.position.z, width_bytes, extent.height,
                            extent.depth, pointer);
  };
  PitchedPointer dst_pointer, src_pointer;
  Position3D dst_position, src_position;
  if (!side(dst, dst_pointer, dst_position) || !side(src, src_pointer, src_position))
    return Error{ErrorCode::InvalidValue, "the copy reaches outside the CUDA array"};
  if (dst.array && src.array && dst.array->format.bytes() != src.array->format.bytes())
    return Error{ErrorCode::InvalidValue, "copy between CUDA arrays of different element sizes"};
  return describe_copy_3d(dst_pointer, dst_position, src_pointer, src_position,
                          Extent3D{width_bytes, extent.height, extent.depth});
}

Result<StridedCopy> describe_array_copy_2d(const CopySide& dst, const CopySide& src, size_t width_bytes,
                                           size_t height) {
  auto side = [&](const CopySide& s, uint8_t*& pointer, size_t& pitch) {
    pointer = static_cast<uint8_t*>(s.pointer.ptr);
    pitch = s.pointer.pitch;
    if (!s.array) return true;
    PitchedPointer p;
    if (!array_as_pitched(*s.array, s.position.x, s.position.y, 0, width_bytes, height, 1, p)) return false;
    pointer = static_cast<uint8_t*>(p.ptr) + s.position.y * p.pitch + s.position.x;
    pitch = p.pitch;
    return true;
  };
  uint8_t *dst_pointer = nullptr, *src_pointer = nullptr;
  size_t dst_pitch = 0, src_pitch = 0;
  if (!side(dst, dst_pointer, dst_pitch) || !side(src, src_pointer, src_pitch))
    return Error{ErrorCode::InvalidValue, "the copy reaches outside the CUDA array"};
  return describe_copy_2d(dst_pointer, dst_pitch, src_pointer, src_pitch, width_bytes, height);
}

}  // namespace cucpu::core
