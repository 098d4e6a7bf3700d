// The generated driver stubs' common body.
#include "api/driver/missing_function.h"

#include <cuda.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

extern "C" int cucpu_report_missing_driver_function(const char* name) {
  static std::mutex mutex;
  static std::set<std::string>* reported = new std::set<std::string>;
  std::lock_guard lock(mutex);
  if (reported->insert(name).second)
    std::fprintf(stderr, "cucpu: %s is not implemented yet: it returns CUDA_ERROR_NOT_SUPPORTED\n", name);
  return CUDA_ERROR_NOT_SUPPORTED;
}
