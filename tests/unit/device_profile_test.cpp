// Unit tests of the compute-capability profiles (core/device.h): the Programming Guide's
// per-capability limits, profile names, and cucpu's occupancy rules checked against
// NVIDIA's own occupancy calculator (cuda_occupancy.h, header-only) for every profile
// over a sweep of block sizes, registers, shared memory and carveouts.
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include "core/device.h"
#include "core/occupancy.h"

namespace cucpu::core {
namespace {

using A = DeviceAttribute;

// Restores the default profile when a test that chose another one ends.
struct ProfileScope {
  explicit ProfileScope(const char* name) { select_device_profile(*find_device_profile(name)); }
  ~ProfileScope() { select_device_profile(*find_device_profile("sm_90")); }
};

TEST(DeviceProfiles, NamesResolveToTheirComputeCapability) {
  for (const char* name : {"sm_80", "compute_80", "80", "8.0"}) {
    ASSERT_NE(find_device_profile(name), nullptr) << name;
    EXPECT_EQ(find_device_profile(name)->arch, 80u);
  }
  EXPECT_EQ(find_device_profile("sm_99"), nullptr);
  EXPECT_EQ(find_device_profile("garbage"), nullptr);
  std::vector<uint32_t> archs;
  for (const DeviceProfile& p : device_profiles()) archs.push_back(p.arch);
  EXPECT_EQ(archs, (std::vector<uint32_t>{60, 70, 75, 80, 86, 89, 90}));
}

TEST(DeviceProfiles, DefaultIsTheH200Table) {
  EXPECT_EQ(device_arch(), 90u);
  EXPECT_EQ(device_attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor), 233472);
  EXPECT_EQ(device_attribute(A::cudaDevAttrClusterLaunch), 1);
  EXPECT_EQ(device_profile().max_cluster_size, 8);
}

// The guide's table "Technical Specifications per Compute Capability".
TEST(DeviceProfiles, GuideLimitsPerComputeCapability) {
  struct Row {
    const char* name;
    int major, minor, threads_per_sm, blocks_per_sm, shared_per_sm_kib, shared_optin_kib, reserved;
  };
  const Row rows[] = {
      {"sm_60", 6, 0, 2048, 32, 64, 48, 0},    {"sm_70", 7, 0, 2048, 32, 96, 96, 0},
      {"sm_75", 7, 5, 1024, 16, 64, 64, 0},    {"sm_80", 8, 0, 2048, 32, 164, 163, 1024},
      {"sm_86", 8, 6, 1536, 16, 100, 99, 1024}, {"sm_89", 8, 9, 1536, 24, 100, 99, 1024},
      {"sm_90", 9, 0, 2048, 32, 228, 227, 1024},
  };
  for (const Row& row : rows) {
    ProfileScope scope(row.name);
    SCOPED_TRACE(row.name);
    EXPECT_EQ(compute_capability_major(), row.major);
    EXPECT_EQ(compute_capability_minor(), row.minor);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxThreadsPerMultiProcessor), row.threads_per_sm);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxBlocksPerMultiprocessor), row.blocks_per_sm);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor), row.shared_per_sm_kib * 1024);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlockOptin), row.shared_optin_kib * 1024);
    EXPECT_EQ(device_attribute(A::cudaDevAttrReservedSharedMemoryPerBlock), row.reserved);
    // The same everywhere from 6.0 to 9.0.
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxThreadsPerBlock), 1024);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxBlockDimZ), 64);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxGridDimX), 2147483647);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxGridDimY), 65535);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxRegistersPerMultiprocessor), 65536);
    EXPECT_EQ(device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlock), 49152);
    EXPECT_EQ(device_attribute(A::cudaDevAttrClusterLaunch), row.major >= 9 ? 1 : 0);
  }
}

TEST(DeviceProfiles, PciBusIdsDifferPerDevice) {
  const int bus = *device_attribute(static_cast<int>(A::cudaDevAttrPciBusId), 0);
  EXPECT_EQ(*device_attribute(static_cast<int>(A::cudaDevAttrPciBusId), 3), bus + 3);
  EXPECT_EQ(device_count(), 1);  // CUCPU_DEVICE_COUNT is not set for unit tests
  EXPECT_TRUE(is_valid_device(0));
  EXPECT_FALSE(is_valid_device(1));
  EXPECT_FALSE(is_valid_device(-1));
}

// What cuda_occupancy.h computes for the active profile.
int reference_occupancy(int block_size, int registers, size_t shared_bytes, int carveout) {
  cudaOccDeviceProp device;
  device.computeMajor = compute_capability_major();
  device.computeMinor = compute_capability_minor();
  device.maxThreadsPerBlock = device_attribute(A::cudaDevAttrMaxThreadsPerBlock);
  device.maxThreadsPerMultiprocessor = device_attribute(A::cudaDevAttrMaxThreadsPerMultiProcessor);
  device.regsPerBlock = device_attribute(A::cudaDevAttrMaxRegistersPerBlock);
  device.regsPerMultiprocessor = device_attribute(A::cudaDevAttrMaxRegistersPerMultiprocessor);
  device.warpSize = device_attribute(A::cudaDevAttrWarpSize);
  device.sharedMemPerBlock = device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlock);
  device.sharedMemPerMultiprocessor = device_attribute(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  device.numSms = device_attribute(A::cudaDevAttrMultiProcessorCount);
  device.sharedMemPerBlockOptin = device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlockOptin);
  device.reservedSharedMemPerBlock = device_attribute(A::cudaDevAttrReservedSharedMemoryPerBlock);
  cudaOccFuncAttributes function;
  function.maxThreadsPerBlock = 1024;
  function.numRegs = registers;
  function.sharedSizeBytes = 0;
  function.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  function.maxDynamicSharedSizeBytes = device.sharedMemPerBlockOptin;
  cudaOccDeviceState state;
  state.carveoutConfig = carveout;
  cudaOccResult result{};
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &device, &function, &state, block_size, shared_bytes) !=
      CUDA_OCC_SUCCESS)
    return 0;
  return result.activeBlocksPerMultiprocessor;
}

TEST(Occupancy, AgreesWithCudaOccupancyHeaderForEveryProfile) {
  for (const DeviceProfile& profile : device_profiles()) {
    ProfileScope scope(("sm_" + std::to_string(profile.arch)).c_str());
    const size_t optin = device_attribute(A::cudaDevAttrMaxSharedMemoryPerBlockOptin);
    int checked = 0;
    for (int block : {1, 32, 33, 64, 96, 128, 192, 256, 320, 512, 640, 768, 1024})
      for (int registers : {0, 16, 24, 32, 40, 64, 72, 128, 168, 255})
        for (size_t shared : {size_t{0}, size_t{1}, size_t{1000}, size_t{4096}, size_t{12345}, size_t{49152},
                              optin / 2, optin - 1024, optin})
          for (int carveout : {-1, 0, 25, 50, 100}) {
            SCOPED_TRACE(testing::Message() << "sm_" << profile.arch << " block " << block << " registers "
                                            << registers << " shared " << shared << " carveout " << carveout);
            ASSERT_EQ(max_active_blocks_per_sm(block, shared, registers, carveout),
                      reference_occupancy(block, registers, shared, carveout));
            ++checked;
          }
    EXPECT_EQ(checked, 13 * 10 * 9 * 5);
  }
}

}  // namespace
}  // namespace cucpu::core
