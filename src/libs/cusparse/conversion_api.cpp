// cuSPARSE's format conversions: Csr2cscEx2 (a CSR matrix's transpose, or the same matrix
// in CSC: rows stay in order within each column), SparseToDense (CSR, CSC or COO into a
// dense matrix of either order), DenseToSparse (the analysis counts the nonzeros and gives
// them to the sparse descriptor, writing CSR's or CSC's offsets; the conversion writes the
// entries in row order, or column order for CSC; Blocked-ELL's blocks are filled) and the legacy
// Xcoo2csr / Xcsr2coo index conversions. Values are only moved, never computed, so the
// conversions that do not test for zero move them as bytes, whatever their type.
#include <cusparse.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "libs/cusparse/handle.h"
#include "libs/cusparse/sparse_kernels.h"

namespace cucpu::cusparse {
namespace {

bool valid(cusparseIndexBase_t base) { return base == CUSPARSE_INDEX_BASE_ZERO || base == CUSPARSE_INDEX_BASE_ONE; }

// The size of one value of the types a conversion moves (0: not one of them).
size_t element_size(cudaDataType type) {
  switch (type) {
    case CUDA_R_8I:
    case CUDA_R_8U:
      return 1;
    case CUDA_R_16F:
    case CUDA_R_16BF:
      return 2;
    case CUDA_R_32F:
    case CUDA_R_32I:
    case CUDA_C_16F:
    case CUDA_C_16BF:
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

cusparseStatus_t check_csr2csc(cusparseHandle_t handle, int m, int n, int nnz, cudaDataType type,
                               cusparseAction_t action, cusparseIndexBase_t base) {
  if (!handle || m < 0 || n < 0 || nnz < 0 || !valid(base)) return CUSPARSE_STATUS_INVALID_VALUE;
  if (action != CUSPARSE_ACTION_SYMBOLIC && action != CUSPARSE_ACTION_NUMERIC) return CUSPARSE_STATUS_INVALID_VALUE;
  return element_size(type) ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_NOT_SUPPORTED;
}

// Calls body(O, I) for a sparse matrix's offset and index types.
template <typename Body>
cusparseStatus_t with_index_types(const cusparseSpMatDescr& a, Body body) {
  return with_index_type(a.offset_type,
                         [&](auto o) { return with_index_type(a.index_type, [&](auto i) { return body(o, i); }); });
}

bool convertible_format(cusparseFormat_t format) {
  return format == CUSPARSE_FORMAT_CSR || format == CUSPARSE_FORMAT_CSC || format == CUSPARSE_FORMAT_COO ||
         format == CUSPARSE_FORMAT_BLOCKED_ELL;
}

// The checks of both directions; SparseToDense refuses Blocked-ELL (as the H200 does), which
// DenseToSparse fills.
cusparseStatus_t check_dense_sparse(cusparseHandle_t handle, const cusparseSpMatDescr* sparse,
                                    const cusparseDnMatDescr* dense, bool to_dense) {
  if (!handle || !sparse || !dense) return CUSPARSE_STATUS_INVALID_VALUE;
  if (sparse->rows != dense->rows || sparse->cols != dense->cols) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!convertible_format(sparse->format) || sparse->batch_count != 1 || dense->batch_count != 1)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (to_dense && sparse->format == CUSPARSE_FORMAT_BLOCKED_ELL) return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (sparse->value_type != dense->value_type || element_size(sparse->value_type) == 0)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (sparse->offset_type == CUSPARSE_INDEX_16U || sparse->index_type == CUSPARSE_INDEX_16U)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

// A dense matrix's element (i, j) as bytes.
struct DenseBytes {
  unsigned char* values;
  int64_t ld;
  bool column_major;
  size_t size;
  unsigned char* at(int64_t i, int64_t j) const {
    return values + (column_major ? i + j * ld : i * ld + j) * static_cast<int64_t>(size);
  }
};

DenseBytes dense_bytes_of(const cusparseDnMatDescr& matrix) {
  return {static_cast<unsigned char*>(matrix.values), matrix.ld, matrix.order == CUSPARSE_ORDER_COL,
          element_size(matrix.value_type)};
}

// Where a dense matrix is not zero, 0-based, in the order the sparse format stores it: by
// rows (CSR, COO) or by columns (CSC).
struct NonZeros {
  std::vector<int64_t> rows, cols;
  std::vector<unsigned char> values;
};

template <typename T>
NonZeros find_nonzeros(const cusparseDnMatDescr& matrix, bool by_columns) {
  const DenseView<T> a = dense_view_of<T>(matrix);
  NonZeros found;
  const int64_t outer = by_columns ? matrix.cols : matrix.rows, inner = by_columns ? matrix.rows : matrix.cols;
  for (int64_t p = 0; p < outer; ++p)
    for (int64_t q = 0; q < inner; ++q) {
      const int64_t i = by_columns ? q : p, j = by_columns ? p : q;
      const T value = a.at(i, j);
      if (value == T{}) continue;
      found.rows.push_back(i);
      found.cols.push_back(j);
      const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
      found.values.insert(found.values.end(), bytes, bytes + sizeof(T));
    }
  return found;
}

// Offsets (with `base`) of `count` rows or columns from the sorted 0-based `indices`.
template <typename O>
void write_offsets(O* out, int64_t count, const std::vector<int64_t>& indices, int64_t base) {
  std::vector<int64_t> counts(count + 1, 0);
  for (int64_t index : indices)
    if (index >= 0 && index < count) ++counts[index + 1];
  for (int64_t r = 0; r < count; ++r) counts[r + 1] += counts[r];
  for (int64_t r = 0; r <= count; ++r) out[r] = static_cast<O>(counts[r] + base);
}

// Writes the dense matrix's nonzeros into the CSR, CSC or COO matrix's arrays (with only
// `offsets_only`, just CSR's or CSC's offsets).
template <typename T, typename O, typename I>
void write_sparse(const cusparseDnMatDescr& dense, const cusparseSpMatDescr& sparse, bool offsets_only) {
  const bool by_columns = sparse.format == CUSPARSE_FORMAT_CSC;
  const NonZeros found = find_nonzeros<T>(dense, by_columns);
  const int64_t base = sparse.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  if (sparse.format == CUSPARSE_FORMAT_COO) {
    if (offsets_only) return;
    for (size_t k = 0; k < found.cols.size(); ++k)
      static_cast<O*>(sparse.offsets)[k] = static_cast<O>(found.rows[k] + base);
  } else {
    write_offsets(static_cast<O*>(sparse.offsets), by_columns ? sparse.cols : sparse.rows,
                  by_columns ? found.cols : found.rows, base);
    if (offsets_only) return;
  }
  const std::vector<int64_t>& inner = by_columns ? found.rows : found.cols;
  for (size_t k = 0; k < inner.size(); ++k) static_cast<I*>(sparse.indices)[k] = static_cast<I>(inner[k] + base);
  std::memcpy(sparse.values, found.values.data(), found.values.size());
}

// Blocked-ELL from dense: the elements of each present block (its columns are the
// caller's); an empty block's values become zeros, as the H200 writes them.
template <typename I>
void write_blocked_ell(const cusparseDnMatDescr& dense, const cusparseSpMatDescr& sparse) {
  const DenseBytes a = dense_bytes_of(dense);
  auto* values = static_cast<unsigned char*>(sparse.values);
  for_each_blocked_ell_entry<I>(sparse, [&](int64_t row, int64_t col, int64_t k, bool present) {
    unsigned char* out = values + k * static_cast<int64_t>(a.size);
    if (present)
      std::memcpy(out, a.at(row, col), a.size);
    else
      std::memset(out, 0, a.size);
  });
}

// DenseToSparse's analysis (`convert` false) and conversion.
cusparseStatus_t dense_to_sparse(cusparseHandle_t handle, const cusparseDnMatDescr* dense, cusparseSpMatDescr* sparse,
                                 bool convert) {
  if (cusparseStatus_t status = check_dense_sparse(handle, sparse, dense, false)) return status;
  const cusparseDnMatDescr a = *dense;
  const cusparseSpMatDescr b = *sparse;
  const char* function = convert ? "cusparseDenseToSparse_convert" : "cusparseDenseToSparse_analysis";
  if (b.format == CUSPARSE_FORMAT_BLOCKED_ELL) {
    if (!convert) return CUSPARSE_STATUS_SUCCESS;  // its nnz is its blocks' size
    return with_index_type(b.index_type, [&](auto i) {
      using I = decltype(i);
      return run(handle, function, {dense_range(a), indices_range(b), values_range(b)},
                 [=] { write_blocked_ell<I>(a, b); });
    });
  }
  return with_value_type(a.value_type, [&](auto t) {
    return with_index_types(b, [&](auto o, auto i) {
      using T = decltype(t);
      using O = decltype(o);
      using I = decltype(i);
      if (!convert) {
        // The nonzeros counted (the caller learns them from cusparseSpMatGetSize), then CSR's
        // or CSC's offsets written.
        auto count = std::make_shared<int64_t>(0);
        const DeviceRange offsets = b.format == CUSPARSE_FORMAT_COO ? DeviceRange{} : offsets_range(b);
        if (cusparseStatus_t status = run(handle, function, {dense_range(a), offsets}, [=] {
              *count = static_cast<int64_t>(find_nonzeros<T>(a, false).rows.size());
              if (b.format != CUSPARSE_FORMAT_COO) write_sparse<T, O, I>(a, b, true);
            }))
          return status;
        if (cusparseStatus_t status = finish(handle)) return status;
        sparse->nnz = *count;
        return CUSPARSE_STATUS_SUCCESS;
      }
      return run(handle, function, {dense_range(a), offsets_range(b), indices_range(b), values_range(b)},
                 [=] { write_sparse<T, O, I>(a, b, false); });
    });
  });
}

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseCsr2cscEx2_bufferSize(cusparseHandle_t handle, int m, int n, int nnz, const void*,
                                                           const int*, const int*, void*, int*, int*,
                                                           cudaDataType valType, cusparseAction_t copyValues,
                                                           cusparseIndexBase_t idxBase, cusparseCsr2CscAlg_t,
                                                           size_t* bufferSize) {
  if (!bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t status = check_csr2csc(handle, m, n, nnz, valType, copyValues, idxBase);
  if (status == CUSPARSE_STATUS_SUCCESS) *bufferSize = 0;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseCsr2cscEx2(cusparseHandle_t handle, int m, int n, int nnz, const void* csrVal,
                                                const int* csrRowPtr, const int* csrColInd, void* cscVal,
                                                int* cscColPtr, int* cscRowInd, cudaDataType valType,
                                                cusparseAction_t copyValues, cusparseIndexBase_t idxBase,
                                                cusparseCsr2CscAlg_t, void*) {
  if (cusparseStatus_t status = check_csr2csc(handle, m, n, nnz, valType, copyValues, idxBase)) return status;
  const bool numeric = copyValues == CUSPARSE_ACTION_NUMERIC;
  const size_t size = element_size(valType);
  const int base = idxBase == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  return run(handle, "cusparseCsr2cscEx2",
             {array_range(csrRowPtr, m + 1, sizeof(int)), array_range(csrColInd, nnz, sizeof(int)),
              array_range(cscColPtr, n + 1, sizeof(int)), array_range(cscRowInd, nnz, sizeof(int)),
              numeric ? array_range(csrVal, nnz, size) : DeviceRange{},
              numeric ? array_range(cscVal, nnz, size) : DeviceRange{}},
             [=] {
               // Each column's entries counted, then placed row by row (so rows stay sorted).
               std::vector<int64_t> next(n + 1, 0);
               for (int k = 0; k < nnz; ++k) ++next[csrColInd[k] - base + 1];
               for (int c = 0; c < n; ++c) next[c + 1] += next[c];
               for (int c = 0; c <= n; ++c) cscColPtr[c] = static_cast<int>(next[c]) + base;
               for (int r = 0; r < m; ++r)
                 for (int k = csrRowPtr[r] - base; k < csrRowPtr[r + 1] - base; ++k) {
                   const int64_t to = next[csrColInd[k] - base]++;
                   cscRowInd[to] = r + base;
                   if (numeric)
                     std::memcpy(static_cast<unsigned char*>(cscVal) + to * static_cast<int64_t>(size),
                                 static_cast<const unsigned char*>(csrVal) + k * static_cast<int64_t>(size), size);
                 }
             });
}

cusparseStatus_t CUSPARSEAPI cusparseSparseToDense_bufferSize(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                                              cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t,
                                                              size_t* bufferSize) {
  // The matrices are checked first: the H200 answers a type mismatch so even without bufferSize.
  if (cusparseStatus_t status = check_dense_sparse(handle, matA, matB, true)) return status;
  if (!bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  *bufferSize = 0;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSparseToDense(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                                   cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t, void*) {
  if (cusparseStatus_t status = check_dense_sparse(handle, matA, matB, true)) return status;
  const cusparseSpMatDescr a = *matA;
  const cusparseDnMatDescr b = *matB;
  return with_index_types(a, [&](auto o, auto i) {
    using O = decltype(o);
    using I = decltype(i);
    return run(handle, "cusparseSparseToDense", {offsets_range(a), indices_range(a), values_range(a), dense_range(b)},
               [=] {
                 const DenseBytes dense = dense_bytes_of(b);
                 for (int64_t j = 0; j < b.cols; ++j)
                   for (int64_t r = 0; r < b.rows; ++r) std::memset(dense.at(r, j), 0, dense.size);
                 const auto* values = static_cast<const unsigned char*>(a.values);
                 for_each_entry(view_of<unsigned char, O, I>(a), [&](int64_t row, int64_t col, int64_t k) {
                   std::memcpy(dense.at(row, col), values + k * static_cast<int64_t>(dense.size), dense.size);
                 });
               });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_bufferSize(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                              cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t,
                                                              size_t* bufferSize) {
  if (!bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  cusparseStatus_t status = check_dense_sparse(handle, matB, matA, false);
  if (status == CUSPARSE_STATUS_SUCCESS) *bufferSize = 0;
  return status;
}

cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_analysis(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                            cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t,
                                                            void*) {
  return dense_to_sparse(handle, matA, matB, false);
}

cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_convert(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                           cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t,
                                                           void*) {
  return dense_to_sparse(handle, matA, matB, true);
}

cusparseStatus_t CUSPARSEAPI cusparseXcoo2csr(cusparseHandle_t handle, const int* cooRowInd, int nnz, int m,
                                              int* csrSortedRowPtr, cusparseIndexBase_t idxBase) {
  if (!handle || nnz < 0 || m < 0 || !valid(idxBase)) return CUSPARSE_STATUS_INVALID_VALUE;
  const int base = idxBase == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  return run(handle, "cusparseXcoo2csr",
             {array_range(cooRowInd, nnz, sizeof(int)), array_range(csrSortedRowPtr, m + 1, sizeof(int))}, [=] {
               std::vector<int64_t> rows(cooRowInd, cooRowInd + nnz);
               for (int64_t& row : rows) row -= base;
               write_offsets(csrSortedRowPtr, m, rows, base);
             });
}

cusparseStatus_t CUSPARSEAPI cusparseXcsr2coo(cusparseHandle_t handle, const int* csrSortedRowPtr, int nnz, int m,
                                              int* cooRowInd, cusparseIndexBase_t idxBase) {
  if (!handle || nnz < 0 || m < 0 || !valid(idxBase)) return CUSPARSE_STATUS_INVALID_VALUE;
  const int base = idxBase == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  return run(handle, "cusparseXcsr2coo",
             {array_range(csrSortedRowPtr, m + 1, sizeof(int)), array_range(cooRowInd, nnz, sizeof(int))}, [=] {
               for (int r = 0; r < m; ++r)
                 for (int k = csrSortedRowPtr[r] - base; k < csrSortedRowPtr[r + 1] - base; ++k)
                   cooRowInd[k] = r + base;
             });
}

}  // extern "C"
