#include "libs/cublas/handle.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

namespace cucpu::cublas {

namespace {

constexpr libs::StatusCodes<cublasStatus_t> kStatuses{CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_ALLOC_FAILED,
                                                      CUBLAS_STATUS_INVALID_VALUE, CUBLAS_STATUS_NOT_SUPPORTED,
                                                      CUBLAS_STATUS_EXECUTION_FAILED};

}  // namespace

cublasStatus_t to_status(const Error& error) { return libs::to_status(error, kStatuses); }

namespace {

thread_local bool quiet_parameter_errors = false;

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](char c) { return std::toupper(static_cast<unsigned char>(c)); });
  return text;
}

}  // namespace

QuietParameterErrors::QuietParameterErrors() : was_quiet_(quiet_parameter_errors) { quiet_parameter_errors = true; }
QuietParameterErrors::~QuietParameterErrors() { quiet_parameter_errors = was_quiet_; }

cublasStatus_t invalid_parameter(const char* function, int position) {
  if (quiet_parameter_errors) return CUBLAS_STATUS_INVALID_VALUE;
  // The routine as cuBLAS 13.1 names it (the H200's messages, tests/e2e/cublas_routines):
  // BLAS's own names padded to six (cublasSgemm_v2_64 -> "SGEMM "), extensions as they are
  // spelt (cublasSgemmBatched), and a few of cuBLAS's own labels; the batched LU helpers
  // count their parameters negative, as LAPACK's info does.
  std::string base = function;
  if (base.starts_with("cublas")) base.erase(0, 6);
  for (const char* suffix : {"_64", "_v2"})
    if (base.ends_with(suffix)) base.erase(base.size() - std::strlen(suffix));
  const std::string type(1, base.empty() ? ' ' : base[0]), routine = base.empty() ? base : base.substr(1);
  std::string label;
  if (base == "GemmEx") {
    label = "GEMM_EX ";
  } else if (routine == "trmm") {
    label = upper(base);
  } else if (routine == "syrk3m") {  // cublasCsyrk3mEx's reports (the H200's)
    label = upper(base) + " ";
  } else if (routine == "trsmBatched") {
    label = type + "BATCHED TRSM ";
  } else if (routine == "getrfBatched" || routine == "getriBatched") {
    label = type + "BATCHED_" + upper(routine.substr(0, 5)) + " ";
    position = -position;
  } else if (std::any_of(routine.begin(), routine.end(),
                         [](char c) { return std::isupper(static_cast<unsigned char>(c)); })) {
    label = base;
  } else {
    label = upper(base);
    label.resize(std::max<size_t>(label.size(), 6), ' ');
  }
  std::printf(" ** On entry to %s parameter number %d had an illegal value\n", label.c_str(), position);
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t run(cublasHandle_t handle, const char* function, std::initializer_list<DeviceRange> ranges,
                   std::function<void()> work) {
  return handle->any_memory ? libs::run(handle->stream, function, {}, std::move(work), kStatuses)
                            : libs::run(handle->stream, function, ranges, std::move(work), kStatuses);
}

cublasStatus_t finish(cublasHandle_t handle) {
  auto done = libs::synchronize(handle->stream);
  return done ? CUBLAS_STATUS_SUCCESS : to_status(done.error());
}

}  // namespace cucpu::cublas
