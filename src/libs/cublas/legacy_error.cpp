// The legacy API's kept status (legacy_state.h), apart from its handle: the generated stubs
// of cublasLt, which has no handle of this kind, report through it too.
#include <atomic>

#include "libs/cublas/legacy_state.h"

namespace cucpu::cublas {
namespace {

std::atomic<cublasStatus_t> legacy_error{CUBLAS_STATUS_SUCCESS};

}  // namespace

void set_legacy_error(cublasStatus_t status) { legacy_error.store(status); }

cublasStatus_t take_legacy_error() { return legacy_error.exchange(CUBLAS_STATUS_SUCCESS); }

}  // namespace cucpu::cublas
