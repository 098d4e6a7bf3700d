// cuSPARSE's sparse-sparse product SpGEMM, C = alpha op(A) op(B), and its structure-reuse
// variant SpGEMMreuse (C = alpha op(A) op(B) + beta C on C's known structure), for CSR
// matrices of float, double and their complex types with 32- or 64-bit indices. The GPU's
// protocol is kept: a stage given a NULL buffer answers its buffer size and does nothing
// else; compute and reuse_nnz return with C's nnz set (they wait for the stream), and copy
// writes C's arrays once the caller has set them. cucpu keeps what the stages compute in the
// SpGEMM descriptor, so its buffers are small and only mark the real calls. The product is
// Gustavson's, row by row: a row's columns collected and sorted (C's columns come out sorted,
// as the H200's do), then its sums gathered in a dense accumulator.
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#include "libs/cusparse/handle.h"
#include "libs/cusparse/sparse_kernels.h"

namespace cucpu::cusparse {

// C as the stages leave it: structure (0-based), the number of products A(i,k) B(k,j) it
// took, and alpha op(A) op(B) at C's entries (compute's values, in the compute type).
struct SparseProduct {
  std::vector<int64_t> offsets{0};
  std::vector<int64_t> columns;
  std::vector<unsigned char> values;
  int64_t products = 0;
  bool computed = false;
};

}  // namespace cucpu::cusparse

struct cusparseSpGEMMDescr {
  std::shared_ptr<cucpu::cusparse::SparseProduct> product = std::make_shared<cucpu::cusparse::SparseProduct>();
};

namespace cucpu::cusparse {
namespace {

// What a stage's buffer-size query answers: cucpu needs no device memory of its own.
constexpr size_t kBufferBytes = 8;

cusparseStatus_t check_spgemm(cusparseHandle_t handle, cusparseOperation_t op_a, cusparseOperation_t op_b,
                              const cusparseSpMatDescr* a, const cusparseSpMatDescr* b, const cusparseSpMatDescr* c,
                              const cusparseSpGEMMDescr* descr) {
  if (!handle || !a || !b || !c || !descr) return CUSPARSE_STATUS_INVALID_VALUE;
  if (op_a != CUSPARSE_OPERATION_NON_TRANSPOSE || op_b != CUSPARSE_OPERATION_NON_TRANSPOSE)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->format != CUSPARSE_FORMAT_CSR || b->format != CUSPARSE_FORMAT_CSR || c->format != CUSPARSE_FORMAT_CSR)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->cols != b->rows || c->rows != a->rows || c->cols != b->cols) return CUSPARSE_STATUS_INVALID_VALUE;
  if (a->batch_count != 1 || b->batch_count != 1 || c->batch_count != 1) return CUSPARSE_STATUS_NOT_SUPPORTED;
  for (const cusparseSpMatDescr* m : {a, b, c})
    if ((m->offset_type != CUSPARSE_INDEX_32I && m->offset_type != CUSPARSE_INDEX_64I) ||
        m->index_type != m->offset_type || m->offset_type != a->offset_type)
      return CUSPARSE_STATUS_NOT_SUPPORTED;
  if (a->value_type != b->value_type || a->value_type != c->value_type || value_size(a->value_type) == 0)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_values(const void* alpha, const void* beta, const cusparseSpMatDescr* a,
                              cudaDataType compute_type) {
  if (!alpha || !beta) return CUSPARSE_STATUS_INVALID_VALUE;
  return a->value_type == compute_type ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_NOT_SUPPORTED;
}

// The columns of op(A) op(B)'s row i, each once, sorted.
template <typename T, typename I>
void find_structure(const SparseView<T, I, I>& a, const SparseView<T, I, I>& b, SparseProduct& c) {
  c.offsets.assign(1, 0);
  c.columns.clear();
  c.products = 0;
  std::vector<int64_t> seen(b.cols, -1);
  for (int64_t i = 0; i < a.rows; ++i) {
    const size_t first = c.columns.size();
    for (int64_t k = static_cast<int64_t>(a.offsets[i]) - a.base; k < static_cast<int64_t>(a.offsets[i + 1]) - a.base;
         ++k) {
      const int64_t r = static_cast<int64_t>(a.indices[k]) - a.base;
      const int64_t first_b = static_cast<int64_t>(b.offsets[r]) - b.base;
      const int64_t last_b = static_cast<int64_t>(b.offsets[r + 1]) - b.base;
      c.products += last_b - first_b;
      for (int64_t l = first_b; l < last_b; ++l) {
        const int64_t j = static_cast<int64_t>(b.indices[l]) - b.base;
        if (seen[j] != i) {
          seen[j] = i;
          c.columns.push_back(j);
        }
      }
    }
    std::sort(c.columns.begin() + static_cast<std::ptrdiff_t>(first), c.columns.end());
    c.offsets.push_back(static_cast<int64_t>(c.columns.size()));
  }
}

// out[k] = alpha (A B)(i, columns[k]) + beta out[k] over C's entries k (out is not read
// where beta is 0); a product outside C's structure is dropped.
template <typename T, typename I>
void multiply_rows(const SparseView<T, I, I>& a, const SparseView<T, I, I>& b, const std::vector<int64_t>& offsets,
                   const std::vector<int64_t>& columns, T alpha, T beta, T* out) {
  std::vector<T> sums(b.cols);
  auto for_each_product = [&](int64_t i, auto body) {
    for (int64_t k = static_cast<int64_t>(a.offsets[i]) - a.base; k < static_cast<int64_t>(a.offsets[i + 1]) - a.base;
         ++k) {
      const int64_t r = static_cast<int64_t>(a.indices[k]) - a.base;
      for (int64_t l = static_cast<int64_t>(b.offsets[r]) - b.base; l < static_cast<int64_t>(b.offsets[r + 1]) - b.base;
           ++l)
        body(static_cast<int64_t>(b.indices[l]) - b.base, a.values[k] * b.values[l]);
    }
  };
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k) sums[columns[k]] = T{};
    for_each_product(i, [&](int64_t j, T) { sums[j] = T{}; });
    for_each_product(i, [&](int64_t j, T product) { sums[j] += product; });
    for (int64_t k = offsets[i]; k < offsets[i + 1]; ++k)
      out[k] = beta == T{} ? alpha * sums[columns[k]] : alpha * sums[columns[k]] + beta * out[k];
  }
}

