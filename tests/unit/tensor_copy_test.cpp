// Tensor maps and cp.async.bulk.tensor: cuTensorMapEncodeTiled's argument checks
// (encode_tiled_tensor_map), and boxes of 1 to 5 dimensions and each swizzle mode loaded
// by JIT-compiled PTX on the executor, compared with the box definition element by element.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "compile_with_executor.h"
#include "exec/grid.h"
#include "jit/compile.h"
#include "jit/tensor_map.h"

namespace cucpu::exec {
namespace {

using jit::TensorMapStatus;

struct Request {
  uint32_t type = 7;  // f32
  uint32_t rank = 2;
  uint64_t dim[5] = {40, 24, 3, 2, 2};
  uint64_t stride[4] = {160, 160 * 24, 160 * 24 * 3, 160 * 24 * 3 * 2};
  uint32_t box[5] = {16, 8, 1, 1, 1};
  uint32_t estride[5] = {1, 1, 1, 1, 1};
  uint32_t swizzle = 0, fill = 0, interleave = 0, l2 = 0;
  uintptr_t address = 0x10000;

  TensorMapStatus encode(jit::TensorMap& map) const {
    jit::TiledTensorMapRequest r;
    r.data_type = type;
    r.rank = rank;
    r.global_address = reinterpret_cast<const void*>(address);
    r.global_dim = dim;
    r.global_strides = stride;
    r.box_dim = box;
    r.element_strides = estride;
    r.interleave = interleave;
    r.swizzle = swizzle;
    r.l2_promotion = l2;
    r.oob_fill = fill;
    return jit::encode_tiled_tensor_map(r, map);
  }
  TensorMapStatus::Kind kind() const {
    jit::TensorMap map;
    return encode(map).kind;
  }
};

using Kind = TensorMapStatus::Kind;

TEST(TensorMapEncode, ValidRequestFillsTheLayout) {
  Request r;
  jit::TensorMap map;
  ASSERT_EQ(r.encode(map).kind, Kind::Ok);
  EXPECT_EQ(map.magic, jit::kTensorMapMagic);
  EXPECT_EQ(map.rank, 2);
  EXPECT_EQ(map.element_size, 4);
  EXPECT_EQ(map.global_stride[0], 4u);
  EXPECT_EQ(map.global_stride[1], 160u);
  EXPECT_EQ(map.box_dim[0], 16);
  EXPECT_EQ(map.global_dim[2], 1u);  // unused dimensions are 1
}

TEST(TensorMapEncode, BrokenRulesAreInvalid) {
  auto invalid = [](auto change) {
    Request r;
    change(r);
    return r.kind() == Kind::Invalid;
  };
  EXPECT_TRUE(invalid([](Request& r) { r.rank = 0; }));
  EXPECT_TRUE(invalid([](Request& r) { r.rank = 6; }));
  EXPECT_TRUE(invalid([](Request& r) { r.address += 8; }));
  EXPECT_TRUE(invalid([](Request& r) { r.stride[0] = 168; }));
  EXPECT_TRUE(invalid([](Request& r) { r.stride[0] = uint64_t{1} << 40; }));
  EXPECT_TRUE(invalid([](Request& r) { r.dim[1] = 0; }));
  EXPECT_TRUE(invalid([](Request& r) { r.dim[1] = (uint64_t{1} << 32) + 1; }));
  EXPECT_TRUE(invalid([](Request& r) { r.box[1] = 257; }));
  EXPECT_TRUE(invalid([](Request& r) { r.box[0] = 6; }));  // 24 bytes: not a multiple of 16
  EXPECT_TRUE(invalid([](Request& r) { r.estride[1] = 9; }));
  EXPECT_TRUE(invalid([](Request& r) { r.estride[0] = 0; }));
  EXPECT_TRUE(invalid([](Request& r) { r.swizzle = 1; }));  // 64-byte rows, 32-byte span
  EXPECT_TRUE(invalid([](Request& r) { r.swizzle = 7; }));
  EXPECT_TRUE(invalid([](Request& r) { r.type = 16; }));
  EXPECT_TRUE(invalid([](Request& r) { r.interleave = 3; }));
  EXPECT_TRUE(invalid([](Request& r) { r.l2 = 4; }));
  EXPECT_TRUE(invalid([](Request& r) { r.fill = 2; }));
  EXPECT_TRUE(invalid([](Request& r) { r.type = 3, r.fill = 1; }));  // NaN fill on s32
  EXPECT_TRUE(invalid([](Request& r) { r.interleave = 1; }));        // interleave needs rank >= 3
  Request ok;
  ok.swizzle = 2;  // 64-byte rows fit the 64B span
  EXPECT_EQ(ok.kind(), Kind::Ok);
  ok.box[1] = 256;
  ok.estride[1] = 8;
  ok.dim[1] = uint64_t{1} << 32;
  EXPECT_EQ(ok.kind(), Kind::Ok);
}

TEST(TensorMapEncode, WhatCucpuLacksIsNotSupported) {
  Request r;
  r.rank = 3;
  r.interleave = 1;
  EXPECT_EQ(r.kind(), Kind::NotSupported);
  Request packed;
  packed.type = 13;
  EXPECT_EQ(packed.kind(), Kind::NotSupported);
  Request atom;
  atom.swizzle = 4;
  EXPECT_EQ(atom.kind(), Kind::NotSupported);
}

// Loads the box at the given coordinates into 1024-aligned shared memory (first set to
// 0xEE bytes) and copies 4096 bytes of it to `out`.
std::string load_kernel_ptx(unsigned rank, const std::vector<int>& coords, uint32_t tx_bytes) {
  std::string list;
  for (unsigned i = 0; i < rank; ++i) list += fmt::format("{}%c{}", i ? ", " : "", i);
  std::string moves;
  for (unsigned i = 0; i < rank; ++i) moves += fmt::format("  mov.u32 %c{}, {};\n", i, coords[i]);
  return fmt::format(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry load_box(.param .u64 map, .param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .b32 %c<5>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 1024 .b8 box[4096];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [map];
  ld.param.u64 %rd2, [out];
  mov.u32 %r4, box;
  mov.u32 %r1, 0;
  mov.u32 %r2, -286331154;
FILL:
  add.u32 %r6, %r4, %r1;
  st.shared.u32 [%r6], %r2;
  add.u32 %r1, %r1, 4;
  setp.lt.u32 %p1, %r1, 4096;
  @%p1 bra FILL;
  mov.u32 %r3, bar;
  mbarrier.init.shared::cta.b64 [%r3], 1;
  fence.proxy.async.shared::cta;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r3], {tx};
{moves}  cp.async.bulk.tensor.{rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r4], [%rd1, {{{list}}}], [%r3];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;
  @!%p1 bra WAIT;
  mov.u32 %r1, 0;
COPY:
  add.u32 %r6, %r4, %r1;
  ld.shared.u32 %r5, [%r6];
  cvt.u64.u32 %rd3, %r1;
  add.u64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r5;
  add.u32 %r1, %r1, 4;
  setp.lt.u32 %p1, %r1, 4096;
  @%p1 bra COPY;
  ret;
}}
)",
                     fmt::arg("tx", tx_bytes), fmt::arg("moves", moves), fmt::arg("rank", rank),
                     fmt::arg("list", list));
}

