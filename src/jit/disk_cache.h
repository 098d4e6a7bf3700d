// A store on disk for compiled code, kept between runs so that a program's second run
// does no JIT work. Entries are opaque bytes named by a key, the hash of everything the
// code was made from; callers pack and unpack their own entries (module_cache_entry.h for
// whole modules). Threads and processes may share one directory: entries are replaced
// atomically, damaged ones read as missing, and the least recently used are evicted when
// the directory outgrows its limit. No LLVM here: tests and other stages include it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cucpu::jit {

// An entry's name: 64 hex digits of a BLAKE3 hash.
struct CacheKey {
  std::string hex;
  std::string_view prefix() const { return std::string_view(hex).substr(0, 12); }  // enough for logs
};

// The key of code made from `parts` (what decides it: source text, target, options), each
// part counted with its length so that {"ab", "c"} and {"a", "bc"} differ. Every key also
// holds this build of cucpu (its build ID) and the version of LLVM it runs with, so that a
// rebuilt cucpu never loads code an older one compiled.
CacheKey make_cache_key(std::span<const std::string_view> parts);

struct DiskCacheSettings {
  bool enabled = true;                        // CUCPU_CACHE=0 turns the cache off
  std::string directory;                      // CUCPU_CACHE_DIR (cache_settings.cpp has the default)
  uint64_t max_bytes = uint64_t{1024} << 20;  // CUCPU_CACHE_MAX_MB
};

class DiskCache {
 public:
  // The store the settings describe, its directory created if missing; nullptr, with a
  // debug line (CUCPU_DEBUG=jit) saying why, when the settings turn it off, the directory
  // cannot be created or written, or this build of cucpu has no build ID to key on.
  static std::unique_ptr<DiskCache> open(const DiskCacheSettings& settings);

  // The bytes stored under `key`; nullopt when there are none or the entry is damaged
  // (truncated, corrupt, another key's). A hit marks the entry used: eviction is LRU.
  std::optional<std::vector<char>> load(const CacheKey& key) const;

  // Stores `bytes` under `key`, replacing any entry atomically (a reader sees the old entry
  // or the new one, whole), then evicts the least recently used entries until the directory
  // holds at most max_bytes. Whether the entry was written; why not goes to the debug log,
  // since the cache only saves time and callers go on either way.
  bool store(const CacheKey& key, std::span<const char> bytes) const;

  const std::string& directory() const { return settings_.directory; }

 private:
  explicit DiskCache(DiskCacheSettings settings) : settings_(std::move(settings)) {}
  void evict_over_limit() const;

  DiskCacheSettings settings_;
};

}  // namespace cucpu::jit
