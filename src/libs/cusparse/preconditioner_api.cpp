// cuSPARSE's legacy incomplete factorizations of a CSR matrix in place, S/D/C/Z: ILU(0)
// (csrilu02) and IC(0) (csric02, the lower triangle), with their info objects, buffer sizes,
// analysis (which finds missing diagonal entries), numeric boost and zero-pivot queries.
// The factorization keeps the matrix's sparsity pattern: each row is updated by the rows its
// entries left of the diagonal name (Saad's IKJ order), columns sorted as cuSPARSE requires.
#define DISABLE_CUSPARSE_DEPRECATED  // these routines are deprecated, not gone
#include <cusparse.h>

#include <complex>
#include <cstdint>
#include <new>
#include <vector>

#include "libs/cusparse/handle.h"

// What analysis and factorization found; `zero_pivot` is 0-based (-1: none).
struct FactorizationInfo {
  int zero_pivot = -1;
  int base = 0;  // the index base of the matrix last analysed or factored, which zero_pivot is reported in
  bool boost = false;
  double tolerance = 0;
  std::complex<double> boost_value;
};
struct csrilu02Info : FactorizationInfo {};
struct csric02Info : FactorizationInfo {};

namespace cucpu::cusparse {
namespace {

template <typename T>
double magnitude(T value) {
  return std::abs(value);
}

template <typename T>
T from_complex(std::complex<double> value) {
  if constexpr (is_complex<T>)
    return T(static_cast<typename T::value_type>(value.real()), static_cast<typename T::value_type>(value.imag()));
  else
    return static_cast<T>(value.real());
}

// The arithmetic type of an API element type (cuComplex is laid out as std::complex<float>).
template <typename T>
struct Work {
  using type = T;
};
template <>
struct Work<cuComplex> {
  using type = std::complex<float>;
};
template <>
struct Work<cuDoubleComplex> {
  using type = std::complex<double>;
};
template <typename T>
using WorkType = typename Work<T>::type;

// The lowest zero pivot wins, as cuSPARSE reports the first one.
void note_zero_pivot(FactorizationInfo& info, int row) {
  if (info.zero_pivot < 0 || row < info.zero_pivot) info.zero_pivot = row;
}

// The diagonal's position in each row (-1 where it is missing: a structural zero pivot).
std::vector<int64_t> diagonal_positions(int m, const int* offsets, const int* columns, int base) {
  std::vector<int64_t> diagonal(m, -1);
  for (int i = 0; i < m; ++i)
    for (int64_t p = offsets[i] - base; p < offsets[i + 1] - base; ++p)
      if (columns[p] - base == i) diagonal[i] = p;
  return diagonal;
}

template <typename T>
void factor_ilu0(int m, T* values, const int* offsets, const int* columns, int base, FactorizationInfo& info) {
  std::vector<int64_t> diagonal = diagonal_positions(m, offsets, columns, base);
  std::vector<int64_t> where(m, -1);  // column -> position in the current row
  info.zero_pivot = -1;
  for (int i = 0; i < m; ++i) {
    const int64_t first = offsets[i] - base, last = offsets[i + 1] - base;
    for (int64_t p = first; p < last; ++p) where[columns[p] - base] = p;
    for (int64_t p = first; p < last; ++p) {
      const int k = columns[p] - base;
      if (k >= i) break;
      if (diagonal[k] < 0) continue;
      const T pivot = values[diagonal[k]];
      if (pivot == T{}) continue;  // reported when row k was done
      values[p] /= pivot;
      const T factor = values[p];
      for (int64_t q = diagonal[k] + 1; q < offsets[k + 1] - base; ++q)
        if (int64_t target = where[columns[q] - base]; target >= 0) values[target] -= factor * values[q];
    }
    for (int64_t p = first; p < last; ++p) where[columns[p] - base] = -1;
    if (diagonal[i] < 0) {
      note_zero_pivot(info, i);
      continue;
    }
    T& d = values[diagonal[i]];
    if (info.boost && magnitude(d) <= info.tolerance) d = from_complex<T>(info.boost_value);
    if (d == T{}) note_zero_pivot(info, i);
  }
}

template <typename T>
void factor_ic0(int m, T* values, const int* offsets, const int* columns, int base, FactorizationInfo& info) {
  std::vector<int64_t> diagonal = diagonal_positions(m, offsets, columns, base);
  std::vector<int64_t> where(m, -1);
  info.zero_pivot = -1;
  for (int i = 0; i < m; ++i) {
    const int64_t first = offsets[i] - base, last = offsets[i + 1] - base;
    for (int64_t p = first; p < last; ++p) where[columns[p] - base] = p;
    // L(i,k) = (A(i,k) - sum_{j<k} L(i,j) conj(L(k,j))) / L(k,k), then L(i,i).
    T diagonal_sum{};
    for (int64_t p = first; p < last; ++p) {
      const int k = columns[p] - base;
      if (k >= i) break;
      T sum = values[p];
      for (int64_t q = offsets[k] - base; q < offsets[k + 1] - base && columns[q] - base < k; ++q)
        if (int64_t target = where[columns[q] - base]; target >= 0) sum -= values[target] * conjugate(values[q]);
      if (diagonal[k] >= 0 && values[diagonal[k]] != T{}) values[p] = sum / values[diagonal[k]];
      diagonal_sum += values[p] * conjugate(values[p]);
    }
    for (int64_t p = first; p < last; ++p) where[columns[p] - base] = -1;
    if (diagonal[i] < 0) {
      note_zero_pivot(info, i);
      continue;
    }
    T& d = values[diagonal[i]];
    T square = d - diagonal_sum;
    if (info.boost && magnitude(square) <= info.tolerance) square = from_complex<T>(info.boost_value);
    if constexpr (is_complex<T>)
      d = T(std::sqrt(square.real()), 0);
    else
      d = std::sqrt(square);
    if (d == T{}) note_zero_pivot(info, i);
  }
}

// The checks the legacy routines share: SUCCESS when the arguments are usable.
cusparseStatus_t check(cusparseHandle_t handle, int m, int nnz, const cusparseMatDescr* descr, const void* info) {
  if (!handle || !descr || !info || m < 0 || nnz < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  if (descr->type != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

template <bool incomplete_cholesky, typename T>
cusparseStatus_t factor(cusparseHandle_t handle, const char* function, int m, int nnz, const cusparseMatDescr* descr,
                        void* values, const int* offsets, const int* columns, FactorizationInfo* info) {
  if (cusparseStatus_t status = check(handle, m, nnz, descr, info)) return status;
  const int base = descr->index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  info->base = base;
  return run(handle, function,
             {array_range(values, nnz, sizeof(T)), array_range(offsets, m + 1, sizeof(int)),
              array_range(columns, nnz, sizeof(int))},
             [=] {
               if constexpr (incomplete_cholesky)
                 factor_ic0(m, static_cast<T*>(values), offsets, columns, base, *info);
               else
                 factor_ilu0(m, static_cast<T*>(values), offsets, columns, base, *info);
             });
}

// Analysis: the structural zero pivots (a missing diagonal entry), found in stream order.
cusparseStatus_t analyse(cusparseHandle_t handle, const char* function, int m, int nnz, const cusparseMatDescr* descr,
                         const int* offsets, const int* columns, FactorizationInfo* info) {
  if (cusparseStatus_t status = check(handle, m, nnz, descr, info)) return status;
  const int base = descr->index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  info->base = base;
  return run(handle, function, {array_range(offsets, m + 1, sizeof(int)), array_range(columns, nnz, sizeof(int))}, [=] {
    info->zero_pivot = -1;
    std::vector<int64_t> diagonal = diagonal_positions(m, offsets, columns, base);
    for (int i = 0; i < m; ++i)
      if (diagonal[i] < 0) {
        info->zero_pivot = i;
        break;
      }
  });
}

// The zero pivot an analysis or factorization found, in the index base of the matrix it
// ran on (cuSPARSE numbers it so), through the pointer mode; CUSPARSE_STATUS_ZERO_PIVOT
// when there is one. The query waits for the work before it.
cusparseStatus_t zero_pivot(cusparseHandle_t handle, FactorizationInfo* info, int* position) {
  if (!handle || !info || !position) return CUSPARSE_STATUS_INVALID_VALUE;
  if (cusparseStatus_t status = finish(handle)) return status;
  const int found = info->zero_pivot >= 0 ? info->zero_pivot + info->base : -1;
  if (handle->pointer_mode == CUSPARSE_POINTER_MODE_DEVICE) {
    if (cusparseStatus_t status = run(handle, "cusparseXcsrilu02_zeroPivot", {{position, sizeof(int)}},
                                      [position, found] { *position = found; }))
      return status;
  } else {
    *position = found;
  }
  return info->zero_pivot >= 0 ? CUSPARSE_STATUS_ZERO_PIVOT : CUSPARSE_STATUS_SUCCESS;
}

// Boost: a pivot whose magnitude is at most *tol becomes *boost_val (read in the pointer mode).
template <typename T>
cusparseStatus_t numeric_boost(cusparseHandle_t handle, FactorizationInfo* info, int enable, const double* tol,
                               const T* boost_val) {
  if (!handle || !info) return CUSPARSE_STATUS_INVALID_VALUE;
  info->boost = enable != 0;
  if (!enable) return CUSPARSE_STATUS_SUCCESS;
  if (!tol || !boost_val) return CUSPARSE_STATUS_INVALID_VALUE;
  if (handle->pointer_mode == CUSPARSE_POINTER_MODE_DEVICE)
    return run(handle, "cusparseXcsrilu02_numericBoost", {{tol, sizeof(double)}, {boost_val, sizeof(T)}},
               [info, tol, boost_val] {
                 info->tolerance = *tol;
                 info->boost_value = *boost_val;
               });
  info->tolerance = *tol;
  info->boost_value = *boost_val;
  return CUSPARSE_STATUS_SUCCESS;
}

// The buffer cuSPARSE's analysis and factorization would use: one int per row is a plausible
// size (the CPU needs none).
int buffer_bytes(int m) { return static_cast<int>(std::max<int64_t>(4, int64_t{m} * 4)); }

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseCreateCsrilu02Info(csrilu02Info_t* info) {
  if (!info) return CUSPARSE_STATUS_INVALID_VALUE;
  *info = new (std::nothrow) csrilu02Info;
  return *info ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyCsrilu02Info(csrilu02Info_t info) {
  delete info;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseCreateCsric02Info(csric02Info_t* info) {
  if (!info) return CUSPARSE_STATUS_INVALID_VALUE;
  *info = new (std::nothrow) csric02Info;
  return *info ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyCsric02Info(csric02Info_t info) {
  delete info;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseXcsrilu02_zeroPivot(cusparseHandle_t handle, csrilu02Info_t info, int* position) {
  return zero_pivot(handle, info, position);
}

cusparseStatus_t CUSPARSEAPI cusparseXcsric02_zeroPivot(cusparseHandle_t handle, csric02Info_t info, int* position) {
  return zero_pivot(handle, info, position);
}

#define CUCPU_FACTORIZATION_ENTRY_POINTS(X, T, NAME, INFO, CHOLESKY)                                                 \
  cusparseStatus_t CUSPARSEAPI cusparse##X##NAME##_bufferSize(cusparseHandle_t handle, int m, int nnz,               \
                                                              const cusparseMatDescr_t descrA, T*, const int*,       \
                                                              const int*, INFO info, int* pBufferSizeInBytes) {      \
    if (cusparseStatus_t status = check(handle, m, nnz, descrA, info)) return status;                                \
    if (!pBufferSizeInBytes) return CUSPARSE_STATUS_INVALID_VALUE;                                                   \
    *pBufferSizeInBytes = buffer_bytes(m);                                                                           \
    return CUSPARSE_STATUS_SUCCESS;                                                                                  \
  }                                                                                                                  \
  cusparseStatus_t CUSPARSEAPI cusparse##X##NAME##_bufferSizeExt(cusparseHandle_t handle, int m, int nnz,            \
                                                                 const cusparseMatDescr_t descrA, T*, const int*,    \
                                                                 const int*, INFO info, size_t* pBufferSize) {       \
    if (cusparseStatus_t status = check(handle, m, nnz, descrA, info)) return status;                                \
    if (!pBufferSize) return CUSPARSE_STATUS_INVALID_VALUE;                                                          \
    *pBufferSize = static_cast<size_t>(buffer_bytes(m));                                                             \
    return CUSPARSE_STATUS_SUCCESS;                                                                                  \
  }                                                                                                                  \
  cusparseStatus_t CUSPARSEAPI cusparse##X##NAME##_analysis(                                                         \
      cusparseHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA, const T*, const int* rowPtr,         \
      const int* colInd, INFO info, cusparseSolvePolicy_t, void*) {                                                  \
    return analyse(handle, "cusparse" #X #NAME "_analysis", m, nnz, descrA, rowPtr, colInd, info);                   \
  }                                                                                                                  \
  cusparseStatus_t CUSPARSEAPI cusparse##X##NAME(cusparseHandle_t handle, int m, int nnz,                            \
                                                 const cusparseMatDescr_t descrA, T* values, const int* rowPtr,      \
                                                 const int* colInd, INFO info, cusparseSolvePolicy_t, void*) {       \
    return factor<CHOLESKY, WorkType<T>>(handle, "cusparse" #X #NAME, m, nnz, descrA, values, rowPtr, colInd, info); \
  }

CUCPU_FACTORIZATION_ENTRY_POINTS(S, float, csrilu02, csrilu02Info_t, false)
CUCPU_FACTORIZATION_ENTRY_POINTS(D, double, csrilu02, csrilu02Info_t, false)
CUCPU_FACTORIZATION_ENTRY_POINTS(C, cuComplex, csrilu02, csrilu02Info_t, false)
CUCPU_FACTORIZATION_ENTRY_POINTS(Z, cuDoubleComplex, csrilu02, csrilu02Info_t, false)
CUCPU_FACTORIZATION_ENTRY_POINTS(S, float, csric02, csric02Info_t, true)
CUCPU_FACTORIZATION_ENTRY_POINTS(D, double, csric02, csric02Info_t, true)
CUCPU_FACTORIZATION_ENTRY_POINTS(C, cuComplex, csric02, csric02Info_t, true)
CUCPU_FACTORIZATION_ENTRY_POINTS(Z, cuDoubleComplex, csric02, csric02Info_t, true)

// Only ILU(0) has a boost.
#define CUCPU_BOOST_ENTRY_POINT(X, T)                                                                            \
  cusparseStatus_t CUSPARSEAPI cusparse##X##csrilu02_numericBoost(cusparseHandle_t handle, csrilu02Info_t info,  \
                                                                  int enable_boost, double* tol, T* boost_val) { \
    return numeric_boost(handle, info, enable_boost, tol, reinterpret_cast<WorkType<T>*>(boost_val));            \
  }
CUCPU_BOOST_ENTRY_POINT(S, float)
CUCPU_BOOST_ENTRY_POINT(D, double)
CUCPU_BOOST_ENTRY_POINT(C, cuComplex)
CUCPU_BOOST_ENTRY_POINT(Z, cuDoubleComplex)
}  // extern "C"
