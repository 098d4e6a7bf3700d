// Internal to src/jit: the 32-lane form of a pure helper the generated code calls
// (FunctionLowering::call_pure_helper), so that lane-wise code makes one call per warp
// instruction rather than one per lane: out[l] = f(in_1[l], ..., in_n[l]) for every lane.
// Registered beside the helper as "<name>.x32".
#pragma once

#include <cstdint>

#include "jit/kernel_abi.h"

namespace cucpu::jit {

template <auto F>
struct LaneHelper;

template <typename R, typename... A, R (*F)(A...)>
struct LaneHelper<F> {
  static void run(R* out, const A*... in) {
    for (uint32_t lane = 0; lane < 32; ++lane) out[lane] = F(in[lane]...);
  }
};

// Registers `fn` and its 32-lane form in `symbols` (a RuntimeSymbols).
#define CUCPU_PURE_HELPER(symbols, fn)                   \
  do {                                                   \
    (symbols)[#fn] = reinterpret_cast<void*>(&fn);       \
    (symbols)[#fn ".x32"] = reinterpret_cast<void*>(&::cucpu::jit::LaneHelper<&fn>::run); \
  } while (false)

}  // namespace cucpu::jit
