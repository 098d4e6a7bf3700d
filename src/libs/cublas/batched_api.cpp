// cuBLAS's batched routines: gemm and gemv over arrays of matrices (pointer arrays or
// strided; gemv also with half and bfloat16 operands), batched triangular solves, and the small-matrix LU, inverse and
// QR helpers (getrfBatched, getriBatched, getrsBatched, matinvBatched, geqrfBatched) over LAPACK. A pointer array lives
// in device memory and is read when the work runs, as the GPU's kernels read it; each matrix it names is checked then.
#include <cublas_api.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <tuple>
#include <vector>

#include "libs/common/lapack_calls.h"
#include "libs/cublas/blas_arguments.h"
#include "libs/cublas/blas_calls.h"
#include "libs/cublas/element_math.h"
#include "libs/cublas/element_types.h"
#include "libs/cublas/handle.h"

namespace cucpu::cublas {
namespace {

using libs::require_device_memory;

// The pointer array of `count` matrices (itself device memory).
template <typename P>
DeviceRange pointers(P* array, int64_t count) {
  return {array, count > 0 ? static_cast<size_t>(count) * sizeof(P) : 0};
}

// The memory of a strided batch of `count` entries, `stride` elements apart, the first of
// which spans `first`: from the lowest entry's start to the highest one's end. Checked once,
// it stands for each entry's own check (every entry lies between the two).
template <typename T>
DeviceRange strided_span(DeviceRange first, long long stride, int64_t count) {
  if (first.bytes == 0 || count <= 0) return {};
  const long long last = stride * (count - 1) * static_cast<long long>(sizeof(T));
  const char* base = static_cast<const char*>(first.base);
  return {base + std::min(0ll, last), first.bytes + static_cast<size_t>(last < 0 ? -last : last)};
}

// What a batched call checks before its entries: the pointer arrays it reads them from, each
// of whose entries is then checked when it is read; or, for a strided batch, the whole span
// of each operand, which needs no further check.
struct BatchMemory {
  std::array<DeviceRange, 3> ranges;
  bool strided = false;
};

template <typename T, typename I, typename Matrices>
cublasStatus_t gemm_batched(cublasHandle_t handle, const char* function, cublasOperation_t transa,
                            cublasOperation_t transb, I m, I n, I k, const T* alpha, I lda, I ldb, const T* beta, I ldc,
                            I count, GemmPositions at, int count_at, BatchMemory memory, Matrices matrices) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (int bad = gemm_broken_parameter(transa, transb, m, n, k, lda, ldb, ldc, at))
    return invalid_parameter(function, bad);
  if (count < 0) return invalid_parameter(function, count_at);
  if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, k, lda, ldb, ldc)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  const Shape<I> a = operand(transa, m, k), b = operand(transb, k, n), c{m, n};
  if (memory.strided) {  // (a pointer array is read only when the work runs: a kernel may write it)
    const auto [first_a, first_b, first_c] = matrices(0);
    const auto [second_a, second_b, second_c] = matrices(1);
    memory.ranges = {strided_span<T>(matrix(first_a, a, lda), second_a - first_a, count),
                     strided_span<T>(matrix(first_b, b, ldb), second_b - first_b, count),
                     strided_span<T>(matrix(first_c, c, ldc), second_c - first_c, count)};
  }
  return run(handle, function, {s_alpha.range(), s_beta.range(), memory.ranges[0], memory.ranges[1], memory.ranges[2]},
             [=] {
               const T alpha_value = s_alpha(), beta_value = s_beta();
               for (I i = 0; i < count; ++i) {
                 auto [A, B, C] = matrices(i);
                 if (!memory.strided && (!require_device_memory(function, matrix(A, a, lda)) ||
                                         !require_device_memory(function, matrix(B, b, ldb)) ||
                                         !require_device_memory(function, matrix(C, c, ldc))))
                   return;
                 gemm(to_cblas(transa), to_cblas(transb), m, n, k, alpha_value, A, lda, B, ldb, beta_value, C, ldc);
               }
             });
}

