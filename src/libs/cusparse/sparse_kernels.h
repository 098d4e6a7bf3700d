// The loops behind cuSPARSE's products: a CSR, CSC or COO matrix as the loops read it, and
// y = alpha op(A) x + beta y over one or more columns. Where op(A)'s rows are stored
// together (CSR not transposed, CSC transposed) each output element is one sum, spread over
// threads for large matrices; otherwise y is scaled first and each entry added where it
// lands. With beta zero y is not read, as cuSPARSE promises.
#pragma once

#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "libs/cusparse/handle.h"

namespace cucpu::cusparse {

template <typename T, typename O, typename I>
struct SparseView {
  cusparseFormat_t format;
  int64_t rows, cols, nnz;
  const O* offsets;  // CSR row offsets, CSC column offsets, COO row indices (then O is I)
  const I* indices;
  const T* values;
  int64_t base;
};

template <typename T, typename O, typename I>
SparseView<T, O, I> view_of(const cusparseSpMatDescr& matrix) {
  return {matrix.format,
          matrix.rows,
          matrix.cols,
          matrix.nnz,
          static_cast<const O*>(matrix.offsets),
          static_cast<const I*>(matrix.indices),
          static_cast<const T*>(matrix.values),
          matrix.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0};
}

// The device memory a matrix's arrays span.
inline DeviceRange offsets_range(const cusparseSpMatDescr& matrix) {
  const int64_t count = matrix.format == CUSPARSE_FORMAT_CSR   ? matrix.rows + 1
                        : matrix.format == CUSPARSE_FORMAT_CSC ? matrix.cols + 1
                                                               : matrix.nnz;
  return array_range(matrix.offsets, count, index_size(matrix.offset_type));
}
inline DeviceRange indices_range(const cusparseSpMatDescr& matrix) {
  if (matrix.format == CUSPARSE_FORMAT_BLOCKED_ELL) {
    const int64_t block = std::max<int64_t>(matrix.ell_block_size, 1);
    return array_range(matrix.indices, (matrix.rows / block) * (matrix.ell_cols / block),
                       index_size(matrix.index_type));
  }
  return array_range(matrix.indices, matrix.nnz, index_size(matrix.index_type));
}
inline DeviceRange values_range(const cusparseSpMatDescr& matrix) {
  const int64_t count = matrix.format == CUSPARSE_FORMAT_BLOCKED_ELL ? matrix.rows * matrix.ell_cols : matrix.nnz;
  return array_range(matrix.values, count, value_size(matrix.value_type));
}

// A dense matrix as the loops read it: element (i, j), in either order.
template <typename T>
struct DenseView {
  T* values;
  int64_t ld;
  bool column_major;
  T& at(int64_t i, int64_t j) const { return column_major ? values[i + j * ld] : values[i * ld + j]; }
};

template <typename T>
DenseView<T> dense_view_of(const cusparseDnMatDescr& matrix) {
  return {static_cast<T*>(matrix.values), matrix.ld, matrix.order == CUSPARSE_ORDER_COL};
}

inline DeviceRange dense_range(const cusparseDnMatDescr& matrix) {
  if (matrix.rows == 0 || matrix.cols == 0) return {matrix.values, 0};
  const int64_t count = matrix.order == CUSPARSE_ORDER_COL ? (matrix.cols - 1) * matrix.ld + matrix.rows
                                                           : (matrix.rows - 1) * matrix.ld + matrix.cols;
  return array_range(matrix.values, count, value_size(matrix.value_type));
}

// Calls body(row, column, k) for each stored entry k of a CSR, CSC or COO matrix, 0-based.
template <typename T, typename O, typename I, typename Body>
void for_each_entry(const SparseView<T, O, I>& a, Body body) {
  if (a.format == CUSPARSE_FORMAT_COO) {
    for (int64_t k = 0; k < a.nnz; ++k)
      body(static_cast<int64_t>(a.offsets[k]) - a.base, static_cast<int64_t>(a.indices[k]) - a.base, k);
    return;
  }
  const int64_t outer = a.format == CUSPARSE_FORMAT_CSR ? a.rows : a.cols;
  for (int64_t r = 0; r < outer; ++r)
    for (int64_t k = static_cast<int64_t>(a.offsets[r]) - a.base; k < static_cast<int64_t>(a.offsets[r + 1]) - a.base;
         ++k) {
      const int64_t other = static_cast<int64_t>(a.indices[k]) - a.base;
      if (a.format == CUSPARSE_FORMAT_CSR)
        body(r, other, k);
      else
        body(other, r, k);
    }
}

// Calls body(row, column, k, present) for each element k of a Blocked-ELL matrix's values,
// in row order. An empty block (block column -1) is not `present`; its columns are given as
// block column 0's, where the H200's SpMM reads it (it multiplies the empty block's values
// with B's first rows).
template <typename I, typename Body>
void for_each_blocked_ell_entry(const cusparseSpMatDescr& a, Body body) {
  const int64_t block = a.ell_block_size, slots = a.ell_cols / block;
  const I* columns = static_cast<const I*>(a.indices);
  const int64_t base = a.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  for (int64_t row = 0; row < a.rows; ++row)
    for (int64_t slot = 0; slot < slots; ++slot) {
      const int64_t stored = static_cast<int64_t>(columns[(row / block) * slots + slot]);
      const bool present = stored != -1;
      for (int64_t j = 0; j < block; ++j)
        body(row, (present ? stored - base : 0) * block + j, row * a.ell_cols + slot * block + j, present);
    }
}

// Runs body(begin, end) over [0, count), on several threads when `work` (the entries the
// whole range touches) is large enough to pay for them.
template <typename Body>
void for_ranges(int64_t count, int64_t work, Body body) {
  const int64_t threads = std::min<int64_t>(
      {static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency())), 16, work / (1 << 16) + 1, count});
  if (threads <= 1) {
    body(int64_t{0}, count);
    return;
  }
  std::vector<std::thread> workers;
  const int64_t chunk = (count + threads - 1) / threads;
  for (int64_t begin = chunk; begin < count; begin += chunk)
    workers.emplace_back([&body, begin, end = std::min(count, begin + chunk)] { body(begin, end); });
  body(int64_t{0}, std::min(count, chunk));
  for (std::thread& worker : workers) worker.join();
}

