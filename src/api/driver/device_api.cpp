// Initialisation, versions and devices as the driver API shows them: the emulated
// profile's attributes (core/device.h), the same that the runtime API reports.
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <optional>

#include "api/driver/driver_state.h"
#include "core/device.h"

using namespace cucpu;

namespace {

bool valid_device(CUdevice device) { return core::is_valid_device(device); }

}  // namespace

extern "C" {

CUresult CUDAAPI cuInit(unsigned int Flags) {
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  driver::set_initialized();
  return CUDA_SUCCESS;
}

// cucpu's driver is as new as the toolkit it was built with.
CUresult CUDAAPI cuDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int* count) {
  CUCPU_REQUIRE_INIT();
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  *count = core::device_count();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice* device, int ordinal) {
  CUCPU_REQUIRE_INIT();
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char* name, int len, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(name, static_cast<size_t>(len), "%s", core::device_name().c_str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = core::total_memory_bytes();
  return CUDA_SUCCESS;
}

// The CUDA 3.2 ABI: a 32-bit size.
CUresult CUDAAPI cuDeviceTotalMem(unsigned int* bytes, CUdevice dev) {
  size_t total = 0;
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult result = cuDeviceTotalMem_v2(&total, dev); result != CUDA_SUCCESS) return result;
  *bytes = total > 0xffffffffu ? 0xffffffffu : static_cast<unsigned>(total);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  auto value = core::device_attribute(static_cast<int>(attrib), dev);
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  *pi = *value;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *major = core::compute_capability_major();
  *minor = core::compute_capability_minor();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  auto bytes = core::device_uuid(dev);
  std::memcpy(uuid->bytes, bytes.data(), sizeof uuid->bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }

// The deprecated CUdevprop: the same attributes.
CUresult CUDAAPI cuDeviceGetProperties(CUdevprop* prop, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!prop) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  using A = core::DeviceAttribute;
  auto attribute = [](A a) { return core::device_attribute(a); };
  prop->maxThreadsPerBlock = attribute(A::cudaDevAttrMaxThreadsPerBlock);
  prop->maxThreadsDim[0] = attribute(A::cudaDevAttrMaxBlockDimX);
  prop->maxThreadsDim[1] = attribute(A::cudaDevAttrMaxBlockDimY);
  prop->maxThreadsDim[2] = attribute(A::cudaDevAttrMaxBlockDimZ);
  prop->maxGridSize[0] = attribute(A::cudaDevAttrMaxGridDimX);
  prop->maxGridSize[1] = attribute(A::cudaDevAttrMaxGridDimY);
  prop->maxGridSize[2] = attribute(A::cudaDevAttrMaxGridDimZ);
  prop->sharedMemPerBlock = attribute(A::cudaDevAttrMaxSharedMemoryPerBlock);
  prop->totalConstantMemory = attribute(A::cudaDevAttrTotalConstantMemory);
  prop->SIMDWidth = attribute(A::cudaDevAttrWarpSize);
  prop->memPitch = attribute(A::cudaDevAttrMaxPitch);
  prop->regsPerBlock = attribute(A::cudaDevAttrMaxRegistersPerBlock);
  prop->clockRate = attribute(A::cudaDevAttrClockRate);
  prop->textureAlign = attribute(A::cudaDevAttrTextureAlignment);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetPCIBusId(char* pciBusId, int len, CUdevice dev) {
  CUCPU_REQUIRE_INIT();
  if (!pciBusId || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(pciBusId, static_cast<size_t>(len), "%s", core::device_pci_bus_id(dev).c_str());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice* dev, const char* pciBusId) {
  CUCPU_REQUIRE_INIT();
  if (!dev || !pciBusId) return CUDA_ERROR_INVALID_VALUE;
  std::optional<int> found = core::device_by_pci_bus_id(pciBusId);
  if (!found) return CUDA_ERROR_INVALID_VALUE;
  if (*found < 0) return CUDA_ERROR_INVALID_DEVICE;
  *dev = *found;
  return CUDA_SUCCESS;
}

}  // extern "C"