template <typename T, typename I>
cublasStatus_t trsm_batched(cublasHandle_t handle, const char* function, cublasSideMode_t side, cublasFillMode_t uplo,
                            cublasOperation_t trans, cublasDiagType_t diag, I m, I n, const T* alpha,
                            const T* const A[], I lda, T* const B[], I ldb, I count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  const I order = side == CUBLAS_SIDE_LEFT ? m : n;
  if (int bad = first_broken({{valid(side), 1},
                              {valid(uplo), 2},
                              {valid(trans), 3},
                              {valid(diag), 4},
                              {m >= 0, 5},
                              {n >= 0, 6},
                              {leading_ok(lda, order), 9},
                              {leading_ok(ldb, m), 11},
                              {count >= 0, 12}}))
    return invalid_parameter(function, bad);
  if (!alpha) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, ldb)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha);
  return run(handle, function, {s_alpha.range(), pointers(A, count), pointers(B, count)}, [=] {
    for (I i = 0; i < count; ++i) {
      if (!require_device_memory(function, matrix(A[i], Shape<I>{order, order}, lda)) ||
          !require_device_memory(function, matrix(B[i], Shape<I>{m, n}, ldb)))
        return;
      trsm(to_cblas(side), to_cblas(uplo), to_cblas(trans), to_cblas(diag), m, n, s_alpha(), A[i], lda, B[i], ldb);
    }
  });
}

// gemmGroupedBatched: groups of batched products, each group with its own shapes and host
// scalars; the pointer arrays hold every group's matrices one group after another.
template <typename T, typename I>
cublasStatus_t gemm_grouped(cublasHandle_t handle, const char* function, const cublasOperation_t transa[],
                            const cublasOperation_t transb[], const I m[], const I n[], const I k[], const T alpha[],
                            const T* const A[], const I lda[], const T* const B[], const I ldb[], const T beta[],
                            T* const C[], const I ldc[], I groups, const I group_size[]) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // The group arrays and scalars are host memory; the scalars are read as host values.
  if (groups < 0 || handle->pointer_mode != CUBLAS_POINTER_MODE_HOST) return CUBLAS_STATUS_INVALID_VALUE;
  int64_t first = 0;
  for (I g = 0; g < groups; ++g) {
    const int64_t size = group_size[g];
    cublasStatus_t status =
        gemm_batched(handle, function, transa[g], transb[g], m[g], n[g], k[g], &alpha[g], lda[g], ldb[g], &beta[g],
                     ldc[g], static_cast<I>(size), kGemmPositions, 14,
                     {pointers(A + first, size), pointers(B + first, size), pointers(C + first, size)}, [=](I i) {
                       return std::tuple{A[first + i], B[first + i], C[first + i]};
                     });
    if (status != CUBLAS_STATUS_SUCCESS) return status;
    first += size;
  }
  return CUBLAS_STATUS_SUCCESS;
}

// gelsBatched: least squares min |A[i] X - C[i]| for full-rank m >= n (QR, LAPACK's gels),
// X in C[i]'s first n rows. `info` (host) names a bad argument; devInfo[i] is the first zero
// diagonal of R (1-based), as LAPACK's info.
template <typename T>
cublasStatus_t gels_batched(cublasHandle_t handle, const char* function, cublasOperation_t trans, int m, int n,
                            int nrhs, T* const A[], int lda, T* const C[], int ldc, int* info, int* dev_info,
                            int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!info) return CUBLAS_STATUS_INVALID_VALUE;
  *info = trans != CUBLAS_OP_N  ? -1
          : m < 0               ? -2
          : n < 0               ? -3
          : nrhs < 0            ? -4
          : !leading_ok(lda, m) ? -6
          : !leading_ok(ldc, m) ? -8
          : count < 0           ? -11
                                : 0;
  if (*info) return CUBLAS_STATUS_INVALID_VALUE;
  if (n > m) return CUBLAS_STATUS_NOT_SUPPORTED;  // underdetermined systems: not on the H200 either
  if (count == 0) return CUBLAS_STATUS_SUCCESS;
  return run(handle, function, {pointers(A, count), pointers(C, count), {dev_info, dev_info ? sizeof(int) * count : 0}},
             [=] {
               std::vector<T> work(std::max(1, (n + nrhs) * 64));
               for (int i = 0; i < count; ++i) {
                 if (!require_device_memory(function, matrix(A[i], Shape<int>{m, n}, lda)) ||
                     !require_device_memory(function, matrix(C[i], Shape<int>{m, nrhs}, ldc)))
                   return;
                 const int result =
                     libs::gels('N', m, n, nrhs, A[i], lda, C[i], ldc, work.data(), static_cast<int>(work.size()));
                 if (dev_info) dev_info[i] = result;
               }
             });
}

