// Unit tests of core/strided_copy: pitched 2D and 3D copies and sets, their argument
// checks (InvalidPitchValue for a width wider than a pitch, InvalidValue for a box that
// leaves its row, slice or allocation) and that padding between rows stays untouched.
#include "core/strided_copy.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "core/memory_registry.h"

namespace cucpu::core {
namespace {

std::vector<uint8_t> iota_bytes(size_t n) {
  std::vector<uint8_t> bytes(n);
  std::iota(bytes.begin(), bytes.end(), uint8_t{1});
  return bytes;
}

TEST(StridedCopy, PitchWiderThanRowCopiesRowsAndKeepsPadding) {
  // 3 rows of 5 bytes from a packed source into rows 8 bytes apart.
  auto src = iota_bytes(15);
  std::vector<uint8_t> dst(24, 0xee);
  auto copy = describe_copy_2d(dst.data(), 8, src.data(), 5, 5, 3);
  ASSERT_TRUE(copy);
  run_strided_copy(*copy);
  for (size_t row = 0; row < 3; ++row)
    for (size_t x = 0; x < 8; ++x) EXPECT_EQ(dst[row * 8 + x], x < 5 ? src[row * 5 + x] : 0xee) << row << "," << x;
}

TEST(StridedCopy, WidthAbovePitchIsInvalidPitch) {
  std::vector<uint8_t> a(64), b(64);
  EXPECT_EQ(describe_copy_2d(a.data(), 4, b.data(), 8, 5, 2).error().code, ErrorCode::InvalidPitchValue);
  EXPECT_EQ(describe_copy_2d(a.data(), 8, b.data(), 4, 5, 2).error().code, ErrorCode::InvalidPitchValue);
  EXPECT_EQ(describe_copy_2d(a.data(), size_t{1} << 40, b.data(), 8, 5, 2).error().code,
            ErrorCode::InvalidPitchValue);  // above cudaDevAttrMaxPitch
  EXPECT_TRUE(describe_copy_2d(a.data(), size_t{1} << 40, b.data(), 8, 5, 1));  // one row: the pitch is unused
  EXPECT_EQ(describe_copy_2d(nullptr, 8, b.data(), 8, 5, 2).error().code, ErrorCode::InvalidValue);
}

TEST(StridedCopy, EmptyCopiesAreValidAndTouchNothing) {
  auto zero_width = describe_copy_2d(nullptr, 0, nullptr, 0, 0, 5);
  ASSERT_TRUE(zero_width);
  EXPECT_TRUE(is_empty(*zero_width));
  run_strided_copy(*zero_width);
  EXPECT_TRUE(describe_copy_3d({}, {}, {}, {}, Extent3D{4, 4, 0}));
}

TEST(StridedCopy, ThreeDimensionalBoxAtPositions) {
  // Source: 4 slices of 3 rows, pitch 6; destination: 5 slices of 4 rows, pitch 8.
  auto src = iota_bytes(4 * 3 * 6);
  std::vector<uint8_t> dst(5 * 4 * 8, 0);
  PitchedPointer s{src.data(), 6, 6, 3}, d{dst.data(), 8, 8, 4};
  auto copy = describe_copy_3d(d, Position3D{3, 1, 2}, s, Position3D{1, 1, 1}, Extent3D{4, 2, 3});
  ASSERT_TRUE(copy);
  run_strided_copy(*copy);
  size_t copied = 0;
  for (size_t z = 0; z < 5; ++z)
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 8; ++x) {
        const bool inside = z >= 2 && z < 5 && y >= 1 && y < 3 && x >= 3 && x < 7;
        const uint8_t expected = inside ? src[(z - 2 + 1) * 18 + (y - 1 + 1) * 6 + (x - 3 + 1)] : 0;
        EXPECT_EQ(dst[z * 32 + y * 8 + x], expected) << z << "," << y << "," << x;
        copied += inside;
      }
  EXPECT_EQ(copied, 4u * 2 * 3);
}

TEST(StridedCopy, ThreeDimensionalBoxMustStayInItsRowsAndSlices) {
  std::vector<uint8_t> a(256), b(256);
  PitchedPointer p{a.data(), 8, 8, 4}, q{b.data(), 8, 8, 4};
  // x + width past the pitch.
  EXPECT_EQ(describe_copy_3d(p, Position3D{5, 0, 0}, q, {}, Extent3D{4, 1, 1}).error().code, ErrorCode::InvalidValue);
  // y + height past the slice height when the box spans slices.
  EXPECT_EQ(describe_copy_3d(p, Position3D{0, 2, 0}, q, {}, Extent3D{8, 3, 2}).error().code, ErrorCode::InvalidValue);
  // Even one slice deep (as an H200 answers).
  EXPECT_EQ(describe_copy_3d(p, Position3D{0, 2, 0}, q, {}, Extent3D{8, 3, 1}).error().code, ErrorCode::InvalidValue);
  // A width above the pitch itself is a pitch error.
  EXPECT_EQ(describe_copy_3d(p, {}, q, {}, Extent3D{9, 1, 1}).error().code, ErrorCode::InvalidPitchValue);
  EXPECT_EQ(describe_copy_3d(PitchedPointer{}, {}, q, {}, Extent3D{1, 1, 1}).error().code, ErrorCode::InvalidValue);
}

TEST(StridedSet, SetsOnlyTheWidthOfEachRowOfDeviceMemory) {
  auto block = memory().allocate(4 * 16, MemoryKind::Device);
  ASSERT_TRUE(block);
  auto* bytes = static_cast<uint8_t*>(*block);
  std::fill(bytes, bytes + 64, 0x11);
  auto set = describe_set_2d(bytes, 16, 0x1a22, 10, 4);  // only the low byte counts, as in memset
  ASSERT_TRUE(set);
  run_strided_set(*set);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(bytes[i], i % 16 < 10 ? 0x22 : 0x11) << i;
  // Past the allocation, wider than the pitch, or not device memory at all.
  EXPECT_EQ(describe_set_2d(bytes, 16, 0, 10, 5).error().code, ErrorCode::InvalidValue);
  EXPECT_EQ(describe_set_2d(bytes, 8, 0, 10, 2).error().code, ErrorCode::InvalidValue);
  EXPECT_TRUE(describe_set_2d(bytes, 8, 0, 10, 1));  // one row: the pitch is unused
  uint8_t on_stack[64];
  EXPECT_EQ(describe_set_2d(on_stack, 16, 0, 10, 2).error().code, ErrorCode::InvalidValue);
  EXPECT_TRUE(memory().release(*block, {MemoryKind::Device}));
}

TEST(StridedSet, ThreeDimensionalSetUsesTheSliceHeight) {
  auto block = memory().allocate(2 * 3 * 8, MemoryKind::Device);
  ASSERT_TRUE(block);
  auto* bytes = static_cast<uint8_t*>(*block);
  std::fill(bytes, bytes + 48, 0);
  auto set = describe_set_3d(PitchedPointer{bytes, 8, 8, 3}, 7, Extent3D{2, 2, 2});
  ASSERT_TRUE(set);
  run_strided_set(*set);
  for (size_t z = 0; z < 2; ++z)
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 8; ++x) EXPECT_EQ(bytes[z * 24 + y * 8 + x], (y < 2 && x < 2) ? 7 : 0);
  EXPECT_EQ(describe_set_3d(PitchedPointer{bytes, 8, 8, 3}, 7, Extent3D{2, 4, 2}).error().code,
            ErrorCode::InvalidValue);
  EXPECT_TRUE(memory().release(*block, {MemoryKind::Device}));
}

TEST(StridedCopy, PitchIsTheTextureAlignment) {
  EXPECT_EQ(pitch_for_width(1), 512u);
  EXPECT_EQ(pitch_for_width(512), 512u);
  EXPECT_EQ(pitch_for_width(513), 1024u);
  EXPECT_EQ(pitch_for_width(0), 0u);
}

}  // namespace
}  // namespace cucpu::core
