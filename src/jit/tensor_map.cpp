// cuTensorMapEncodeTiled's checks and cucpu's tensor map layout (tensor_map.h). The
// rules are those cuda.h documents for cuTensorMapEncodeTiled (CUDA 13.0); each failed
// rule says which argument broke it.
#include "jit/tensor_map.h"

#include <fmt/format.h>

#include <cstring>

namespace cucpu::jit {
namespace {

using Kind = TensorMapStatus::Kind;

TensorMapStatus invalid(std::string why) { return {Kind::Invalid, std::move(why)}; }
TensorMapStatus not_supported(std::string why) { return {Kind::NotSupported, std::move(why)}; }

bool is_float(TensorDataType type) {
  switch (type) {
    case TensorDataType::F16:
    case TensorDataType::F32:
    case TensorDataType::F64:
    case TensorDataType::BF16:
    case TensorDataType::F32Ftz:
    case TensorDataType::TF32:
    case TensorDataType::TF32Ftz:
      return true;
    default:
      return false;
  }
}

// The span the 16-byte chunks of a swizzle mode are permuted within.
unsigned swizzle_span(TensorSwizzle swizzle) {
  switch (swizzle) {
    case TensorSwizzle::None:
      return 0;
    case TensorSwizzle::Bytes32:
      return 32;
    case TensorSwizzle::Bytes64:
      return 64;
    default:
      return 128;
  }
}

// The enum arguments, in range and supported.
TensorMapStatus check_modes(const TiledTensorMapRequest& r) {
  if (r.data_type > static_cast<uint32_t>(TensorDataType::U6Align16))
    return invalid(fmt::format("tensorDataType {} is not a CUtensorMapDataType", r.data_type));
  if (r.interleave > static_cast<uint32_t>(TensorInterleave::Bytes32))
    return invalid(fmt::format("interleave {} is not a CUtensorMapInterleave", r.interleave));
  if (r.swizzle > static_cast<uint32_t>(TensorSwizzle::Bytes128Atom64))
    return invalid(fmt::format("swizzle {} is not a CUtensorMapSwizzle", r.swizzle));
  if (r.l2_promotion > static_cast<uint32_t>(TensorL2Promotion::Bytes256))
    return invalid(fmt::format("l2Promotion {} is not a CUtensorMapL2promotion", r.l2_promotion));
  if (r.oob_fill > static_cast<uint32_t>(TensorOobFill::NanRequestZeroFma))
    return invalid(fmt::format("oobFill {} is not a CUtensorMapFloatOOBfill", r.oob_fill));
  const auto type = static_cast<TensorDataType>(r.data_type);
  const auto interleave = static_cast<TensorInterleave>(r.interleave);
  const auto swizzle = static_cast<TensorSwizzle>(r.swizzle);
  if (interleave == TensorInterleave::Bytes32 && swizzle != TensorSwizzle::Bytes32)
    return invalid("interleave CU_TENSOR_MAP_INTERLEAVE_32B needs swizzle CU_TENSOR_MAP_SWIZZLE_32B");
  if (r.oob_fill == static_cast<uint32_t>(TensorOobFill::NanRequestZeroFma) && !is_float(type))
    return invalid("oobFill CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point tensorDataType");
  if (tensor_element_size(type) == 0)
    return not_supported("cuTensorMapEncodeTiled: cucpu does not support the packed sub-byte data types yet");
  if (interleave != TensorInterleave::None)
    return not_supported("cuTensorMapEncodeTiled: cucpu does not support interleaved layouts yet");
  if (swizzle > TensorSwizzle::Bytes128)
    return not_supported("cuTensorMapEncodeTiled: cucpu does not support the 128B-atom swizzle modes yet");
  return {};
}

}  // namespace

unsigned tensor_element_size(TensorDataType type) {
  switch (type) {
    case TensorDataType::U8:
      return 1;
    case TensorDataType::U16:
    case TensorDataType::F16:
    case TensorDataType::BF16:
      return 2;
    case TensorDataType::U32:
    case TensorDataType::S32:
    case TensorDataType::F32:
    case TensorDataType::F32Ftz:
    case TensorDataType::TF32:
    case TensorDataType::TF32Ftz:
      return 4;
    case TensorDataType::U64:
    case TensorDataType::S64:
    case TensorDataType::F64:
      return 8;
    default:
      return 0;
  }
}

TensorMapStatus encode_tiled_tensor_map(const TiledTensorMapRequest& r, TensorMap& map) {
  if (r.rank == 0 || r.rank > kTensorMapMaxRank)
    return invalid(fmt::format("tensorRank {} is not 1 to {}", r.rank, kTensorMapMaxRank));
  if (r.interleave != 0 && r.rank < 3) return invalid("an interleaved layout needs tensorRank 3 or more");
  if (r.global_dim == nullptr || r.box_dim == nullptr || r.element_strides == nullptr ||
      (r.rank > 1 && r.global_strides == nullptr))
    return invalid("globalDim, globalStrides, boxDim and elementStrides must not be NULL");
  if (TensorMapStatus modes = check_modes(r); modes.kind != Kind::Ok) {
    // Enum values out of range are invalid whatever cucpu supports: report those first.
    if (modes.kind == Kind::Invalid) return modes;
  }
  const auto address = reinterpret_cast<uintptr_t>(r.global_address);
  if (address % 16 != 0) return invalid("globalAddress must be 16-byte aligned");
  if (r.interleave == static_cast<uint32_t>(TensorInterleave::Bytes32) && address % 32 != 0)
    return invalid("globalAddress must be 32-byte aligned with CU_TENSOR_MAP_INTERLEAVE_32B");
  for (uint32_t i = 0; i < r.rank; ++i) {
    if (r.global_dim[i] == 0 || r.global_dim[i] > (uint64_t{1} << 32))
      return invalid(fmt::format("globalDim[{}] = {} is not 1 to 2^32", i, r.global_dim[i]));
  }
  for (uint32_t i = 0; i + 1 < r.rank; ++i) {
    const uint64_t stride = r.global_strides[i];
    if (stride % 16 != 0 || stride >= (uint64_t{1} << 40))
      return invalid(fmt::format("globalStrides[{}] = {} is not a multiple of 16 below 2^40", i, stride));
    if (r.interleave == static_cast<uint32_t>(TensorInterleave::Bytes32) && stride % 32 != 0)
      return invalid(fmt::format("globalStrides[{}] must be a multiple of 32 with CU_TENSOR_MAP_INTERLEAVE_32B", i));
  }
  for (uint32_t i = 0; i < r.rank; ++i) {
    if (r.box_dim[i] == 0 || r.box_dim[i] > 256)
      return invalid(fmt::format("boxDim[{}] = {} is not 1 to 256", i, r.box_dim[i]));
    if (r.element_strides[i] == 0 || r.element_strides[i] > 8)
      return invalid(fmt::format("elementStrides[{}] = {} is not 1 to 8", i, r.element_strides[i]));
  }
  const auto type = static_cast<TensorDataType>(r.data_type);
  const unsigned element_size = tensor_element_size(type);
  const auto swizzle = static_cast<TensorSwizzle>(r.swizzle);
  if (r.interleave == 0 && element_size != 0) {
    const uint64_t inner_bytes = uint64_t{r.box_dim[0]} * element_size;
    if (inner_bytes % 16 != 0)
      return invalid(fmt::format("boxDim[0] * element size = {} bytes is not a multiple of 16", inner_bytes));
    if (swizzle != TensorSwizzle::None && inner_bytes > swizzle_span(swizzle))
      return invalid(fmt::format("boxDim[0] * element size = {} bytes exceeds the {}-byte swizzle span", inner_bytes,
                                 swizzle_span(swizzle)));
  }
  if (TensorMapStatus modes = check_modes(r); modes.kind != Kind::Ok) return modes;

  std::memset(&map, 0, sizeof map);
  map.magic = kTensorMapMagic;
  map.mode = 1;
  map.data_type = type;
  map.rank = static_cast<uint8_t>(r.rank);
  map.element_size = static_cast<uint8_t>(element_size);
  map.interleave = static_cast<TensorInterleave>(r.interleave);
  map.swizzle = swizzle;
  map.l2_promotion = static_cast<TensorL2Promotion>(r.l2_promotion);
  map.oob_fill = static_cast<TensorOobFill>(r.oob_fill);
  map.global_address = address;
  for (uint32_t i = 0; i < kTensorMapMaxRank; ++i) {
    const bool used = i < r.rank;
    map.global_dim[i] = used ? r.global_dim[i] : 1;
    map.global_stride[i] = i == 0 ? element_size : used ? r.global_strides[i - 1] : 0;
    map.box_dim[i] = static_cast<uint16_t>(used ? r.box_dim[i] : 1);
    // With interleave NONE the driver ignores elementStrides[0]: dimension 0 has no stride.
    map.element_stride[i] = static_cast<uint8_t>(used && i > 0 ? r.element_strides[i] : 1);
  }
  return {};
}

}  // namespace cucpu::jit
