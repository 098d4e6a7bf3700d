// cudaGetDriverEntryPoint{,ByVersion}{,_ptsz}: the runtime's door to driver functions for
// programs built without -lcuda (TMA code gets cuTensorMapEncodeTiled this way). As
// NVIDIA's runtime does, it asks the driver (cucpu's libcuda.so.1) with cuGetProcAddress,
// which answers every name, version and flag as an H200's driver does.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"

namespace {

// `version`: the CUDA version the caller was built for (ByVersion), else the runtime's.
cudaError_t find_entry_point(const char* symbol, void** function, unsigned version, unsigned long long flags,
                             cudaDriverEntryPointQueryResult* status) {
  // cudaEnableDefault/LegacyStream/PerThreadDefaultStream are CU_GET_PROC_ADDRESS_*'s values.
  constexpr unsigned long long kKnownFlags = cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream;
  if (symbol == nullptr || function == nullptr || (flags & ~kKnownFlags) != 0)
    return cucpu::runtime::record(cudaErrorInvalidValue);
  *function = nullptr;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  const CUresult result = cuGetProcAddress_v2(symbol, function, static_cast<int>(version), flags, &found);
  if (result == CUDA_ERROR_INVALID_VALUE) return cucpu::runtime::record(cudaErrorInvalidValue);
  if (status)
    *status = found == CU_GET_PROC_ADDRESS_SUCCESS                  ? cudaDriverEntryPointSuccess
              : found == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? cudaDriverEntryPointVersionNotSufficent
                                                                    : cudaDriverEntryPointSymbolNotFound;
  if (found != CU_GET_PROC_ADDRESS_SUCCESS) *function = nullptr;
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
