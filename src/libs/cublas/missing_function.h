// What the generated cuBLAS stubs call (scripts/gen_stubs.py cublas): the v2 API's
// missing functions return CUBLAS_STATUS_NOT_SUPPORTED; the legacy API's, which return
// their result instead, leave that status for cublasGetError.
#pragma once

extern "C" {
int cucpu_report_missing_cublas_function(const char* name);
void cucpu_report_missing_cublas_value(const char* name);
}
