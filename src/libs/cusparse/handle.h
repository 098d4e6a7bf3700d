// A cuSPARSE handle (cusparseCreate), the descriptors of the generic API (sparse and dense
// vectors and matrices, which only remember what they were made with) and the legacy
// matrix descriptor, plus what every entry point does with them: the stream work is
// queued on, the pointer mode scalars are read in, the status an inner error becomes.
#pragma once

#include <cusparse.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>

#include "libs/common/stream_work.h"

struct cusparseContext {
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
  cusparsePointerMode_t pointer_mode = CUSPARSE_POINTER_MODE_HOST;
};

struct cusparseMatDescr {
  cusparseMatrixType_t type = CUSPARSE_MATRIX_TYPE_GENERAL;
  cusparseFillMode_t fill_mode = CUSPARSE_FILL_MODE_LOWER;
  cusparseDiagType_t diag_type = CUSPARSE_DIAG_TYPE_NON_UNIT;
  cusparseIndexBase_t index_base = CUSPARSE_INDEX_BASE_ZERO;
};

struct cusparseSpVecDescr {
  int64_t size = 0, nnz = 0;
  void* indices = nullptr;
  void* values = nullptr;
  cusparseIndexType_t index_type = CUSPARSE_INDEX_32I;
  cusparseIndexBase_t index_base = CUSPARSE_INDEX_BASE_ZERO;
  cudaDataType value_type = CUDA_R_32F;
};

struct cusparseDnVecDescr {
  int64_t size = 0;
  void* values = nullptr;
  cudaDataType value_type = CUDA_R_32F;
};

// CSR, CSC, COO or Blocked-ELL. `offsets` are CSR's row offsets, CSC's column offsets or
// COO's row indices (Blocked-ELL has none); `indices` CSR's column indices, CSC's row
// indices, COO's column indices or Blocked-ELL's block columns (-1 for an empty block).
struct cusparseSpMatDescr {
  cusparseFormat_t format = CUSPARSE_FORMAT_CSR;
  int64_t rows = 0, cols = 0, nnz = 0;
  void* offsets = nullptr;
  void* indices = nullptr;
  void* values = nullptr;
  cusparseIndexType_t offset_type = CUSPARSE_INDEX_32I, index_type = CUSPARSE_INDEX_32I;
  cusparseIndexBase_t index_base = CUSPARSE_INDEX_BASE_ZERO;
  cudaDataType value_type = CUDA_R_32F;
  cusparseFillMode_t fill_mode = CUSPARSE_FILL_MODE_LOWER;  // cusparseSpMatSetAttribute
  cusparseDiagType_t diag_type = CUSPARSE_DIAG_TYPE_NON_UNIT;
  int batch_count = 1;
  int64_t offsets_batch_stride = 0, values_batch_stride = 0;
  int64_t ell_block_size = 0, ell_cols = 0;  // Blocked-ELL: rows x ell_cols values, row-major
};

struct cusparseDnMatDescr {
  int64_t rows = 0, cols = 0, ld = 0;
  void* values = nullptr;
  cudaDataType value_type = CUDA_R_32F;
  cusparseOrder_t order = CUSPARSE_ORDER_COL;
  int batch_count = 1;
  int64_t batch_stride = 0;
};

namespace cucpu::cusparse {

using libs::DeviceRange;

cusparseStatus_t to_status(const Error& error);

// Queues `work` on the handle's stream (libs::enqueue), returning the call's status.
cusparseStatus_t run(cusparseHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work);

// Waits for the handle's stream: a result written through a host pointer is there when
// the call returns.
cusparseStatus_t finish(cusparseHandle_t handle);

// The element types computed in: float, double and std::complex of them (laid out as
// cuComplex and cuDoubleComplex).
template <typename T>
constexpr bool is_complex = false;
template <typename R>
constexpr bool is_complex<std::complex<R>> = true;

template <typename T>
T conjugate(T value) {
  if constexpr (is_complex<T>)
    return std::conj(value);
  else
    return value;
}

// Calls `body(T{})` with the element type `type` names (the four cuSPARSE computes in);
// any other type is CUSPARSE_STATUS_NOT_SUPPORTED.
template <typename Body>
cusparseStatus_t with_value_type(cudaDataType type, Body body) {
  switch (type) {
    case CUDA_R_32F:
      return body(float{});
    case CUDA_R_64F:
      return body(double{});
    case CUDA_C_32F:
      return body(std::complex<float>{});
    case CUDA_C_64F:
      return body(std::complex<double>{});
    default:
      return CUSPARSE_STATUS_NOT_SUPPORTED;
  }
}

// The same for an index type: int32_t or int64_t (16-bit indices are not supported).
template <typename Body>
cusparseStatus_t with_index_type(cusparseIndexType_t type, Body body) {
  switch (type) {
    case CUSPARSE_INDEX_32I:
      return body(int32_t{});
    case CUSPARSE_INDEX_64I:
      return body(int64_t{});
    default:
      return CUSPARSE_STATUS_NOT_SUPPORTED;
  }
}

inline size_t value_size(cudaDataType type) {
  switch (type) {
    case CUDA_R_32F:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
    default:
      return 0;
  }
}

inline size_t index_size(cusparseIndexType_t type) {
  return type == CUSPARSE_INDEX_64I ? 8 : type == CUSPARSE_INDEX_32I ? 4 : 2;
}

inline DeviceRange array_range(const void* base, int64_t count, size_t element) {
  return {base, count > 0 ? static_cast<size_t>(count) * element : 0};
}

// A scalar argument (alpha, beta) in the handle's pointer mode: a host value is read at the
// call, a device one when the work runs, after the kernels before it.
template <typename T>
class Scalar {
 public:
  Scalar(cusparseHandle_t handle, const void* pointer)
      : device_(handle->pointer_mode == CUSPARSE_POINTER_MODE_DEVICE ? static_cast<const T*>(pointer) : nullptr),
        value_(device_ ? T{} : *static_cast<const T*>(pointer)) {}
  T operator()() const { return device_ ? *device_ : value_; }
  DeviceRange range() const { return {device_, device_ ? sizeof(T) : 0}; }

 private:
  const T* device_;
  T value_;
};

}  // namespace cucpu::cusparse
