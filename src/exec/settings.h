// The executor's settings, read once from the environment when the pool is made.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cucpu::exec {

// How the threads of a block run (PoCL-style siblings behind BlockExecution).
enum class BlockStrategyChoice {
  Auto,    // one after another unless the kernel waits for other threads, then fibers
  Fibers,  // always fibers: the always-correct path, for comparing against the fast one
  // As Auto, but a kernel the compiled block strategy takes on and then cannot build fails
  // its launch instead of running on fibers (for tests: no silent fallback).
  Compiled,
};

struct ExecSettings {
  unsigned worker_count = 1;                    // CUCPU_WORKERS
  BlockStrategyChoice strategy = BlockStrategyChoice::Auto;  // CUCPU_BLOCK_STRATEGY=auto|fibers|compiled
  std::size_t fiber_stack_bytes = 64 * 1024;    // CUCPU_FIBER_STACK_KIB
};

// Looks one variable up; returns nullptr when unset. std::getenv in production.
using EnvironmentLookup = const char* (*)(const char* name);

// Reads the settings; a bad value falls back to its default and appends a warning
// ("CUCPU_WORKERS=abc is not a number of workers in 1..4096; using 2").
ExecSettings read_exec_settings(EnvironmentLookup lookup, unsigned hardware_threads, std::vector<std::string>& warnings);

}  // namespace cucpu::exec
