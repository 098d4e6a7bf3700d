// Unit tests of core: the memory registry and the device profile.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/device.h"
#include "core/memory_registry.h"

namespace cucpu::core {
namespace {

TEST(MemoryRegistry, AllocationsAreAlignedAndFound) {
  MemoryRegistry registry;
  auto block = registry.allocate(1000, MemoryKind::Device);
  ASSERT_TRUE(block);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*block) % MemoryRegistry::kAlignment, 0u);
  auto* bytes = static_cast<char*>(*block);
  auto found = registry.find(bytes + 999);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->base, reinterpret_cast<uintptr_t>(*block));
  EXPECT_EQ(found->size, 1000u);
  EXPECT_FALSE(registry.find(bytes + 1000));
  EXPECT_TRUE(registry.contains_range(bytes + 10, 990));
  EXPECT_FALSE(registry.contains_range(bytes + 10, 991));
  EXPECT_TRUE(registry.release(*block, {MemoryKind::Device}));
  EXPECT_FALSE(registry.find(bytes));
}

TEST(MemoryRegistry, ReleaseRefusesWhatItDidNotAllocate) {
  MemoryRegistry registry;
  int on_stack = 0;
  EXPECT_EQ(registry.release(&on_stack, {MemoryKind::Device}).error().code, ErrorCode::InvalidValue);
  auto block = registry.allocate(64, MemoryKind::PinnedHost);
  ASSERT_TRUE(block);
  // cudaFree of pinned memory, an interior pointer, then the right call.
  EXPECT_FALSE(registry.release(*block, {MemoryKind::Device, MemoryKind::Managed}));
  EXPECT_FALSE(registry.release(static_cast<char*>(*block) + 8, {MemoryKind::PinnedHost}));
  EXPECT_TRUE(registry.release(*block, {MemoryKind::PinnedHost}));
  EXPECT_FALSE(registry.release(*block, {MemoryKind::PinnedHost}));  // twice
}

TEST(MemoryRegistry, ExternalStorageCountsButIsNotFreed) {
  MemoryRegistry registry;
  static int storage[16];
  registry.add_external(storage, sizeof storage, MemoryKind::ModuleVariable);
  EXPECT_TRUE(registry.contains_range(&storage[4], 12 * sizeof(int)));
  EXPECT_FALSE(registry.release(storage, {MemoryKind::Device}));
  registry.release_all();  // must not free what it does not own
  EXPECT_TRUE(registry.find(storage));
  registry.remove_external(storage);
  EXPECT_FALSE(registry.find(storage));
}

TEST(MemoryRegistry, ZeroByteAllocationsAreDistinct) {
  MemoryRegistry registry;
  auto a = registry.allocate(0, MemoryKind::Device);
  auto b = registry.allocate(0, MemoryKind::Device);
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(registry.release(*a, {MemoryKind::Device}));
  EXPECT_TRUE(registry.release(*b, {MemoryKind::Device}));
}

TEST(DeviceProfile, ComputeCapability90Limits) {
  EXPECT_EQ(device_attribute(DeviceAttribute::cudaDevAttrComputeCapabilityMajor), 9);
  EXPECT_EQ(device_attribute(DeviceAttribute::cudaDevAttrComputeCapabilityMinor), 0);
  EXPECT_EQ(device_attribute(DeviceAttribute::cudaDevAttrMaxThreadsPerBlock), 1024);
  EXPECT_EQ(device_attribute(DeviceAttribute::cudaDevAttrMaxGridDimY), 65535);
  EXPECT_EQ(device_attribute(DeviceAttribute::cudaDevAttrWarpSize), 32);
  EXPECT_FALSE(device_attribute(9999).has_value());
  EXPECT_GT(total_memory_bytes(), 0u);
}

}  // namespace
}  // namespace cucpu::core
