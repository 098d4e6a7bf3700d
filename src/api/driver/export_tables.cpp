// cuGetExportTable: the private tables NVIDIA's runtime asks its driver for by UUID. The
// statically linked runtime (nvcc's default) needs six before it makes any call a program
// sees (../shared/static-cudart.md, sections 2-3, the layouts and meanings as publicly
// known): the runtime interface (modules from fatbin wrappers, a device's primary context),
// the tools' callback hooks and thread-local storage, context-local storage (where the
// runtime keeps its per-context state), context checks, and the integrity check. Slots
// whose meaning is unknown are callable and do nothing (CUCPU_DEBUG=api says when one is
// called); any other UUID is CUDA_ERROR_INVALID_VALUE with a null table, as NVIDIA's driver
// answers an unknown one.
#include <cuda.h>

#include <cstdint>
#include <cstring>

#include "api/driver/driver_state.h"
#include "api/driver/integrity_check.h"
#include "core/device.h"
#include "core/module_registry.h"
#include "support/log.h"

using namespace cucpu;

namespace {

using Slot = const void*;

template <int kTable, int kSlot>
CUresult CUDAAPI unknown_slot() {
  log::debug(log::Category::Api, "export table {} slot {} called (does nothing)", kTable, kSlot);
  return CUDA_SUCCESS;
}

// --- CUDART_INTERFACE {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9} ---

CUresult load_wrapper(CUmodule* module, const void* wrapper) {
  if (!module || !wrapper) return CUDA_ERROR_INVALID_VALUE;
  auto loaded = core::modules().load_image(wrapper, "the program's fatbin", nullptr, core::Loading::Lazy);
  if (!loaded) return driver::to_cu_result(loaded.error());
  *module = reinterpret_cast<CUmodule>(*loaded);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI module_from_wrapper(CUmodule* module, const void* wrapper) { return load_wrapper(module, wrapper); }

// The device's primary context, neither retained nor made current.
CUresult CUDAAPI primary_context(CUcontext* context, CUdevice device) {
  if (!context) return CUDA_ERROR_INVALID_VALUE;
  if (!core::is_valid_device(device)) return CUDA_ERROR_INVALID_DEVICE;
  *context = reinterpret_cast<CUcontext>(&core::Contexts::instance().primary(device));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI module_from_wrapper_with(CUmodule* module, const void* wrapper, void* extra1, void* extra2,
                                          unsigned extra3) {
  if (extra1 || extra2 || extra3) return CUDA_ERROR_NOT_SUPPORTED;
  return load_wrapper(module, wrapper);
}

void CUDAAPI module_destroyed(uintptr_t) {}

CUresult CUDAAPI module_from_fatbin(const void* fatbin, CUmodule* module, void* extra1, void* extra2, unsigned extra3) {
  if (extra1 || extra2 || extra3) return CUDA_ERROR_NOT_SUPPORTED;
  return load_wrapper(module, fatbin);
}

CUresult CUDAAPI load_compilers() { return CUDA_SUCCESS; }  // cucpu's JIT is always there

const Slot kCudartInterface[] = {
    reinterpret_cast<Slot>(13 * sizeof(Slot)),
    reinterpret_cast<Slot>(&module_from_wrapper),
    reinterpret_cast<Slot>(&primary_context),
    reinterpret_cast<Slot>(&unknown_slot<1, 3>),
    reinterpret_cast<Slot>(&unknown_slot<1, 4>),
    reinterpret_cast<Slot>(&unknown_slot<1, 5>),
    reinterpret_cast<Slot>(&module_from_wrapper_with),
    reinterpret_cast<Slot>(&module_destroyed),
    reinterpret_cast<Slot>(&module_from_fatbin),
    reinterpret_cast<Slot>(&unknown_slot<1, 9>),
    reinterpret_cast<Slot>(&unknown_slot<1, 10>),
    reinterpret_cast<Slot>(&unknown_slot<1, 11>),
    reinterpret_cast<Slot>(&load_compilers),
};

// --- TOOLS_RUNTIME_CALLBACK_HOOKS {a094798c-2e74-2e74-93f2-0800200c0a66} ---

// Two zeroed scratch areas the runtime's tool hooks write to.
void CUDAAPI hooks_buffer(void** buffer, size_t* size) {
  alignas(64) static uint8_t storage[8192];
  *buffer = storage;
  *size = 1024;
}
void CUDAAPI hooks_small_buffer(void** buffer, size_t* size) {
  alignas(64) static uint8_t storage[64];
  *buffer = storage;
  *size = 14;
}

const Slot kToolsHooks[] = {
    reinterpret_cast<Slot>(7 * sizeof(Slot)),        reinterpret_cast<Slot>(&unknown_slot<2, 1>),
    reinterpret_cast<Slot>(&hooks_buffer),           reinterpret_cast<Slot>(&unknown_slot<2, 3>),
    reinterpret_cast<Slot>(&unknown_slot<2, 4>),     reinterpret_cast<Slot>(&unknown_slot<2, 5>),
    reinterpret_cast<Slot>(&hooks_small_buffer),
};

// --- TOOLS_TLS {42d85a81-23f6-cb47-8298-f6e78a3aecdc} ---

const Slot kToolsTls[] = {
    reinterpret_cast<Slot>(4 * sizeof(Slot)),
    reinterpret_cast<Slot>(&unknown_slot<3, 1>),
    reinterpret_cast<Slot>(&unknown_slot<3, 2>),
    reinterpret_cast<Slot>(&unknown_slot<3, 3>),
};

// --- CONTEXT_LOCAL_STORAGE_INTERFACE_V0301 {c693336e-1121-df11-a8c3-68f355d89593} ---
// No size word; ends with a null slot. A null context is the calling thread's current one.

using StorageDestructor = void(CUDAAPI*)(CUcontext, void*, void*);

core::Context* storage_context(CUcontext handle) {
  core::Context* context = nullptr;
  if (handle) return core::Contexts::instance().known(handle) ? reinterpret_cast<core::Context*>(handle) : nullptr;
  return driver::current_context(&context) == CUDA_SUCCESS ? context : nullptr;
}

CUresult CUDAAPI storage_put(CUcontext handle, void* key, void* value, StorageDestructor destructor) {
  core::Context* context = storage_context(handle);
  if (!context) return CUDA_ERROR_INVALID_CONTEXT;
  auto* owner = reinterpret_cast<CUcontext>(context);
  context->store(key, value, [destructor, owner](void* k, void* v) {
    if (destructor) destructor(owner, k, v);
  });
  return CUDA_SUCCESS;
}

CUresult CUDAAPI storage_delete(CUcontext handle, void* key) {
  core::Context* context = storage_context(handle);
  if (!context) return CUDA_ERROR_INVALID_CONTEXT;
  return context->erase(key) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI storage_get(void** value, CUcontext handle, void* key) {
  core::Context* context = storage_context(handle);
  if (!context) return CUDA_ERROR_INVALID_CONTEXT;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  return context->load(key, value) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

const Slot kContextLocalStorage[] = {
    reinterpret_cast<Slot>(&storage_put),
    reinterpret_cast<Slot>(&storage_delete),
    reinterpret_cast<Slot>(&storage_get),
    nullptr,
};

// --- CONTEXT_CHECKS {263e8860-7cd2-6143-92f6-bbd5006dfa7e} ---

// Whether a context is a wrapped one (never, here).
CUresult CUDAAPI context_is_wrapped(CUcontext, uint32_t* wrapped, void** inner) {
  if (wrapped) *wrapped = 0;
  if (inner) *inner = nullptr;
  return CUDA_SUCCESS;
}
uint32_t CUDAAPI context_check_flags() { return 0; }

const Slot kContextChecks[] = {
    reinterpret_cast<Slot>(4 * sizeof(Slot)),
    reinterpret_cast<Slot>(&unknown_slot<5, 1>),
    reinterpret_cast<Slot>(&context_is_wrapped),
    reinterpret_cast<Slot>(&context_check_flags),
};

// --- INTEGRITY_CHECK {d4082055-bde6-704b-8d34-ba123c66e1f2} ---

extern const Slot kIntegrityCheck[];

CUresult CUDAAPI integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t* result) {
  if (!result) return CUDA_ERROR_INVALID_VALUE;
  const auto answer = driver::integrity_answer(version, unix_seconds, kCudartInterface, kIntegrityCheck,
                                               reinterpret_cast<const void*>(&integrity_check));
  result[0] = answer[0];
  result[1] = answer[1];
  return CUDA_SUCCESS;
}

const Slot kIntegrityCheck[] = {
    reinterpret_cast<Slot>(3 * sizeof(Slot)),
    reinterpret_cast<Slot>(&integrity_check),
    reinterpret_cast<Slot>(&unknown_slot<6, 2>),
};

struct Table {
  uint8_t uuid[16];
  const Slot* slots;
};

const Table kTables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}, kCudartInterface},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}, kToolsHooks},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}, kToolsTls},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
     kContextLocalStorage},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}, kContextChecks},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}, kIntegrityCheck},
};

}  // namespace

extern "C" {

CUresult CUDAAPI cuGetExportTable(const void** ppExportTable, const CUuuid* pExportTableId) {
  if (!ppExportTable) return CUDA_ERROR_INVALID_VALUE;
  *ppExportTable = nullptr;
  if (!pExportTableId) return CUDA_ERROR_INVALID_VALUE;
  const auto* id = reinterpret_cast<const uint8_t*>(pExportTableId->bytes);
  for (const Table& table : kTables) {
    if (std::memcmp(table.uuid, id, sizeof table.uuid) == 0) {
      *ppExportTable = table.slots;
      return CUDA_SUCCESS;
    }
  }
  log::debug(log::Category::Api, "cuGetExportTable: unknown table {:02x}{:02x}{:02x}{:02x}-...", id[0], id[1], id[2],
             id[3]);
  return CUDA_ERROR_INVALID_VALUE;
}

}  // extern "C"
