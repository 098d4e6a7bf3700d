// The emulated devices: CUCPU_DEVICE_COUNT identical GPUs (default one) sharing the
// host's memory, each following one compute-capability profile chosen with CUCPU_DEVICE
// (sm_60 ... sm_90, default sm_90: the attributes a real NVIDIA H200 reports,
// device_attributes.def). What describes the host itself (memory size, name) is the
// host's. Launch limits and occupancy rules are read from here and nowhere else.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cucpu::core {

// Device attribute numbers, the same in cudaDeviceAttr and CUdevice_attribute.
enum class DeviceAttribute : int {
#define DEVICE_ATTRIBUTE(name, number, value) name = number,
#include "core/device_attributes.def"
};

// A compute capability: its attribute table and the architecture rules of the occupancy
// calculator that no attribute states (device_profiles.def).
struct DeviceProfile {
  uint32_t arch = 0;                  // 10 * major + minor: PTX up to compute_<arch> runs
  std::string gpu;                    // the GPU whose numbers these are ("NVIDIA H200")
  int shared_allocation_unit = 128;   // bytes; a block's shared memory is rounded up to it
  int register_sub_partitions = 4;    // the register file is split evenly among these
  int max_registers_per_thread = 256; // above it a kernel cannot launch
  int max_cluster_size = 0;           // portable thread block cluster size; 0: no clusters
  std::vector<int> carveout_kib;      // shared memory sizes an SM can be configured to
  std::vector<int> cluster_sm_groups; // SMs of each group one cluster's blocks share (the
                                      // GPCs, as cluster occupancy sees them: cluster_launch.cpp)
  std::map<int, int> attributes;      // attribute number -> value
};

// Every profile cucpu knows, oldest first.
const std::vector<DeviceProfile>& device_profiles();
// The profile named "sm_80", "compute_80", "80" or "8.0"; null when there is none.
const DeviceProfile* find_device_profile(std::string_view name);
// The profile the devices follow (CUCPU_DEVICE, read once; an unknown name is reported on
// stderr and the default used).
const DeviceProfile& device_profile();
// Makes every device follow `profile` from now on (tests, tools; not while kernels run).
void select_device_profile(const DeviceProfile& profile);

// The value a GPU of the profile gives for an attribute number of device `ordinal`;
// nullopt where a GPU rejects the number.
std::optional<int> device_attribute(int number, int ordinal = 0);
int device_attribute(DeviceAttribute attribute);

int compute_capability_major();
int compute_capability_minor();
uint32_t device_arch();  // PTX selection: the newest PTX for compute_<arch> or older

// CUCPU_DEVICE_COUNT (read once, 1 to kMaxDevices; a bad value is reported and 1 used).
constexpr int kMaxDevices = 64;
int device_count();
bool is_valid_device(int ordinal);

// "dddd:bb:dd.0" in hexadecimal, as cudaDeviceGetPCIBusId/cuDeviceGetPCIBusId write it.
std::string device_pci_bus_id(int ordinal);
// The device a PCI bus id names, in the forms the reference names (domain:bus:device.function,
// domain:bus:device, bus:device.function; hexadecimal): -1 for none, nullopt for a string
// that is no bus id.
std::optional<int> device_by_pci_bus_id(const char* bus_id);
// A stable UUID per device (cuDeviceGetUuid, cudaDeviceProp::uuid): "cucpu" and the ordinal.
std::array<unsigned char, 16> device_uuid(int ordinal);

std::string device_name();          // "cucpu CPU device (NVIDIA H200 profile, N workers)"
uint64_t total_memory_bytes();      // the host's physical memory
uint64_t free_memory_bytes();       // the host's available memory

}  // namespace cucpu::core
