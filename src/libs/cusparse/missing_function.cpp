#include "libs/cusparse/missing_function.h"

#include <cusparse.h>

#include "libs/common/missing_function.h"

extern "C" int cucpu_report_missing_cusparse_function(const char* name) {
  cucpu::libs::report_missing_function(name, "CUSPARSE_STATUS_NOT_SUPPORTED");
  return CUSPARSE_STATUS_NOT_SUPPORTED;
}

extern "C" void cucpu_report_missing_cusparse_value(const char* name) {
  cucpu::libs::report_missing_function(name, "zero");
}
