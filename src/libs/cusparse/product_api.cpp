// cuSPARSE's sparse-dense products: SpMV (y = alpha op(A) x + beta y) and SpMM
// (C = alpha op(A) op(B) + beta C) for CSR, CSC and COO matrices of float, double and their
// complex types, every operation, 32- or 64-bit indices, scalars by the pointer mode; SpMM
// also for Blocked-ELL (its blocks taken as a COO matrix; real types, A not transposed). The
// algorithm argument only names how the GPU would do it: one loop serves them all, and no
// external buffer is needed (its size is 0).
#include <cusparse.h>

#include <vector>

#include "libs/cusparse/handle.h"
#include "libs/cusparse/sparse_kernels.h"

namespace cucpu::cusparse {
namespace {

bool valid(cusparseOperation_t op) {
  return op == CUSPARSE_OPERATION_NON_TRANSPOSE || op == CUSPARSE_OPERATION_TRANSPOSE ||
         op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
}

bool supported_format(const cusparseSpMatDescr& matrix) {
  return matrix.format == CUSPARSE_FORMAT_CSR || matrix.format == CUSPARSE_FORMAT_CSC ||
         matrix.format == CUSPARSE_FORMAT_COO;
}

// op(A)'s shape.
int64_t rows_of(const cusparseSpMatDescr& a, cusparseOperation_t op) {
  return op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a.rows : a.cols;
}
int64_t cols_of(const cusparseSpMatDescr& a, cusparseOperation_t op) {
  return op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a.cols : a.rows;
}

// Calls body(T, O, I) for the matrix's value and index types, T being the compute type.
template <typename Body>
cusparseStatus_t with_matrix_types(const cusparseSpMatDescr& a, cudaDataType compute_type, Body body) {
  return with_value_type(compute_type, [&](auto t) {
    return with_index_type(
        a.offset_type, [&](auto o) { return with_index_type(a.index_type, [&](auto i) { return body(t, o, i); }); });
  });
}

// What SpMV's three entry points check: status SUCCESS when the arguments make sense.
cusparseStatus_t check_spmv(cusparseHandle_t handle, cusparseOperation_t op, const void* alpha,
                            const cusparseSpMatDescr* a, const cusparseDnVecDescr* x, const void* beta,
                            const cusparseDnVecDescr* y, cudaDataType compute_type) {
  if (!handle) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!alpha || !beta || !a || !x || !y || !valid(op)) return CUSPARSE_STATUS_INVALID_VALUE;
  if (cols_of(*a, op) != x->size || rows_of(*a, op) != y->size) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!supported_format(*a) || a->batch_count != 1) return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->value_type != compute_type || x->value_type != compute_type || y->value_type != compute_type ||
      value_size(compute_type) == 0)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->offset_type == CUSPARSE_INDEX_16U || a->index_type == CUSPARSE_INDEX_16U) return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_spmm(cusparseHandle_t handle, cusparseOperation_t op_a, cusparseOperation_t op_b,
                            const void* alpha, const cusparseSpMatDescr* a, const cusparseDnMatDescr* b,
                            const void* beta, const cusparseDnMatDescr* c, cudaDataType compute_type) {
  if (!handle) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!alpha || !beta || !a || !b || !c || !valid(op_a) || !valid(op_b)) return CUSPARSE_STATUS_INVALID_VALUE;
  const bool b_plain = op_b == CUSPARSE_OPERATION_NON_TRANSPOSE;
  const int64_t b_rows = b_plain ? b->rows : b->cols, b_cols = b_plain ? b->cols : b->rows;
  if (cols_of(*a, op_a) != b_rows || rows_of(*a, op_a) != c->rows || b_cols != c->cols)
    return CUSPARSE_STATUS_INVALID_VALUE;
  const bool blocked_ell = a->format == CUSPARSE_FORMAT_BLOCKED_ELL;
  if ((!supported_format(*a) && !blocked_ell) || a->batch_count != 1 || b->batch_count != 1 || c->batch_count != 1)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  // The H200's Blocked-ELL SpMM takes neither op(A) = A^T nor complex values.
  if (blocked_ell &&
      (op_a != CUSPARSE_OPERATION_NON_TRANSPOSE || (compute_type != CUDA_R_32F && compute_type != CUDA_R_64F)))
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->value_type != compute_type || b->value_type != compute_type || c->value_type != compute_type ||
      value_size(compute_type) == 0)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->offset_type == CUSPARSE_INDEX_16U || a->index_type == CUSPARSE_INDEX_16U) return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     const void* alpha, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstDnVecDescr_t vecX, const void* beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                     cusparseSpMVAlg_t, size_t* bufferSize) {
  if (handle && !bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t status = check_spmv(handle, opA, alpha, matA, vecX, beta, vecY, computeType);
  if (status == CUSPARSE_STATUS_SUCCESS) *bufferSize = 0;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMV_preprocess(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     const void* alpha, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstDnVecDescr_t vecX, const void* beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                     cusparseSpMVAlg_t, void*) {
  return check_spmv(handle, opA, alpha, matA, vecX, beta, vecY, computeType);
}

cusparseStatus_t CUSPARSEAPI cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA, const void* alpha,
                                          cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                          const void* beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                          cusparseSpMVAlg_t, void*) {
  if (cusparseStatus_t status = check_spmv(handle, opA, alpha, matA, vecX, beta, vecY, computeType)) return status;
  const cusparseSpMatDescr a = *matA;
  return with_matrix_types(a, computeType, [&](auto t, auto o, auto i) {
    using T = decltype(t);
    using O = decltype(o);
    using I = decltype(i);
    Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
    const T* x = static_cast<const T*>(vecX->values);
    T* y = static_cast<T*>(vecY->values);
    return run(handle, "cusparseSpMV",
               {s_alpha.range(), s_beta.range(), offsets_range(a), indices_range(a), values_range(a),
                array_range(x, vecX->size, sizeof(T)), array_range(y, vecY->size, sizeof(T))},
               [=] {
                 multiply(
                     view_of<T, O, I>(a), opA, s_alpha(), s_beta(), 1, [x](int64_t k, int64_t) { return x[k]; },
                     [y](int64_t k, int64_t) -> T& { return y[k]; });
               });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     cusparseOperation_t opB, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     const void* beta, cusparseDnMatDescr_t matC,
                                                     cudaDataType computeType, cusparseSpMMAlg_t, size_t* bufferSize) {
  if (handle && !bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t status = check_spmm(handle, opA, opB, alpha, matA, matB, beta, matC, computeType);
  if (status == CUSPARSE_STATUS_SUCCESS) *bufferSize = 0;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM_preprocess(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     cusparseOperation_t opB, const void* alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     const void* beta, cusparseDnMatDescr_t matC,
                                                     cudaDataType computeType, cusparseSpMMAlg_t, void*) {
  return check_spmm(handle, opA, opB, alpha, matA, matB, beta, matC, computeType);
}

cusparseStatus_t CUSPARSEAPI cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                          const void* alpha, cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnMatDescr_t matB, const void* beta, cusparseDnMatDescr_t matC,
                                          cudaDataType computeType, cusparseSpMMAlg_t, void*) {
  if (cusparseStatus_t status = check_spmm(handle, opA, opB, alpha, matA, matB, beta, matC, computeType)) return status;
  const cusparseSpMatDescr a = *matA;
  return with_matrix_types(a, computeType, [&](auto t, auto o, auto i) {
    using T = decltype(t);
    using O = decltype(o);
    using I = decltype(i);
    Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
    const DenseView<T> b = dense_view_of<T>(*matB), c = dense_view_of<T>(*matC);
    const int64_t columns = matC->cols;
    auto multiply_by = [=](const auto& view) {
      multiply(
          view, opA, s_alpha(), s_beta(), columns,
          [b, opB](int64_t k, int64_t j) {
            if (opB == CUSPARSE_OPERATION_NON_TRANSPOSE) return b.at(k, j);
            return opB == CUSPARSE_OPERATION_TRANSPOSE ? b.at(j, k) : conjugate(b.at(j, k));
          },
          [c](int64_t k, int64_t j) -> T& { return c.at(k, j); });
    };
    const bool blocked_ell = a.format == CUSPARSE_FORMAT_BLOCKED_ELL;
    return run(handle, "cusparseSpMM",
               {s_alpha.range(), s_beta.range(), blocked_ell ? DeviceRange{} : offsets_range(a), indices_range(a),
                values_range(a), dense_range(*matB), dense_range(*matC)},
               [=] {
                 if (!blocked_ell) return multiply_by(view_of<T, O, I>(a));
                 // Blocked-ELL: its present blocks' elements as a COO matrix.
                 std::vector<int64_t> rows, cols;
                 std::vector<T> values;
                 const T* stored = static_cast<const T*>(a.values);
                 for_each_blocked_ell_entry<I>(a, [&](int64_t row, int64_t col, int64_t k, bool) {
                   rows.push_back(row);
                   cols.push_back(col);
                   values.push_back(stored[k]);
                 });
                 multiply_by(SparseView<T, int64_t, int64_t>{CUSPARSE_FORMAT_COO, a.rows, a.cols,
                                                             static_cast<int64_t>(values.size()), rows.data(),
                                                             cols.data(), values.data(), 0});
               });
  });
}

}  // extern "C"
