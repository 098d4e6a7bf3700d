// CUDA arrays (core/cuda_array.h): the texel storage textures see for each array shape,
// the live-handle set, and copies with arrays as strided copies with CUDA's bounds.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/cuda_array.h"

using namespace cucpu;
using namespace cucpu::core;

namespace {

const exec::TexelFormat kFloat2{2, 32, exec::ChannelKind::Float};

TEST(CudaArray, StorageOfEachShape) {
  CudaArray* a = *create_array(kFloat2, 5, 0, 0, 0, false, false);  // 1D
  exec::TexelStorage s = a->storage();
  EXPECT_EQ(s.dimensions, 1);
  EXPECT_EQ(s.width, 5u);
  EXPECT_EQ(s.row_pitch, 40u);
  EXPECT_TRUE(destroy_array(a));
  a = *create_array(kFloat2, 5, 3, 4, 0, false, false);  // 3D
  s = a->storage();
  EXPECT_EQ(s.dimensions, 3);
  EXPECT_EQ(s.depth, 4u);
  EXPECT_EQ(s.slice_pitch, 120u);
  EXPECT_EQ(s.layers, 1u);
  EXPECT_TRUE(destroy_array(a));
  a = *create_array(kFloat2, 5, 0, 7, 1, true, false);  // 1D layered: 7 layers of one row
  s = a->storage();
  EXPECT_EQ(s.dimensions, 1);
  EXPECT_EQ(s.layers, 7u);
  EXPECT_EQ(s.layer_pitch, 40u);
  EXPECT_TRUE(destroy_array(a));
  a = *create_array(kFloat2, 4, 4, 12, 5, true, true);  // two cubes
  s = a->storage();
  EXPECT_EQ(s.dimensions, 2);
  EXPECT_EQ(s.layers, 12u);
  EXPECT_TRUE(s.cubemap);
  EXPECT_TRUE(destroy_array(a));
}

TEST(CudaArray, HandlesAreLiveUntilDestroyed) {
  CudaArray* a = *create_array(kFloat2, 2, 2, 0, 0, false, false);
  EXPECT_EQ(find_array(a), a);
  EXPECT_TRUE(destroy_array(a));
  EXPECT_EQ(find_array(a), nullptr);
  EXPECT_FALSE(destroy_array(a));
}

TEST(CudaArray, TwoDimensionalCopiesInBytesWithBounds) {
  CudaArray* a = *create_array(exec::TexelFormat{1, 32, exec::ChannelKind::Signed}, 4, 3, 0, 0, false, false);
  std::vector<int> host = {1, 2, 3, 4, 5, 6};
  CopySide dst;
  dst.array = a;
  dst.position = Position3D{8, 1, 0};  // bytes, rows
  CopySide src;
  src.pointer = PitchedPointer{host.data(), 8, 0, 0};
  Result<StridedCopy> copy = describe_array_copy_2d(dst, src, 8, 2);
  ASSERT_TRUE(copy);
  run_strided_copy(*copy);
  const int* texels = reinterpret_cast<const int*>(a->data.get());
  EXPECT_EQ(texels[1 * 4 + 2], 1);
  EXPECT_EQ(texels[2 * 4 + 3], 4);
  dst.position = Position3D{12, 1, 0};  // 12 + 8 bytes > a 16-byte row
  EXPECT_FALSE(describe_array_copy_2d(dst, src, 8, 2));
  dst.position = Position3D{0, 2, 0};  // rows 2..3 of 3
  EXPECT_FALSE(describe_array_copy_2d(dst, src, 8, 2));
  EXPECT_TRUE(destroy_array(a));
}

TEST(CudaArray, ThreeDimensionalCopiesInElements) {
  CudaArray* a = *create_array(kFloat2, 2, 2, 2, 0, false, false);
  std::vector<float> host(16);
  for (int i = 0; i < 16; ++i) host[i] = static_cast<float>(i);
  CopySide dst;
  dst.array = a;
  dst.position = Position3D{1, 0, 1};  // elements
  CopySide src;
  src.pointer = PitchedPointer{host.data(), 8, 8, 2};
  Result<StridedCopy> copy = describe_array_copy_3d(dst, src, Extent3D{1, 2, 1});
  ASSERT_TRUE(copy);
  run_strided_copy(*copy);
  const float* texels = reinterpret_cast<const float*>(a->data.get());
  EXPECT_EQ(texels[(1 * 2 + 0) * 2 * 2 + 1 * 2], 0.0f);  // slice 1, row 0, element 1 .x
  EXPECT_EQ(texels[(1 * 2 + 1) * 2 * 2 + 1 * 2 + 1], 3.0f);  // slice 1, row 1, element 1 .y
  EXPECT_FALSE(describe_array_copy_3d(dst, src, Extent3D{1, 2, 2}));  // past the last slice
  EXPECT_FALSE(describe_array_copy_3d(dst, src, Extent3D{2, 1, 1}));  // past the row
  EXPECT_TRUE(destroy_array(a));
}

}  // namespace
