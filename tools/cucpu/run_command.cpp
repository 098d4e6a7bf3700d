// cucpu run: put the directory holding cucpu's libraries (libcuda.so.1, libcudart.so.13,
// libnvrtc.so.13, and the math libraries: libcublas.so.13, libcufft.so.12, ...) first on
// LD_LIBRARY_PATH and exec the program, so that its exit code is the program's own. A program built with the shared runtime loads cucpu's libcudart.so.13;
// one built with the static runtime (nvcc's default) or against the driver API loads
// cucpu's libcuda.so.1.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tools/cucpu/commands.h"

namespace cucpu::tool {
namespace {

// cucpu lives in <prefix>/bin, the libraries in <prefix>/lib (the build tree) or in
// <prefix>/<the install's library directory> (cmake --install, the Debian package).
std::filesystem::path library_directory() {
  std::error_code error;
  auto prefix = std::filesystem::read_symlink("/proc/self/exe", error).parent_path().parent_path();
  if (std::filesystem::exists(prefix / "lib" / "libcuda.so.1")) return prefix / "lib";
  return prefix / CUCPU_INSTALL_LIBDIR;
}

}  // namespace

int run_program(const std::vector<std::string>& command) {
  auto libraries = library_directory();
  for (const char* library : {"libcuda.so.1", "libcudart.so.13"}) {
    if (!std::filesystem::exists(libraries / library)) {
      fmt::print(stderr, "cucpu run: {} is missing: build cucpu first\n", (libraries / library).string());
      return 127;
    }
  }
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
