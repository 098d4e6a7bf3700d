// Internal to src/jit: the folded squarer of the MUFU interpolator (special_function_unit.cpp),
// shared by the C++ models and their IR forms (special_function_ir.cpp).
#pragma once

#include <cstdint>

namespace cucpu::jit {

// j^2 (j < 2^17) without the folded squarer's columns below 2^19, in units of 2^19. The
// squarer's bits are j_a (column 2a) and j_a j_b for a < b (column a + b + 1).
// Per bit a: its own square's weight and the mask of its partners a+1 .. 17-a.
struct DroppedColumns {
  uint32_t square[10];
  uint32_t partners[10];
};
inline constexpr DroppedColumns kDropped = [] {
  DroppedColumns d{};
  for (int a = 0; a <= 9; ++a) {
    d.square[a] = uint32_t{1} << (2 * a);
    const int last = 17 - a;
    d.partners[a] = last > a ? static_cast<uint32_t>(((uint64_t{1} << (last + 1)) - 1) & ~((uint64_t{2} << a) - 1)) : 0;
  }
  return d;
}();

// Branch-free and unrolled (the models run once per lane of every rsqrt/sin/cos/ex2/lg2):
// bit a of j drops its own square and its products with bits a+1 .. 17-a, all in columns
// below 19, so what is dropped stays below 2^24.
inline uint64_t kept_square(uint32_t j) {
  uint32_t dropped = 0;
#pragma GCC unroll 10
  for (int a = 0; a <= 9; ++a) {
    const uint32_t taken = 0 - (j >> a & 1);  // all ones when bit a is set
    dropped += taken & (kDropped.square[a] + ((j & kDropped.partners[a]) << (a + 1)));
  }
  return (uint64_t{j} * j - dropped) >> 19;
}

}  // namespace cucpu::jit
