#include "libs/common/missing_function.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace cucpu::libs {

void report_missing_function(const char* name, const char* returns) {
  static std::mutex mutex;
  static std::set<std::string>* reported = new std::set<std::string>;  // immortal: stubs may run at exit
  std::lock_guard lock(mutex);
  if (reported->insert(name).second)
    std::fprintf(stderr, "cucpu: %s is not implemented yet: it returns %s\n", name, returns);
}

}  // namespace cucpu::libs
