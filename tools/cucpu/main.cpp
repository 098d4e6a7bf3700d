// cucpu: run CUDA programs on the CPU.
//   cucpu run PROGRAM [ARGS...]   run an nvcc-built program (-cudart shared) with cucpu
//   cucpu info                    print the emulated device
//   cucpu ptx FILE...             check the PTX of PTX files (linked) or of nvcc-built binaries
#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "tools/cucpu/commands.h"

int main(int argc, char** argv) {
  // `cucpu run [--] PROGRAM ARGS...`: everything after PROGRAM is the program's, `--` and
  // options included, so it is not left to the option parser.
  if (argc >= 3 && std::string_view(argv[1]) == "run" && (argv[2][0] != '-' || std::string_view(argv[2]) == "--")) {
    const int first = std::string_view(argv[2]) == "--" ? 3 : 2;
    if (first < argc) return cucpu::tool::run_program(std::vector<std::string>(argv + first, argv + argc));
  }
  CLI::App app{"cucpu: CUDA for CPUs. Runs nvcc-built programs on the host's cores."};
  app.require_subcommand(1);

  std::vector<std::string> command;
  auto* run = app.add_subcommand("run", "Run PROGRAM [ARGS...] with cucpu's libcudart.so.13 in place of NVIDIA's");
  run->add_option("command", command, "The program and its arguments")->required();
  run->prefix_command();  // everything after PROGRAM belongs to the program

  auto* info = app.add_subcommand("info", "Print the emulated device");

  cucpu::tool::PtxOptions ptx;
  auto* ptx_command = app.add_subcommand(
      "ptx", "Parse PTX as the runtime would: report the first error, or a summary per module");
  ptx_command->add_option("files", ptx.files,
                          "PTX files (several: linked as one -rdc program), or nvcc-built programs, "
                          "libraries, objects or fatbins (their embedded PTX)")
      ->required();
  ptx_command->add_option("--arch", ptx.arch, "Compute capability whose PTX to take from fatbins (default 90)");
  ptx_command->add_flag("--print", ptx.print, "Print the parsed module as PTX");
  ptx_command->add_flag("--llvm", ptx.llvm, "Print the LLVM IR cucpu translates it to");
  ptx_command->add_flag("--compile", ptx.compile, "Also compile it to native code");

  CLI11_PARSE(app, argc, argv);
  if (*run) return cucpu::tool::run_program(command);
  if (*info) return cucpu::tool::print_device_info();
  return cucpu::tool::check_ptx_files(ptx);
}
