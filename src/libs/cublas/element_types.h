// The element types cuBLAS's Ex routines take (cudaDataType), read into and written from
// the type a product is computed in: half and bfloat16 widen exactly; narrowing rounds to
// nearest even, as the GPU's conversions do. Also the input roundings of the "fast"
// compute types (TF32, half, bfloat16 tensor-core inputs).
#pragma once

#include <cuComplex.h>
#include <library_types.h>

#include <cstdint>
#include <cstring>

namespace cucpu::cublas {

inline float bfloat16_to_float(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}

inline uint16_t float_to_bfloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);  // quiet NaN
  bits += 0x7fffu + ((bits >> 16) & 1);                                                       // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

// The fast compute types round each input to TF32 before the products (cvt.rna.tf32.f32:
// nearest, ties away from zero).
enum class InputRounding { None, Tf32 };

inline float round_input(float value, InputRounding rounding) {
  if (rounding == InputRounding::None) return value;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7f800000u) != 0x7f800000u) bits = (bits + 0x1000u) & ~0x1fffu;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

// Element `index` of an array of `type`, as the working type W (float, double, int32_t,
// cuComplex or cuDoubleComplex). The caller has checked that the combination is one cuBLAS
// accepts.
template <typename W>
W load_element(const void* base, cudaDataType type, size_t index) {
  if constexpr (std::is_same_v<W, cuComplex> || std::is_same_v<W, cuDoubleComplex>) {
    using Part = decltype(W{}.x);
    switch (type) {
      case CUDA_C_8I: {
        const auto* p = static_cast<const int8_t*>(base) + 2 * index;
        return W{static_cast<Part>(p[0]), static_cast<Part>(p[1])};
      }
      case CUDA_C_32F: {
        const auto* p = static_cast<const float*>(base) + 2 * index;
        return W{static_cast<Part>(p[0]), static_cast<Part>(p[1])};
      }
      default: {
        const auto* p = static_cast<const double*>(base) + 2 * index;
        return W{static_cast<Part>(p[0]), static_cast<Part>(p[1])};
      }
    }
  } else {
    switch (type) {
      case CUDA_R_16F:
        return static_cast<W>(static_cast<const _Float16*>(base)[index]);
      case CUDA_R_16BF:
        return static_cast<W>(bfloat16_to_float(static_cast<const uint16_t*>(base)[index]));
      case CUDA_R_8I:
        return static_cast<W>(static_cast<const int8_t*>(base)[index]);
      case CUDA_R_32I:
        return static_cast<W>(static_cast<const int32_t*>(base)[index]);
      case CUDA_R_64F:
        return static_cast<W>(static_cast<const double*>(base)[index]);
      default:
        return static_cast<W>(static_cast<const float*>(base)[index]);
    }
  }
}

template <typename W>
void store_element(void* base, cudaDataType type, size_t index, W value) {
  if constexpr (std::is_same_v<W, cuComplex> || std::is_same_v<W, cuDoubleComplex>) {
    if (type == CUDA_C_32F) {
      auto* p = static_cast<float*>(base) + 2 * index;
      p[0] = static_cast<float>(value.x), p[1] = static_cast<float>(value.y);
    } else {
      auto* p = static_cast<double*>(base) + 2 * index;
      p[0] = value.x, p[1] = value.y;
    }
  } else {
    switch (type) {
      case CUDA_R_16F:
        static_cast<_Float16*>(base)[index] = static_cast<_Float16>(value);
        return;
      case CUDA_R_16BF:
        static_cast<uint16_t*>(base)[index] = float_to_bfloat16(static_cast<float>(value));
        return;
      case CUDA_R_32I:
        static_cast<int32_t*>(base)[index] = static_cast<int32_t>(value);
        return;
      case CUDA_R_64F:
        static_cast<double*>(base)[index] = static_cast<double>(value);
        return;
      default:
        static_cast<float*>(base)[index] = static_cast<float>(value);
        return;
    }
  }
}

inline size_t element_size(cudaDataType type) {
  switch (type) {
    case CUDA_R_8I:
      return 1;
    case CUDA_R_16F:
    case CUDA_R_16BF:
    case CUDA_C_8I:
      return 2;
    case CUDA_R_32F:
    case CUDA_R_32I:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
    default:
      return 0;
  }
}

}  // namespace cucpu::cublas
