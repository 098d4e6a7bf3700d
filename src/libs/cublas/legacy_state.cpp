#include "libs/cublas/legacy_state.h"

#include <atomic>

namespace cucpu::cublas {
namespace {

std::atomic<cublasStatus_t> legacy_error{CUBLAS_STATUS_SUCCESS};

}  // namespace

void set_legacy_error(cublasStatus_t status) { legacy_error.store(status); }

cublasStatus_t take_legacy_error() { return legacy_error.exchange(CUBLAS_STATUS_SUCCESS); }

}  // namespace cucpu::cublas
