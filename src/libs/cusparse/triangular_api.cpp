// cuSPARSE's generic triangular solves, SpSV (op(A) y = alpha x) and SpSM (op(A) C =
// alpha op(B), one column of C at a time) for a CSR or COO matrix whose fill mode and
// diagonal type are its attributes (cusparseSpMatSetAttribute); only that triangle is
// read. Substitution row by row where op(A)'s rows are stored (no transpose), column by
// column otherwise. The analysis has nothing to prepare: the solve reads the matrix as it
// is when the solve runs.
#include <cusparse.h>

#include <cstdint>
#include <new>
#include <vector>

#include "libs/cusparse/handle.h"
#include "libs/cusparse/sparse_kernels.h"

struct cusparseSpSVDescr {
  bool analysed = false;
};

struct cusparseSpSMDescr {
  bool analysed = false;
};

namespace cucpu::cusparse {
namespace {

cusparseStatus_t check_spsv(cusparseHandle_t handle, cusparseOperation_t op, const void* alpha,
                            const cusparseSpMatDescr* a, const cusparseDnVecDescr* x, const cusparseDnVecDescr* y,
                            cudaDataType compute_type, const cusparseSpSVDescr* descr) {
  if (!handle || !alpha || !a || !x || !y || !descr) return CUSPARSE_STATUS_INVALID_VALUE;
  if (op != CUSPARSE_OPERATION_NON_TRANSPOSE && op != CUSPARSE_OPERATION_TRANSPOSE &&
      op != CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->rows != a->cols || x->size != a->rows || y->size != a->rows) return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->format != CUSPARSE_FORMAT_CSR && a->format != CUSPARSE_FORMAT_COO) return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->value_type != compute_type || x->value_type != compute_type || y->value_type != compute_type ||
      value_size(compute_type) == 0 || a->batch_count != 1)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->offset_type == CUSPARSE_INDEX_16U || a->index_type == CUSPARSE_INDEX_16U) return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

// y = alpha op(A)^-1 x, A's rows given by row offsets (base 0 after `base` is taken off).
template <typename T, typename O, typename I>
void solve(const SparseView<T, O, I>& a, const std::vector<int64_t>& rows, cusparseOperation_t op, bool lower,
           bool unit, T alpha, const T* x, T* y) {
  const int64_t n = a.rows;
  const bool conjugated = op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  auto entry = [&](int64_t k) { return conjugated ? conjugate(a.values[k]) : a.values[k]; };
  auto column = [&](int64_t k) { return static_cast<int64_t>(a.indices[k]) - a.base; };
  std::vector<T> b(x, x + n);  // y may be x
  if (op == CUSPARSE_OPERATION_NON_TRANSPOSE) {
    for (int64_t step = 0; step < n; ++step) {
      const int64_t i = lower ? step : n - 1 - step;
      T sum = alpha * b[i], diagonal{1};
      for (int64_t k = rows[i]; k < rows[i + 1]; ++k) {
        const int64_t j = column(k);
        if (j == i)
          diagonal = entry(k);
        else if (lower ? j < i : j > i)
          sum -= entry(k) * y[j];
      }
      y[i] = unit ? sum : sum / diagonal;
    }
    return;
  }
  // op(A) = A^T (or A^H): A's row i is op(A)'s column i, done once y[i] is known.
  for (int64_t i = 0; i < n; ++i) y[i] = alpha * b[i];
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = lower ? n - 1 - step : step;
    if (!unit)
      for (int64_t k = rows[i]; k < rows[i + 1]; ++k)
        if (column(k) == i) y[i] /= entry(k);
    for (int64_t k = rows[i]; k < rows[i + 1]; ++k) {
      const int64_t j = column(k);
      if (lower ? j < i : j > i) y[j] -= entry(k) * y[i];
    }
  }
}

// Each row's first entry, 0-based, and one past the last: CSR's offsets, or COO's sorted
// row indices counted.
template <typename T, typename O, typename I>
std::vector<int64_t> row_starts(const SparseView<T, O, I>& a) {
  std::vector<int64_t> rows(a.rows + 1, 0);
  if (a.format == CUSPARSE_FORMAT_CSR) {
    for (int64_t r = 0; r <= a.rows; ++r) rows[r] = static_cast<int64_t>(a.offsets[r]) - a.base;
  } else {
    for (int64_t k = 0; k < a.nnz; ++k) ++rows[static_cast<int64_t>(a.offsets[k]) - a.base + 1];
    for (int64_t r = 0; r < a.rows; ++r) rows[r + 1] += rows[r];
  }
  return rows;
}

