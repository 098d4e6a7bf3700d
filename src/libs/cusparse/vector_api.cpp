// cuSPARSE's sparse-vector routines: Axpby (y = alpha x + beta y), Gather (x = y at x's
// indices), Scatter (y at x's indices = x), Rot (a Givens rotation of x and y at x's
// indices) and SpVV (the dot product op(x) . y, its result through the pointer mode).
#include <cusparse.h>

#include "libs/cusparse/handle.h"

namespace cucpu::cusparse {
namespace {

// x sparse, y dense: same length and element type. SUCCESS when they fit together.
cusparseStatus_t check_pair(cusparseHandle_t handle, const cusparseSpVecDescr* x, const cusparseDnVecDescr* y) {
  if (!handle) return CUSPARSE_STATUS_INVALID_VALUE;
  if (!x || !y || x->size != y->size) return CUSPARSE_STATUS_INVALID_VALUE;
  if (x->value_type != y->value_type || value_size(x->value_type) == 0 || x->index_type == CUSPARSE_INDEX_16U)
    return CUSPARSE_STATUS_NOT_SUPPORTED;
  return CUSPARSE_STATUS_SUCCESS;
}

// Calls body(T, I) with the pair's element and index types.
template <typename Body>
cusparseStatus_t with_pair_types(const cusparseSpVecDescr& x, Body body) {
  return with_value_type(x.value_type,
                         [&](auto t) { return with_index_type(x.index_type, [&](auto i) { return body(t, i); }); });
}

// The device memory x's indices and values and y's values span.
#define CUCPU_PAIR_RANGES(x, y)                                        \
  array_range((x)->indices, (x)->nnz, index_size((x)->index_type)),    \
      array_range((x)->values, (x)->nnz, value_size((x)->value_type)), \
      array_range((y)->values, (y)->size, value_size((y)->value_type))

}  // namespace
}  // namespace cucpu::cusparse

using namespace cucpu::cusparse;

