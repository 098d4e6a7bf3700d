// The contract between the texture and surface instructions the JIT lowers
// (lower_texture.cpp) and the runtime functions that carry them out
// (exec/texture_fetch.cpp): their names, signatures and how the instruction's form is
// packed into one u32 `op`. Like kernel_abi.h, no LLVM here: the executor includes it.
//
//   void     __cucpu_tex(ThreadContext*, uint64_t handle, uint32_t op, const uint32_t* coords,
//                        uint32_t* result)
//              tex and tld4: coords holds the coordinate vector's elements in PTX order (the
//              layer first for a1d/a2d/acube) as raw 32-bit words; result gets the four
//              destination words
//   void     __cucpu_suld(ThreadContext*, uint64_t handle, uint32_t op, const int32_t* coords,
//                         uint8_t* result)
//              suld.b: the access's bytes (x is a byte offset) into result
//   void     __cucpu_sust(ThreadContext*, uint64_t handle, uint32_t op, const int32_t* coords,
//                         const uint8_t* values)
//              sust.b: the access's bytes; sust.p: one 32-bit word per component
//   uint32_t __cucpu_txq(ThreadContext*, uint64_t handle, uint32_t query)
//   uint32_t __cucpu_suq(ThreadContext*, uint64_t handle, uint32_t query)
// A handle that names no live object, or an out-of-range surface access in .trap mode,
// fails the grid as the GPU does.
#pragma once

#include <cstdint>

namespace cucpu::jit {

constexpr const char* kTex = "__cucpu_tex";
constexpr const char* kSuld = "__cucpu_suld";
constexpr const char* kSust = "__cucpu_sust";
constexpr const char* kTxq = "__cucpu_txq";
constexpr const char* kSuq = "__cucpu_suq";

// op bits 0..3: the geometry.
enum class ImageGeometry : uint32_t { G1d, G2d, G3d, A1d, A2d, Cube, Acube };
constexpr uint32_t kGeometryMask = 0xf;

// tex / tld4: bit 4 integer coordinates; bit 5 tld4 (a gather), bits 6..7 its component.
constexpr uint32_t kTexIntegerCoords = 1u << 4;
constexpr uint32_t kTexGather = 1u << 5;
constexpr uint32_t kTexComponentShift = 6;

// suld / sust: bits 4..5 the out-of-range mode, bits 8..15 the access's bytes (element
// size times vector length), bit 16 sust.p (formatted: 32-bit components, their count in
// bits 17..19).
enum class SurfaceClamp : uint32_t { Trap, Clamp, Zero };
constexpr uint32_t kSurfaceClampShift = 4;
constexpr uint32_t kSurfaceBytesShift = 8;
constexpr uint32_t kSurfaceFormatted = 1u << 16;
constexpr uint32_t kSurfaceComponentsShift = 17;

// txq / suq: the attribute asked for.
enum class ImageQuery : uint32_t {
  Width, Height, Depth, ChannelDataType, ChannelOrder, NormalizedCoords, FilterMode,
  AddrMode0, AddrMode1, AddrMode2, ArraySize, NumMipmapLevels, NumSamples, MemoryLayout,
};

}  // namespace cucpu::jit
