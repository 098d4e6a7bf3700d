// What the driver knows about an address: cuPointerGetAttribute(s) and cuMemHostGetFlags,
// from the memory registry (core/memory_registry.h). Every address is the same on the host
// and the device (unified addressing).
#include <cuda.h>

#include <cstdint>
#include <cstring>

#include "api/driver/driver_state.h"
#include "core/memory_registry.h"

using namespace cucpu;

namespace {

CUmemorytype memory_type(const core::Allocation& allocation) {
  return allocation.page_locked() ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
}

template <typename T>
void put(void* data, T value) {
  std::memcpy(data, &value, sizeof value);
}

// How many bytes an attribute's value has: pointers, addresses, sizes and 64-bit ids take 8.
size_t attribute_bytes(CUpointer_attribute attribute) {
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: return 8;
    default: return 4;
  }
}

// A value of zero, as wide as the attribute's.
void put_zero(void* data, CUpointer_attribute attribute) { std::memset(data, 0, attribute_bytes(attribute)); }

// One attribute of a known allocation; CUDA_ERROR_INVALID_VALUE for an address the driver
// does not know (the attributes of unregistered memory are cuPointerGetAttributes' to give).
CUresult attribute_of(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  auto allocation = core::memory().find(driver::to_pointer(ptr));
  if (!allocation) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      put(data, reinterpret_cast<CUcontext>(&core::Contexts::instance().primary(allocation->device)));
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: put(data, static_cast<unsigned>(memory_type(*allocation))); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: put(data, ptr); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (allocation->kind == core::MemoryKind::Device || allocation->kind == core::MemoryKind::ModuleVariable)
        return CUDA_ERROR_INVALID_VALUE;
      put(data, driver::to_pointer(ptr));
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: put(data, 1u); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: put(data, static_cast<unsigned long long>(allocation->base)); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: put(data, allocation->kind == core::MemoryKind::Managed ? 1u : 0u); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: put(data, allocation->device); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: put(data, static_cast<CUdeviceptr>(allocation->base)); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: put(data, allocation->size); return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED: put(data, 1u); return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  CUCPU_REQUIRE_INIT();
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  return attribute_of(data, attribute, ptr);
}

// Unknown memory is no error here: its memory type reads 0 and its context null.
CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute* attributes, void** data,
                                        CUdeviceptr ptr) {
  CUCPU_REQUIRE_INIT();
  if (!attributes || !data) return CUDA_ERROR_INVALID_VALUE;
  const bool known = core::memory().find(driver::to_pointer(ptr)).has_value();
  for (unsigned i = 0; i < numAttributes; ++i) {
    if (!data[i]) continue;
    if (!known) {
      switch (attributes[i]) {
        case CU_POINTER_ATTRIBUTE_CONTEXT: put(data[i], CUcontext{}); break;
        case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: put(data[i], -2); break;  // CU_DEVICE_INVALID
        case CU_POINTER_ATTRIBUTE_HOST_POINTER:
          put(data[i], driver::to_pointer(ptr));
          break;
        default: put_zero(data[i], attributes[i]); break;
      }
      continue;
    }
    if (attribute_of(data[i], attributes[i], ptr) != CUDA_SUCCESS) put_zero(data[i], attributes[i]);
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemHostGetFlags(unsigned int* pFlags, void* p) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pFlags) return CUDA_ERROR_INVALID_VALUE;
  auto allocation = core::memory().find(p);
  if (!allocation || !allocation->page_locked()) return CUDA_ERROR_INVALID_VALUE;
  *pFlags = allocation->reported_host_flags();
  return CUDA_SUCCESS;
}

}  // extern "C"