// y[i] = alpha op(A[i]) x[i] + beta y[i] for each batch entry: `vectors(i)` gives A, x, y.
template <typename T, typename I, typename Vectors>
cublasStatus_t gemv_batched(cublasHandle_t handle, const char* function, cublasOperation_t trans, I m, I n,
                            const T* alpha, I lda, I incx, const T* beta, I incy, I count,
                            std::array<DeviceRange, 3> arrays, Vectors vectors) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid(trans) || m < 0 || n < 0 || !leading_ok(lda, m) || incx == 0 || incy == 0 || count < 0 || !alpha || !beta)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
  if (!fits_blas(m, n, lda, incx, incy)) return CUBLAS_STATUS_NOT_SUPPORTED;
  Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
  const I x_length = trans == CUBLAS_OP_N ? n : m, y_length = trans == CUBLAS_OP_N ? m : n;
  return run(handle, function, {s_alpha.range(), s_beta.range(), arrays[0], arrays[1], arrays[2]}, [=] {
    const T alpha_value = s_alpha(), beta_value = s_beta();
    for (I i = 0; i < count; ++i) {
      auto [A, x, y] = vectors(i);
      if (!require_device_memory(function, matrix(A, Shape<I>{m, n}, lda)) ||
          !require_device_memory(function, vector_range(x, x_length, incx, sizeof(T))) ||
          !require_device_memory(function, vector_range(y, y_length, incy, sizeof(T))))
        return;
      gemv(to_cblas(trans), m, n, alpha_value, A, lda, x, incx, beta_value, y, incy);
    }
  });
}

// The element at position i of n strided elements (BLAS: a negative increment walks back).
template <typename I>
size_t strided_index(I i, I n, I increment) {
  return static_cast<size_t>(increment >= 0 ? i * increment : (n - 1 - i) * -increment);
}