// y(i, j) = alpha op(A)(i, :) x(:, j) + beta y(i, j) for j < columns: x(i, j) reads an
// element of the right-hand side, y(i, j) is a reference to one of the result.
template <typename T, typename O, typename I, typename X, typename Y>
void multiply(const SparseView<T, O, I>& a, cusparseOperation_t op, T alpha, T beta, int64_t columns, X x, Y y) {
  const bool conjugated = op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  auto entry = [&](int64_t k) { return conjugated ? conjugate(a.values[k]) : a.values[k]; };
  const bool by_rows = (a.format == CUSPARSE_FORMAT_CSR && op == CUSPARSE_OPERATION_NON_TRANSPOSE) ||
                       (a.format == CUSPARSE_FORMAT_CSC && op != CUSPARSE_OPERATION_NON_TRANSPOSE);
  const int64_t out_length = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a.rows : a.cols;
  if (by_rows) {
    for_ranges(out_length, a.nnz * columns, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t first = static_cast<int64_t>(a.offsets[r]) - a.base;
        const int64_t last = static_cast<int64_t>(a.offsets[r + 1]) - a.base;
        for (int64_t j = 0; j < columns; ++j) {
          T sum{};
          for (int64_t k = first; k < last; ++k) sum += entry(k) * x(static_cast<int64_t>(a.indices[k]) - a.base, j);
          T& out = y(r, j);
          out = beta == T{} ? alpha * sum : alpha * sum + beta * out;
        }
      }
    });
    return;
  }
  for (int64_t j = 0; j < columns; ++j)
    for (int64_t i = 0; i < out_length; ++i) y(i, j) = beta == T{} ? T{} : beta * y(i, j);
  auto add = [&](int64_t row, int64_t col, int64_t k) {
    const bool plain = op == CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t out = plain ? row : col, in = plain ? col : row;
    for (int64_t j = 0; j < columns; ++j) y(out, j) += alpha * (entry(k) * x(in, j));
  };
  for_each_entry(a, add);
}

}  // namespace cucpu::cusparse
