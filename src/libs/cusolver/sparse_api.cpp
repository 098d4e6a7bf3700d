// cusolverSp's handle and its routines on a matrix's structure: csrissym, the fill-reducing
// orderings (symrcm, symamd, symmdq, metisnd; sparse_orderings.cpp), csrzfd and csrperm. They
// run at the call on host memory, as cuSOLVER's Host functions do.
#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

#include "libs/cusolver/sparse_matrix.h"
#include "libs/cusolver/sparse_orderings.h"

namespace cucpu::cusolver::sparse {
namespace {

cusolverStatus_t ordering(cusolverSpHandle_t handle, int n, int nnz, cusparseMatDescr_t descr, const int* row_ptr,
                          const int* col_ind, Ordering kind, int* p) {
  if (auto status = check_matrix(handle, n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (n > 0 && !p) return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    const std::vector<int> order = fill_reducing_order(kind, n, base_of(descr), row_ptr, col_ind);
    std::copy(order.begin(), order.end(), p);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t zero_free(cusolverSpHandle_t handle, int n, int nnz, cusparseMatDescr_t descr, const T* values,
                           const int* row_ptr, const int* col_ind, int* p, int* numnz) {
  if (auto status = check_matrix(handle, n, n, nnz, descr, row_ptr, col_ind); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((nnz > 0 && !values) || (n > 0 && !p) || !numnz) return CUSOLVER_STATUS_INVALID_VALUE;
  try {
    std::vector<bool> nonzero(nnz);
    for (int k = 0; k < nnz; ++k) nonzero[k] = value_of(values[k]) != MathOf<T>(0);
    const std::vector<int> order = zero_free_diagonal(n, base_of(descr), row_ptr, col_ind, nonzero, *numnz);
    std::copy(order.begin(), order.end(), p);
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusolver::sparse

using namespace cucpu::cusolver::sparse;

extern "C" {

cusolverStatus_t CUSOLVERAPI cusolverSpCreate(cusolverSpHandle_t* handle) {
  if (!handle) return CUSOLVER_STATUS_INVALID_VALUE;
  if (auto ready = cucpu::libs::prepare_device(); !ready) return CUSOLVER_STATUS_NOT_INITIALIZED;
  *handle = new (std::nothrow) cusolverSpContext;
  return *handle ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_ALLOC_FAILED;
}

cusolverStatus_t CUSOLVERAPI cusolverSpDestroy(cusolverSpHandle_t handle) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  (void)cucpu::libs::synchronize(handle->stream);  // queued work finishes before the handle goes
  delete handle;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpSetStream(cusolverSpHandle_t handle, cudaStream_t streamId) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  handle->stream = streamId;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpGetStream(cusolverSpHandle_t handle, cudaStream_t* streamId) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!streamId) return CUSOLVER_STATUS_INVALID_VALUE;
  *streamId = handle->stream;
  return CUSOLVER_STATUS_SUCCESS;
}

// issym = 1 when the pattern is symmetric: every (i, j) has its (j, i). Each row's columns lie in
// [csrRowPtrA[i], csrEndPtrA[i]), which need not be sorted.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrissymHost(cusolverSpHandle_t handle, int m, int nnzA,
                                                     const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                     const int* csrEndPtrA, const int* csrColIndA, int* issym) {
  // Another matrix type is an invalid value here (the solvers say MATRIX_TYPE_NOT_SUPPORTED).
  if (auto status = check_matrix(handle, m, m, nnzA, descrA, csrRowPtrA, csrColIndA); status != CUSOLVER_STATUS_SUCCESS)
    return status == CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED ? CUSOLVER_STATUS_INVALID_VALUE : status;
  if (!issym || (m > 0 && !csrEndPtrA)) return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descrA);
  std::vector<std::vector<int>> rows(m);
  for (int i = 0; i < m; ++i) {
    rows[i].assign(csrColIndA + csrRowPtrA[i] - base, csrColIndA + csrEndPtrA[i] - base);
    for (int& j : rows[i]) j -= base;
    std::sort(rows[i].begin(), rows[i].end());
  }
  *issym = 1;
  for (int i = 0; i < m && *issym; ++i)
    for (int j : rows[i])
      if (j < 0 || j >= m || !std::binary_search(rows[j].begin(), rows[j].end(), i)) {
        *issym = 0;
        break;
      }
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpXcsrsymrcmHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                      const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                      const int* csrColIndA, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, Ordering::reverse_cuthill_mckee, p);
}

cusolverStatus_t CUSOLVERAPI cusolverSpXcsrsymamdHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                      const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                      const int* csrColIndA, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, Ordering::approximate_minimum_degree, p);
}

// `options` (METIS's, as cuSOLVER passes them through) may be NULL; METIS's defaults are used.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrmetisndHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                       const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                       const int* csrColIndA, const int64_t* /*options*/, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, Ordering::nested_dissection, p);
}

// csrperm needs no workspace of the caller's; a small one is asked for, as a nonzero size.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrperm_bufferSizeHost(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                               const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                               const int* csrColIndA, const int* p, const int* q,
                                                               size_t* bufferSizeInBytes) {
  if (auto status = check_matrix(handle, m, n, nnzA, descrA, csrRowPtrA, csrColIndA); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if (!bufferSizeInBytes || (m > 0 && !p) || (n > 0 && !q)) return CUSOLVER_STATUS_INVALID_VALUE;
  *bufferSizeInBytes = sizeof(int) * (static_cast<size_t>(m) + 1);
  return CUSOLVER_STATUS_SUCCESS;
}

// B = P A Q^T, i.e. B = A(p, q), on the pattern in place; map follows the entries (B's k-th
// entry's value is A's map[k]-th), each row of B sorted by column.
cusolverStatus_t CUSOLVERAPI cusolverSpXcsrpermHost(cusolverSpHandle_t handle, int m, int n, int nnzA,
                                                    const cusparseMatDescr_t descrA, int* csrRowPtrA, int* csrColIndA,
                                                    const int* p, const int* q, int* map, void* /*pBuffer*/) {
  if (auto status = check_matrix(handle, m, n, nnzA, descrA, csrRowPtrA, csrColIndA); status != CUSOLVER_STATUS_SUCCESS)
    return status;
  if ((m > 0 && !p) || (n > 0 && !q) || (nnzA > 0 && !map)) return CUSOLVER_STATUS_INVALID_VALUE;
  const int base = base_of(descrA);
  std::vector<int> column_position(n);  // column_position[old column] = new column
  for (int j = 0; j < n; ++j) {
    if (q[j] < 0 || q[j] >= n) return CUSOLVER_STATUS_INVALID_VALUE;
    column_position[q[j]] = j;
  }
  for (int i = 0; i < m; ++i)
    if (p[i] < 0 || p[i] >= m) return CUSOLVER_STATUS_INVALID_VALUE;
  const std::vector<int> old_rows(csrRowPtrA, csrRowPtrA + m + 1);
  const std::vector<int> old_columns(csrColIndA, csrColIndA + nnzA), old_map(map, map + nnzA);
  std::vector<std::pair<int, int>> row;  // (new column, old entry)
  csrRowPtrA[0] = base;
  for (int i = 0; i < m; ++i) {
    row.clear();
    for (int k = old_rows[p[i]] - base; k < old_rows[p[i] + 1] - base; ++k)
      row.emplace_back(column_position[old_columns[k] - base], k);
    std::sort(row.begin(), row.end());
    int out = csrRowPtrA[i] - base;
    for (const auto& [column, k] : row) {
      csrColIndA[out] = column + base;
      map[out] = old_map[k];
      ++out;
    }
    csrRowPtrA[i + 1] = out + base;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t CUSOLVERAPI cusolverSpXcsrsymmdqHost(cusolverSpHandle_t handle, int n, int nnzA,
                                                      const cusparseMatDescr_t descrA, const int* csrRowPtrA,
                                                      const int* csrColIndA, int* p) {
  return ordering(handle, n, nnzA, descrA, csrRowPtrA, csrColIndA, Ordering::minimum_degree, p);
}

#define CUCPU_ZERO_FREE_DIAGONAL(prefix, T)                                                         \
  cusolverStatus_t CUSOLVERAPI cusolverSp##prefix##csrzfdHost(                                      \
      cusolverSpHandle_t handle, int n, int nnz, const cusparseMatDescr_t descrA, const T* csrValA, \
      const int* csrRowPtrA, const int* csrColIndA, int* P, int* numnz) {                           \
    return zero_free(handle, n, nnz, descrA, csrValA, csrRowPtrA, csrColIndA, P, numnz);            \
  }
CUCPU_ZERO_FREE_DIAGONAL(S, float)
CUCPU_ZERO_FREE_DIAGONAL(D, double)
CUCPU_ZERO_FREE_DIAGONAL(C, cuComplex)
CUCPU_ZERO_FREE_DIAGONAL(Z, cuDoubleComplex)

}  // extern "C"
