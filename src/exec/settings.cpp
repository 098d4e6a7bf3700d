// Executor settings from the environment: CUCPU_WORKERS (pool size, default one per
// hardware thread), CUCPU_BLOCK_STRATEGY (auto, fibers or compiled), CUCPU_FIBER_STACK_KIB
// (stack per fiber). Values are validated; a bad one is reported and replaced by the default, since
// a typo in a variable should not make a CUDA program fail.
#include "exec/settings.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <optional>

namespace cucpu::exec {
namespace {

constexpr unsigned kMaxWorkers = 4096;
constexpr std::size_t kMinStackKib = 16, kMaxStackKib = 64 * 1024;

std::optional<unsigned long> parse_in_range(const char* text, unsigned long low, unsigned long high) {
  unsigned long value = 0;
  const char* end = text + std::strlen(text);
  auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc() || stop != end || stop == text || value < low || value > high) return std::nullopt;
  return value;
}

}  // namespace

ExecSettings read_exec_settings(EnvironmentLookup lookup, unsigned hardware_threads,
                                std::vector<std::string>& warnings) {
  ExecSettings settings;
  settings.worker_count = hardware_threads == 0 ? 1 : hardware_threads;

  if (const char* text = lookup("CUCPU_WORKERS")) {
    if (auto value = parse_in_range(text, 1, kMaxWorkers))
      settings.worker_count = static_cast<unsigned>(*value);
    else
      warnings.push_back(fmt::format("CUCPU_WORKERS={} is not a number of workers in 1..{}; using {}", text,
                                     kMaxWorkers, settings.worker_count));
  }

  if (const char* text = lookup("CUCPU_BLOCK_STRATEGY")) {
    if (std::strcmp(text, "fibers") == 0)
      settings.strategy = BlockStrategyChoice::Fibers;
    else if (std::strcmp(text, "compiled") == 0)
      settings.strategy = BlockStrategyChoice::Compiled;
    else if (std::strcmp(text, "auto") != 0)
      warnings.push_back(fmt::format("CUCPU_BLOCK_STRATEGY={} is not auto, fibers or compiled; using auto", text));
  }

  if (const char* text = lookup("CUCPU_FIBER_STACK_KIB")) {
    if (auto value = parse_in_range(text, kMinStackKib, kMaxStackKib))
      settings.fiber_stack_bytes = *value * 1024;
    else
      warnings.push_back(fmt::format("CUCPU_FIBER_STACK_KIB={} is not a size in {}..{}; using {}", text, kMinStackKib,
                                     kMaxStackKib, settings.fiber_stack_bytes / 1024));
  }
  return settings;
}

}  // namespace cucpu::exec
