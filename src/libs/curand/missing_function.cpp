#include "libs/curand/missing_function.h"

#include <curand.h>

#include "libs/common/missing_function.h"

extern "C" int cucpu_report_missing_curand_function(const char* name) {
  cucpu::libs::report_missing_function(name, "CURAND_STATUS_ARCH_MISMATCH");
  return CURAND_STATUS_ARCH_MISMATCH;
}

extern "C" void cucpu_report_missing_curand_value(const char* name) {
  cucpu::libs::report_missing_function(name, "zero");
}