// The mixed-precision batched gemvs (cublasHSHgemvBatched, HSS, TST, TSS: A and x of half or
// bfloat16, y of that type or float, float scalars): each y[i] = alpha op(A[i]) x[i] + beta y[i]
// is computed in float and rounded to y's type to nearest even. `vectors(i)` gives A, x, y.
template <typename I, typename Vectors>
cublasStatus_t mixed_gemv_batched(cublasHandle_t handle, const char* function, cudaDataType in_type,
                                  cudaDataType out_type, cublasOperation_t trans, I m, I n, const float* alpha, I lda,
                                  I incx, const float* beta, I incy, I count, std::array<DeviceRange, 3> arrays,
                                  Vectors vectors) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // The H200's answers: negative sizes are an empty product, the increments are not checked (0
  // repeats one element), a negative batch count fails as its kernel launch would.
  if (!leading_ok(lda, m) || !alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
  if (count < 0) return CUBLAS_STATUS_EXECUTION_FAILED;
  if (m <= 0 || n <= 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
  Scalar<float> s_alpha(handle, alpha), s_beta(handle, beta);
  // An operation other than N, T and C is not refused either: the H200 then reads A as for T
  // (row r of the result from A's column r) but with N's lengths (m results, n elements of x),
  // which reaches past the m x n matrix; what lies outside device memory reads as zero, as the
  // GPU's padding of an allocation did.
  const bool unknown_op = !valid(trans);
  const bool transposed = trans != CUBLAS_OP_N;
  const I x_length = transposed && !unknown_op ? m : n, y_length = transposed && !unknown_op ? n : m;
  const size_t in_size = element_size(in_type), out_size = element_size(out_type);
  return run(handle, function, {s_alpha.range(), s_beta.range(), arrays[0], arrays[1], arrays[2]}, [=] {
    const float alpha_value = s_alpha(), beta_value = s_beta();
    for (I i = 0; i < count; ++i) {
      auto [A, x, y] = vectors(i);
      if ((!unknown_op && !require_device_memory(function, matrix_range(A, m, n, lda, in_size))) ||
          !require_device_memory(function, vector_range(x, x_length, incx, in_size)) ||
          !require_device_memory(function, vector_range(y, y_length, incy, out_size)))
        return;
      const auto a_element = [&](size_t index) {
        const void* at = static_cast<const char*>(static_cast<const void*>(A)) + index * in_size;
        return unknown_op && !libs::is_device_memory({at, in_size}) ? 0.0f : load_element<float>(A, in_type, index);
      };
      for (I r = 0; r < y_length; ++r) {
        float sum = 0;
        for (I c = 0; c < x_length; ++c)
          sum += a_element(static_cast<size_t>(transposed ? c + r * lda : r + c * lda)) *
                 load_element<float>(x, in_type, strided_index(c, x_length, incx));
        const size_t at = strided_index(r, y_length, incy);
        // beta = 0: y is not read (it may hold NaNs), as BLAS defines.
        const float old = beta_value == 0 ? 0.0f : beta_value * load_element<float>(y, out_type, at);
        store_element<float>(y, out_type, at, alpha_value * sum + old);
      }
    }
  });
}

// LU without row interchanges (getrfBatched with P null), as LAPACK's getf2 would do with
// every pivot on the diagonal: info is the first zero pivot's (1-based) column.
template <typename T>
int lu_without_pivoting(int n, T* a, int lda) {
  int info = 0;
  for (int j = 0; j < n; ++j) {
    const T pivot = a[j + j * lda];
    if (is_zero(pivot)) {
      if (!info) info = j + 1;
      continue;
    }
    for (int i = j + 1; i < n; ++i) a[i + j * lda] = div(a[i + j * lda], pivot);
    for (int c = j + 1; c < n; ++c)
      for (int i = j + 1; i < n; ++i) a[i + c * lda] = sub(a[i + c * lda], mul(a[i + j * lda], a[j + c * lda]));
  }
  return info;
}

template <typename T>
cublasStatus_t getrf_batched(cublasHandle_t handle, const char* function, int n, T* const A[], int lda, int* P,
                             int* info, int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // n 1, A 2, lda 3, P 4, info 5, batchSize 6.
  if (int bad = first_broken({{n >= 0, 1}, {leading_ok(lda, n), 3}, {count >= 0, 6}}))
    return invalid_parameter(function, bad);
  if (count == 0) return CUBLAS_STATUS_SUCCESS;
  const DeviceRange pivots{P, P ? sizeof(int) * n * count : 0};
  return run(handle, function, {pointers(A, count), pivots, {info, sizeof(int) * count}}, [=] {
    for (int i = 0; i < count; ++i) {
      if (!require_device_memory(function, matrix(A[i], Shape<int>{n, n}, lda))) return;
      info[i] = P ? libs::getrf(n, n, A[i], lda, P + i * n) : lu_without_pivoting(n, A[i], lda);
    }
  });
}

// The identity permutation, for getri/getrs on factors made without pivoting.
std::vector<int> unpivoted(int n) {
  std::vector<int> pivots(n);
  std::iota(pivots.begin(), pivots.end(), 1);
  return pivots;
}

// C[i] = inverse of the LU-factored A[i] (out of place).
template <typename T>
cublasStatus_t getri_batched(cublasHandle_t handle, const char* function, int n, const T* const A[], int lda,
                             const int* P, T* const C[], int ldc, int* info, int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  // n 1, A 2, lda 3, P 4, C 5, ldc 6, info 7, batchSize 8.
  if (int bad = first_broken({{n >= 0, 1}, {leading_ok(lda, n), 3}, {leading_ok(ldc, n), 6}, {count >= 0, 8}}))
    return invalid_parameter(function, bad);
  if (count == 0) return CUBLAS_STATUS_SUCCESS;
  const DeviceRange pivots{P, P ? sizeof(int) * n * count : 0};
  return run(handle, function, {pointers(A, count), pointers(C, count), pivots, {info, sizeof(int) * count}}, [=] {
    std::vector<T> work(std::max(1, n * 64));
    const std::vector<int> identity = unpivoted(n);
    for (int i = 0; i < count; ++i) {
      if (!require_device_memory(function, matrix(A[i], Shape<int>{n, n}, lda)) ||
          !require_device_memory(function, matrix(C[i], Shape<int>{n, n}, ldc)))
        return;
      for (int column = 0; column < n; ++column) std::memmove(C[i] + column * ldc, A[i] + column * lda, sizeof(T) * n);
      info[i] = libs::getri(n, C[i], ldc, P ? P + i * n : identity.data(), work.data(), static_cast<int>(work.size()));
    }
  });
}

// Solves op(A[i]) X = B[i] from LU factors; `info` is a host value saying which argument
// was bad (-position), as cuBLAS's does.
template <typename T>
cublasStatus_t getrs_batched(cublasHandle_t handle, const char* function, cublasOperation_t trans, int n, int nrhs,
                             const T* const A[], int lda, const int* P, T* const B[], int ldb, int* info, int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!info) return CUBLAS_STATUS_INVALID_VALUE;
  *info = !valid(trans)         ? -1
          : n < 0               ? -2
          : nrhs < 0            ? -3
          : !leading_ok(lda, n) ? -6
          : !leading_ok(ldb, n) ? -9
          : count < 0           ? -11
                                : 0;
  if (*info) return CUBLAS_STATUS_INVALID_VALUE;
  if (n == 0 || nrhs == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
  const char op = trans == CUBLAS_OP_N ? 'N' : trans == CUBLAS_OP_T ? 'T' : 'C';
  const DeviceRange pivots{P, P ? sizeof(int) * n * count : 0};
  return run(handle, function, {pointers(A, count), pointers(B, count), pivots}, [=] {
    const std::vector<int> identity = unpivoted(n);
    for (int i = 0; i < count; ++i) {
      if (!require_device_memory(function, matrix(A[i], Shape<int>{n, n}, lda)) ||
          !require_device_memory(function, matrix(B[i], Shape<int>{n, nrhs}, ldb)))
        return;
      (void)libs::getrs(op, n, nrhs, A[i], lda, P ? P + i * n : identity.data(), B[i], ldb);
    }
  });
}

// Ainv[i] = inverse of A[i] for n <= 32 (LU with pivoting, then the inverse from it).
template <typename T>
cublasStatus_t matinv_batched(cublasHandle_t handle, const char* function, int n, const T* const A[], int lda,
                              T* const Ainv[], int lda_inv, int* info, int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n < 0 || n > 32 || count < 0 || !leading_ok(lda, n) || !leading_ok(lda_inv, n))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (count == 0) return CUBLAS_STATUS_SUCCESS;
  return run(handle, function, {pointers(A, count), pointers(Ainv, count), {info, sizeof(int) * count}}, [=] {
    std::vector<T> work(std::max(1, n * 64));
    std::vector<int> pivots(n);
    for (int i = 0; i < count; ++i) {
      if (!require_device_memory(function, matrix(A[i], Shape<int>{n, n}, lda)) ||
          !require_device_memory(function, matrix(Ainv[i], Shape<int>{n, n}, lda_inv)))
        return;
      for (int column = 0; column < n; ++column)
        std::memmove(Ainv[i] + column * lda_inv, A[i] + column * lda, sizeof(T) * n);
      info[i] = libs::getrf(n, n, Ainv[i], lda_inv, pivots.data());
      if (info[i] == 0)
        (void)libs::getri(n, Ainv[i], lda_inv, pivots.data(), work.data(), static_cast<int>(work.size()));
    }
  });
}

