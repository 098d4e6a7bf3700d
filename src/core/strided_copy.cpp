// Pitched copies and sets: CUDA's argument checks (Runtime API reference, cudaMemcpy2D,
// cudaMemcpy3D, cudaMemset2D/3D) and the row loops. Device memory is host memory, so a
// copy in any direction is the same loop; rows that are contiguous on both sides (pitch
// equal to width) collapse into one memmove.
#include "core/strided_copy.h"

#include <fmt/format.h>

#include <cstring>

#include "core/device.h"
#include "core/memory_registry.h"

namespace cucpu::core {
namespace {

Error invalid(std::string why) { return make_error(ErrorCode::InvalidValue, std::move(why)); }

size_t max_pitch() { return static_cast<size_t>(device_attribute(DeviceAttribute::cudaDevAttrMaxPitch)); }

// The bytes from the first to one past the last byte of a box; nullopt on overflow.
std::optional<size_t> span_bytes(size_t width, size_t height, size_t depth, size_t pitch, size_t slice_pitch) {
  size_t rows = 0, slices = 0, total = 0;
  if (__builtin_mul_overflow(height - 1, pitch, &rows) || __builtin_mul_overflow(depth - 1, slice_pitch, &slices) ||
      __builtin_add_overflow(rows, slices, &total) || __builtin_add_overflow(total, width, &total))
    return std::nullopt;
  return total;
}

// The first byte of the box at `position` inside pitched memory; nullopt on overflow.
std::optional<size_t> offset_of(Position3D position, size_t pitch, size_t slice_pitch) {
  size_t rows = 0, slices = 0, total = 0;
  if (__builtin_mul_overflow(position.y, pitch, &rows) || __builtin_mul_overflow(position.z, slice_pitch, &slices) ||
      __builtin_add_overflow(rows, slices, &total) || __builtin_add_overflow(total, position.x, &total))
    return std::nullopt;
  return total;
}

// One side of a 3D copy: where the box starts and how far apart its slices are.
Result<void> place_box(const char* side, const PitchedPointer& pointer, Position3D position, Extent3D extent,
                       char** start, size_t* slice_pitch) {
  if (!pointer.ptr) return invalid(fmt::format("the {} pointer is null", side));
  // An H200 says InvalidPitchValue for a row wider than the pitch, InvalidValue for a
  // row that fits but starts too far right (tests/e2e/memory_model_edges).
  if (pointer.pitch > max_pitch() || extent.width > pointer.pitch)
    return make_error(ErrorCode::InvalidPitchValue,
                      fmt::format("the {} pitch {} is narrower than the width {} or above the device's maximum",
                                  side, pointer.pitch, extent.width));
  if (position.x + extent.width > pointer.pitch || position.x + extent.width < position.x)
    return invalid(fmt::format("the {} box (x {} + width {}) reaches past its pitch {}", side, position.x,
                               extent.width, pointer.pitch));
  // Slices are pitch * ysize apart; the box must stay inside one slice's rows, even when
  // it is one slice deep (as on the GPU).
  if (__builtin_mul_overflow(pointer.pitch, pointer.ysize, slice_pitch))
    return invalid(fmt::format("the {} slice size overflows", side));
  if (position.y + extent.height > pointer.ysize)
    return invalid(fmt::format("the {} box (y {} + height {}) reaches past its slice height {}", side, position.y,
                               extent.height, pointer.ysize));
  auto offset = offset_of(position, pointer.pitch, *slice_pitch);
  if (!offset) return invalid(fmt::format("the {} position overflows", side));
  *start = static_cast<char*>(pointer.ptr) + *offset;
  return {};
}

Result<StridedSet> describe_set(void* dst, size_t pitch, size_t slice_pitch, int value, Extent3D extent) {
  StridedSet set{dst, pitch, slice_pitch, static_cast<uint8_t>(value), extent.width, extent.height, extent.depth};
  if (is_empty(set)) return set;
  // A single row needs no pitch: the GPU sets it whatever the pitch says.
  if ((extent.height > 1 || extent.depth > 1) && extent.width > pitch)
    return invalid(fmt::format("memset width {} exceeds the pitch {}", extent.width, pitch));
  auto span = span_bytes(extent.width, extent.height, extent.depth, pitch, slice_pitch);
  if (!span || !memory().contains_range(dst, *span))
    return invalid(fmt::format("memset of {}x{}x{} bytes at {} (pitch {}) is not inside one device allocation",
                               extent.width, extent.height, extent.depth, dst, pitch));
  return set;
}

}  // namespace

size_t pitch_for_width(size_t width) {
  // Rows start on the texture alignment, so that a pitched allocation can back a 2D texture.
  const size_t alignment = static_cast<size_t>(device_attribute(DeviceAttribute::cudaDevAttrTextureAlignment));
  return (width + alignment - 1) / alignment * alignment;
}

Result<StridedCopy> describe_copy_2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                                     size_t height) {
  StridedCopy copy{dst, dst_pitch, 0, src, src_pitch, 0, width, height, 1};
  if (is_empty(copy)) return copy;
  // The maximum matters only where the pitch is used: one row with a 2^40-byte source
  // pitch is accepted on the GPU.
  if (height > 1 && (dst_pitch > max_pitch() || src_pitch > max_pitch()))
    return make_error(ErrorCode::InvalidPitchValue, "a pitch exceeds the device's maximum pitch");
  if (width > dst_pitch || width > src_pitch)
    return make_error(ErrorCode::InvalidPitchValue,
                      fmt::format("width {} exceeds a pitch (destination {}, source {})", width, dst_pitch, src_pitch));
  if (!dst || !src) return invalid("a null pointer");
  return copy;
}

