// cucpu run: put the directory holding cucpu's libcudart.so.13 first on LD_LIBRARY_PATH
// and exec the program, so that its exit code is the program's own. A program built
// with the static CUDA runtime (nvcc's default) cannot be redirected this way yet: say
// how to rebuild it instead of letting it fail to find a GPU.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tools/cucpu/commands.h"

namespace cucpu::tool {
namespace {

// cucpu lives in <prefix>/bin, the libraries in <prefix>/lib.
std::filesystem::path library_directory() {
  std::error_code error;
  auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return self.parent_path().parent_path() / "lib";
}

// The program as execvp would find it, for reading its ELF headers.
std::string resolve(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    auto candidate = std::filesystem::path(dirs.substr(start, end - start)) / program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return program;
}

}  // namespace

int run_program(const std::vector<std::string>& command) {
  auto libraries = library_directory();
  if (!std::filesystem::exists(libraries / "libcudart.so.13")) {
    fmt::print(stderr, "cucpu run: {} is missing: build cucpu first\n", (libraries / "libcudart.so.13").string());
    return 127;
  }
  std::string program = resolve(command[0]);
  auto needed = elf_needed_libraries(program);
  bool dynamic_cudart = false;
  for (const auto& library : needed) dynamic_cudart |= library.rfind("libcudart.so", 0) == 0;
  if (!needed.empty() && !dynamic_cudart)
    fmt::print(stderr,
               "cucpu run: {} does not load libcudart.so.13 (nvcc links the CUDA runtime statically by default); "
               "rebuild it with `nvcc -cudart shared ...` to run it on cucpu\n",
               command[0]);

  std::string path = libraries.string();
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) path += std::string(":") + old;
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  std::vector<char*> argv;
  for (const auto& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  fmt::print(stderr, "cucpu run: cannot run {}: {}\n", command[0], std::strerror(errno));
  return 127;
}

}  // namespace cucpu::tool