extern "C" {

cusparseStatus_t CUSPARSEAPI cusparseAxpby(cusparseHandle_t handle, const void* alpha, cusparseConstSpVecDescr_t vecX,
                                           const void* beta, cusparseDnVecDescr_t vecY) {
  if (cusparseStatus_t status = check_pair(handle, vecX, vecY)) return status;
  if (!alpha || !beta) return CUSPARSE_STATUS_INVALID_VALUE;
  const cusparseSpVecDescr x = *vecX;
  const int64_t size = vecY->size;
  void* y_values = vecY->values;
  return with_pair_types(x, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    Scalar<T> s_alpha(handle, alpha), s_beta(handle, beta);
    return run(handle, "cusparseAxpby", {s_alpha.range(), s_beta.range(), CUCPU_PAIR_RANGES(vecX, vecY)}, [=] {
      const I* indices = static_cast<const I*>(x.indices);
      const T* values = static_cast<const T*>(x.values);
      T* y = static_cast<T*>(y_values);
      const T a = s_alpha(), b = s_beta();
      const int64_t base = x.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
      for (int64_t k = 0; k < size; ++k) y[k] = b == T{} ? T{} : b * y[k];
      for (int64_t k = 0; k < x.nnz; ++k) y[indices[k] - base] += a * values[k];
    });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseGather(cusparseHandle_t handle, cusparseConstDnVecDescr_t vecY,
                                            cusparseSpVecDescr_t vecX) {
  if (cusparseStatus_t status = check_pair(handle, vecX, vecY)) return status;
  const cusparseSpVecDescr x = *vecX;
  const void* y_values = vecY->values;
  return with_pair_types(x, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    return run(handle, "cusparseGather", {CUCPU_PAIR_RANGES(vecX, vecY)}, [=] {
      const I* indices = static_cast<const I*>(x.indices);
      const T* y = static_cast<const T*>(y_values);
      T* values = static_cast<T*>(x.values);
      const int64_t base = x.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
      for (int64_t k = 0; k < x.nnz; ++k) values[k] = y[indices[k] - base];
    });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseScatter(cusparseHandle_t handle, cusparseConstSpVecDescr_t vecX,
                                             cusparseDnVecDescr_t vecY) {
  if (cusparseStatus_t status = check_pair(handle, vecX, vecY)) return status;
  const cusparseSpVecDescr x = *vecX;
  void* y_values = vecY->values;
  return with_pair_types(x, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    return run(handle, "cusparseScatter", {CUCPU_PAIR_RANGES(vecX, vecY)}, [=] {
      const I* indices = static_cast<const I*>(x.indices);
      const T* values = static_cast<const T*>(x.values);
      T* y = static_cast<T*>(y_values);
      const int64_t base = x.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
      for (int64_t k = 0; k < x.nnz; ++k) y[indices[k] - base] = values[k];
    });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseRot(cusparseHandle_t handle, const void* c_coeff, const void* s_coeff,
                                         cusparseSpVecDescr_t vecX, cusparseDnVecDescr_t vecY) {
  if (cusparseStatus_t status = check_pair(handle, vecX, vecY)) return status;
  if (!c_coeff || !s_coeff) return CUSPARSE_STATUS_INVALID_VALUE;
  const cusparseSpVecDescr x = *vecX;
  void* y_values = vecY->values;
  return with_pair_types(x, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    Scalar<T> s_c(handle, c_coeff), s_s(handle, s_coeff);
    return run(handle, "cusparseRot", {s_c.range(), s_s.range(), CUCPU_PAIR_RANGES(vecX, vecY)}, [=] {
      const I* indices = static_cast<const I*>(x.indices);
      T* values = static_cast<T*>(x.values);
      T* y = static_cast<T*>(y_values);
      const T c = s_c(), s = s_s();
      const int64_t base = x.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
      for (int64_t k = 0; k < x.nnz; ++k) {
        const T xk = values[k], yk = y[indices[k] - base];
        values[k] = c * xk + s * yk;
        y[indices[k] - base] = c * yk - s * xk;
      }
    });
  });
}

cusparseStatus_t CUSPARSEAPI cusparseSpVV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opX,
                                                     cusparseConstSpVecDescr_t vecX, cusparseConstDnVecDescr_t vecY,
                                                     const void* result, cudaDataType computeType, size_t* bufferSize) {
  if (cusparseStatus_t status = check_pair(handle, vecX, vecY)) return status;
  if (!result || !bufferSize) return CUSPARSE_STATUS_INVALID_VALUE;
  if (opX != CUSPARSE_OPERATION_NON_TRANSPOSE && opX != CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (computeType != vecX->value_type) return CUSPARSE_STATUS_NOT_SUPPORTED;
  *bufferSize = 0;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t CUSPARSEAPI cusparseSpVV(cusparseHandle_t handle, cusparseOperation_t opX,
                                          cusparseConstSpVecDescr_t vecX, cusparseConstDnVecDescr_t vecY, void* result,
                                          cudaDataType computeType, void*) {
  if (cusparseStatus_t status = check_pair(handle, vecX, vecY)) return status;
  if (!result) return CUSPARSE_STATUS_INVALID_VALUE;
  if (opX != CUSPARSE_OPERATION_NON_TRANSPOSE && opX != CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return CUSPARSE_STATUS_INVALID_VALUE;
  if (computeType != vecX->value_type) return CUSPARSE_STATUS_NOT_SUPPORTED;
  const cusparseSpVecDescr x = *vecX;
  const void* y_values = vecY->values;
  const bool on_device = handle->pointer_mode == CUSPARSE_POINTER_MODE_DEVICE;
  cusparseStatus_t status = with_pair_types(x, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const DeviceRange result_range{on_device ? result : nullptr, on_device ? sizeof(T) : 0};
    return run(handle, "cusparseSpVV", {result_range, CUCPU_PAIR_RANGES(vecX, vecY)}, [=] {
      const I* indices = static_cast<const I*>(x.indices);
      const T* values = static_cast<const T*>(x.values);
      const T* y = static_cast<const T*>(y_values);
      const int64_t base = x.index_base == CUSPARSE_INDEX_BASE_ONE ? 1 : 0;
      T sum{};
      for (int64_t k = 0; k < x.nnz; ++k)
        sum +=
            (opX == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? conjugate(values[k]) : values[k]) * y[indices[k] - base];
      *static_cast<T*>(result) = sum;
    });
  });
  // A host result is there when the call returns.
  if (status == CUSPARSE_STATUS_SUCCESS && !on_device) status = finish(handle);
  return status;
}

}  // extern "C"