// Calls body(T, O, I) for the solve's compute type and A's index types.
template <typename Body>
cusparseStatus_t with_solve_types(const cusparseSpMatDescr& a, cudaDataType compute_type, Body body) {
  return with_value_type(compute_type, [&](auto t) {
    return with_index_type(
        a.offset_type, [&](auto o) { return with_index_type(a.index_type, [&](auto i) { return body(t, o, i); }); });
  });
}

bool valid(cusparseOperation_t op) {
  return op == CUSPARSE_OPERATION_NON_TRANSPOSE || op == CUSPARSE_OPERATION_TRANSPOSE ||
         op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
}

// SpSM: C = alpha op(A)^-1 op(B), B and C dense of op(B)'s shape. The H200's buffer-size
// query and analysis take a compute type other than the matrices' (`check_types` false);
// the solve refuses it here.
cusparseStatus_t check_spsm(cusparseHandle_t handle, cusparseOperation_t op_a, cusparseOperation_t op_b,
                            const void* alpha, const cusparseSpMatDescr* a, const cusparseDnMatDescr* b,
                            const cusparseDnMatDescr* c, cudaDataType compute_type, const cusparseSpSMDescr* descr,
                            bool check_types) {
  if (!handle || !alpha || !a || !b || !c || !descr) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!valid(op_a) || !valid(op_b)) return CUSPARSE_STATUS_INVALID_VALUE;
  const bool b_plain = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE;
  const int64_t b_rows = b_plain ? b->rows : b->cols, b_cols = b_plain ? b->cols : b->rows;
  if (a->rows != a->cols || b_rows != a->rows || c->rows != a->rows || c->cols != b_cols)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->format != CUSPARSE_FORMAT_CSR && a->format != CUSPARSE_FORMAT_COO) return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->batch_count != 1 || b->batch_count != 1 || c->batch_count != 1) return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (check_types && (a->value_type != compute_type || b->value_type != compute_type || c->value_type != compute_type ||
                      value_size(compute_type) == 0))
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->offset_type == CUSPARSE_INDEX_16U || a->index_type == CUSPARSE_INDEX_16U) return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseSpSV_createDescr(cusparseSpSVDescr_t* descr) {
  if (!descr) return CUSPARSE_STATUS_INVALID_VALUE;
  *descr = new (std::nothrow) cusparseSpSVDescr;
  return *descr ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSV_destroyDescr(cusparseSpSVDescr_t descr) {
  delete descr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     const void* alpha, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstDnVecDescr_t vecX, cusparseDnVecDescr_t vecY,
                                                     cudaDataType computeType, cusparseSpSVAlg_t,
                                                     cusparseSpSVDescr_t spsvDescr, size_t* bufferSize) {
  if (!bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t status = check_spsv(handle, opA, alpha, matA, vecX, vecY, computeType, spsvDescr);
  if (status == CUSPARSE_STATUS_SUCCESS) *bufferSize = 0;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSV_analysis(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
                                                   cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                                   cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                   cusparseSpSVAlg_t, cusparseSpSVDescr_t spsvDescr, void*) {
  cusparseStatus_t status = check_spsv(handle, opA, alpha, matA, vecX, vecY, computeType, spsvDescr);
  if (status == CUSPARSE_STATUS_SUCCESS) spsvDescr->analysed = true;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSV_solve(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
                                                cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                                cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpSVAlg_t,
                                                cusparseSpSVDescr_t spsvDescr) {
  if (cusparseStatus_t status = check_spsv(handle, opA, alpha, matA, vecX, vecY, computeType, spsvDescr)) return status;
  const cusparseSpMatDescr a = *matA;
  const bool lower = a.fill_mode == CUSPARSE_FILL_MODE_LOWER, unit = a.diag_type == CUSPARSE_DIAG_TYPE_UNIT;
  return with_solve_types(a, computeType, [&](auto t, auto o, auto i) {
    using T = decltype(t);
    using O = decltype(o);
    using I = decltype(i);
    Scalar<T> s_alpha(handle, alpha);
    const T* x = static_cast<const T*>(vecX->values);
    T* y = static_cast<T*>(vecY->values);
    return run(handle, "cusparseSpSV_solve",
               {s_alpha.range(), offsets_range(a), indices_range(a), values_range(a),
                array_range(x, vecX->size, sizeof(T)), array_range(y, vecY->size, sizeof(T))},
               [=] {
                 const SparseView<T, O, I> view = view_of<T, O, I>(a);
                 solve(view, row_starts(view), opA, lower, unit, s_alpha(), x, y);
               });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseSpSM_createDescr(cusparseSpSMDescr_t* descr) {
  if (!descr) return CUSPARSE_STATUS_INVALID_VALUE;
  *descr = new (std::nothrow) cusparseSpSMDescr;
  return *descr ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSM_destroyDescr(cusparseSpSMDescr_t descr) {
  delete descr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSM_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     cusparseOperation_t opB, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     cusparseDnMatDescr_t matC, cudaDataType computeType,
                                                     cusparseSpSMAlg_t, cusparseSpSMDescr_t spsmDescr,
                                                     size_t* bufferSize) {
  if (!bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t status = check_spsm(handle, opA, opB, alpha, matA, matB, matC, computeType, spsmDescr, false);
  if (status == CUSPARSE_STATUS_SUCCESS) *bufferSize = 0;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSM_analysis(cusparseHandle_t handle, cusparseOperation_t opA,
                                                   cusparseOperation_t opB, const void* alpha,
                                                   cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                   cusparseDnMatDescr_t matC, cudaDataType computeType,
                                                   cusparseSpSMAlg_t, cusparseSpSMDescr_t spsmDescr, void*) {
  cusparseStatus_t status = check_spsm(handle, opA, opB, alpha, matA, matB, matC, computeType, spsmDescr, false);
  if (status == CUSPARSE_STATUS_SUCCESS) spsmDescr->analysed = true;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseSpSM_solve(cusparseHandle_t handle, cusparseOperation_t opA,
                                                cusparseOperation_t opB, const void* alpha,
                                                cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpSMAlg_t,
                                                cusparseSpSMDescr_t spsmDescr) {
  if (cusparseStatus_t status = check_spsm(handle, opA, opB, alpha, matA, matB, matC, computeType, spsmDescr, true))
    return status;
  const cusparseSpMatDescr a = *matA;
  const bool lower = a.fill_mode == CUSPARSE_FILL_MODE_LOWER, unit = a.diag_type == CUSPARSE_DIAG_TYPE_UNIT;
  return with_solve_types(a, computeType, [&](auto t, auto o, auto i) {
    using T = decltype(t);
    using O = decltype(o);
    using I = decltype(i);
    Scalar<T> s_alpha(handle, alpha);
    const DenseView<T> b = dense_view_of<T>(*matB), c = dense_view_of<T>(*matC);
    const int64_t columns = matC->cols;
    return run(
        handle, "cusparseSpSM_solve",
        {s_alpha.range(), offsets_range(a), indices_range(a), values_range(a), dense_range(*matB), dense_range(*matC)},
        [=] {
          const SparseView<T, O, I> view = view_of<T, O, I>(a);
          const std::vector<int64_t> rows = row_starts(view);
          std::vector<T> x(a.rows), y(a.rows);
          // One right-hand side at a time: op(B)'s column j in, C's column j out.
          for (int64_t j = 0; j < columns; ++j) {
            for (int64_t r = 0; r < a.rows; ++r) {
              if (opB == CUSPARSE_OPERATION_NON_TRANSPOSE)
                x[r] = b.at(r, j);
              else
                x[r] = opB == CUSPARSE_OPERATION_TRANSPOSE ? b.at(j, r) : conjugate(b.at(j, r));
            }
            solve(view, rows, opA, lower, unit, s_alpha(), x.data(), y.data());
            for (int64_t r = 0; r < a.rows; ++r) c.at(r, j) = y[r];
          }
        });
  });
}

}  // extern "C"
