// cuGetProcAddress_v2 as the driver answers it: for every name the toolkit's stub libcuda.so
// exports (driver_names.txt beside this file, `nm -D` of the stub, or argv[1]), each CUDA
// version 1000 ... 13000 (step 10) and each flag (default, legacy stream, per-thread default stream), one line
//   name <TAB> version <TAB> flags <TAB> result <TAB> status <TAB> exported name
// where the exported name is the libcuda.so.1 symbol whose address was handed out ("-" for
// none, "?" for an address no exported name of the family has). Only lines that differ from
// the line before for the same name and flags are printed. Then the v1 entry point, unknown
// names and versions newer than the driver.
// NVCC-FLAGS: -lcuda -ldl
#include <cuda.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

// Every CUDA version 1.0 ... 13.0 (1000 * major + 10 * minor: runtimes ask with their own
// version, and with the version a name's ABI dates from, 2000 or 4010).
constexpr int kFirstVersion = 1000, kVersionStep = 10;
const char* kSuffixes[] = {"", "_v2", "_v3", "_v4", "_ptds", "_ptsz", "_v2_ptds", "_v2_ptsz", "_v3_ptds", "_v3_ptsz"};

std::string family_of(std::string name) {
  for (const char* tail : {"_ptds", "_ptsz"})
    if (name.size() > 5 && name.compare(name.size() - 5, 5, tail) == 0) name.resize(name.size() - 5);
  if (name.size() > 3 && name[name.size() - 3] == '_' && name[name.size() - 2] == 'v') name.resize(name.size() - 3);
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a crash on the GPU shows where it was
  void* driver = dlopen("libcuda.so.1", RTLD_NOW);
  std::string here = __FILE__;
  here = here.substr(0, here.find_last_of('/') + 1);
  std::ifstream list(argc > 1 ? std::string(argv[1]) : here + "driver_names.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(list, line);)
    if (!line.empty()) names.push_back(line);
  if (!driver || names.empty()) {
    std::printf("no driver or no names\n");
    return 1;
  }
  cuInit(0);
  int driver_version = 0;
  cuDriverGetVersion(&driver_version);
  std::printf("driver version %d, %zu names\n", driver_version, names.size());
  std::map<std::string, bool> families;
  for (const std::string& name : names) families[family_of(name)] = true;
  for (const auto& [family, unused] : families) {
    for (int flags : {0, 1, 2}) {
      std::string previous;
      for (int version = kFirstVersion; version <= driver_version; version += kVersionStep) {
        void* function = nullptr;
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        CUresult result = cuGetProcAddress_v2(family.c_str(), &function, version, flags, &status);
        std::string exported = function ? "?" : "-";
        for (const char* suffix : kSuffixes) {
          std::string candidate = family + suffix;
          if (function && dlsym(driver, candidate.c_str()) == function) {
            exported = candidate;
            break;
          }
        }
        char line[512];
        std::snprintf(line, sizeof line, "%d\t%d\t%s", result, static_cast<int>(status), exported.c_str());
        if (previous != line) std::printf("%s\t%d\t%d\t%s\n", family.c_str(), version, flags, line);
        previous = line;
      }
    }
  }
  // Names that are not a family's base name, asked as they are (cudart asks "cuGetProcAddress").
  for (const char* name : {"cuGetProcAddress", "cuGetProcAddress_v2", "cuMemAlloc_v2", "cuLaunchKernel_ptsz",
                           "cuGetExportTable", "cuNoSuchFunction", ""}) {
    for (int version : {11030, 12000, 13000}) {
      void* function = nullptr;
      CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
      CUresult result = cuGetProcAddress_v2(name, &function, version, 0, &status);
      std::printf("asked %s\t%d\t%d\t%d\t%s\n", name, version, result, static_cast<int>(status), function ? "set" : "null");
    }
  }
  void* function = reinterpret_cast<void*>(1);
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  std::printf("too new: %d", cuGetProcAddress_v2("cuMemAlloc", &function, driver_version + 10, 0, &status));
  std::printf(" status %d %s\n", static_cast<int>(status), function ? "set" : "null");
  std::printf("bad flags: %d\n", cuGetProcAddress_v2("cuMemAlloc", &function, 13000, 4, &status));
  // (A null symbol crashes the driver.)
  std::printf("null status: %d\n", cuGetProcAddress_v2("cuMemAlloc", &function, 13000, 0, nullptr));
  using V1 = CUresult (*)(const char*, void**, int, cuuint64_t);
  auto v1 = reinterpret_cast<V1>(dlsym(driver, "cuGetProcAddress"));
  function = reinterpret_cast<void*>(1);
  std::printf("v1 unknown: %d %s\n", v1("cuNoSuchFunction", &function, 13000, 0), function ? "set" : "null");
  std::printf("v1 known: %d\n", v1("cuMemAlloc", &function, 13000, 0));
  return 0;
}
