// The subcommands of the cucpu tool, one file each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cucpu::tool {

// cucpu run PROGRAM [ARGS...]: replaces this process by PROGRAM with cucpu's libraries
// first on the library path; returns only if that fails.
int run_program(const std::vector<std::string>& command);

// cucpu info: the emulated device.
int print_device_info();

// cucpu ptx FILE...: parse (and optionally print, translate or compile) the PTX modules in
// PTX files (linked together) or in nvcc-built programs and objects (ptx_inputs.h).
struct PtxOptions {
  std::vector<std::string> files;
  uint32_t arch = 90;  // which PTX of a fatbin: the newest for at most this compute capability
  bool print = false;
  bool llvm = false;
  bool compile = false;
};
int check_ptx_files(const PtxOptions& options);

}  // namespace cucpu::tool