// QR of each A[i] in place (Householder vectors below the diagonal, their scalars in Tau[i]);
// `info` is a host value naming a bad argument.
template <typename T>
cublasStatus_t geqrf_batched(cublasHandle_t handle, const char* function, int m, int n, T* const A[], int lda,
                             T* const Tau[], int* info, int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!info) return CUBLAS_STATUS_INVALID_VALUE;
  *info = m < 0 ? -2 : n < 0 ? -3 : !leading_ok(lda, m) ? -5 : count < 0 ? -8 : 0;
  if (*info) return CUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || count == 0) return CUBLAS_STATUS_SUCCESS;
  return run(handle, function, {pointers(A, count), pointers(Tau, count)}, [=] {
    std::vector<T> work(std::max(1, n * 64));
    for (int i = 0; i < count; ++i) {
      if (!require_device_memory(function, matrix(A[i], Shape<int>{m, n}, lda)) ||
          !require_device_memory(function, {Tau[i], sizeof(T) * std::min(m, n)}))
        return;
      (void)libs::geqrf(m, n, A[i], lda, Tau[i], work.data(), static_cast<int>(work.size()));
    }
  });
}

}  // namespace
}  // namespace cucpu::cublas

using namespace cucpu::cublas;

#define CUCPU_GEMM_BATCHED(X, T, I, suffix)                                                                            \
  cublasStatus_t CUBLASWINAPI cublas##X##gemmBatched##suffix(                                                          \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const T* alpha,        \
      const T* const Aarray[], I lda, const T* const Barray[], I ldb, const T* beta, T* const Carray[], I ldc,         \
      I batchCount) {                                                                                                  \
    return gemm_batched(                                                                                               \
        handle, __func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, batchCount, kGemmPositions, 14,         \
        {pointers(Aarray, batchCount), pointers(Barray, batchCount), pointers(Carray, batchCount)}, [=](I i) {         \
          return std::tuple{Aarray[i], Barray[i], Carray[i]};                                                          \
        });                                                                                                            \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##gemmStridedBatched##suffix(                                                   \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, const T* alpha,        \
      const T* A, I lda, long long int strideA, const T* B, I ldb, long long int strideB, const T* beta, T* C, I ldc,  \
      long long int strideC, I batchCount) {                                                                           \
    return gemm_batched(handle, __func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, batchCount,             \
                        kGemmPositions, 14, BatchMemory{{}, true}, /* numbered as gemmBatched's (H200) */              \
                        [=](I i) {                                                                                     \
                          return std::tuple{A + i * strideA, B + i * strideB, C + i * strideC};                        \
                        });                                                                                            \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##trsmBatched##suffix(                                                          \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,                    \
      cublasDiagType_t diag, I m, I n, const T* alpha, const T* const A[], I lda, T* const B[], I ldb, I batchCount) { \
    return trsm_batched(handle, __func__, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, batchCount);           \
  }

