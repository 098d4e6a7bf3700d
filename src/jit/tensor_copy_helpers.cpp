// The tensor copies of cp.async.bulk.tensor (PTX ISA 9.0 §9.7.9.25.5) in tile mode: a box
// of a tensor map (tensor_map.h) between global memory and a CTA's shared memory.
//
// The box at coordinates c (signed, per dimension) holds n[i] = ceil(box[i] / es[i])
// elements along dimension i (es = the element strides; dimension 0 has none), element
// j at global coordinates c[i] + j[i] * es[i]. In shared memory the box is dense and
// row-major (dimension 0 fastest). Loads fill elements outside the tensor with zero
// (or, with CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA, a NaN) and always
// complete-tx the whole box's bytes on the mbarrier; stores and reductions skip them.
//
// Swizzle (CUDA Programming Guide, "TMA Swizzle"; CUTLASS cute::Swizzle<B,4,3>): the
// 16-byte chunk bits 4.. of a shared address are XORed with its bits 7..; B = 1, 2, 3
// bits for the 32B, 64B, 128B modes. It is a function of the .shared address itself (so
// the pattern repeats every 256/512/1024 bytes of the address space, not of the box).
//
// As with cp.async.bulk, the copy is complete when the instruction issues.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "jit/function_lowering.h"
#include "jit/tensor_map.h"

extern "C" void __cucpu_jit_mbarrier_tx(uint64_t* object, int32_t delta);  // mbarrier_helpers.cpp

namespace {

using cucpu::jit::TensorDataType;
using cucpu::jit::TensorMap;
using cucpu::jit::TensorSwizzle;

using namespace cucpu::jit::tensor_copy;

// The bytes one swizzle pattern row spans: 32, 64 or 128.
uint64_t swizzle_span(TensorSwizzle swizzle) {
  if (swizzle == TensorSwizzle::Bytes32) return 32;
  if (swizzle == TensorSwizzle::Bytes64) return 64;
  return 128;
}

uint64_t swizzle_offset(TensorSwizzle swizzle, uint64_t address) {
  unsigned bits = 0;
  if (swizzle == TensorSwizzle::Bytes32) bits = 1;
  if (swizzle == TensorSwizzle::Bytes64) bits = 2;
  if (swizzle == TensorSwizzle::Bytes128) bits = 3;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

void fill_out_of_bounds(const TensorMap& map, uint8_t* element) {
  std::memset(element, 0, map.element_size);
  if (map.oob_fill != cucpu::jit::TensorOobFill::NanRequestZeroFma) return;
  // The H100 fills a float32 element with 0x7ff77ff7 (e2e tma_copy): 0x7ff7 in every 16
  // bits, a NaN in f16, bf16, f32 and f64 alike; the narrower and wider ones are assumed.
  for (unsigned i = 0; i + 2 <= map.element_size; i += 2) {
    const uint16_t nan = 0x7ff7;
    std::memcpy(element + i, &nan, 2);
  }
}

float half_to_float(uint16_t bits) { return static_cast<float>(std::bit_cast<_Float16>(bits)); }
uint16_t float_to_half(float value) { return std::bit_cast<uint16_t>(static_cast<_Float16>(value)); }
float bf16_to_float(uint16_t bits) { return std::bit_cast<float>(uint32_t{bits} << 16); }
uint16_t float_to_bf16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((bits >> 16) | 0x40);  // quiet NaN
  return static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);               // nearest even
}

template <typename T>
T combine_integer(ReduceOp op, T old, T src) {
  switch (op) {
    case kAdd: return static_cast<T>(old + src);
    case kMin: return old < src ? old : src;
    case kMax: return old > src ? old : src;
    case kInc: return old >= src ? T{0} : static_cast<T>(old + 1);
    case kDec: return (old == 0 || old > src) ? src : static_cast<T>(old - 1);
    case kAnd: return old & src;
    case kOr: return old | src;
    case kXor: return old ^ src;
  }
  return old;
}

template <typename F>
F combine_float(ReduceOp op, F old, F src) {
  switch (op) {
    case kMin: return src < old ? src : old;
    case kMax: return src > old ? src : old;
    default: return old + src;
  }
}

