// What generated code calls for the tensor-core instructions (lower_tensor_core.cpp), all
// warp steps: run once for the whole warp with every lane's buffer of 64-bit slots, by the executor's
// __cucpu_warp_step (kernel_abi.h) on fibers, by the block function itself under the
// compiled strategy (warp_collective_lowering.cpp); wmma.load / wmma.store move each lane's
// own fragment between its registers and memory (on fibers a lane runs it for itself).
// Fragment layouts: matrix_fragments.h.
//
// The products' arithmetic is matrix_product.cpp's.
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "jit/function_lowering.h"
#include "jit/matrix_fragments.h"
#include "jit/matrix_product.h"

namespace cucpu::jit {
namespace {

// The position of element `i` in memory, in elements from the base.
uint64_t element_index(MatrixPosition p, uint32_t stride, bool column_major) {
  return column_major ? uint64_t{p.col} * stride + p.row : uint64_t{p.row} * stride + p.col;
}

// One wmma.load / wmma.store form's fragments: where each lane's elements lie in the matrix
// ([lane * count * chunk + i]) and how wide they are. Made once per worker and form: a
// tensor-core kernel runs these helpers millions of times, and fragment_element is
// arithmetic per element.
struct WmmaLayout {
  uint64_t encoded = 0;
  uint32_t count = 0;            // registers per lane
  uint32_t chunk = 0, bits = 0;  // elements per register, bits per element
  bool column_major = false;
  // Every register's elements lie one after another in memory (in the order of its bits)
  // and fill 32 or 64 bits: a register is one access (f16 pairs, the common case).
  bool whole_registers = false;
  std::vector<MatrixPosition> positions;
};

const WmmaLayout& wmma_layout(uint64_t encoded, uint32_t count) {
  // A kernel uses a handful of forms: a short list searched in order, the last one found
  // first. (One thread_local: each access to one costs a call in a shared library.)
  thread_local struct {
    std::vector<std::unique_ptr<WmmaLayout>> layouts;
    const WmmaLayout* last = nullptr;
  } known;
  auto& [layouts, last] = known;
  if (last != nullptr && last->encoded == encoded && last->count == count) return *last;
  for (const auto& layout : layouts)
    if (layout->encoded == encoded && layout->count == count) return *(last = layout.get());
  const MatrixForm form = decode_matrix_form(encoded);
  const MatrixDims dims = matrix_dims(form.shape);
  auto layout = std::make_unique<WmmaLayout>();
  layout->encoded = encoded;
  layout->count = count;
  layout->chunk = elements_per_register(form.a);
  layout->bits = element_bits(form.a);
  layout->column_major = form.column_major;
  const uint32_t per_lane = count * layout->chunk;
  for (uint32_t lane = 0; lane < kWarpLanes; ++lane)
    for (uint32_t i = 0; i < per_lane; ++i)
      layout->positions.push_back(fragment_element(dims, form.operand, form.a, lane, i));
  const uint32_t register_bits = layout->chunk * layout->bits;
  layout->whole_registers = register_bits == 32 || register_bits == 64;
  for (size_t at = 0; at < layout->positions.size() && layout->whole_registers; ++at) {
    const MatrixPosition first = layout->positions[at - at % layout->chunk], p = layout->positions[at];
    const uint32_t j = static_cast<uint32_t>(at % layout->chunk);
    layout->whole_registers = layout->column_major ? p.col == first.col && p.row == first.row + j
                                                   : p.row == first.row && p.col == first.col + j;
  }
  layouts.push_back(std::move(layout));
  return *(last = layouts.back().get());
}

// A lane's registers (slots[r * slot_stride]) from memory (kStore false) or into it, for
// elements of type T (8 to 64 bits; T = void: narrower ones, bit by bit).
template <typename T, bool kStore>
void move_fragment(const WmmaLayout& layout, uint64_t* slots, uint32_t slot_stride, uint8_t* base, uint32_t stride,
                   uint32_t lane) {
  const MatrixPosition* positions = layout.positions.data() + size_t{lane} * layout.count * layout.chunk;
  const uint32_t bits = layout.bits;
  if (layout.whole_registers) {
    const uint32_t bytes = layout.chunk * bits / 8;
    // Sub-byte elements: each register's first bit on a byte (checked before anything moves;
    // elements of whole bytes always are).
    bool aligned = true;
    for (uint32_t r = 0; bits % 8 != 0 && r < layout.count && aligned; ++r)
      aligned = element_index(positions[r * layout.chunk], stride, layout.column_major) * bits % 8 == 0;
    for (uint32_t r = 0; r < layout.count && aligned; ++r) {
      uint8_t* at = base + element_index(positions[r * layout.chunk], stride, layout.column_major) * bits / 8;
      uint64_t& reg = slots[r * slot_stride];
      if (kStore) {
        std::memcpy(at, &reg, bytes);  // little-endian: the low bytes
      } else if (bytes == 4) {
        uint32_t v;
        std::memcpy(&v, at, 4);
        reg = v;
      } else {
        std::memcpy(&reg, at, 8);
      }
    }
    if (aligned) return;
  }
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  for (uint32_t r = 0; r < layout.count; ++r) {
    uint64_t reg = kStore ? slots[r * slot_stride] : 0;
    for (uint32_t j = 0; j < layout.chunk; ++j) {
      const uint64_t index = element_index(positions[r * layout.chunk + j], stride, layout.column_major);
      if constexpr (std::is_void_v<T>) {
        const uint64_t bit = index * bits;
        uint8_t& byte = base[bit / 8];
        if (kStore) {
          const uint8_t in_byte = static_cast<uint8_t>(mask << (bit % 8));
          byte = static_cast<uint8_t>((byte & ~in_byte) | (((reg >> (j * bits)) << (bit % 8)) & in_byte));
        } else {
          reg |= ((byte >> (bit % 8)) & mask) << (j * bits);
        }
      } else {
        if (kStore) {
          const T element = static_cast<T>(reg >> (j * bits));
          std::memcpy(base + index * sizeof(T), &element, sizeof(T));
        } else {
          T element;
          std::memcpy(&element, base + index * sizeof(T), sizeof(T));
          reg |= uint64_t{element} << (j * bits);
        }
      }
    }
    if (!kStore) slots[r * slot_stride] = reg;
  }
}

template <bool kStore>
void move_fragment(const WmmaLayout& layout, uint64_t* slots, uint32_t slot_stride, uint8_t* base, uint32_t stride,
                   uint32_t lane) {
  switch (layout.bits) {
    case 8: return move_fragment<uint8_t, kStore>(layout, slots, slot_stride, base, stride, lane);
    case 16: return move_fragment<uint16_t, kStore>(layout, slots, slot_stride, base, stride, lane);
    case 32: return move_fragment<uint32_t, kStore>(layout, slots, slot_stride, base, stride, lane);
    case 64: return move_fragment<uint64_t, kStore>(layout, slots, slot_stride, base, stride, lane);
    default: return move_fragment<void, kStore>(layout, slots, slot_stride, base, stride, lane);
  }
}

}  // namespace
}  // namespace cucpu::jit