#define CUCPU_GEMV_BATCHED(X, T, I, suffix)                                                                         \
  cublasStatus_t CUBLASWINAPI cublas##X##gemvBatched##suffix(                                                       \
      cublasHandle_t handle, cublasOperation_t trans, I m, I n, const T* alpha, const T* const Aarray[], I lda,     \
      const T* const xarray[], I incx, const T* beta, T* const yarray[], I incy, I batchCount) {                    \
    return gemv_batched(handle, __func__, trans, m, n, alpha, lda, incx, beta, incy, batchCount,                    \
                        {pointers(Aarray, batchCount), pointers(xarray, batchCount), pointers(yarray, batchCount)}, \
                        [=](I i) {                                                                                  \
                          return std::tuple{Aarray[i], xarray[i], yarray[i]};                                       \
                        });                                                                                         \
  }                                                                                                                 \
  cublasStatus_t CUBLASWINAPI cublas##X##gemvStridedBatched##suffix(                                                \
      cublasHandle_t handle, cublasOperation_t trans, I m, I n, const T* alpha, const T* A, I lda,                  \
      long long int strideA, const T* x, I incx, long long int stridex, const T* beta, T* y, I incy,                \
      long long int stridey, I batchCount) {                                                                        \
    return gemv_batched(handle, __func__, trans, m, n, alpha, lda, incx, beta, incy, batchCount, {}, [=](I i) {     \
      return std::tuple{A + i * strideA, x + i * stridex, y + i * stridey};                                         \
    });                                                                                                             \
  }

