// Device limits (cudaDeviceSetLimit / cudaDeviceGetLimit). Only the printf FIFO size is
// honoured; the others are not supported yet.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "api/runtime/runtime_state.h"
#include "exec/device_printf.h"

using namespace cucpu;

extern "C" {

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  CUCPU_RETURN_IF_STICKY();
  switch (limit) {
    case cudaLimitPrintfFifoSize:
      exec::set_device_output_capacity(value);
      return cudaSuccess;
    default:
      std::fprintf(stderr, "cucpu: cudaDeviceSetLimit: limit %d is not supported yet\n", static_cast<int>(limit));
      return runtime::record(cudaErrorUnsupportedLimit);
  }
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t* value, enum cudaLimit limit) {
  if (!value) return runtime::record(cudaErrorInvalidValue);
  switch (limit) {
    case cudaLimitPrintfFifoSize:
      *value = exec::device_output_capacity();
      return cudaSuccess;
    default:
      std::fprintf(stderr, "cucpu: cudaDeviceGetLimit: limit %d is not supported yet\n", static_cast<int>(limit));
      return runtime::record(cudaErrorUnsupportedLimit);
  }
}

}  // extern "C"