// Writes 0-based `values` plus `base` into an index array of `type`.
void write_indices(void* out, cusparseIndexType_t type, const std::vector<int64_t>& values, int64_t base) {
  for (size_t k = 0; k < values.size(); ++k) {
    if (type == CUSPARSE_INDEX_64I)
      static_cast<int64_t*>(out)[k] = values[k] + base;
    else
      static_cast<int32_t*>(out)[k] = static_cast<int32_t>(values[k] + base);
  }
}

// Calls body(T, I) for A's value and index types (checked equal in A, B and C).
template <typename Body>
cusparseStatus_t with_types(const cusparseSpMatDescr& a, Body body) {
  return with_value_type(a.value_type,
                         [&](auto t) { return with_index_type(a.index_type, [&](auto i) { return body(t, i); }); });
}

// Queues the structure of op(A) op(B) (and with `values`, alpha op(A) op(B)) into `product`.
cusparseStatus_t queue_product(cusparseHandle_t handle, const char* function, const cusparseSpMatDescr& a,
                               const cusparseSpMatDescr& b, const void* alpha, bool values,
                               std::shared_ptr<SparseProduct> product) {
  return with_types(a, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    std::optional<Scalar<T>> s_alpha;
    if (values) s_alpha.emplace(handle, alpha);
    return run(handle, function,
               {values ? s_alpha->range() : DeviceRange{}, offsets_range(a), indices_range(a), offsets_range(b),
                indices_range(b), values ? values_range(a) : DeviceRange{}, values ? values_range(b) : DeviceRange{}},
               [=] {
                 const SparseView<T, I, I> va = view_of<T, I, I>(a), vb = view_of<T, I, I>(b);
                 find_structure(va, vb, *product);
                 if (!values) return;
                 product->values.assign(product->columns.size() * sizeof(T), 0);
                 multiply_rows(va, vb, product->offsets, product->columns, (*s_alpha)(), T{},
                               reinterpret_cast<T*>(product->values.data()));
                 product->computed = true;
               });
  });
}

// Queues the writing of C's offsets and columns (and with `values`, compute's values) from
// `product` into C's arrays.
cusparseStatus_t queue_copy(cusparseHandle_t handle, const char* function, const cusparseSpMatDescr& c, bool values,
                            std::shared_ptr<const SparseProduct> product) {
  const int64_t base = c.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  return run(handle, function, {offsets_range(c), indices_range(c), values ? values_range(c) : DeviceRange{}}, [=] {
    write_indices(c.offsets, c.offset_type, product->offsets, base);
    write_indices(c.indices, c.index_type, product->columns, base);
    if (values) std::copy(product->values.begin(), product->values.end(), static_cast<unsigned char*>(c.values));
  });
}

// Waits for the queued product, then gives C its nnz.
cusparseStatus_t set_nnz(cusparseHandle_t handle, cusparseSpMatDescr* c, const SparseProduct& product) {
  if (cusparseStatus_t status = finish(handle)) return status;
  c->nnz = static_cast<int64_t>(product.columns.size());
  return CUSPARSE_STATUS_SUCCESS;
}

