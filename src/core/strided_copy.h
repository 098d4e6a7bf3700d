// Copies and sets over pitched memory: the rows of a 2D region, the slices of a 3D one
// (cudaMemcpy2D/3D, cudaMemset2D/3D and their Async forms). The API layer turns its
// arguments into a plain description here, with CUDA's checks, and either runs it at once
// or hands it to a stream; running it is a loop of memmove/memset over the rows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "support/result.h"

namespace cucpu::core {

// A pitched allocation as cudaPitchedPtr describes it: rows `pitch` bytes apart, slices
// `pitch * ysize` bytes apart; xsize (the row's useful bytes) is informational.
struct PitchedPointer {
  void* ptr = nullptr;
  size_t pitch = 0;
  size_t xsize = 0;
  size_t ysize = 0;
};

// A byte offset into pitched memory (cudaPos for linear memory: x in bytes, y in rows,
// z in slices) and a box size in the same units (cudaExtent).
struct Position3D {
  size_t x = 0, y = 0, z = 0;
};
struct Extent3D {
  size_t width = 0, height = 0, depth = 0;
};

// `depth` slices of `height` rows of `width` bytes, each at its own pitch.
struct StridedCopy {
  void* dst = nullptr;
  size_t dst_pitch = 0;
  size_t dst_slice_pitch = 0;
  const void* src = nullptr;
  size_t src_pitch = 0;
  size_t src_slice_pitch = 0;
  size_t width = 0;
  size_t height = 0;
  size_t depth = 0;
};

struct StridedSet {
  void* dst = nullptr;
  size_t pitch = 0;
  size_t slice_pitch = 0;
  uint8_t value = 0;
  size_t width = 0;
  size_t height = 0;
  size_t depth = 0;
};

// The pitch cudaMallocPitch/cudaMalloc3D give a row of `width` bytes.
size_t pitch_for_width(size_t width);

// cudaMemcpy2D: a width wider than either pitch, or (with several rows) a pitch above the
// device's maximum, is InvalidPitchValue; a null pointer with something to copy is InvalidValue.
Result<StridedCopy> describe_copy_2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                                     size_t height);
// cudaMemcpy3D between linear memory: positions offset each side; a width above a pitch
// is InvalidPitchValue, a box reaching past a row (x + width > pitch) or past a slice
// (y + height > ysize) InvalidValue.
Result<StridedCopy> describe_copy_3d(const PitchedPointer& dst, Position3D dst_position, const PitchedPointer& src,
                                     Position3D src_position, Extent3D extent);
// cudaMemset2D/3D: the rows must lie in device-visible memory cucpu allocated; with
// several rows, none wider than the pitch.
Result<StridedSet> describe_set_2d(void* dst, size_t pitch, int value, size_t width, size_t height);
Result<StridedSet> describe_set_3d(const PitchedPointer& dst, int value, Extent3D extent);

// Whether a description moves no bytes at all (some dimension is 0).
bool is_empty(const StridedCopy& copy);
bool is_empty(const StridedSet& set);

void run_strided_copy(const StridedCopy& copy);
void run_strided_set(const StridedSet& set);

}  // namespace cucpu::core