// wmma.load / wmma.store (lower_tensor_core.cpp describe_wmma_memory) for each member lane,
// on its own elements: a lane's slot s is lanes[lane][s * stride]; [0] its address, [1] its
// stride, [2] the form (its `a` is the element type), [3] the registers | 1 << 32 for a
// store, [4...] the registers.
extern "C" void __cucpu_jit_wmma_memory(void* const* lanes, uint32_t members, uint32_t stride) {
  using namespace cucpu::jit;
  if (members == 0) return;
  // The form and the register count are the instruction's: the same in every lane.
  const auto* first = static_cast<const uint64_t*>(lanes[__builtin_ctz(members)]);
  const uint64_t count_and_store = first[3 * stride];
  const WmmaLayout& layout = wmma_layout(first[2 * stride], static_cast<uint32_t>(count_and_store));
  const bool store = (count_and_store >> 32) != 0;
  for (uint32_t left = members; left != 0; left &= left - 1) {
    const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(left));
    uint64_t* slots = static_cast<uint64_t*>(lanes[lane]);
    auto* base = reinterpret_cast<uint8_t*>(slots[0]);
    const auto memory_stride = static_cast<uint32_t>(slots[stride]);
    if (store) {
      move_fragment<true>(layout, slots + 4 * stride, stride, base, memory_stride, lane);
    } else {
      move_fragment<false>(layout, slots + 4 * stride, stride, base, memory_stride, lane);
    }
  }
}

// The matrix products of one warp's instruction: every member lane's buffer
// (matrix_fragments.h slots); each product (one, or one per quad pair) on its lanes.
extern "C" void __cucpu_jit_mma(void* const* lanes, uint32_t members, uint32_t stride) {
  cucpu::jit::matrix_product(lanes, members, stride);
}