// A buffer-size query: the size where `buffer` is NULL. Returns whether it was one.
bool answer_query(size_t* size, const void* buffer) {
  if (buffer) return false;
  *size = kBufferBytes;
  return true;
}

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t* descr) {
  if (!descr) return CUSPARSE_STATUS_INVALID_VALUE;
  *descr = new (std::nothrow) cusparseSpGEMMDescr;
  return *descr ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t descr) {
  delete descr;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_workEstimation(cusparseHandle_t handle, cusparseOperation_t opA,
                                                           cusparseOperation_t opB, const void* alpha,
                                                           cusparseConstSpMatDescr_t matA,
                                                           cusparseConstSpMatDescr_t matB, const void* beta,
                                                           cusparseSpMatDescr_t matC, cudaDataType computeType,
                                                           cusparseSpGEMMAlg_t, cusparseSpGEMMDescr_t spgemmDescr,
                                                           size_t* bufferSize1, void* externalBuffer1) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (cusparseStatus_t status = check_values(alpha, beta, matA, computeType)) return status;
  if (!bufferSize1) return CUSPARSE_STATUS_INVALID_VALUE;
  if (answer_query(bufferSize1, externalBuffer1)) return CUSPARSE_STATUS_SUCCESS;
  // The structure now, so that getNumProducts can answer once this returns.
  spgemmDescr->product = std::make_shared<SparseProduct>();
  if (cusparseStatus_t status =
          queue_product(handle, "cusparseSpGEMM_workEstimation", *matA, *matB, alpha, false, spgemmDescr->product))
    return status;
  return finish(handle);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_getNumProducts(cusparseSpGEMMDescr_t spgemmDescr, int64_t* num_prods) {
  if (!spgemmDescr || !num_prods) return CUSPARSE_STATUS_INVALID_VALUE;
  *num_prods = spgemmDescr->product->products;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_estimateMemory(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void* alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void* beta, cusparseSpMatDescr_t matC,
    cudaDataType computeType, cusparseSpGEMMAlg_t, cusparseSpGEMMDescr_t spgemmDescr, float chunk_fraction,
    size_t* bufferSize3, void* externalBuffer3, size_t* bufferSize2) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (cusparseStatus_t status = check_values(alpha, beta, matA, computeType)) return status;
  if (!bufferSize3 || !(chunk_fraction > 0 && chunk_fraction <= 1)) return CUSPARSE_STATUS_INVALID_VALUE;
  if (answer_query(bufferSize3, externalBuffer3)) return CUSPARSE_STATUS_SUCCESS;
  // The real call answers compute's buffer size (the query may pass NULL for it).
  if (!bufferSize2) return CUSPARSE_STATUS_INVALID_VALUE;
  *bufferSize2 = kBufferBytes;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_compute(cusparseHandle_t handle, cusparseOperation_t opA,
                                                    cusparseOperation_t opB, const void* alpha,
                                                    cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
                                                    const void* beta, cusparseSpMatDescr_t matC,
                                                    cudaDataType computeType, cusparseSpGEMMAlg_t,
                                                    cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize2,
                                                    void* externalBuffer2) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (cusparseStatus_t status = check_values(alpha, beta, matA, computeType)) return status;
  if (!bufferSize2) return CUSPARSE_STATUS_INVALID_VALUE;
  if (answer_query(bufferSize2, externalBuffer2)) return CUSPARSE_STATUS_SUCCESS;
  // beta C is not added: C's old values do not lie at the product's entries.
  spgemmDescr->product = std::make_shared<SparseProduct>();
  if (cusparseStatus_t status =
          queue_product(handle, "cusparseSpGEMM_compute", *matA, *matB, alpha, true, spgemmDescr->product))
    return status;
  return set_nnz(handle, matC, *spgemmDescr->product);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_copy(cusparseHandle_t handle, cusparseOperation_t opA,
                                                 cusparseOperation_t opB, const void* alpha,
                                                 cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
                                                 const void* beta, cusparseSpMatDescr_t matC, cudaDataType computeType,
                                                 cusparseSpGEMMAlg_t, cusparseSpGEMMDescr_t spgemmDescr) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (cusparseStatus_t status = check_values(alpha, beta, matA, computeType)) return status;
  if (!spgemmDescr->product->computed || matC->nnz != static_cast<int64_t>(spgemmDescr->product->columns.size()))
    return CUSPARSE_STATUS_INVALID_VALUE;
  return queue_copy(handle, "cusparseSpGEMM_copy", *matC, true, spgemmDescr->product);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_workEstimation(cusparseHandle_t handle, cusparseOperation_t opA,
                                                                cusparseOperation_t opB, cusparseConstSpMatDescr_t matA,
                                                                cusparseConstSpMatDescr_t matB,
                                                                cusparseSpMatDescr_t matC, cusparseSpGEMMAlg_t,
                                                                cusparseSpGEMMDescr_t spgemmDescr, size_t* bufferSize1,
                                                                void* externalBuffer1) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (!bufferSize1) return CUSPARSE_STATUS_INVALID_VALUE;
  answer_query(bufferSize1, externalBuffer1);  // the structure is found by reuse_nnz
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_nnz(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     cusparseOperation_t opB, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstSpMatDescr_t matB, cusparseSpMatDescr_t matC,
                                                     cusparseSpGEMMAlg_t, cusparseSpGEMMDescr_t spgemmDescr,
                                                     size_t* bufferSize2, void* externalBuffer2, size_t* bufferSize3,
                                                     void* externalBuffer3, size_t* bufferSize4,
                                                     void* externalBuffer4) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (!bufferSize2 || !bufferSize3 || !bufferSize4) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!externalBuffer2 || !externalBuffer3 || !externalBuffer4) {
    *bufferSize2 = *bufferSize3 = *bufferSize4 = kBufferBytes;
    return CUSPARSE_STATUS_SUCCESS;
  }
  spgemmDescr->product = std::make_shared<SparseProduct>();
  if (cusparseStatus_t status =
          queue_product(handle, "cusparseSpGEMMreuse_nnz", *matA, *matB, nullptr, false, spgemmDescr->product))
    return status;
  if (cusparseStatus_t status = set_nnz(handle, matC, *spgemmDescr->product)) return status;
  // C's row offsets, where C has its array already.
  if (!matC->offsets) return CUSPARSE_STATUS_SUCCESS;
  cusparseSpMatDescr offsets_only = *matC;
  offsets_only.nnz = 0;
  const int64_t base = matC->index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
  std::shared_ptr<const SparseProduct> product = spgemmDescr->product;
  return run(handle, "cusparseSpGEMMreuse_nnz", {offsets_range(offsets_only)},
             [=] { write_indices(offsets_only.offsets, offsets_only.offset_type, product->offsets, base); });
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_copy(cusparseHandle_t handle, cusparseOperation_t opA,
                                                      cusparseOperation_t opB, cusparseConstSpMatDescr_t matA,
                                                      cusparseConstSpMatDescr_t matB, cusparseSpMatDescr_t matC,
                                                      cusparseSpGEMMAlg_t, cusparseSpGEMMDescr_t spgemmDescr,
                                                      size_t* bufferSize5, void* externalBuffer5) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (!bufferSize5) return CUSPARSE_STATUS_INVALID_VALUE;
  if (answer_query(bufferSize5, externalBuffer5)) return CUSPARSE_STATUS_SUCCESS;
  if (matC->nnz != static_cast<int64_t>(spgemmDescr->product->columns.size())) return CUSPARSE_STATUS_INVALID_VALUE;
  return queue_copy(handle, "cusparseSpGEMMreuse_copy", *matC, false, spgemmDescr->product);
}

