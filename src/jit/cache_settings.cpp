// Disk cache settings from the environment: CUCPU_CACHE, CUCPU_CACHE_DIR and
// CUCPU_CACHE_MAX_MB, validated as exec/settings.cpp validates the executor's: a bad value
// is reported and replaced by its default, since a typo should not make a program fail.
// The default directory follows the XDG Base Directory specification, which ignores a
// relative XDG_CACHE_HOME.
#include "jit/cache_settings.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cucpu::jit {
namespace {

constexpr uint64_t kDefaultMaxMb = 1024, kMaxMaxMb = uint64_t{1} << 20;

std::string default_directory(EnvironmentLookup lookup) {
  const char* xdg = lookup("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/cucpu";
  const char* home = lookup("HOME");
  if (home != nullptr && home[0] != '\0') return std::string(home) + "/.cache/cucpu";
  return {};  // nowhere: the cache stays off
}

}  // namespace

DiskCacheSettings read_cache_settings(EnvironmentLookup lookup, std::vector<std::string>& warnings) {
  DiskCacheSettings settings;
  if (const char* text = lookup("CUCPU_CACHE")) {
    if (std::strcmp(text, "0") == 0)
      settings.enabled = false;
    else if (std::strcmp(text, "1") != 0)
      warnings.push_back(fmt::format("CUCPU_CACHE={} is neither 0 nor 1; using 1", text));
  }

  settings.directory = default_directory(lookup);
  if (const char* text = lookup("CUCPU_CACHE_DIR")) {
    if (text[0] != '\0')
      settings.directory = text;
    else
      warnings.push_back(fmt::format("CUCPU_CACHE_DIR is empty; using {}",
                                     settings.directory.empty() ? "no cache" : settings.directory));
  }

  settings.max_bytes = kDefaultMaxMb << 20;
  if (const char* text = lookup("CUCPU_CACHE_MAX_MB")) {
    uint64_t megabytes = 0;
    const char* end = text + std::strlen(text);
    auto [stop, error] = std::from_chars(text, end, megabytes);
    if (error == std::errc() && stop == end && stop != text && megabytes >= 1 && megabytes <= kMaxMaxMb)
      settings.max_bytes = megabytes << 20;
    else
      warnings.push_back(
          fmt::format("CUCPU_CACHE_MAX_MB={} is not a size in 1..{}; using {}", text, kMaxMaxMb, kDefaultMaxMb));
  }
  return settings;
}

DiskCache* process_disk_cache() {
  static DiskCache* cache = [] {
    std::vector<std::string> warnings;
    DiskCacheSettings settings =
        read_cache_settings([](const char* name) -> const char* { return std::getenv(name); }, warnings);
    for (const std::string& warning : warnings) std::fprintf(stderr, "cucpu: warning: %s\n", warning.c_str());
    return DiskCache::open(settings).release();  // immortal: modules load until the process ends
  }();
  return cache;
}

}  // namespace cucpu::jit
