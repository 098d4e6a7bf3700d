// Virtual memory management (core/virtual_memory.h): reserve, create, map, set access,
// and the handles, properties and granularity, with the codes an H200 gives
// (tests/e2e/virtual_memory).
#include <cuda.h>

#include "api/driver/driver_state.h"
#include "core/device.h"
#include "core/virtual_memory.h"

using namespace cucpu;

namespace {

core::VirtualMemory& memory() { return core::VirtualMemory::instance(); }

CUresult result_of(const Result<void>& result) { return result ? CUDA_SUCCESS : driver::to_cu_result(result.error()); }

// Pinned memory on a device: the only kind cucpu's devices have.
bool valid_properties(const CUmemAllocationProp* prop) {
  return prop && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
         core::is_valid_device(prop->location.id);
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop,
                                               CUmemAllocationGranularity_flags option) {
  CUCPU_REQUIRE_INIT();
  if (!granularity || !valid_properties(prop)) return CUDA_ERROR_INVALID_VALUE;
  if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
    return CUDA_ERROR_INVALID_VALUE;
  *granularity = core::kVirtualMemoryGranularity;
  return CUDA_SUCCESS;
}

// `addr` is a hint, which cucpu does not follow.
CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr, unsigned long long flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!ptr || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  auto reserved = memory().reserve(size, alignment);
  if (!reserved) return driver::to_cu_result(reserved.error());
  *ptr = reinterpret_cast<CUdeviceptr>(*reserved);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  CUCPU_REQUIRE_CONTEXT(context);
  return result_of(memory().free(driver::to_pointer(ptr), size));
}

CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                             unsigned long long flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!handle || flags != 0 || !valid_properties(prop)) return CUDA_ERROR_INVALID_VALUE;
  core::PhysicalProperties properties;
  properties.type = prop->type;
  properties.location_type = prop->location.type;
  properties.location_id = prop->location.id;
  properties.handle_types = prop->requestedHandleTypes;
  auto created = memory().create(size, properties);
  if (!created) return driver::to_cu_result(created.error());
  *handle = *created;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle) {
  CUCPU_REQUIRE_CONTEXT(context);
  return result_of(memory().release(handle));
}

CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return result_of(memory().map(driver::to_pointer(ptr), size, offset, handle));
}

CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size) {
  CUCPU_REQUIRE_CONTEXT(context);
  return result_of(memory().unmap(driver::to_pointer(ptr), size));
}

// Every device sees the same memory: the access asked for the last location is the range's.
CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!desc || count == 0) return CUDA_ERROR_INVALID_VALUE;
  core::Access access = core::Access::None;
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || !core::is_valid_device(desc[i].location.id))
      return CUDA_ERROR_INVALID_DEVICE;
    switch (desc[i].flags) {
      case CU_MEM_ACCESS_FLAGS_PROT_NONE: access = core::Access::None; break;
      case CU_MEM_ACCESS_FLAGS_PROT_READ: access = core::Access::Read; break;
      case CU_MEM_ACCESS_FLAGS_PROT_READWRITE: access = core::Access::ReadWrite; break;
      default: return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return result_of(memory().set_access(driver::to_pointer(ptr), size, access));
}

CUresult CUDAAPI cuMemGetAccess(unsigned long long* flags, const CUmemLocation* location, CUdeviceptr ptr) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!flags || !location) return CUDA_ERROR_INVALID_VALUE;
  if (location->type != CU_MEM_LOCATION_TYPE_DEVICE || !core::is_valid_device(location->id))
    return CUDA_ERROR_INVALID_DEVICE;
  auto access = memory().access(driver::to_pointer(ptr));
  if (!access) return driver::to_cu_result(access.error());
  *flags = static_cast<unsigned long long>(*access);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp* prop, CUmemGenericAllocationHandle handle) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!prop) return CUDA_ERROR_INVALID_VALUE;
  auto properties = memory().properties(handle);
  if (!properties) return driver::to_cu_result(properties.error());
  *prop = CUmemAllocationProp{};
  prop->type = static_cast<CUmemAllocationType>(properties->type);
  prop->location.type = static_cast<CUmemLocationType>(properties->location_type);
  prop->location.id = properties->location_id;
  prop->requestedHandleTypes = static_cast<CUmemAllocationHandleType>(properties->handle_types);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!handle) return CUDA_ERROR_INVALID_VALUE;
  auto retained = memory().retain(addr);
  if (!retained) return driver::to_cu_result(retained.error());
  *handle = *retained;
  return CUDA_SUCCESS;
}

// File descriptors only (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR): the memory file itself.
CUresult CUDAAPI cuMemExportToShareableHandle(void* shareableHandle, CUmemGenericAllocationHandle handle,
                                              CUmemAllocationHandleType handleType, unsigned long long flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!shareableHandle || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return CUDA_ERROR_NOT_SUPPORTED;
  auto properties = memory().properties(handle);
  if (!properties) return driver::to_cu_result(properties.error());
  if (!(properties->handle_types & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) return CUDA_ERROR_INVALID_VALUE;
  auto descriptor = memory().export_descriptor(handle);
  if (!descriptor) return driver::to_cu_result(descriptor.error());
  *static_cast<int*>(shareableHandle) = *descriptor;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle* handle, void* osHandle,
                                                CUmemAllocationHandleType shHandleType) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!handle) return CUDA_ERROR_INVALID_VALUE;
  if (shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return CUDA_ERROR_NOT_SUPPORTED;
  auto imported = memory().import_descriptor(static_cast<int>(reinterpret_cast<uintptr_t>(osHandle)));
  if (!imported) return driver::to_cu_result(imported.error());
  *handle = *imported;
  return CUDA_SUCCESS;
}

}  // extern "C"
