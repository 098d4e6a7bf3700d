// The tensor map (CUtensorMap, 128 bytes, 64-byte aligned) as cucpu lays it out.
// cuTensorMapEncodeTiled fills it on the host (encode_tiled_tensor_map, with the driver's
// argument checks); a kernel receives it as a `const __grid_constant__ CUtensorMap`
// parameter (or reads it from global memory) and cp.async.bulk.tensor hands its address
// to the tile-copy helpers (tensor_copy_helpers.cpp). Programs treat it as opaque.
//
// Layout (little-endian, byte offsets):
//    0  u32  magic 'CTM1' (kTensorMapMagic): a map cucpu encoded, not stray bytes
//    4  u8   mode: 1 = tiled
//    5  u8   data type (CUtensorMapDataType value)
//    6  u8   rank, 1..5
//    7  u8   element size in bytes
//    8  u8   interleave (CUtensorMapInterleave value)
//    9  u8   swizzle (CUtensorMapSwizzle value)
//   10  u8   L2 promotion (CUtensorMapL2promotion value; no effect on a CPU)
//   11  u8   OOB fill (CUtensorMapFloatOOBfill value)
//   12  u32  reserved, 0
//   16  u64  global address
//   24  u64  global_dim[5]      elements per dimension (unused dimensions 1)
//   64  u64  global_stride[5]   bytes; [0] is the element size, [i] the caller's globalStrides[i-1]
//  104  u16  box_dim[5]         elements traversed per dimension, 1..256
//  114  u8   element_stride[5]  1..8 ([0] is taken as 1 when interleave is NONE, as the driver does)
//  119  u8[9] reserved, 0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cucpu::jit {

inline constexpr uint32_t kTensorMapMagic = 0x314d5443;  // "CTM1"
inline constexpr unsigned kTensorMapMaxRank = 5;

// The driver's enum values (cuda.h), kept numerically so both sides agree by construction.
enum class TensorDataType : uint8_t {
  U8, U16, U32, S32, U64, S64, F16, F32, F64, BF16, F32Ftz, TF32, TF32Ftz,
  U4Align8, U4Align16, U6Align16,  // packed sub-byte types
};
enum class TensorInterleave : uint8_t { None, Bytes16, Bytes32 };
enum class TensorSwizzle : uint8_t { None, Bytes32, Bytes64, Bytes128, Bytes128Atom32, Bytes128Atom32Flip8, Bytes128Atom64 };
enum class TensorL2Promotion : uint8_t { None, Bytes64, Bytes128, Bytes256 };
enum class TensorOobFill : uint8_t { Zero, NanRequestZeroFma };

struct alignas(64) TensorMap {
  uint32_t magic;
  uint8_t mode;
  TensorDataType data_type;
  uint8_t rank;
  uint8_t element_size;
  TensorInterleave interleave;
  TensorSwizzle swizzle;
  TensorL2Promotion l2_promotion;
  TensorOobFill oob_fill;
  uint32_t reserved0;
  uint64_t global_address;
  uint64_t global_dim[kTensorMapMaxRank];
  uint64_t global_stride[kTensorMapMaxRank];
  uint16_t box_dim[kTensorMapMaxRank];
  uint8_t element_stride[kTensorMapMaxRank];
  uint8_t reserved1[9];
};
static_assert(sizeof(TensorMap) == 128 && offsetof(TensorMap, box_dim) == 104 &&
              offsetof(TensorMap, element_stride) == 114);

// cuTensorMapEncodeTiled's arguments, with the driver's enums as their raw values.
struct TiledTensorMapRequest {
  uint32_t data_type = 0;
  uint32_t rank = 0;
  const void* global_address = nullptr;
  const uint64_t* global_dim = nullptr;      // rank entries
  const uint64_t* global_strides = nullptr;  // rank - 1 entries, bytes
  const uint32_t* box_dim = nullptr;         // rank entries
  const uint32_t* element_strides = nullptr; // rank entries
  uint32_t interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;
};

struct TensorMapStatus {
  enum class Kind : uint8_t { Ok, Invalid, NotSupported };
  Kind kind = Kind::Ok;
  std::string why;  // what is wrong (Invalid) or what cucpu lacks (NotSupported)
};

// Checks `request` as cuTensorMapEncodeTiled does (its documentation in cuda.h) and fills
// `map`. Invalid maps to CUDA_ERROR_INVALID_VALUE; NotSupported (interleaved layouts,
// packed sub-byte types, the 128B-atom swizzles) to CUDA_ERROR_NOT_SUPPORTED.
TensorMapStatus encode_tiled_tensor_map(const TiledTensorMapRequest& request, TensorMap& map);

// The bytes one element of `type` occupies (0 for the packed sub-byte types).
unsigned tensor_element_size(TensorDataType type);

// The contract between lower_async_copy.cpp, which passes these, and
// __cucpu_jit_tensor_copy (tensor_copy_helpers.cpp), which reads them: its `kind` is a
// CopyKind in bits 0..7 and, for cp.reduce, a ReduceOp in bits 8..15; it returns 0, or
// kMisalignedBoxStart for a box the GPU refuses, or any other value for a bad map.
namespace tensor_copy {
enum CopyKind : uint32_t { kLoad = 0, kStore = 1, kReduce = 2, kPrefetch = 3 };
enum ReduceOp : uint32_t { kAdd, kMin, kMax, kInc, kDec, kAnd, kOr, kXor };
constexpr uint32_t kMisalignedBoxStart = 2;
}  // namespace tensor_copy

}  // namespace cucpu::jit
