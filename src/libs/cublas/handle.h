// A cuBLAS handle (cublasCreate) and what every entry point does with it: the stream its
// work is queued on, the pointer mode its scalars are read in, the status an inner error
// becomes.
#pragma once

#include <cublas_api.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <initializer_list>

#include "libs/common/arguments.h"
#include "libs/common/stream_work.h"

struct cublasContext {
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
  cublasAtomicsMode_t atomics_mode = CUBLAS_ATOMICS_NOT_ALLOWED;
  cublasEmulationStrategy_t emulation_strategy = CUBLAS_EMULATION_STRATEGY_DEFAULT;
  // The settings of cuBLAS's emulated double-precision products (fixed-point, Ozaki scheme),
  // kept and read back: cucpu computes every double product natively (handle_api.cpp says why).
  cudaEmulationSpecialValuesSupport emulation_special_values = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
  cudaEmulationMantissaControl mantissa_control = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
  int max_mantissa_bits = 0;  // the H200's default
  int mantissa_bit_offset = 0;
  int* mantissa_bit_count = nullptr;  // where an emulated product would report the bits it used
  int sm_count_target = 0;
  void* workspace = nullptr;  // cublasSetWorkspace: kept, the CPU needs none
  size_t workspace_bytes = 0;
  // cuBLAS-XT's handles take host memory as well as device memory (xt_api.cpp): their work
  // is not checked for device memory, and the XT call waits for it.
  bool any_memory = false;
};

namespace cucpu::cublas {

using libs::DeviceRange;

cublasStatus_t to_status(const Error& error);

// A bad argument, reported as cuBLAS does on stdout, the reference BLAS's XERBLA message
// (" ** On entry to SGEMM  parameter number 3 had an illegal value"; the handle is parameter
// 0), then CUBLAS_STATUS_INVALID_VALUE. `function` is the entry point's name.
cublasStatus_t invalid_parameter(const char* function, int position);

// cuBLAS-XT's routines refuse bad arguments without the message (the H200's): while one of
// these lives, invalid_parameter on this thread prints nothing.
class QuietParameterErrors {
 public:
  QuietParameterErrors();
  ~QuietParameterErrors();
  QuietParameterErrors(const QuietParameterErrors&) = delete;
  QuietParameterErrors& operator=(const QuietParameterErrors&) = delete;

 private:
  bool was_quiet_;
};

using libs::first_broken;
using libs::matrix_range;
using libs::Requirement;
using libs::vector_range;

// Queues `work` on the handle's stream (libs::enqueue), returning the call's status.
cublasStatus_t run(cublasHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                   std::function<void()> work);

// Waits for the handle's stream: a result written through a host pointer is there when
// the call returns, as cuBLAS's host pointer mode promises.
cublasStatus_t finish(cublasHandle_t handle);

// A scalar argument (alpha, beta) in the handle's pointer mode: a host value is read at the
// call, a device one when the work runs, after the kernels before it.
template <typename T>
class Scalar {
 public:
  Scalar(cublasHandle_t handle, const T* pointer)
      : device_(handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE ? pointer : nullptr),
        value_(device_ ? T{} : *pointer) {}
  T operator()() const { return device_ ? *device_ : value_; }
  DeviceRange range() const { return {device_, device_ ? sizeof(T) : 0}; }

 private:
  const T* device_;
  T value_;
};

// A scalar of a type known only at run time (the Ex routines' cudaDataType), in the handle's
// pointer mode: its bytes copied at the call (host) or read when the work runs (device).
class RawScalar {
 public:
  RawScalar(cublasHandle_t handle, const void* pointer, size_t size)
      : device_(handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE ? pointer : nullptr), size_(size) {
    if (!device_) std::memcpy(bytes_, pointer, size);
  }
  const void* value() const { return device_ ? device_ : bytes_; }
  DeviceRange range() const { return {device_, device_ ? size_ : 0}; }

 private:
  const void* device_;
  size_t size_;
  unsigned char bytes_[16] = {};
};

template <typename T, typename I>
DeviceRange vector(const T* x, I n, I increment) {
  return vector_range(x, n, increment, sizeof(T));
}

}  // namespace cucpu::cublas
