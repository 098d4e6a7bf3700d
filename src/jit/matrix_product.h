// The arithmetic of the tensor-core products (matrix_product.cpp).
#pragma once

#include <cstdint>

#include "jit/matrix_fragments.h"

namespace cucpu::jit {

// The matrix products of one warp's mma.sync / wmma.mma: `lanes` holds every member lane's
// buffer (matrix_fragments.h's slots, slot s at lanes[lane][s * stride]; the form in
// kSlotForm), the others null. Each product (one, or one per quad pair) runs on its member
// lanes; a lane's D slots get its results.
void matrix_product(void* const* lanes, uint32_t members, uint32_t stride);

}  // namespace cucpu::jit
