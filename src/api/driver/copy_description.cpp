// The driver's copy structs as core's copies, and running one (copy_description.h).
#include "api/driver/copy_description.h"

#include "api/driver/driver_state.h"
#include "core/cuda_array.h"
#include "exec/device_printf.h"

namespace cucpu::driver {
namespace {

// One side of a copy as its struct gives it: linear memory from its first byte with its
// pitch and slice height, or a CUDA array; x counts bytes either way.
struct Side {
  char* base = nullptr;
  core::CudaArray* array = nullptr;
  size_t pitch = 0, height = 0;
  size_t x = 0, y = 0, z = 0;

  char* corner() const { return base ? base + x + pitch * (y + height * z) : nullptr; }
  // As core's copies with arrays take it: an array's x in `element`s, linear memory at its corner.
  core::CopySide for_array_copy(uint64_t element, size_t width_bytes, size_t rows) const {
    core::CopySide side;
    side.array = array;
    if (array)
      side.position = core::Position3D{x / element, y, z};
    else
      side.pointer = core::PitchedPointer{corner(), pitch, width_bytes, height ? height : rows};
    return side;
  }
};

// False for an unknown memory type or a handle that is no live array.
bool side_of(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array, size_t pitch, size_t height,
             size_t x, size_t y, size_t z, Side* side) {
  *side = Side{nullptr, nullptr, pitch, height, x, y, z};
  switch (type) {
    case CU_MEMORYTYPE_HOST:
      side->base = static_cast<char*>(const_cast<void*>(host));
      return true;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
      side->base = static_cast<char*>(to_pointer(device));
      return true;
    case CU_MEMORYTYPE_ARRAY:
      side->array = core::find_array(array);
      return side->array != nullptr;
  }
  return false;
}

Error bad_side() { return Error{ErrorCode::InvalidValue, "an unknown memory type or a dead CUDA array"}; }

// The element size of the array(s) a copy touches, in whose units core counts; 0 where an
// offset or the width splits an element (InvalidValue).
uint64_t array_element(const Side& dst, const Side& src, size_t width_bytes) {
  const uint64_t element = (dst.array ? dst.array : src.array)->format.bytes();
  const bool whole =
      width_bytes % element == 0 && (!dst.array || dst.x % element == 0) && (!src.array || src.x % element == 0);
  return whole ? element : 0;
}

}  // namespace

Result<core::StridedCopy> describe_copy(const CUDA_MEMCPY2D& p) {
  Side src, dst;
  if (!side_of(p.srcMemoryType, p.srcHost, p.srcDevice, p.srcArray, p.srcPitch, 0, p.srcXInBytes, p.srcY, 0, &src) ||
      !side_of(p.dstMemoryType, p.dstHost, p.dstDevice, p.dstArray, p.dstPitch, 0, p.dstXInBytes, p.dstY, 0, &dst))
    return bad_side();
  if (!src.array && !dst.array)
    return core::describe_copy_2d(dst.corner(), dst.pitch, src.corner(), src.pitch, p.WidthInBytes, p.Height);
  // Core's 2D copies with arrays count bytes on every side.
  return core::describe_array_copy_2d(dst.for_array_copy(1, p.WidthInBytes, p.Height),
                                      src.for_array_copy(1, p.WidthInBytes, p.Height), p.WidthInBytes, p.Height);
}

Result<core::StridedCopy> describe_copy(const CUDA_MEMCPY3D& p) {
  Side src, dst;
  if (!side_of(p.srcMemoryType, p.srcHost, p.srcDevice, p.srcArray, p.srcPitch, p.srcHeight, p.srcXInBytes, p.srcY,
               p.srcZ, &src) ||
      !side_of(p.dstMemoryType, p.dstHost, p.dstDevice, p.dstArray, p.dstPitch, p.dstHeight, p.dstXInBytes, p.dstY,
               p.dstZ, &dst))
    return bad_side();
  if (!src.array && !dst.array) {
    // The positions go to core apart from the bases, which checks the box against the
    // pitches and slice heights as cudaMemcpy3D does (x + width past a pitch: InvalidValue).
    core::PitchedPointer to{dst.base, dst.pitch, p.WidthInBytes, p.dstHeight ? p.dstHeight : p.Height};
    core::PitchedPointer from{src.base, src.pitch, p.WidthInBytes, p.srcHeight ? p.srcHeight : p.Height};
    return core::describe_copy_3d(to, {dst.x, dst.y, dst.z}, from, {src.x, src.y, src.z},
                                  core::Extent3D{p.WidthInBytes, p.Height, p.Depth});
  }
  const uint64_t element = array_element(dst, src, p.WidthInBytes);
  if (element == 0) return Error{ErrorCode::InvalidValue, "an array offset or width that splits an element"};
  return core::describe_array_copy_3d(dst.for_array_copy(element, p.WidthInBytes, p.Height),
                                      src.for_array_copy(element, p.WidthInBytes, p.Height),
                                      core::Extent3D{p.WidthInBytes / element, p.Height, p.Depth});
}

CUresult submit_copy(const Result<core::StridedCopy>& copy, CUstream handle, core::NullStream null_stream,
                     core::HostSync sync) {
  if (!copy) return to_cu_result(copy.error());
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (core::is_empty(*copy)) return CUDA_SUCCESS;
  if (auto submitted = core::submit_strided_copy(*stream, *copy, sync); !submitted)
    return to_cu_result(submitted.error());
  if (sync == core::HostSync::Asynchronous) return CUDA_SUCCESS;
  exec::flush_device_output();
  return sticky();
}

}  // namespace cucpu::driver
