// What the runtime API keeps per host thread (the last error, the <<<...>>> call
// configurations) and the one place where cucpu's errors become cudaError_t.
#pragma once

#include <cuda_runtime_api.h>

#include "support/result.h"

namespace cucpu::runtime {

// Maps an inner error to the code CUDA returns for it.
cudaError_t to_cuda_error(const Error& error);

// Records a failing call's error as the thread's last error and returns it: every entry
// point returns through here (`return record(...)`), as CUDA records every failure.
cudaError_t record(cudaError_t error);
cudaError_t record(const Error& error);

// The sticky device error, if the device is broken (see core/sticky_error.h), else success;
// cudaErrorNotPermitted inside a stream's host function, where CUDA calls are not allowed.
// Makes the current device's primary context current where the thread has no context.
// Entry points that touch the device start with CUCPU_RETURN_IF_STICKY().
cudaError_t sticky();

#define CUCPU_RETURN_IF_STICKY()                                                            \
  do {                                                                                      \
    if (cudaError_t sticky_ = ::cucpu::runtime::sticky(); sticky_ != cudaSuccess)          \
      return ::cucpu::runtime::record(sticky_);                                             \
  } while (0)

// The host thread's current device (cudaSetDevice), and whether an ordinal names a device.
int current_device();
void set_current_device(int device);
bool valid_device(int device);

cudaError_t take_last_error();  // cudaGetLastError: returns and clears
cudaError_t peek_last_error();  // cudaPeekAtLastError

// <<<grid, block, shared, stream>>> pushes a configuration that the launch stub pops.
struct CallConfiguration {
  dim3 grid;
  dim3 block;
  size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
};
void push_call_configuration(const CallConfiguration& configuration);
bool pop_call_configuration(CallConfiguration* configuration);

}  // namespace cucpu::runtime
