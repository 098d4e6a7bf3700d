// The emulated device: a compute capability 9.0 GPU whose attributes are those a real
// NVIDIA H200 reports (device_attributes.def), except what describes the host itself
// (memory size, name). Launch limits are read from here and nowhere else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cucpu::core {

// Device attribute numbers, the same in cudaDeviceAttr and CUdevice_attribute.
enum class DeviceAttribute : int {
#define DEVICE_ATTRIBUTE(name, number, value) name = number,
#include "core/device_attributes.def"
};

// The value the emulated GPU gives for an attribute number; nullopt where a GPU rejects it.
std::optional<int> device_attribute(int number);
int device_attribute(DeviceAttribute attribute);

constexpr int kComputeCapabilityMajor = 9;
constexpr int kComputeCapabilityMinor = 0;
constexpr uint32_t kArch = 10 * kComputeCapabilityMajor + kComputeCapabilityMinor;  // PTX selection
constexpr int kDeviceCount = 1;

std::string device_name();          // "cucpu CPU device (NVIDIA H200 profile, N workers)"
uint64_t total_memory_bytes();      // the host's physical memory
uint64_t free_memory_bytes();       // the host's available memory

}  // namespace cucpu::core
