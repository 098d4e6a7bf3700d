// DiskCache: one file per entry, <directory>/<key hex>, laid out as
//   "CUCPUJC1"                   8 bytes   magic and format version
//   the key, 64 hex digits       64 bytes  so that a file copied or renamed is not taken for another key
//   payload size, little endian  8 bytes
//   BLAKE3 of the payload        32 bytes  so that a truncated or damaged entry reads as missing
//   the payload
// A store writes a temporary file beside the entry (<hex>.tmp.<pid>.<n>) and renames it
// over the entry. rename is atomic within a directory, so a reader opens the old entry or
// the new one, never half of one, and writers racing on one key leave one whole entry
// (theirs hold the same code). There is no fsync: an entry a crash leaves damaged fails
// its hash and is compiled and stored again.
// Eviction is by modification time, which a hit refreshes, so least recently used entries
// go first. Files that are not entries are never touched, whatever directory
// CUCPU_CACHE_DIR names, except temporary files of this cache that a writer which died
// before its rename left behind.
#include "jit/disk_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <llvm-c/Core.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/BLAKE3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "support/build_id.h"
#include "support/log.h"

namespace cucpu::jit {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'C', 'P', 'U', 'J', 'C', '1'};
constexpr size_t kKeyDigits = 64;
constexpr size_t kHashBytes = 32;
constexpr size_t kHeaderBytes = sizeof kMagic + kKeyDigits + sizeof(uint64_t) + kHashBytes;
// A temporary file this old belongs to a writer that died before renaming it.
constexpr time_t kAbandonedTempSeconds = 3600;

const char kThisBinary = 0;  // its address names the binary holding cucpu's JIT

// The part of every key that says which cucpu compiled the code: its binary's build ID
// (a new one for every rebuild that changes it) and LLVM's version, which the shared
// libLLVM carries; "" when there is no build ID to tell builds apart.
const std::string& cucpu_build() {
  static const std::string build = [] {
    std::string id = build_id_of(&kThisBinary);
    if (id.empty()) return id;
    unsigned major = 0, minor = 0, patch = 0;
    LLVMGetVersion(&major, &minor, &patch);
    return fmt::format("cucpu build {}, LLVM {}.{}.{}", id, major, minor, patch);
  }();
  return build;
}

using Hash = std::array<uint8_t, kHashBytes>;

Hash hash_of(std::span<const char> bytes) {
  return llvm::BLAKE3::hash<kHashBytes>(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

bool is_hex_digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_entry_name(std::string_view name) { return name.size() == kKeyDigits && is_hex_digits(name); }

bool is_temp_name(std::string_view name) {
  return name.size() > kKeyDigits && is_hex_digits(name.substr(0, kKeyDigits)) &&
         name.substr(kKeyDigits).starts_with(".tmp.");
}

bool write_all(int fd, std::span<const char> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return true;
}

bool read_all(int fd, std::span<char> bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::read(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return true;
}

// Why `file` is not a whole entry for `key`; nullptr when it is.
const char* check_entry(std::span<const char> file, const CacheKey& key) {
  if (file.size() < kHeaderBytes) return "shorter than its header";
  if (std::memcmp(file.data(), kMagic, sizeof kMagic) != 0) return "not a cucpu cache entry of this format";
  if (std::string_view(file.data() + sizeof kMagic, kKeyDigits) != key.hex) return "holds another key";
  uint64_t size = 0;
  std::memcpy(&size, file.data() + sizeof kMagic + kKeyDigits, sizeof size);
  if (size != file.size() - kHeaderBytes) return "truncated or padded";
  Hash stored;
  std::memcpy(stored.data(), file.data() + kHeaderBytes - kHashBytes, kHashBytes);
  if (stored != hash_of(file.subspan(kHeaderBytes))) return "corrupt (hash mismatch)";
  return nullptr;
}

}  // namespace

CacheKey make_cache_key(std::span<const std::string_view> parts) {
  llvm::BLAKE3 hasher;
  auto add = [&](std::string_view part) {
    uint64_t size = part.size();
    hasher.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(&size), sizeof size));
    hasher.update(llvm::StringRef(part.data(), part.size()));
  };
  add(cucpu_build());
  for (std::string_view part : parts) add(part);
  return CacheKey{llvm::toHex(hasher.final<kHashBytes>(), /*LowerCase=*/true)};
}

