// The generic API's descriptors: sparse vectors, dense vectors, sparse matrices (CSR, CSC,
// COO, Blocked-ELL) and dense matrices, with their Const twins (the same objects, read
// only), getters and setters. A descriptor only remembers its arguments; the routines that
// use it check them against each other and against device memory when their work runs.
#include <cusparse.h>

#include <new>

#include "libs/cusparse/handle.h"

namespace cucpu::cusparse {
namespace {

bool valid(cusparseIndexBase_t base) { return base == CUSPARSE_INDEX_BASE_ZERO || base == CUSPARSE_INDEX_BASE_ONE; }
bool valid(cusparseIndexType_t type) {
  return type == CUSPARSE_INDEX_16U || type == CUSPARSE_INDEX_32I || type == CUSPARSE_INDEX_64I;
}
bool valid(cusparseOrder_t order) { return order == CUSPARSE_ORDER_COL || order == CUSPARSE_ORDER_ROW; }

template <typename D>
cusparseStatus_t make(D** descriptor, const D& value) {
  *descriptor = new (std::nothrow) D(value);
  return *descriptor ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

// Writes each output whose pointer is given; the caller has checked the required ones.
template <typename T>
void put(T* out, T value) {
  if (out) *out = value;
}

cusparseStatus_t create_sparse_matrix(cusparseSpMatDescr_t* descriptor, cusparseFormat_t format, int64_t rows,
                                      int64_t cols, int64_t nnz, const void* offsets, const void* indices,
                                      const void* values, cusparseIndexType_t offset_type,
                                      cusparseIndexType_t index_type, cusparseIndexBase_t base, cudaDataType type) {
  if (!descriptor || rows < 0 || cols < 0 || nnz < 0 || !valid(offset_type) || !valid(index_type) || !valid(base))
    return CUSPARSE_STATUS_INVALID_VALUE;
  // The arrays are not checked here: the H200 takes a CSR matrix of 9 entries with NULL
  // values (SpGEMM's result gets them later; a routine that reads them checks them then).
  cusparseSpMatDescr matrix;
  matrix.format = format;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.nnz = nnz;
  matrix.offsets = const_cast<void*>(offsets);
  matrix.indices = const_cast<void*>(indices);
  matrix.values = const_cast<void*>(values);
  matrix.offset_type = offset_type;
  matrix.index_type = index_type;
  matrix.index_base = base;
  matrix.value_type = type;
  return make(descriptor, matrix);
}

cusparseStatus_t get_sparse_matrix(const cusparseSpMatDescr* matrix, cusparseFormat_t format, int64_t* rows,
                                   int64_t* cols, int64_t* nnz, const void** offsets, const void** indices,
                                   const void** values, cusparseIndexType_t* offset_type,
                                   cusparseIndexType_t* index_type, cusparseIndexBase_t* base, cudaDataType* type) {
  if (!matrix || matrix->format != format || !rows || !cols || !nnz || !offsets || !indices || !values || !index_type ||
      !base || !type)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *rows = matrix->rows;
  *cols = matrix->cols;
  *nnz = matrix->nnz;
  *offsets = matrix->offsets;
  *indices = matrix->indices;
  *values = matrix->values;
  put(offset_type, matrix->offset_type);
  *index_type = matrix->index_type;
  *base = matrix->index_base;
  *type = matrix->value_type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t create_blocked_ell(cusparseSpMatDescr_t* descriptor, int64_t rows, int64_t cols, int64_t block,
                                    int64_t ell_cols, const void* columns, const void* values,
                                    cusparseIndexType_t index_type, cusparseIndexBase_t base, cudaDataType type) {
  if (!descriptor || rows < 0 || cols < 0 || block < 1 || ell_cols < 0 || ell_cols > cols || ell_cols % block != 0 ||
      !valid(index_type) || !valid(base))
    return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseSpMatDescr matrix;
  matrix.format = CUSPARSE_FORMAT_BLOCKED_ELL;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.nnz = rows * cols * block;  // what the H200 reports (cusparseSpMatGetSize), whatever ell_cols is
  matrix.indices = const_cast<void*>(columns);
  matrix.values = const_cast<void*>(values);
  matrix.offset_type = matrix.index_type = index_type;
  matrix.index_base = base;
  matrix.value_type = type;
  matrix.ell_block_size = block;
  matrix.ell_cols = ell_cols;
  return make(descriptor, matrix);
}

cusparseStatus_t set_pointers(cusparseSpMatDescr_t matrix, cusparseFormat_t format, void* offsets, void* indices,
                              void* values) {
  if (!matrix || matrix->format != format) return CUSPARSE_STATUS_INVALID_VALUE;
  matrix->offsets = offsets;
  matrix->indices = indices;
  matrix->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t create_dense_matrix(cusparseDnMatDescr_t* descriptor, int64_t rows, int64_t cols, int64_t ld,
                                     const void* values, cudaDataType type, cusparseOrder_t order) {
  if (!descriptor || rows < 0 || cols < 0 || !valid(order)) return CUSPARSE_STATUS_INVALID_VALUE;
  if (ld < (order == CUSPARSE_ORDER_COL ? rows : cols) || ld < 1) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseDnMatDescr matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  matrix.ld = ld;
  matrix.values = const_cast<void*>(values);
  matrix.value_type = type;
  matrix.order = order;
  return make(descriptor, matrix);
}

cusparseStatus_t create_sparse_vector(cusparseSpVecDescr_t* descriptor, int64_t size, int64_t nnz, const void* indices,
                                      const void* values, cusparseIndexType_t index_type, cusparseIndexBase_t base,
                                      cudaDataType type) {
  if (!descriptor || size < 0 || nnz < 0 || nnz > size || !valid(index_type) || !valid(base))
    return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseSpVecDescr vector;
  vector.size = size;
  vector.nnz = nnz;
  vector.indices = const_cast<void*>(indices);
  vector.values = const_cast<void*>(values);
  vector.index_type = index_type;
  vector.index_base = base;
  vector.value_type = type;
  return make(descriptor, vector);
}

cusparseStatus_t create_dense_vector(cusparseDnVecDescr_t* descriptor, int64_t size, const void* values,
                                     cudaDataType type) {
  if (!descriptor || size < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseDnVecDescr vector;
  vector.size = size;
  vector.values = const_cast<void*>(values);
  vector.value_type = type;
  return make(descriptor, vector);
}

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

// ---- sparse vectors ----

cusparseStatus_t CUSPARSEAPI cusparseCreateSpVec(cusparseSpVecDescr_t* spVecDescr, int64_t size, int64_t nnz,
                                                 void* indices, void* values, cusparseIndexType_t idxType,
                                                 cusparseIndexBase_t idxBase, cudaDataType valueType) {
  return create_sparse_vector(spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstSpVec(cusparseConstSpVecDescr_t* spVecDescr, int64_t size, int64_t nnz,
                                                      const void* indices, const void* values,
                                                      cusparseIndexType_t idxType, cusparseIndexBase_t idxBase,
                                                      cudaDataType valueType) {
  return create_sparse_vector(const_cast<cusparseSpVecDescr_t*>(spVecDescr), size, nnz, indices, values, idxType,
                              idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroySpVec(cusparseConstSpVecDescr_t spVecDescr) {
  delete spVecDescr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstSpVecGet(cusparseConstSpVecDescr_t spVecDescr, int64_t* size, int64_t* nnz,
                                                   const void** indices, const void** values,
                                                   cusparseIndexType_t* idxType, cusparseIndexBase_t* idxBase,
                                                   cudaDataType* valueType) {
  if (!spVecDescr || !size || !nnz || !indices || !values || !idxType || !idxBase || !valueType)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *size = spVecDescr->size;
  *nnz = spVecDescr->nnz;
  *indices = spVecDescr->indices;
  *values = spVecDescr->values;
  *idxType = spVecDescr->index_type;
  *idxBase = spVecDescr->index_base;
  *valueType = spVecDescr->value_type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpVecGet(cusparseSpVecDescr_t spVecDescr, int64_t* size, int64_t* nnz,
                                              void** indices, void** values, cusparseIndexType_t* idxType,
                                              cusparseIndexBase_t* idxBase, cudaDataType* valueType) {
  return cusparseConstSpVecGet(spVecDescr, size, nnz, const_cast<const void**>(indices),
                               const_cast<const void**>(values), idxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseSpVecGetIndexBase(cusparseConstSpVecDescr_t spVecDescr,
                                                       cusparseIndexBase_t* idxBase) {
  if (!spVecDescr || !idxBase) return CUSPARSE_STATUS_INVALID_VALUE;
  *idxBase = spVecDescr->index_base;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstSpVecGetValues(cusparseConstSpVecDescr_t spVecDescr, const void** values) {
  if (!spVecDescr || !values) return CUSPARSE_STATUS_INVALID_VALUE;
  *values = spVecDescr->values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpVecGetValues(cusparseSpVecDescr_t spVecDescr, void** values) {
  return cusparseConstSpVecGetValues(spVecDescr, const_cast<const void**>(values));
}

cusparseStatus_t CUSPARSEAPI cusparseSpVecSetValues(cusparseSpVecDescr_t spVecDescr, void* values) {
  if (!spVecDescr) return CUSPARSE_STATUS_INVALID_VALUE;
  spVecDescr->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

// ---- dense vectors ----

cusparseStatus_t CUSPARSEAPI cusparseCreateDnVec(cusparseDnVecDescr_t* dnVecDescr, int64_t size, void* values,
                                                 cudaDataType valueType) {
  return create_dense_vector(dnVecDescr, size, values, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnVec(cusparseConstDnVecDescr_t* dnVecDescr, int64_t size,
                                                      const void* values, cudaDataType valueType) {
  return create_dense_vector(const_cast<cusparseDnVecDescr_t*>(dnVecDescr), size, values, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr) {
  delete dnVecDescr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnVecGet(cusparseConstDnVecDescr_t dnVecDescr, int64_t* size,
                                                   const void** values, cudaDataType* valueType) {
  if (!dnVecDescr || !size || !values || !valueType) return CUSPARSE_STATUS_INVALID_VALUE;
  *size = dnVecDescr->size;
  *values = dnVecDescr->values;
  *valueType = dnVecDescr->value_type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnVecGet(cusparseDnVecDescr_t dnVecDescr, int64_t* size, void** values,
                                              cudaDataType* valueType) {
  return cusparseConstDnVecGet(dnVecDescr, size, const_cast<const void**>(values), valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnVecGetValues(cusparseConstDnVecDescr_t dnVecDescr, const void** values) {
  if (!dnVecDescr || !values) return CUSPARSE_STATUS_INVALID_VALUE;
  *values = dnVecDescr->values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnVecGetValues(cusparseDnVecDescr_t dnVecDescr, void** values) {
  return cusparseConstDnVecGetValues(dnVecDescr, const_cast<const void**>(values));
}

cusparseStatus_t CUSPARSEAPI cusparseDnVecSetValues(cusparseDnVecDescr_t dnVecDescr, void* values) {
  if (!dnVecDescr) return CUSPARSE_STATUS_INVALID_VALUE;
  dnVecDescr->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

// ---- sparse matrices ----

cusparseStatus_t CUSPARSEAPI cusparseCreateCsr(cusparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                               int64_t nnz, void* csrRowOffsets, void* csrColInd, void* csrValues,
                                               cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
                                               cusparseIndexBase_t idxBase, cudaDataType valueType) {
  return create_sparse_matrix(spMatDescr, CUSPARSE_FORMAT_CSR, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
                              csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsr(cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                                    int64_t nnz, const void* csrRowOffsets, const void* csrColInd,
                                                    const void* csrValues, cusparseIndexType_t csrRowOffsetsType,
                                                    cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase,
                                                    cudaDataType valueType) {
  return create_sparse_matrix(const_cast<cusparseSpMatDescr_t*>(spMatDescr), CUSPARSE_FORMAT_CSR, rows, cols, nnz,
                              csrRowOffsets, csrColInd, csrValues, csrRowOffsetsType, csrColIndType, idxBase,
                              valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateCsc(cusparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                               int64_t nnz, void* cscColOffsets, void* cscRowInd, void* cscValues,
                                               cusparseIndexType_t cscColOffsetsType, cusparseIndexType_t cscRowIndType,
                                               cusparseIndexBase_t idxBase, cudaDataType valueType) {
  return create_sparse_matrix(spMatDescr, CUSPARSE_FORMAT_CSC, rows, cols, nnz, cscColOffsets, cscRowInd, cscValues,
                              cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsc(cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                                    int64_t nnz, const void* cscColOffsets, const void* cscRowInd,
                                                    const void* cscValues, cusparseIndexType_t cscColOffsetsType,
                                                    cusparseIndexType_t cscRowIndType, cusparseIndexBase_t idxBase,
                                                    cudaDataType valueType) {
  return create_sparse_matrix(const_cast<cusparseSpMatDescr_t*>(spMatDescr), CUSPARSE_FORMAT_CSC, rows, cols, nnz,
                              cscColOffsets, cscRowInd, cscValues, cscColOffsetsType, cscRowIndType, idxBase,
                              valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateCoo(cusparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                               int64_t nnz, void* cooRowInd, void* cooColInd, void* cooValues,
                                               cusparseIndexType_t cooIdxType, cusparseIndexBase_t idxBase,
                                               cudaDataType valueType) {
  return create_sparse_matrix(spMatDescr, CUSPARSE_FORMAT_COO, rows, cols, nnz, cooRowInd, cooColInd, cooValues,
                              cooIdxType, cooIdxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstCoo(cusparseConstSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                                    int64_t nnz, const void* cooRowInd, const void* cooColInd,
                                                    const void* cooValues, cusparseIndexType_t cooIdxType,
                                                    cusparseIndexBase_t idxBase, cudaDataType valueType) {
  return create_sparse_matrix(const_cast<cusparseSpMatDescr_t*>(spMatDescr), CUSPARSE_FORMAT_COO, rows, cols, nnz,
                              cooRowInd, cooColInd, cooValues, cooIdxType, cooIdxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr) {
  delete spMatDescr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstCsrGet(cusparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                                 int64_t* nnz, const void** csrRowOffsets, const void** csrColInd,
                                                 const void** csrValues, cusparseIndexType_t* csrRowOffsetsType,
                                                 cusparseIndexType_t* csrColIndType, cusparseIndexBase_t* idxBase,
                                                 cudaDataType* valueType) {
  if (!csrRowOffsetsType) return CUSPARSE_STATUS_INVALID_VALUE;
  return get_sparse_matrix(spMatDescr, CUSPARSE_FORMAT_CSR, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
                           csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCsrGet(cusparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols, int64_t* nnz,
                                            void** csrRowOffsets, void** csrColInd, void** csrValues,
                                            cusparseIndexType_t* csrRowOffsetsType, cusparseIndexType_t* csrColIndType,
                                            cusparseIndexBase_t* idxBase, cudaDataType* valueType) {
  return cusparseConstCsrGet(spMatDescr, rows, cols, nnz, const_cast<const void**>(csrRowOffsets),
                             const_cast<const void**>(csrColInd), const_cast<const void**>(csrValues),
                             csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseConstCscGet(cusparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                                 int64_t* nnz, const void** cscColOffsets, const void** cscRowInd,
                                                 const void** cscValues, cusparseIndexType_t* cscColOffsetsType,
                                                 cusparseIndexType_t* cscRowIndType, cusparseIndexBase_t* idxBase,
                                                 cudaDataType* valueType) {
  if (!cscColOffsetsType) return CUSPARSE_STATUS_INVALID_VALUE;
  return get_sparse_matrix(spMatDescr, CUSPARSE_FORMAT_CSC, rows, cols, nnz, cscColOffsets, cscRowInd, cscValues,
                           cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCscGet(cusparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols, int64_t* nnz,
                                            void** cscColOffsets, void** cscRowInd, void** cscValues,
                                            cusparseIndexType_t* cscColOffsetsType, cusparseIndexType_t* cscRowIndType,
                                            cusparseIndexBase_t* idxBase, cudaDataType* valueType) {
  return cusparseConstCscGet(spMatDescr, rows, cols, nnz, const_cast<const void**>(cscColOffsets),
                             const_cast<const void**>(cscRowInd), const_cast<const void**>(cscValues),
                             cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseConstCooGet(cusparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                                 int64_t* nnz, const void** cooRowInd, const void** cooColInd,
                                                 const void** cooValues, cusparseIndexType_t* idxType,
                                                 cusparseIndexBase_t* idxBase, cudaDataType* valueType) {
  return get_sparse_matrix(spMatDescr, CUSPARSE_FORMAT_COO, rows, cols, nnz, cooRowInd, cooColInd, cooValues, nullptr,
                           idxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCooGet(cusparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols, int64_t* nnz,
                                            void** cooRowInd, void** cooColInd, void** cooValues,
                                            cusparseIndexType_t* idxType, cusparseIndexBase_t* idxBase,
                                            cudaDataType* valueType) {
  return cusparseConstCooGet(spMatDescr, rows, cols, nnz, const_cast<const void**>(cooRowInd),
                             const_cast<const void**>(cooColInd), const_cast<const void**>(cooValues), idxType, idxBase,
                             valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateBlockedEll(cusparseSpMatDescr_t* spMatDescr, int64_t rows, int64_t cols,
                                                      int64_t ellBlockSize, int64_t ellCols, void* ellColInd,
                                                      void* ellValue, cusparseIndexType_t ellIdxType,
                                                      cusparseIndexBase_t idxBase, cudaDataType valueType) {
  return create_blocked_ell(spMatDescr, rows, cols, ellBlockSize, ellCols, ellColInd, ellValue, ellIdxType, idxBase,
                            valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstBlockedEll(cusparseConstSpMatDescr_t* spMatDescr, int64_t rows,
                                                           int64_t cols, int64_t ellBlockSize, int64_t ellCols,
                                                           const void* ellColInd, const void* ellValue,
                                                           cusparseIndexType_t ellIdxType, cusparseIndexBase_t idxBase,
                                                           cudaDataType valueType) {
  return create_blocked_ell(const_cast<cusparseSpMatDescr_t*>(spMatDescr), rows, cols, ellBlockSize, ellCols, ellColInd,
                            ellValue, ellIdxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseConstBlockedEllGet(cusparseConstSpMatDescr_t spMatDescr, int64_t* rows,
                                                        int64_t* cols, int64_t* ellBlockSize, int64_t* ellCols,
                                                        const void** ellColInd, const void** ellValue,
                                                        cusparseIndexType_t* ellIdxType, cusparseIndexBase_t* idxBase,
                                                        cudaDataType* valueType) {
  if (!spMatDescr || spMatDescr->format != CUSPARSE_FORMAT_BLOCKED_ELL || !rows || !cols || !ellBlockSize || !ellCols ||
      !ellColInd || !ellValue || !ellIdxType || !idxBase || !valueType)
    return CUSPARSE_STATUS_INVALID_VALUE;
  *rows = spMatDescr->rows;
  *cols = spMatDescr->cols;
  *ellBlockSize = spMatDescr->ell_block_size;
  *ellCols = spMatDescr->ell_cols;
  *ellColInd = spMatDescr->indices;
  *ellValue = spMatDescr->values;
  *ellIdxType = spMatDescr->index_type;
  *idxBase = spMatDescr->index_base;
  *valueType = spMatDescr->value_type;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseBlockedEllGet(cusparseSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                                   int64_t* ellBlockSize, int64_t* ellCols, void** ellColInd,
                                                   void** ellValue, cusparseIndexType_t* ellIdxType,
                                                   cusparseIndexBase_t* idxBase, cudaDataType* valueType) {
  return cusparseConstBlockedEllGet(spMatDescr, rows, cols, ellBlockSize, ellCols, const_cast<const void**>(ellColInd),
                                    const_cast<const void**>(ellValue), ellIdxType, idxBase, valueType);
}

cusparseStatus_t CUSPARSEAPI cusparseCsrSetPointers(cusparseSpMatDescr_t spMatDescr, void* csrRowOffsets,
                                                    void* csrColInd, void* csrValues) {
  return set_pointers(spMatDescr, CUSPARSE_FORMAT_CSR, csrRowOffsets, csrColInd, csrValues);
}

cusparseStatus_t CUSPARSEAPI cusparseCscSetPointers(cusparseSpMatDescr_t spMatDescr, void* cscColOffsets,
                                                    void* cscRowInd, void* cscValues) {
  return set_pointers(spMatDescr, CUSPARSE_FORMAT_CSC, cscColOffsets, cscRowInd, cscValues);
}

cusparseStatus_t CUSPARSEAPI cusparseCooSetPointers(cusparseSpMatDescr_t spMatDescr, void* cooRows, void* cooColumns,
                                                    void* cooValues) {
  return set_pointers(spMatDescr, CUSPARSE_FORMAT_COO, cooRows, cooColumns, cooValues);
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetFormat(cusparseConstSpMatDescr_t spMatDescr, cusparseFormat_t* format) {
  if (!spMatDescr || !format) return CUSPARSE_STATUS_INVALID_VALUE;
  *format = spMatDescr->format;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t spMatDescr,
                                                       cusparseIndexBase_t* idxBase) {
  if (!spMatDescr || !idxBase) return CUSPARSE_STATUS_INVALID_VALUE;
  *idxBase = spMatDescr->index_base;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstSpMatGetValues(cusparseConstSpMatDescr_t spMatDescr, const void** values) {
  if (!spMatDescr || !values) return CUSPARSE_STATUS_INVALID_VALUE;
  *values = spMatDescr->values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetValues(cusparseSpMatDescr_t spMatDescr, void** values) {
  return cusparseConstSpMatGetValues(spMatDescr, const_cast<const void**>(values));
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatSetValues(cusparseSpMatDescr_t spMatDescr, void* values) {
  if (!spMatDescr) return CUSPARSE_STATUS_INVALID_VALUE;
  spMatDescr->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetSize(cusparseConstSpMatDescr_t spMatDescr, int64_t* rows, int64_t* cols,
                                                  int64_t* nnz) {
  if (!spMatDescr || !rows || !cols || !nnz) return CUSPARSE_STATUS_INVALID_VALUE;
  *rows = spMatDescr->rows;
  *cols = spMatDescr->cols;
  *nnz = spMatDescr->nnz;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetStridedBatch(cusparseConstSpMatDescr_t spMatDescr, int* batchCount) {
  if (!spMatDescr || !batchCount) return CUSPARSE_STATUS_INVALID_VALUE;
  *batchCount = spMatDescr->batch_count;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseCooSetStridedBatch(cusparseSpMatDescr_t spMatDescr, int batchCount,
                                                        int64_t batchStride) {
  if (!spMatDescr || spMatDescr->format != CUSPARSE_FORMAT_COO || batchCount < 1 || batchStride < 0)
    return CUSPARSE_STATUS_INVALID_VALUE;
  spMatDescr->batch_count = batchCount;
  spMatDescr->offsets_batch_stride = spMatDescr->values_batch_stride = batchStride;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseCsrSetStridedBatch(cusparseSpMatDescr_t spMatDescr, int batchCount,
                                                        int64_t offsetsBatchStride, int64_t columnsValuesBatchStride) {
  if (!spMatDescr || spMatDescr->format != CUSPARSE_FORMAT_CSR || batchCount < 1 || offsetsBatchStride < 0 ||
      columnsValuesBatchStride < 0)
    return CUSPARSE_STATUS_INVALID_VALUE;
  spMatDescr->batch_count = batchCount;
  spMatDescr->offsets_batch_stride = offsetsBatchStride;
  spMatDescr->values_batch_stride = columnsValuesBatchStride;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t spMatDescr,
                                                       cusparseSpMatAttribute_t attribute, void* data,
                                                       size_t dataSize) {
  if (!spMatDescr || !data) return CUSPARSE_STATUS_INVALID_VALUE;
  if (attribute == CUSPARSE_SPMAT_FILL_MODE && dataSize == sizeof(cusparseFillMode_t)) {
    *static_cast<cusparseFillMode_t*>(data) = spMatDescr->fill_mode;
    return CUSPARSE_STATUS_SUCCESS;
  }
  if (attribute == CUSPARSE_SPMAT_DIAG_TYPE && dataSize == sizeof(cusparseDiagType_t)) {
    *static_cast<cusparseDiagType_t*>(data) = spMatDescr->diag_type;
    return CUSPARSE_STATUS_SUCCESS;
  }
  return CUSPARSE_STATUS_INVALID_VALUE;
}

cusparseStatus_t CUSPARSEAPI cusparseSpMatSetAttribute(cusparseSpMatDescr_t spMatDescr,
                                                       cusparseSpMatAttribute_t attribute, void* data,
                                                       size_t dataSize) {
  if (!spMatDescr || !data) return CUSPARSE_STATUS_INVALID_VALUE;
  if (attribute == CUSPARSE_SPMAT_FILL_MODE && dataSize == sizeof(cusparseFillMode_t)) {
    auto mode = *static_cast<const cusparseFillMode_t*>(data);
    if (mode != CUSPARSE_FILL_MODE_LOWER && mode != CUSPARSE_FILL_MODE_UPPER) return CUSPARSE_STATUS_INVALID_VALUE;
    spMatDescr->fill_mode = mode;
    return CUSPARSE_STATUS_SUCCESS;
  }
  if (attribute == CUSPARSE_SPMAT_DIAG_TYPE && dataSize == sizeof(cusparseDiagType_t)) {
    auto type = *static_cast<const cusparseDiagType_t*>(data);
    if (type != CUSPARSE_DIAG_TYPE_NON_UNIT && type != CUSPARSE_DIAG_TYPE_UNIT) return CUSPARSE_STATUS_INVALID_VALUE;
    spMatDescr->diag_type = type;
    return CUSPARSE_STATUS_SUCCESS;
  }
  return CUSPARSE_STATUS_INVALID_VALUE;
}

// ---- dense matrices ----

cusparseStatus_t CUSPARSEAPI cusparseCreateDnMat(cusparseDnMatDescr_t* dnMatDescr, int64_t rows, int64_t cols,
                                                 int64_t ld, void* values, cudaDataType valueType,
                                                 cusparseOrder_t order) {
  return create_dense_matrix(dnMatDescr, rows, cols, ld, values, valueType, order);
}

cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnMat(cusparseConstDnMatDescr_t* dnMatDescr, int64_t rows, int64_t cols,
                                                      int64_t ld, const void* values, cudaDataType valueType,
                                                      cusparseOrder_t order) {
  return create_dense_matrix(const_cast<cusparseDnMatDescr_t*>(dnMatDescr), rows, cols, ld, values, valueType, order);
}

cusparseStatus_t CUSPARSEAPI cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr) {
  delete dnMatDescr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnMatGet(cusparseConstDnMatDescr_t dnMatDescr, int64_t* rows, int64_t* cols,
                                                   int64_t* ld, const void** values, cudaDataType* type,
                                                   cusparseOrder_t* order) {
  if (!dnMatDescr || !rows || !cols || !ld || !values || !type || !order) return CUSPARSE_STATUS_INVALID_VALUE;
  *rows = dnMatDescr->rows;
  *cols = dnMatDescr->cols;
  *ld = dnMatDescr->ld;
  *values = dnMatDescr->values;
  *type = dnMatDescr->value_type;
  *order = dnMatDescr->order;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGet(cusparseDnMatDescr_t dnMatDescr, int64_t* rows, int64_t* cols,
                                              int64_t* ld, void** values, cudaDataType* type, cusparseOrder_t* order) {
  return cusparseConstDnMatGet(dnMatDescr, rows, cols, ld, const_cast<const void**>(values), type, order);
}

cusparseStatus_t CUSPARSEAPI cusparseConstDnMatGetValues(cusparseConstDnMatDescr_t dnMatDescr, const void** values) {
  if (!dnMatDescr || !values) return CUSPARSE_STATUS_INVALID_VALUE;
  *values = dnMatDescr->values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGetValues(cusparseDnMatDescr_t dnMatDescr, void** values) {
  return cusparseConstDnMatGetValues(dnMatDescr, const_cast<const void**>(values));
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatSetValues(cusparseDnMatDescr_t dnMatDescr, void* values) {
  if (!dnMatDescr) return CUSPARSE_STATUS_INVALID_VALUE;
  dnMatDescr->values = values;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatSetStridedBatch(cusparseDnMatDescr_t dnMatDescr, int batchCount,
                                                          int64_t batchStride) {
  if (!dnMatDescr || batchCount < 1 || batchStride < 0) return CUSPARSE_STATUS_INVALID_VALUE;
  dnMatDescr->batch_count = batchCount;
  dnMatDescr->batch_stride = batchStride;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseDnMatGetStridedBatch(cusparseConstDnMatDescr_t dnMatDescr, int* batchCount,
                                                          int64_t* batchStride) {
  if (!dnMatDescr || !batchCount || !batchStride) return CUSPARSE_STATUS_INVALID_VALUE;
  *batchCount = dnMatDescr->batch_count;
  *batchStride = dnMatDescr->batch_stride;
  return CUSPARSE_STATUS_SUCCESS;
}

}  // extern "C"