// ldmatrix / stmatrix / movmatrix (PTX ISA 9.0 §9.7.14.5.15-17) on 8x8 matrices of b16.
// A lane's buffer: [0] the host address of the row it supplies, [1] matrices | trans << 8
// | kind << 16 (0 ldmatrix, 1 stmatrix, 2 movmatrix), [2..5] its registers (movmatrix: [2]
// in, [3] out). Lane L's register for matrix m holds row L/4, columns 2(L%4) and +1
// (transposed with .trans); the rows of matrix m are at the addresses of lanes 8m..8m+7.
// A lane's slot s is lanes[lane][s * stride].
extern "C" void __cucpu_jit_matrix_move(void* const* lanes, uint32_t members, uint32_t stride) {
  if (members == 0) return;
  // Lane `lane`'s slot s.
  auto slot = [&](uint32_t lane, uint32_t s) -> uint64_t& { return static_cast<uint64_t*>(lanes[lane])[s * stride]; };
  const uint64_t flags = slot(static_cast<uint32_t>(__builtin_ctz(members)), 1);
  const uint32_t matrices = flags & 0xff, kind = (flags >> 16) & 0xff;
  const bool trans = ((flags >> 8) & 1) != 0;
  // The address of element (row, col) of matrix m; null when its lane is not a member.
  auto element = [&](uint32_t m, uint32_t row, uint32_t col) -> uint16_t* {
    const uint32_t lane = m * 8 + row;
    if (!(members >> lane & 1)) return nullptr;
    return reinterpret_cast<uint16_t*>(slot(lane, 0)) + col;
  };
  for (uint32_t lane = 0; lane < cucpu::jit::kWarpLanes; ++lane) {
    if (!(members >> lane & 1)) continue;
    const uint32_t row = lane / 4, col = 2 * (lane % 4);
    if (kind == 2) {  // movmatrix: the transpose, from the registers of the lanes holding it
      uint32_t out = 0;
      for (uint32_t h = 0; h < 2; ++h) {
        // Element (row, col + h) of the result is (col + h, row) of the source.
        const uint32_t source_row = col + h, source_col = row, holder = source_row * 4 + source_col / 2;
        const uint32_t value = (members >> holder & 1)
                                   ? static_cast<uint32_t>(slot(holder, 2) >> (16 * (source_col % 2))) & 0xffff
                                   : 0;
        out |= value << (16 * h);
      }
      slot(lane, 3) = out;
      continue;
    }
    for (uint32_t m = 0; m < matrices; ++m) {
      if (kind == 0) slot(lane, 2 + m) = 0;
      for (uint32_t h = 0; h < 2; ++h) {
        uint16_t* p = trans ? element(m, col + h, row) : element(m, row, col + h);
        if (p == nullptr) continue;
        uint64_t& reg = slot(lane, 2 + m);
        if (kind == 0) {
          reg = (reg & ~(0xffffull << (16 * h))) | (uint64_t{*p} << (16 * h));
        } else {
          *p = static_cast<uint16_t>(reg >> (16 * h));
        }
      }
    }
  }
}

// A warp step of the compiled block strategy (kernel_abi.h): operands from the warp's
// register file into the buffer, the step, results back for the member lanes.
extern "C" void __cucpu_jit_compiled_warp_step(void (*step)(void* const*, uint32_t, uint32_t), const uint32_t* table,
                                               uint32_t entries, uint8_t* file, uint64_t* buffer, uint32_t members) {
  constexpr uint32_t kLanes = cucpu::jit::kWarpLanes;
  // Each lane loop is for one width, so that the compiler makes vector code of it (a
  // tensor-core GEMM runs this for every product: cudaTensorCoreGemm 16.8 million times).
  for (uint32_t e = 0; e < entries; ++e) {
    const uint32_t what = table[2 * e], slot = what & 0xff, bytes = (what >> 8) & 0xff;
    if ((what >> 16) != 0) continue;
    const uint8_t* lanes = file + table[2 * e + 1];
    uint64_t* to = buffer + size_t{slot} * kLanes;
    if (bytes == 8) {
      for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(&to[l], lanes + l * 8, 8);
    } else {
      for (uint32_t l = 0; l < kLanes; ++l) {
        uint32_t v;
        std::memcpy(&v, lanes + l * 4, 4);
        to[l] = v;
      }
    }
  }
  void* lanes[kLanes];
  for (uint32_t l = 0; l < kLanes; ++l) lanes[l] = buffer + l;
  step(lanes, members, kLanes);
  for (uint32_t e = 0; e < entries; ++e) {
    const uint32_t what = table[2 * e], slot = what & 0xff, bytes = (what >> 8) & 0xff;
    if ((what >> 16) == 0) continue;
    uint8_t* lanes_out = file + table[2 * e + 1];
    const uint64_t* from = buffer + size_t{slot} * kLanes;
    if (members == ~0u && bytes == 8) {
      for (uint32_t l = 0; l < kLanes; ++l) std::memcpy(lanes_out + l * 8, &from[l], 8);
    } else if (members == ~0u) {
      for (uint32_t l = 0; l < kLanes; ++l) {
        const auto v = static_cast<uint32_t>(from[l]);
        std::memcpy(lanes_out + l * 4, &v, 4);
      }
    } else {
      for (uint32_t left = members; left != 0; left &= left - 1) {
        const uint32_t l = static_cast<uint32_t>(__builtin_ctz(left));
        std::memcpy(lanes_out + l * bytes, &from[l], bytes);  // little-endian: the low bytes
      }
    }
  }
}

namespace cucpu::jit {

RuntimeSymbols tensor_core_helper_symbols() {
  return {
      {"__cucpu_jit_wmma_memory", reinterpret_cast<void*>(&__cucpu_jit_wmma_memory)},
      {"__cucpu_jit_mma", reinterpret_cast<void*>(&__cucpu_jit_mma)},
      {kCompiledWarpStep, reinterpret_cast<void*>(&__cucpu_jit_compiled_warp_step)},
      {"__cucpu_jit_matrix_move", reinterpret_cast<void*>(&__cucpu_jit_matrix_move)},
  };
}

}  // namespace cucpu::jit