// X: the letters of In (H half, T bfloat16), the compute type (S) and Out (H, T or S).
#define CUCPU_MIXED_GEMV_BATCHED(X, In, in_type, Out, out_type, I, suffix)                                           \
  cublasStatus_t CUBLASWINAPI cublas##X##gemvBatched##suffix(                                                        \
      cublasHandle_t handle, cublasOperation_t trans, I m, I n, const float* alpha, const In* const Aarray[], I lda, \
      const In* const xarray[], I incx, const float* beta, Out* const yarray[], I incy, I batchCount) {              \
    return mixed_gemv_batched(                                                                                       \
        handle, __func__, in_type, out_type, trans, m, n, alpha, lda, incx, beta, incy, batchCount,                  \
        {pointers(Aarray, batchCount), pointers(xarray, batchCount), pointers(yarray, batchCount)}, [=](I i) {       \
          return std::tuple{Aarray[i], xarray[i], yarray[i]};                                                        \
        });                                                                                                          \
  }                                                                                                                  \
  cublasStatus_t CUBLASWINAPI cublas##X##gemvStridedBatched##suffix(                                                 \
      cublasHandle_t handle, cublasOperation_t trans, I m, I n, const float* alpha, const In* A, I lda,              \
      long long int strideA, const In* x, I incx, long long int stridex, const float* beta, Out* y, I incy,          \
      long long int stridey, I batchCount) {                                                                         \
    return mixed_gemv_batched(handle, __func__, in_type, out_type, trans, m, n, alpha, lda, incx, beta, incy,        \
                              batchCount, {}, [=](I i) {                                                             \
                                return std::tuple{A + i * strideA, x + i * stridex, y + i * stridey};                \
                              });                                                                                    \
  }

// The 3M forms of the complex batched products: the same products as Cgemm's (NVIDIA's 3M
// algorithm, three real products where four would do, changes only the rounding).
#define CUCPU_GEMM3M_BATCHED(I, suffix)                                                                         \
  cublasStatus_t CUBLASWINAPI cublasCgemm3mBatched##suffix(                                                     \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,                 \
      const cuComplex* alpha, const cuComplex* const Aarray[], I lda, const cuComplex* const Barray[], I ldb,   \
      const cuComplex* beta, cuComplex* const Carray[], I ldc, I batchCount) {                                  \
    return gemm_batched(                                                                                        \
        handle, __func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, batchCount, kGemmPositions, 14,  \
        {pointers(Aarray, batchCount), pointers(Barray, batchCount), pointers(Carray, batchCount)}, [=](I i) {  \
          return std::tuple{Aarray[i], Barray[i], Carray[i]};                                                   \
        });                                                                                                     \
  }                                                                                                             \
  cublasStatus_t CUBLASWINAPI cublasCgemm3mStridedBatched##suffix(                                              \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,                 \
      const cuComplex* alpha, const cuComplex* A, I lda, long long int strideA, const cuComplex* B, I ldb,      \
      long long int strideB, const cuComplex* beta, cuComplex* C, I ldc, long long int strideC, I batchCount) { \
    return gemm_batched(handle, __func__, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, batchCount,      \
                        kGemmPositions, 14, BatchMemory{{}, true}, [=](I i) {                                   \
                          return std::tuple{A + i * strideA, B + i * strideB, C + i * strideC};                 \
                        });                                                                                     \
  }

#define CUCPU_GROUPED_BATCHED(X, T, I, suffix)                                                                        \
  cublasStatus_t CUBLASWINAPI cublas##X##gemmGroupedBatched##suffix(                                                  \
      cublasHandle_t handle, const cublasOperation_t transa_array[], const cublasOperation_t transb_array[],          \
      const I m_array[], const I n_array[], const I k_array[], const T alpha_array[], const T* const Aarray[],        \
      const I lda_array[], const T* const Barray[], const I ldb_array[], const T beta_array[], T* const Carray[],     \
      const I ldc_array[], I group_count, const I group_size[]) {                                                     \
    return gemm_grouped(handle, __func__, transa_array, transb_array, m_array, n_array, k_array, alpha_array, Aarray, \
                        lda_array, Barray, ldb_array, beta_array, Carray, ldc_array, group_count, group_size);        \
  }

