// The disk cache's settings, read from the environment, and the process's cache they open.
#pragma once

#include <string>
#include <vector>

#include "jit/disk_cache.h"

namespace cucpu::jit {

// Looks one variable up; returns nullptr when unset. std::getenv in production.
using EnvironmentLookup = const char* (*)(const char* name);

// CUCPU_CACHE (0 off, 1 on), CUCPU_CACHE_DIR (default $XDG_CACHE_HOME/cucpu, else
// $HOME/.cache/cucpu), CUCPU_CACHE_MAX_MB (default 1024). A bad value falls back to its
// default and appends a warning ("CUCPU_CACHE_MAX_MB=lots is not a size in 1..1048576; using 1024").
DiskCacheSettings read_cache_settings(EnvironmentLookup lookup, std::vector<std::string>& warnings);

// The cache the environment describes, opened on first use (warnings go to stderr once);
// nullptr when it is off or cannot be used. Lives as long as the process.
DiskCache* process_disk_cache();

}  // namespace cucpu::jit