// old (op) src for one element's bits, in the tensor's type.
template <typename Bits>
Bits combine(TensorDataType type, ReduceOp op, Bits old, Bits src) {
  switch (type) {
    case TensorDataType::F16:
      return static_cast<Bits>(float_to_half(combine_float(op, half_to_float(old), half_to_float(src))));
    case TensorDataType::BF16:
      return static_cast<Bits>(float_to_bf16(combine_float(op, bf16_to_float(old), bf16_to_float(src))));
    case TensorDataType::F32:
    case TensorDataType::F32Ftz:
    case TensorDataType::TF32:
    case TensorDataType::TF32Ftz:
      if constexpr (sizeof(Bits) == 4)
        return std::bit_cast<Bits>(combine_float(op, std::bit_cast<float>(old), std::bit_cast<float>(src)));
      return old;
    case TensorDataType::F64:
      if constexpr (sizeof(Bits) == 8)
        return std::bit_cast<Bits>(combine_float(op, std::bit_cast<double>(old), std::bit_cast<double>(src)));
      return old;
    case TensorDataType::S32:
      if constexpr (sizeof(Bits) == 4)
        return static_cast<Bits>(combine_integer<int32_t>(op, static_cast<int32_t>(old), static_cast<int32_t>(src)));
      return old;
    case TensorDataType::S64:
      if constexpr (sizeof(Bits) == 8)
        return static_cast<Bits>(combine_integer<int64_t>(op, static_cast<int64_t>(old), static_cast<int64_t>(src)));
      return old;
    default:
      return combine_integer<Bits>(op, old, src);
  }
}

