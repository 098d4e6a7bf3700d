// The JIT options that cuModuleLoadDataEx, cuLinkCreate and cuLibraryLoadData take: each
// is accepted (cucpu's JIT has its own settings), and the ones that return something
// (the info and error logs, the wall time) are filled in.
#pragma once

#include <cuda.h>

#include <string>

namespace cucpu::driver {

class JitOptions {
 public:
  JitOptions(unsigned count, CUjit_option* options, void** values) : count_(count), options_(options), values_(values) {}
  // Options with an unknown number, or a count without arrays: CUDA_ERROR_INVALID_VALUE.
  CUresult check() const;
  // Writes the logs (truncated to their buffers, sizes updated) and the time taken.
  void report(const std::string& info_log, const std::string& error_log, float wall_ms) const;

 private:
  unsigned count_;
  CUjit_option* options_;
  void** values_;
};

}  // namespace cucpu::driver