// A float tensor of 4 x 3 x 5 x 2 x 2 (x fastest) whose element holds its linear index + 1.
struct FloatTensor {
  std::vector<float> data;
  uint64_t dim[5] = {8, 3, 5, 2, 2};
  FloatTensor() : data(8 * 3 * 5 * 2 * 2) {
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i + 1);
  }
};

std::vector<uint32_t> run_load(const jit::TensorMap& map, unsigned rank, const std::vector<int>& coords,
                               uint32_t tx) {
  auto compiled = test::compile_with_executor(load_kernel_ptx(rank, coords, tx), "tensor_copy_test.ptx");
  EXPECT_TRUE(compiled) << compiled.error().message;
  if (!compiled) return {};
  const jit::KernelInfo* kernel = (*compiled)->find_kernel("load_box");
  std::vector<uint32_t> out(1024);
  LaunchShape shape;
  shape.grid = {1, 1, 1};
  shape.block = {1, 1, 1};
  alignas(8) uint8_t params[16];
  const void* map_address = &map;
  void* out_address = out.data();
  std::memcpy(params, &map_address, 8);
  std::memcpy(params + 8, &out_address, 8);
  EXPECT_TRUE(GridExecutor::instance().run_grid(*kernel, shape, params));
  return out;
}

TEST(TensorCopy, BoxesOfEveryRankWithOutOfBoundsAndElementStrides) {
  FloatTensor tensor;
  for (unsigned rank = 1; rank <= 5; ++rank) {
    Request r;
    r.rank = rank;
    r.address = reinterpret_cast<uintptr_t>(tensor.data.data());
    uint64_t stride = 8 * 4;
    for (unsigned i = 0; i < 5; ++i) r.dim[i] = tensor.dim[i];
    for (unsigned i = 0; i + 1 < 5; ++i) {
      r.stride[i] = stride;
      stride *= tensor.dim[i + 1];
    }
    const uint32_t box[5] = {8, 3, 4, 2, 1};
    const uint32_t estride[5] = {1, 2, 3, 1, 1};
    std::memcpy(r.box, box, sizeof box);
    std::memcpy(r.estride, estride, sizeof estride);
    const std::vector<int> coords = {-4, 1, 2, 1, 1};  // x on a 16-byte boundary, as the GPU requires
    jit::TensorMap map;
    ASSERT_EQ(r.encode(map).kind, Kind::Ok) << rank;
    uint32_t count[5] = {1, 1, 1, 1, 1};
    uint32_t total = 1;
    for (unsigned i = 0; i < rank; ++i) total *= count[i] = (box[i] + estride[i] - 1) / estride[i];
    const std::vector<uint32_t> out = run_load(map, rank, coords, total * 4);
    ASSERT_EQ(out.size(), 1024u);
    for (uint32_t n = 0; n < total; ++n) {
      uint32_t rest = n;
      bool inside = true;
      uint64_t index = 0, scale = 1;
      for (unsigned i = 0; i < rank; ++i) {
        const int64_t g = coords[i] + int64_t{rest % count[i]} * estride[i];
        rest /= count[i];
        inside = inside && g >= 0 && g < static_cast<int64_t>(tensor.dim[i]);
        index += static_cast<uint64_t>(g) * scale;
        scale *= tensor.dim[i];
      }
      float value;
      std::memcpy(&value, &out[n], 4);
      EXPECT_EQ(value, inside ? tensor.data[index] : 0.0f) << "rank " << rank << " element " << n;
    }
    EXPECT_EQ(out[total], 0xEEEEEEEEu) << "rank " << rank << ": nothing written past the box";
  }
}

