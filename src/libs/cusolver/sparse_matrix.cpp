#include "libs/cusolver/sparse_matrix.h"

#include <new>

#include "libs/cusolver/handle.h"

namespace cucpu::cusolver::sparse {

cusolverStatus_t check_matrix(cusolverSpHandle_t handle, int m, int n, int nnz, cusparseMatDescr_t descr,
                              const int* row_ptr, const int* col_ind) {
  if (!handle) return CUSOLVER_STATUS_NOT_INITIALIZED;
  if (!descr || m < 0 || n < 0 || nnz < 0 || (m > 0 && !row_ptr) || (nnz > 0 && !col_ind))
    return CUSOLVER_STATUS_INVALID_VALUE;
  const cusparseIndexBase_t base = cusparseGetMatIndexBase(descr);
  if (base != CUSPARSE_INDEX_BASE_ZERO && base != CUSPARSE_INDEX_BASE_ONE) return CUSOLVER_STATUS_INVALID_VALUE;
  if (cusparseGetMatType(descr) != CUSPARSE_MATRIX_TYPE_GENERAL) return CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED;
  return CUSOLVER_STATUS_SUCCESS;
}

int base_of(cusparseMatDescr_t descr) { return cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ONE ? 1 : 0; }

cusolverStatus_t run_on_stream(cusolverSpHandle_t handle, const char* function,
                               std::initializer_list<libs::DeviceRange> ranges, std::function<void()> work, bool wait) {
  const cusolverStatus_t status = run(handle->stream, function, ranges, std::move(work));
  if (status != CUSOLVER_STATUS_SUCCESS || !wait) return status;
  return libs::synchronize(handle->stream) ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_EXECUTION_FAILED;
}

cusolverStatus_t run_step(bool device, cusolverSpHandle_t handle, const char* function,
                          std::initializer_list<libs::DeviceRange> ranges, std::function<void()> work, bool wait) {
  if (device) return run_on_stream(handle, function, ranges, std::move(work), wait);
  try {
    work();
  } catch (const std::bad_alloc&) {
    return CUSOLVER_STATUS_ALLOC_FAILED;
  }
  return CUSOLVER_STATUS_SUCCESS;
}

}  // namespace cucpu::cusolver::sparse
