// What every cusolverSp entry point shares: the handle, the argument checks of a CSR matrix,
// and the matrix as Eigen 3 (MPL-2.0) sees it, whose sparse solvers do the numerics.
#pragma once

#include <cusolverSp.h>
#include <cusparse.h>

#include <Eigen/SparseCore>
#include <bit>
#include <complex>
#include <functional>
#include <initializer_list>
#include <vector>

#include "libs/common/stream_work.h"
#include "libs/cusolver/element_types.h"

struct cusolverSpContext {
  cudaStream_t stream = nullptr;  // NULL: the legacy default stream
};

namespace cucpu::cusolver::sparse {

template <typename M>
using SparseMatrix = Eigen::SparseMatrix<M, Eigen::ColMajor, int>;
template <typename M>
using Vector = Eigen::Matrix<M, Eigen::Dynamic, 1>;

// SUCCESS, or the status a call returns for the handle and the matrix's sizes and descriptor:
// cusolverSp takes only general matrices, index base 0 or 1.
cusolverStatus_t check_matrix(cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                              const int* row_ptr, const int* col_ind);

int base_of(cusparseMatDescr_t descr);

// A CSR matrix in host memory, index base `base`; row_position/column_position (new index of
// each old one) reorder it when given.
template <typename T>
SparseMatrix<MathOf<T>> to_eigen(int m, int n, int nnz, int base, const T* values, const int* row_ptr,
                                 const int* col_ind, const std::vector<int>* row_position = nullptr,
                                 const std::vector<int>* column_position = nullptr) {
  using M = MathOf<T>;
  const M* a = reinterpret_cast<const M*>(values);
  std::vector<Eigen::Triplet<M, int>> entries;
  entries.reserve(nnz);
  for (int i = 0; i < m; ++i)
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k) {
      const int j = col_ind[k] - base;
      if (j < 0 || j >= n) continue;
      entries.emplace_back(row_position ? (*row_position)[i] : i, column_position ? (*column_position)[j] : j, a[k]);
    }
  SparseMatrix<M> matrix(m, n);
  matrix.setFromTriplets(entries.begin(), entries.end());
  matrix.makeCompressed();
  return matrix;
}

// One element as Eigen's type.
template <typename T>
MathOf<T> value_of(T v) {
  static_assert(sizeof(MathOf<T>) == sizeof v);
  return std::bit_cast<MathOf<T>>(v);
}

template <typename T>
Eigen::Map<const Vector<MathOf<T>>> vector_of(const T* v, int n) {
  return Eigen::Map<const Vector<MathOf<T>>>(reinterpret_cast<const MathOf<T>*>(v), n);
}
template <typename T>
Eigen::Map<Vector<MathOf<T>>> vector_of(T* v, int n) {
  return Eigen::Map<Vector<MathOf<T>>>(reinterpret_cast<MathOf<T>*>(v), n);
}

// The memory `count` elements span (none where the pointer is NULL: an optional argument).
template <typename T>
libs::DeviceRange elements(const T* base, int count) {
  return {base, base && count > 0 ? static_cast<size_t>(count) * sizeof(T) : 0};
}

// Queues `work` on the handle's stream and, when `wait` (a result returned through a host
// pointer), waits for it; the call's status.
cusolverStatus_t run_on_stream(cusolverSpHandle_t handle, const char* function,
                               std::initializer_list<libs::DeviceRange> ranges, std::function<void()> work, bool wait);

// A call's work where cuSOLVER runs it: at the call on host memory for the Host functions (a
// failed allocation is CUSOLVER_STATUS_ALLOC_FAILED), else as run_on_stream queues it.
cusolverStatus_t run_step(bool device, cusolverSpHandle_t handle, const char* function,
                          std::initializer_list<libs::DeviceRange> ranges, std::function<void()> work, bool wait);

}  // namespace cucpu::cusolver::sparse
