#include "libs/cusolver/missing_function.h"

#include <cusolver_common.h>

#include "libs/common/missing_function.h"

extern "C" int cucpu_report_missing_cusolver_function(const char* name) {
  cucpu::libs::report_missing_function(name, "CUSOLVER_STATUS_NOT_SUPPORTED");
  return CUSOLVER_STATUS_NOT_SUPPORTED;
}

extern "C" void cucpu_report_missing_cusolver_value(const char* name) {
  cucpu::libs::report_missing_function(name, "zero");
}
