// The generated stubs' common body.
#include "api/runtime/missing_function.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "api/runtime/runtime_state.h"

extern "C" int cucpu_report_missing_function(const char* name) {
  static std::mutex mutex;
  static std::set<std::string>* reported = new std::set<std::string>;
  {
    std::lock_guard lock(mutex);
    if (reported->insert(name).second)
      std::fprintf(stderr, "cucpu: %s is not implemented yet: it returns cudaErrorNotSupported\n", name);
  }
  return cucpu::runtime::record(cudaErrorNotSupported);
}
