// cudaGetDriverEntryPoint{,ByVersion}{,_ptsz}: the runtime's door to driver functions for
// programs built without -lcuda (TMA code gets cuTensorMapEncodeTiled this way). cucpu has
// no libcuda.so.1 yet; the driver functions it does have are defined here and handed out
// by name. Any other name gets cudaDriverEntryPointSymbolNotFound and a NULL pointer, as
// CUDA answers for a symbol its driver lacks.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <string_view>

#include "api/runtime/runtime_state.h"
#include "jit/tensor_map.h"

namespace {

using cucpu::jit::TensorMapStatus;

// The driver's names and messages for the CUresult codes these functions return.
struct DriverErrorText {
  CUresult code;
  const char* name;
  const char* text;
};
constexpr DriverErrorText kDriverErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
};

const DriverErrorText* find_driver_error(CUresult code) {
  for (const DriverErrorText& entry : kDriverErrors)
    if (entry.code == code) return &entry;
  return nullptr;
}

CUresult CUDAAPI get_error_string(CUresult error, const char** text) {
  const DriverErrorText* entry = find_driver_error(error);
  if (text == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *text = entry ? entry->text : nullptr;
  return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI get_error_name(CUresult error, const char** name) {
  const DriverErrorText* entry = find_driver_error(error);
  if (name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *name = entry ? entry->name : nullptr;
  return entry ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI tensor_map_encode_tiled(CUtensorMap* tensor_map, CUtensorMapDataType data_type, cuuint32_t rank,
                                         void* global_address, const cuuint64_t* global_dim,
                                         const cuuint64_t* global_strides, const cuuint32_t* box_dim,
                                         const cuuint32_t* element_strides, CUtensorMapInterleave interleave,
                                         CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2_promotion,
                                         CUtensorMapFloatOOBfill oob_fill) {
  if (tensor_map == nullptr || reinterpret_cast<uintptr_t>(tensor_map) % 64 != 0) return CUDA_ERROR_INVALID_VALUE;
  cucpu::jit::TiledTensorMapRequest request;
  request.data_type = static_cast<uint32_t>(data_type);
  request.rank = rank;
  request.global_address = global_address;
  request.global_dim = global_dim;
  request.global_strides = global_strides;
  request.box_dim = box_dim;
  request.element_strides = element_strides;
  request.interleave = static_cast<uint32_t>(interleave);
  request.swizzle = static_cast<uint32_t>(swizzle);
  request.l2_promotion = static_cast<uint32_t>(l2_promotion);
  request.oob_fill = static_cast<uint32_t>(oob_fill);
  cucpu::jit::TensorMap map;
  const TensorMapStatus status = cucpu::jit::encode_tiled_tensor_map(request, map);
  switch (status.kind) {
    case TensorMapStatus::Kind::Ok:
      static_assert(sizeof map == sizeof *tensor_map);
      std::memcpy(tensor_map, &map, sizeof map);
      return CUDA_SUCCESS;
    case TensorMapStatus::Kind::NotSupported:
      std::fprintf(stderr, "cucpu: %s\n", status.why.c_str());
      return CUDA_ERROR_NOT_SUPPORTED;
    case TensorMapStatus::Kind::Invalid:
      break;
  }
  return CUDA_ERROR_INVALID_VALUE;  // the driver says nothing more; status.why is for tests
}

CUresult CUDAAPI tensor_map_encode_im2col(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                          const cuuint64_t*, const int*, const int*, cuuint32_t, cuuint32_t,
                                          const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                          CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  std::fprintf(stderr, "cucpu: cuTensorMapEncodeIm2col is not implemented yet: it returns CUDA_ERROR_NOT_SUPPORTED\n");
  return CUDA_ERROR_NOT_SUPPORTED;
}

struct DriverEntryPoint {
  std::string_view name;
  void* function;
  unsigned since;  // the CUDA version that introduced it
};
const DriverEntryPoint kDriverEntryPoints[] = {
    {"cuGetErrorString", reinterpret_cast<void*>(&get_error_string), 6000},
    {"cuGetErrorName", reinterpret_cast<void*>(&get_error_name), 6000},
    {"cuTensorMapEncodeTiled", reinterpret_cast<void*>(&tensor_map_encode_tiled), 12000},
    {"cuTensorMapEncodeIm2col", reinterpret_cast<void*>(&tensor_map_encode_im2col), 12000},
};

// `version`: the CUDA version the caller was built for (ByVersion), else the runtime's.
cudaError_t find_entry_point(const char* symbol, void** function, unsigned version, unsigned long long flags,
                             cudaDriverEntryPointQueryResult* status) {
  constexpr unsigned long long kKnownFlags = cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream;
  if (symbol == nullptr || function == nullptr || (flags & ~kKnownFlags) != 0)
    return cucpu::runtime::record(cudaErrorInvalidValue);
  *function = nullptr;
  if (status) *status = cudaDriverEntryPointSymbolNotFound;
  for (const DriverEntryPoint& entry : kDriverEntryPoints) {
    if (entry.name != symbol) continue;
    if (version < entry.since) {
      if (status) *status = cudaDriverEntryPointVersionNotSufficent;
      break;
    }
    *function = entry.function;
    if (status) *status = cudaDriverEntryPointSuccess;
  }
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetDriverEntryPoint(const char* symbol, void** funcPtr, unsigned long long flags,
                                              cudaDriverEntryPointQueryResult* driverStatus) {
  return find_entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPoint_ptsz(const char* symbol, void** funcPtr, unsigned long long flags,
                                                   cudaDriverEntryPointQueryResult* driverStatus) {
  return find_entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}

// The runtime's own version (13.0) is the newest a program may ask for.
cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(const char* symbol, void** funcPtr, unsigned int cudaVersion,
                                                       unsigned long long flags,
                                                       cudaDriverEntryPointQueryResult* driverStatus) {
  if (cudaVersion > CUDART_VERSION) return cucpu::runtime::record(cudaErrorInvalidValue);
  return find_entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion_ptsz(const char* symbol, void** funcPtr,
                                                            unsigned int cudaVersion, unsigned long long flags,
                                                            cudaDriverEntryPointQueryResult* driverStatus) {
  return cudaGetDriverEntryPointByVersion(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

}  // extern "C"
