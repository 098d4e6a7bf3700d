#include "libs/cufft/missing_function.h"

#include <cufft.h>

#include "libs/common/missing_function.h"

extern "C" int cucpu_report_missing_cufft_function(const char* name) {
  cucpu::libs::report_missing_function(name, "CUFFT_NOT_SUPPORTED");
  return CUFFT_NOT_SUPPORTED;
}

extern "C" void cucpu_report_missing_cufft_value(const char* name) {
  cucpu::libs::report_missing_function(name, "zero (a null plan)");
}