std::unique_ptr<DiskCache> DiskCache::open(const DiskCacheSettings& settings) {
  auto off = [](std::string_view why) {
    log::debug(log::Category::Jit, "disk cache off: {}", why);
    return nullptr;
  };
  if (!settings.enabled) return off("CUCPU_CACHE=0");
  if (settings.directory.empty()) return off("no directory (set CUCPU_CACHE_DIR, XDG_CACHE_HOME or HOME)");
  if (cucpu_build().empty()) return off("this build of cucpu has no build ID to tell its code from another's");
  std::error_code error;
  // Created for this user only: the cache holds code that cucpu runs.
  if (std::filesystem::create_directories(settings.directory, error))
    std::filesystem::permissions(settings.directory, std::filesystem::perms::owner_all, error);
  if (error) return off(fmt::format("cannot create {}: {}", settings.directory, error.message()));
  if (::access(settings.directory.c_str(), W_OK | X_OK) != 0)
    return off(fmt::format("cannot write to {}: {}", settings.directory, std::strerror(errno)));
  return std::unique_ptr<DiskCache>(new DiskCache(settings));
}

std::optional<std::vector<char>> DiskCache::load(const CacheKey& key) const {
  std::string path = settings_.directory + "/" + key.hex;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat status {};
  std::vector<char> file;
  bool read = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode);
  if (read) {
    file.resize(static_cast<size_t>(status.st_size));
    read = read_all(fd, file);
  }
  const char* damage = read ? check_entry(file, key) : "unreadable";
  if (damage == nullptr) ::futimens(fd, nullptr);  // used now: the last to be evicted
  ::close(fd);
  if (damage != nullptr) {
    log::debug(log::Category::Jit, "disk cache entry {} ignored: {}", key.prefix(), damage);
    return std::nullopt;
  }
  file.erase(file.begin(), file.begin() + kHeaderBytes);
  return file;
}

bool DiskCache::store(const CacheKey& key, std::span<const char> bytes) const {
  if (kHeaderBytes + bytes.size() > settings_.max_bytes) {
    log::debug(log::Category::Jit, "disk cache entry {} not stored: {} bytes exceed the limit of {}", key.prefix(),
               kHeaderBytes + bytes.size(), settings_.max_bytes);
    return false;
  }
  std::vector<char> header(kHeaderBytes);
  uint64_t size = bytes.size();
  Hash hash = hash_of(bytes);
  std::memcpy(header.data(), kMagic, sizeof kMagic);
  std::memcpy(header.data() + sizeof kMagic, key.hex.data(), kKeyDigits);
  std::memcpy(header.data() + sizeof kMagic + kKeyDigits, &size, sizeof size);
  std::memcpy(header.data() + kHeaderBytes - kHashBytes, hash.data(), kHashBytes);

  // Unique among this process's threads (the counter) and among processes (the pid);
  // O_EXCL refuses a name that is somehow taken rather than writing into another's file.
  static std::atomic<uint64_t> stores{0};
  std::string path = settings_.directory + "/" + key.hex;
  std::string temp = fmt::format("{}.tmp.{}.{}", path, ::getpid(), stores++);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    log::debug(log::Category::Jit, "disk cache entry {} not stored: {}: {}", key.prefix(), temp, std::strerror(errno));
    return false;
  }
  bool written = write_all(fd, header) && write_all(fd, bytes);
  written = ::close(fd) == 0 && written;
  if (!written || ::rename(temp.c_str(), path.c_str()) != 0) {
    log::debug(log::Category::Jit, "disk cache entry {} not stored: {}", key.prefix(), std::strerror(errno));
    ::unlink(temp.c_str());
    return false;
  }
  evict_over_limit();
  return true;
}

void DiskCache::evict_over_limit() const {
  struct Entry {
    timespec used;
    uint64_t bytes;
    std::string name;
  };
  DIR* directory = ::opendir(settings_.directory.c_str());
  if (directory == nullptr) return;
  std::vector<Entry> entries;
  uint64_t total = 0;
  time_t now = std::time(nullptr);
  while (const dirent* item = ::readdir(directory)) {
    std::string_view name = item->d_name;
    bool entry = is_entry_name(name);
    if (!entry && !is_temp_name(name)) continue;
    struct stat status {};
    if (::fstatat(::dirfd(directory), item->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(status.st_mode))
      continue;
    if (entry) {
      entries.push_back({status.st_mtim, static_cast<uint64_t>(status.st_size), std::string(name)});
      total += static_cast<uint64_t>(status.st_size);
    } else if (now - status.st_mtim.tv_sec > kAbandonedTempSeconds) {
      ::unlinkat(::dirfd(directory), item->d_name, 0);
    }
  }
  size_t evicted = 0;
  uint64_t evicted_bytes = 0;
  if (total > settings_.max_bytes) {
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
    });
    for (const Entry& e : entries) {
      if (total <= settings_.max_bytes) break;
      // Another process may have evicted it already; either way it is gone.
      ::unlinkat(::dirfd(directory), e.name.c_str(), 0);
      total -= e.bytes;
      ++evicted;
      evicted_bytes += e.bytes;
    }
  }
  ::closedir(directory);
  if (evicted > 0)
    log::debug(log::Category::Jit,
               "disk cache: evicted {} least recently used entries ({} bytes) to stay under {} bytes", evicted,
               evicted_bytes, settings_.max_bytes);
}

}  // namespace cucpu::jit
