// The generated entry points of libcudart.so.13 and libcuda.so.1: every function NVIDIA's
// library exports that cucpu does not implement yet must load, return the API's "not
// supported" code (cudaErrorNotSupported and CUDA_ERROR_NOT_SUPPORTED are both 801), and
// name itself on stderr; the runtime's also records it as the last error.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <vector>

namespace {

// The stub names, read from the generated source ("int NAME() { ...").
std::vector<std::string> stub_names(const char* generated) {
  std::ifstream source(generated);
  std::vector<std::string> names;
  std::regex stub(R"(^int (\w+)\(\) \{)");
  std::smatch match;
  for (std::string line; std::getline(source, line);)
    if (std::regex_search(line, match, stub)) names.push_back(match[1]);
  return names;
}

// Calls every stub of `library` listed in `generated`: each returns 801 and names itself;
// `after_each` checks what else a stub must do.
void check_stubs(const char* library_path, const char* generated, const std::function<void(const std::string&)>& after_each) {
  void* library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();
  std::vector<std::string> names = stub_names(generated);
  ASSERT_FALSE(names.empty());
  for (const std::string& name : names) {
    auto stub = reinterpret_cast<int (*)()>(dlsym(library, name.c_str()));
    ASSERT_NE(stub, nullptr) << name << " is not exported";
    testing::internal::CaptureStderr();
    int result = stub();
    std::string said = testing::internal::GetCapturedStderr();
    EXPECT_EQ(result, 801) << name;  // cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED
    EXPECT_NE(said.find(name + " is not implemented yet"), std::string::npos) << name << ": " << said;
    after_each(name);
  }
}

TEST(RuntimeStubs, EveryStubReturnsNotSupportedAndNamesItself) {
  void* library = dlopen(CUCPU_LIBCUDART, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << dlerror();
  auto get_last_error = reinterpret_cast<int (*)()>(dlsym(library, "cudaGetLastError"));
  ASSERT_NE(get_last_error, nullptr);
  check_stubs(CUCPU_LIBCUDART, CUCPU_RUNTIME_STUBS, [&](const std::string& name) {
    EXPECT_EQ(get_last_error(), 801) << name;
    EXPECT_EQ(get_last_error(), 0) << name;  // reported once, then cleared
  });
}

TEST(DriverStubs, EveryStubReturnsNotSupportedAndNamesItself) {
  check_stubs(CUCPU_LIBCUDA, CUCPU_DRIVER_STUBS, [](const std::string&) {});
}

}  // namespace
