#include "libs/cublas/missing_function.h"

#include <cublas_api.h>

#include "libs/common/missing_function.h"
#include "libs/cublas/legacy_state.h"

extern "C" int cucpu_report_missing_cublas_function(const char* name) {
  cucpu::libs::report_missing_function(name, "CUBLAS_STATUS_NOT_SUPPORTED");
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

extern "C" void cucpu_report_missing_cublas_value(const char* name) {
  cucpu::libs::report_missing_function(name, "zero, and CUBLAS_STATUS_NOT_SUPPORTED to cublasGetError");
  cucpu::cublas::set_legacy_error(CUBLAS_STATUS_NOT_SUPPORTED);
}