Result<StridedCopy> describe_copy_3d(const PitchedPointer& dst, Position3D dst_position, const PitchedPointer& src,
                                     Position3D src_position, Extent3D extent) {
  StridedCopy copy{nullptr, dst.pitch, 0, nullptr, src.pitch, 0, extent.width, extent.height, extent.depth};
  if (is_empty(copy)) return copy;
  char* dst_start = nullptr;
  char* src_start = nullptr;
  if (auto placed = place_box("destination", dst, dst_position, extent, &dst_start, &copy.dst_slice_pitch); !placed)
    return placed.error();
  if (auto placed = place_box("source", src, src_position, extent, &src_start, &copy.src_slice_pitch); !placed)
    return placed.error();
  copy.dst = dst_start;
  copy.src = src_start;
  return copy;
}

Result<StridedSet> describe_set_2d(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return describe_set(dst, pitch, 0, value, Extent3D{width, height, 1});
}

Result<StridedSet> describe_set_3d(const PitchedPointer& dst, int value, Extent3D extent) {
  size_t slice_pitch = 0;
  if (__builtin_mul_overflow(dst.pitch, dst.ysize, &slice_pitch)) return invalid("the slice size overflows");
  if (extent.depth > 1 && extent.height > dst.ysize)
    return invalid(fmt::format("memset height {} exceeds the slice height {}", extent.height, dst.ysize));
  return describe_set(dst.ptr, dst.pitch, slice_pitch, value, extent);
}

bool is_empty(const StridedCopy& copy) { return copy.width == 0 || copy.height == 0 || copy.depth == 0; }
bool is_empty(const StridedSet& set) { return set.width == 0 || set.height == 0 || set.depth == 0; }

void run_strided_copy(const StridedCopy& copy) {
  if (is_empty(copy)) return;
  auto* dst = static_cast<char*>(copy.dst);
  auto* src = static_cast<const char*>(copy.src);
  const bool contiguous_rows = copy.dst_pitch == copy.width && copy.src_pitch == copy.width;
  for (size_t z = 0; z < copy.depth; ++z) {
    char* dst_slice = dst + z * copy.dst_slice_pitch;
    const char* src_slice = src + z * copy.src_slice_pitch;
    if (contiguous_rows) {
      std::memmove(dst_slice, src_slice, copy.width * copy.height);
      continue;
    }
    for (size_t y = 0; y < copy.height; ++y)
      std::memmove(dst_slice + y * copy.dst_pitch, src_slice + y * copy.src_pitch, copy.width);
  }
}

void run_strided_set(const StridedSet& set) {
  if (is_empty(set)) return;
  auto* dst = static_cast<char*>(set.dst);
  for (size_t z = 0; z < set.depth; ++z) {
    char* slice = dst + z * set.slice_pitch;
    if (set.pitch == set.width) {
      std::memset(slice, set.value, set.width * set.height);
      continue;
    }
    for (size_t y = 0; y < set.height; ++y) std::memset(slice + y * set.pitch, set.value, set.width);
  }
}

}  // namespace cucpu::core