cusparseStatus_t CUSPARSEAPI cusparseSpGEMMreuse_compute(cusparseHandle_t handle, cusparseOperation_t opA,
                                                         cusparseOperation_t opB, const void* alpha,
                                                         cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
                                                         const void* beta, cusparseSpMatDescr_t matC,
                                                         cudaDataType computeType, cusparseSpGEMMAlg_t,
                                                         cusparseSpGEMMDescr_t spgemmDescr) {
  if (cusparseStatus_t status = check_spgemm(handle, opA, opB, matA, matB, matC, spgemmDescr)) return status;
  if (cusparseStatus_t status = check_values(alpha, beta, matA, computeType)) return status;
  if (matC->nnz != static_cast<int64_t>(spgemmDescr->product->columns.size())) return CUSPARSE_STATUS_INVALID_VALUE;
  const cusparseSpMatDescr a = *matA, b = *matB, c = *matC;
  std::shared_ptr<const SparseProduct> product = spgemmDescr->product;
  return with_types(a, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
    return run(handle, "cusparseSpGEMMreuse_compute",
               {s_alpha.range(), s_beta.range(), offsets_range(a), indices_range(a), values_range(a), offsets_range(b),
                indices_range(b), values_range(b), values_range(c)},
               [=] {
                 multiply_rows(view_of<T, I, I>(a), view_of<T, I, I>(b), product->offsets, product->columns, s_alpha(),
                               s_beta(), static_cast<T*>(c.values));
               });
  });
}

}  // extern "C"
