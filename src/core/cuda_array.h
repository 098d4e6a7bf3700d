// CUDA arrays (cudaMallocArray, cudaMalloc3DArray): the storage of textures and surfaces.
// On a GPU their layout is opaque; here the texels lie row after row with no padding,
// depth slices (or layers, or cubemap faces) one after another, so that copies in and out
// are pitched copies (core/strided_copy.h) and a texture over the array is a
// exec::TexelStorage over the same bytes. The runtime API checks CUDA's rules on formats
// and extents; this file keeps the arrays, says whether a handle is live, and turns
// copies with arrays into strided copies with CUDA's bounds checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/strided_copy.h"
#include "exec/texture_object.h"
#include "support/result.h"

namespace cucpu::core {

struct CudaArray {
  exec::TexelFormat format;
  // As cudaMalloc3DArray's extent gave them: height 0 for 1D, depth 0 for 1D and 2D; a
  // layered array's depth counts its layers, a cubemap's its faces.
  uint64_t width = 0, height = 0, depth = 0;
  unsigned flags = 0;  // cudaArrayLayered, cudaArrayCubemap, cudaArraySurfaceLoadStore, ...
  bool layered = false, cubemap = false;
  std::unique_ptr<uint8_t[]> data;

  uint64_t row_bytes() const { return width * format.bytes(); }
  uint64_t rows() const { return height == 0 ? 1 : height; }      // rows per slice
  uint64_t slices() const { return depth == 0 ? 1 : depth; }       // slices, layers or faces
  exec::TexelStorage storage() const;  // the texels as a texture or surface reads them
};

// Whether an array of this extent may exist: cudaMalloc3DArray's (and cuArray3DCreate's)
// rules on which of width, height and depth may be 0, a cubemap's six square faces per
// layer, and the device's texture size limits.
bool array_extent_fits(uint64_t width, uint64_t height, uint64_t depth, bool layered, bool cubemap);

// A new zero-filled array (its shape checked by the caller).
Result<CudaArray*> create_array(const exec::TexelFormat& format, uint64_t width, uint64_t height, uint64_t depth,
                                unsigned flags, bool layered, bool cubemap);
// False when `array` is not a live array (already freed, or never one).
bool destroy_array(CudaArray* array);
// The array an API handle (cudaArray_t, CUarray: the array's address) names; nullptr for
// null or a handle that is no live array.
CudaArray* find_array(const void* handle);

// The bytes [offset, offset + count) of an array's texels, which follow each other row
// after row with no padding (the 1D copies cudaMemcpyToArray, cuMemcpyHtoA, ...); nullptr
// when they reach outside the array.
uint8_t* array_bytes(const CudaArray& array, uint64_t offset, uint64_t count);

// cudaMemcpy3D with a CUDA array on one side or both: an array side's position and the
// extent count elements (the extent's width in the array's elements), a linear side's x
// counts bytes. A box reaching outside an array is InvalidValue.
struct CopySide {
  CudaArray* array = nullptr;  // or linear memory:
  PitchedPointer pointer;
  Position3D position;
};
Result<StridedCopy> describe_array_copy_3d(const CopySide& dst, const CopySide& src, Extent3D extent);

// The 2D copies with arrays (cudaMemcpy2DToArray, ...FromArray, ...ArrayToArray and the
// 1D cudaMemcpyToArray/FromArray): offsets and width in bytes, height in rows.
Result<StridedCopy> describe_array_copy_2d(const CopySide& dst, const CopySide& src, size_t width_bytes,
                                           size_t height);

}  // namespace cucpu::core
