// Finding the NVIDIA library behind a stand-in (nvidia_library.h).
#include "libs/forwarding/nvidia_library.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace cucpu::libs {

void* open_nvidia_library(const char* soname, const char* variable, const char* probe, const void* self) {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv(variable)) candidates.push_back(path);
  std::vector<std::string> roots;
  for (const char* root_variable : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* root = std::getenv(root_variable)) roots.push_back(root);
  roots.push_back("/usr/local/cuda");
  for (const std::string& root : roots)
    for (const char* dir : {"/lib64/", "/lib/", "/targets/x86_64-linux/lib/"}) candidates.push_back(root + dir + soname);
  Dl_info own{};
  dladdr(self, &own);
  for (const std::string& candidate : candidates) {
    void* library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) continue;
    Dl_info found{};
    if (dladdr(dlsym(library, probe), &found) && found.dli_fbase != own.dli_fbase) return library;
    dlclose(library);
  }
  std::fprintf(stderr, "cucpu: NVIDIA's %s was not found (set %s to its path); its functions return an error\n",
               soname, variable);
  return nullptr;
}

void* nvidia_function(void* library, const char* name) { return library ? dlsym(library, name) : nullptr; }

void fill_forwarding_table(void** table, const char* const* names, size_t count, void* library, void* fallback) {
  for (size_t slot = 0; slot < count; ++slot) {
    void* function = library ? dlsym(library, names[slot]) : nullptr;
    table[slot] = function ? function : fallback;
  }
}

}  // namespace cucpu::libs