TEST(TensorCopy, SwizzleModesPermuteSixteenByteChunks) {
  std::vector<float> tensor(32 * 8);
  for (size_t i = 0; i < tensor.size(); ++i) tensor[i] = static_cast<float>(i);
  const unsigned spans[] = {32, 64, 128};
  for (unsigned mode = 1; mode <= 3; ++mode) {
    const unsigned span = spans[mode - 1];
    Request r;
    r.address = reinterpret_cast<uintptr_t>(tensor.data());
    r.dim[0] = 32;
    r.dim[1] = 8;
    r.stride[0] = 128;
    r.box[0] = span / 4;
    r.box[1] = 8;
    r.swizzle = mode;
    jit::TensorMap map;
    ASSERT_EQ(r.encode(map).kind, Kind::Ok);
    const std::vector<uint32_t> out = run_load(map, 2, {0, 0}, span * 8);
    ASSERT_EQ(out.size(), 1024u);
    // Row y's 16-byte chunk c lands at chunk c ^ ((byte offset / 128) % (span / 16)).
    for (unsigned y = 0; y < 8; ++y)
      for (unsigned x = 0; x < span / 4; ++x) {
        const unsigned offset = y * span + x * 4;
        const unsigned chunk_xor = (offset / 128) % (span / 16);
        const unsigned at = (offset ^ (chunk_xor * 16)) / 4;
        float value;
        std::memcpy(&value, &out[at], 4);
        EXPECT_EQ(value, tensor[y * 32 + x]) << "span " << span << " row " << y << " column " << x;
      }
  }
}

}  // namespace
}  // namespace cucpu::exec
