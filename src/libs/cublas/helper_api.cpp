// cuBLAS's copies between host and device: cublasSet/GetVector and cublasSet/GetMatrix,
// blocking or queued on a stream (Async), with int and int64_t sizes. A vector is a matrix
// of one-element rows whose leading dimension is its increment.
#include <cublas_api.h>

#include <cstdint>
#include <cstring>

#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

enum class Direction { ToDevice, ToHost };

// Copies a rows x columns matrix of `element`-byte values from `source` (leading dimension
// lda) to `target` (ldb). cuBLAS checks only signs here and leaves the rest to its
// cudaMemcpy2D, whose failures (a leading dimension below the rows, a device side that is
// not device memory) are CUBLAS_STATUS_MAPPING_ERROR.
cublasStatus_t copy_matrix(const char* function, Direction direction, int64_t rows, int64_t columns, int64_t element,
                           const void* source, int64_t lda, void* target, int64_t ldb, cudaStream_t stream,
                           bool blocking) {
  if (rows < 0 || columns < 0 || element <= 0 || lda <= 0 || ldb <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (rows == 0 || columns == 0) return CUBLAS_STATUS_SUCCESS;
  if (lda < rows || ldb < rows) return CUBLAS_STATUS_MAPPING_ERROR;
  const auto* from = static_cast<const unsigned char*>(source);
  auto* to = static_cast<unsigned char*>(target);
  const DeviceRange device = direction == Direction::ToDevice ? matrix_range(to, rows, columns, ldb, element)
                                                              : matrix_range(from, rows, columns, lda, element);
  if (!libs::is_device_memory(device)) return CUBLAS_STATUS_MAPPING_ERROR;
  auto queued = libs::enqueue(stream, function, {device}, [=] {
    for (int64_t column = 0; column < columns; ++column)
      std::memcpy(to + column * ldb * element, from + column * lda * element, rows * element);
  });
  if (!queued) return CUBLAS_STATUS_MAPPING_ERROR;
  if (!blocking) return CUBLAS_STATUS_SUCCESS;
  return libs::synchronize(stream) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

cublasStatus_t copy_vector(const char* function, Direction direction, int64_t n, int64_t element, const void* x,
                           int64_t incx, void* y, int64_t incy, cudaStream_t stream, bool blocking) {
  if (n < 0 || element <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (incx == 1 && incy == 1)
    return copy_matrix(function, direction, n, 1, element, x, n ? n : 1, y, n ? n : 1, stream, blocking);
  // Strided elements: n one-element rows, each column one element.
  return copy_matrix(function, direction, 1, n, element, x, incx, y, incy, stream, blocking);
}

}  // namespace
}  // namespace cucpu::cublas

using cucpu::cublas::copy_matrix;
using cucpu::cublas::copy_vector;
using cucpu::cublas::Direction;

#define CUCPU_HELPERS(I, suffix)                                                                                      \
  cublasStatus_t CUBLASWINAPI cublasSetVector##suffix(I n, I elemSize, const void* x, I incx, void* devicePtr,        \
                                                      I incy) {                                                       \
    return copy_vector(__func__, Direction::ToDevice, n, elemSize, x, incx, devicePtr, incy, nullptr, true);          \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGetVector##suffix(I n, I elemSize, const void* x, I incx, void* y, I incy) {      \
    return copy_vector(__func__, Direction::ToHost, n, elemSize, x, incx, y, incy, nullptr, true);                    \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasSetVectorAsync##suffix(I n, I elemSize, const void* hostPtr, I incx,              \
                                                           void* devicePtr, I incy, cudaStream_t stream) {            \
    return copy_vector(__func__, Direction::ToDevice, n, elemSize, hostPtr, incx, devicePtr, incy, stream, false);    \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGetVectorAsync##suffix(I n, I elemSize, const void* devicePtr, I incx,            \
                                                           void* hostPtr, I incy, cudaStream_t stream) {              \
    return copy_vector(__func__, Direction::ToHost, n, elemSize, devicePtr, incx, hostPtr, incy, stream, false);      \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasSetMatrix##suffix(I rows, I cols, I elemSize, const void* A, I lda, void* B,      \
                                                      I ldb) {                                                        \
    return copy_matrix(__func__, Direction::ToDevice, rows, cols, elemSize, A, lda, B, ldb, nullptr, true);           \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGetMatrix##suffix(I rows, I cols, I elemSize, const void* A, I lda, void* B,      \
                                                      I ldb) {                                                        \
    return copy_matrix(__func__, Direction::ToHost, rows, cols, elemSize, A, lda, B, ldb, nullptr, true);             \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasSetMatrixAsync##suffix(I rows, I cols, I elemSize, const void* A, I lda, void* B, \
                                                           I ldb, cudaStream_t stream) {                              \
    return copy_matrix(__func__, Direction::ToDevice, rows, cols, elemSize, A, lda, B, ldb, stream, false);           \
  }                                                                                                                   \
  cublasStatus_t CUBLASWINAPI cublasGetMatrixAsync##suffix(I rows, I cols, I elemSize, const void* A, I lda, void* B, \
                                                           I ldb, cudaStream_t stream) {                              \
    return copy_matrix(__func__, Direction::ToHost, rows, cols, elemSize, A, lda, B, ldb, stream, false);             \
  }

extern "C" {
CUCPU_HELPERS(int, )
CUCPU_HELPERS(int64_t, _64)
}