#define CUCPU_FACTOR_BATCHED(X, T)                                                                                     \
  cublasStatus_t CUBLASWINAPI cublas##X##getrfBatched(cublasHandle_t handle, int n, T* const A[], int lda, int* P,     \
                                                      int* info, int batchSize) {                                      \
    return getrf_batched(handle, __func__, n, A, lda, P, info, batchSize);                                             \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##getriBatched(cublasHandle_t handle, int n, const T* const A[], int lda,       \
                                                      const int* P, T* const C[], int ldc, int* info, int batchSize) { \
    return getri_batched(handle, __func__, n, A, lda, P, C, ldc, info, batchSize);                                     \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##getrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs, \
                                                      const T* const Aarray[], int lda, const int* devIpiv,            \
                                                      T* const Barray[], int ldb, int* info, int batchSize) {          \
    return getrs_batched(handle, __func__, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, info, batchSize);        \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##matinvBatched(cublasHandle_t handle, int n, const T* const A[], int lda,      \
                                                       T* const Ainv[], int lda_inv, int* info, int batchSize) {       \
    return matinv_batched(handle, __func__, n, A, lda, Ainv, lda_inv, info, batchSize);                                \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##geqrfBatched(cublasHandle_t handle, int m, int n, T* const Aarray[], int lda, \
                                                      T* const TauArray[], int* info, int batchSize) {                 \
    return geqrf_batched(handle, __func__, m, n, Aarray, lda, TauArray, info, batchSize);                              \
  }                                                                                                                    \
  cublasStatus_t CUBLASWINAPI cublas##X##gelsBatched(cublasHandle_t handle, cublasOperation_t trans, int m, int n,     \
                                                     int nrhs, T* const Aarray[], int lda, T* const Carray[], int ldc, \
                                                     int* info, int* devInfoArray, int batchSize) {                    \
    return gels_batched(handle, __func__, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray, batchSize); \
  }

extern "C" {
CUCPU_GEMM_BATCHED(S, float, int, )
CUCPU_GEMM_BATCHED(D, double, int, )
CUCPU_GEMM_BATCHED(C, cuComplex, int, )
CUCPU_GEMM_BATCHED(Z, cuDoubleComplex, int, )
CUCPU_GEMM_BATCHED(S, float, int64_t, _64)
CUCPU_GEMM_BATCHED(D, double, int64_t, _64)
CUCPU_GEMM_BATCHED(C, cuComplex, int64_t, _64)
CUCPU_GEMM_BATCHED(Z, cuDoubleComplex, int64_t, _64)
CUCPU_GEMV_BATCHED(S, float, int, )
CUCPU_GEMV_BATCHED(D, double, int, )
CUCPU_GEMV_BATCHED(C, cuComplex, int, )
CUCPU_GEMV_BATCHED(Z, cuDoubleComplex, int, )
CUCPU_GEMV_BATCHED(S, float, int64_t, _64)
CUCPU_GEMV_BATCHED(D, double, int64_t, _64)
CUCPU_GEMV_BATCHED(C, cuComplex, int64_t, _64)
CUCPU_GEMV_BATCHED(Z, cuDoubleComplex, int64_t, _64)
CUCPU_MIXED_GEMV_BATCHED(HSH, __half, CUDA_R_16F, __half, CUDA_R_16F, int, )
CUCPU_MIXED_GEMV_BATCHED(HSS, __half, CUDA_R_16F, float, CUDA_R_32F, int, )
CUCPU_MIXED_GEMV_BATCHED(TST, __nv_bfloat16, CUDA_R_16BF, __nv_bfloat16, CUDA_R_16BF, int, )
CUCPU_MIXED_GEMV_BATCHED(TSS, __nv_bfloat16, CUDA_R_16BF, float, CUDA_R_32F, int, )
CUCPU_MIXED_GEMV_BATCHED(HSH, __half, CUDA_R_16F, __half, CUDA_R_16F, int64_t, _64)
CUCPU_MIXED_GEMV_BATCHED(HSS, __half, CUDA_R_16F, float, CUDA_R_32F, int64_t, _64)
CUCPU_MIXED_GEMV_BATCHED(TST, __nv_bfloat16, CUDA_R_16BF, __nv_bfloat16, CUDA_R_16BF, int64_t, _64)
CUCPU_MIXED_GEMV_BATCHED(TSS, __nv_bfloat16, CUDA_R_16BF, float, CUDA_R_32F, int64_t, _64)
CUCPU_GEMM3M_BATCHED(int, )
CUCPU_GEMM3M_BATCHED(int64_t, _64)
CUCPU_GROUPED_BATCHED(S, float, int, )
CUCPU_GROUPED_BATCHED(D, double, int, )
CUCPU_GROUPED_BATCHED(S, float, int64_t, _64)
CUCPU_GROUPED_BATCHED(D, double, int64_t, _64)
CUCPU_FACTOR_BATCHED(S, float)
CUCPU_FACTOR_BATCHED(D, double)
CUCPU_FACTOR_BATCHED(C, cuComplex)
CUCPU_FACTOR_BATCHED(Z, cuDoubleComplex)
}
