#include "libs/cublas/legacy_state.h"

#include <cctype>
#include <mutex>

namespace cucpu::cublas {
namespace {

std::mutex handle_mutex;
cublasHandle_t handle = nullptr;

char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

}  // namespace

cublasHandle_t legacy_handle() {
  std::lock_guard lock(handle_mutex);
  if (!handle && cublasCreate_v2(&handle) != CUBLAS_STATUS_SUCCESS) handle = nullptr;
  return handle;
}

cublasStatus_t shut_down_legacy_handle() {
  std::lock_guard lock(handle_mutex);
  cublasStatus_t status = handle ? cublasDestroy_v2(handle) : CUBLAS_STATUS_SUCCESS;
  handle = nullptr;
  return status;
}

cublasOperation_t operation(char c) {
  switch (upper(c)) {
    case 'N':
      return CUBLAS_OP_N;
    case 'T':
      return CUBLAS_OP_T;
    case 'C':
      return CUBLAS_OP_C;
  }
  return static_cast<cublasOperation_t>(-1);
}

cublasFillMode_t fill_mode(char c) {
  switch (upper(c)) {
    case 'U':
      return CUBLAS_FILL_MODE_UPPER;
    case 'L':
      return CUBLAS_FILL_MODE_LOWER;
  }
  return static_cast<cublasFillMode_t>(-1);
}

cublasDiagType_t diag_type(char c) {
  switch (upper(c)) {
    case 'U':
      return CUBLAS_DIAG_UNIT;
    case 'N':
      return CUBLAS_DIAG_NON_UNIT;
  }
  return static_cast<cublasDiagType_t>(-1);
}

cublasSideMode_t side_mode(char c) {
  switch (upper(c)) {
    case 'L':
      return CUBLAS_SIDE_LEFT;
    case 'R':
      return CUBLAS_SIDE_RIGHT;
  }
  return static_cast<cublasSideMode_t>(-1);
}

}  // namespace cucpu::cublas