// One element reduced into global memory atomically, as the GPU's per-element reduction.
template <typename Bits>
void reduce_element(TensorDataType type, ReduceOp op, uint8_t* global, const uint8_t* shared) {
  Bits src;
  std::memcpy(&src, shared, sizeof src);
  auto* target = reinterpret_cast<Bits*>(global);
  Bits old = __atomic_load_n(target, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(target, &old, combine<Bits>(type, op, old, src), true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
}

void reduce(const TensorMap& map, ReduceOp op, uint8_t* global, const uint8_t* shared) {
  switch (map.element_size) {
    case 1: return reduce_element<uint8_t>(map.data_type, op, global, shared);
    case 2: return reduce_element<uint16_t>(map.data_type, op, global, shared);
    case 4: return reduce_element<uint32_t>(map.data_type, op, global, shared);
    default: return reduce_element<uint64_t>(map.data_type, op, global, shared);
  }
}

// The map at `address`, copied out: a kernel parameter's copy of it may sit at any 8-byte
// boundary in cucpu's parameter buffer (the GPU's are 64-byte aligned).
bool read_map(const void* address, uint32_t rank, TensorMap& out) {
  if (address == nullptr || reinterpret_cast<uintptr_t>(address) % 8 != 0) {
    std::fprintf(stderr, "cucpu: cp.async.bulk.tensor: the tensor map address %p is not aligned\n", address);
    return false;
  }
  std::memcpy(&out, address, sizeof out);
  const TensorMap* map = &out;
  if (map->magic != cucpu::jit::kTensorMapMagic || map->mode != 1) {
    std::fprintf(stderr, "cucpu: cp.async.bulk.tensor: %p is not a tensor map made by cuTensorMapEncodeTiled\n",
                 address);
    return false;
  }
  if (map->rank != rank) {
    std::fprintf(stderr, "cucpu: cp.async.bulk.tensor.%ud used with a tensor map of rank %u\n", rank,
                 unsigned{map->rank});
    return false;
  }
  return true;
}

}  // namespace

// cp.async.bulk.tensor.<rank>d: `kind` is a CopyKind in bits 0..7 and, for reductions, a
// ReduceOp in bits 8..15. `shared` is the box in the CTA's window, `shared_address` the
// same place as a .shared address (what the swizzle reads). Returns 0; 1 after saying on
// stderr why the map cannot be used (the caller traps); kMisalignedBoxStart for a load
// whose box does not start on a 16-byte boundary of its rows (the caller raises an
// illegal instruction).
extern "C" uint32_t __cucpu_jit_tensor_copy(const void* map_address, uint8_t* shared, uint64_t shared_address,
                                            const int32_t* coords, uint32_t rank, uint32_t kind,
                                            uint64_t* mbarrier) {
  TensorMap copy_of_map;
  if (!read_map(map_address, rank, copy_of_map)) return 1;
  const TensorMap* map = &copy_of_map;
  const auto copy = static_cast<CopyKind>(kind & 0xff);
  if (copy == kPrefetch) return 0;
  if (map->swizzle != TensorSwizzle::None && shared_address % 128 != 0) {
    std::fprintf(stderr, "cucpu: cp.async.bulk.tensor: a swizzled box needs a 128-byte aligned shared address, not 0x%llx\n",
                 static_cast<unsigned long long>(shared_address));
    return 1;
  }
  const auto op = static_cast<ReduceOp>((kind >> 8) & 0xff);
  const unsigned size = map->element_size;
  // An H100 runs a tile load from x = 0, 4, 32, 36, -4 (floats) and refuses x = 2, 6, 38, -2
  // with cudaErrorIllegalInstruction (probe in session 5; e2e tma_copy's last case). Stores
  // and reductions were not probed and are not checked.
  if (copy == kLoad && (int64_t{coords[0]} * size) % 16 != 0) return kMisalignedBoxStart;
  uint32_t count[5];  // elements of the box along each dimension
  for (unsigned i = 0; i < 5; ++i) {
    count[i] = i < rank ? (map->box_dim[i] + map->element_stride[i] - 1u) / map->element_stride[i] : 1u;
  }
  // A swizzled box's rows are the swizzle's span apart even when they are narrower: an
  // H100 puts 64-byte rows of a 128-byte swizzle 128 bytes apart (e2e tma_copy).
  const uint64_t row_pitch = map->swizzle == TensorSwizzle::None ? count[0] * size : swizzle_span(map->swizzle);
  auto* tensor = reinterpret_cast<uint8_t*>(map->global_address);
  uint64_t linear = 0;  // the element's index in the dense box
  for (uint32_t j4 = 0; j4 < count[4]; ++j4)
    for (uint32_t j3 = 0; j3 < count[3]; ++j3)
      for (uint32_t j2 = 0; j2 < count[2]; ++j2)
        for (uint32_t j1 = 0; j1 < count[1]; ++j1)
          for (uint32_t j0 = 0; j0 < count[0]; ++j0, ++linear) {
            const uint32_t j[5] = {j0, j1, j2, j3, j4};
            bool inside = true;
            uint64_t global_offset = 0;
            for (unsigned i = 0; i < rank; ++i) {
              const int64_t g = int64_t{coords[i]} + int64_t{j[i]} * map->element_stride[i];
              if (g < 0 || static_cast<uint64_t>(g) >= map->global_dim[i]) inside = false;
              global_offset += static_cast<uint64_t>(g) * map->global_stride[i];
            }
            const uint64_t row = linear / count[0], column = linear % count[0];
            const uint64_t at = swizzle_offset(map->swizzle, shared_address + row * row_pitch + column * size);
            uint8_t* element = shared + (at - shared_address);
            if (copy == kLoad) {
              if (inside) std::memcpy(element, tensor + global_offset, size);
              else fill_out_of_bounds(*map, element);
            } else if (inside) {
              if (copy == kStore) std::memcpy(tensor + global_offset, element, size);
              else reduce(*map, op, tensor + global_offset, element);
            }
          }
  if (copy == kLoad && mbarrier != nullptr) __cucpu_jit_mbarrier_tx(mbarrier, -static_cast<int32_t>(linear * size));
  return 0;
}

namespace cucpu::jit {

RuntimeSymbols tensor_copy_helper_symbols() {
  return {{"__cucpu_jit_tensor_copy", reinterpret_cast<void*>(&__cucpu_jit_tensor_copy)}};
}

}  // namespace cucpu::jit
