// The JIT's disk cache: the store (jit/disk_cache.h) on its own — keys, damaged entries,
// LRU eviction, racing writers — and compile_module with it: a module compiled twice is a
// hit the second time and its kernels and variables work; a damaged entry is compiled
// again; CUCPU_CACHE=0 writes nothing. Each test uses a directory of its own.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "exec/grid.h"
#include "jit/cache_settings.h"
#include "jit/compile.h"
#include "jit/disk_cache.h"
#include "ptx/parse.h"

namespace cucpu::jit {
namespace {

namespace fs = std::filesystem;

// A fresh directory, removed with everything in it at the end of the test.
class TempDirectory {
 public:
  TempDirectory() {
    static std::atomic<int> made{0};
    path_ =
        fs::temp_directory_path() / ("cucpu-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(made++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

std::vector<std::string> file_names(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& item : fs::directory_iterator(directory)) names.push_back(item.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<DiskCache> open_cache(const TempDirectory& directory, uint64_t max_bytes = uint64_t{1} << 30) {
  DiskCacheSettings settings;
  settings.directory = directory.str();
  settings.max_bytes = max_bytes;
  return DiskCache::open(settings);
}

CacheKey key_of(std::string_view part) {
  std::string_view parts[] = {part};
  return make_cache_key(parts);
}

std::vector<char> bytes_of(const std::string& text) { return std::vector<char>(text.begin(), text.end()); }

// --- the store ----------------------------------------------------------------------

TEST(DiskCache, KeysHashEveryPartWithItsBoundaries) {
  std::string_view ab_c[] = {"ab", "c"}, a_bc[] = {"a", "bc"};
  EXPECT_EQ(make_cache_key(ab_c).hex, make_cache_key(ab_c).hex);
  EXPECT_NE(make_cache_key(ab_c).hex, make_cache_key(a_bc).hex);
  EXPECT_EQ(make_cache_key(ab_c).hex.size(), 64u);
  EXPECT_EQ(make_cache_key(ab_c).prefix(), make_cache_key(ab_c).hex.substr(0, 12));
}

TEST(DiskCache, StoresAndLoadsBytes) {
  TempDirectory directory;
  auto cache = open_cache(directory);
  ASSERT_NE(cache, nullptr);
  CacheKey key = key_of("one");
  EXPECT_FALSE(cache->load(key));
  ASSERT_TRUE(cache->store(key, bytes_of("the compiled code")));
  EXPECT_EQ(cache->load(key), bytes_of("the compiled code"));
  EXPECT_FALSE(cache->load(key_of("two")));
  EXPECT_EQ(file_names(directory.path()), std::vector<std::string>{key.hex});  // no temporary file left
}

TEST(DiskCache, MissingDirectoryIsCreated) {
  TempDirectory directory;
  DiskCacheSettings settings;
  settings.directory = directory.str() + "/not/yet/there";
  ASSERT_NE(DiskCache::open(settings), nullptr);
  EXPECT_TRUE(fs::is_directory(settings.directory));
}

TEST(DiskCache, DirectoryThatCannotBeMadeTurnsTheCacheOff) {
  TempDirectory directory;
  std::ofstream(directory.path() / "a-file") << "not a directory";
  DiskCacheSettings settings;
  settings.directory = (directory.path() / "a-file" / "cache").string();
  EXPECT_EQ(DiskCache::open(settings), nullptr);
}

TEST(DiskCache, ReadOnlyDirectoryTurnsTheCacheOff) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes to read-only directories";
  TempDirectory directory;
  DiskCacheSettings settings;
  fs::create_directory(directory.path() / "read-only");
  fs::permissions(directory.path() / "read-only", fs::perms::owner_read | fs::perms::owner_exec);
  settings.directory = (directory.path() / "read-only").string();
  EXPECT_EQ(DiskCache::open(settings), nullptr);
}

TEST(DiskCache, DamagedEntriesReadAsMissing) {
  TempDirectory directory;
  auto cache = open_cache(directory);
  ASSERT_NE(cache, nullptr);
  CacheKey key = key_of("damaged"), other = key_of("other");
  fs::path file = directory.path() / key.hex;
  const std::vector<char> payload = bytes_of(std::string(1000, 'x'));

  ASSERT_TRUE(cache->store(key, payload));
  fs::resize_file(file, fs::file_size(file) - 1);  // truncated
  EXPECT_FALSE(cache->load(key));

  ASSERT_TRUE(cache->store(key, payload));
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(500);
    f.put('y');  // one byte of the payload changed
  }
  EXPECT_FALSE(cache->load(key));

  ASSERT_TRUE(cache->store(other, payload));
  fs::copy_file(directory.path() / other.hex, file, fs::copy_options::overwrite_existing);  // another key's entry
  EXPECT_FALSE(cache->load(key));

  std::ofstream(file, std::ios::trunc) << "junk";  // not an entry at all
  EXPECT_FALSE(cache->load(key));

  ASSERT_TRUE(cache->store(key, payload));  // stored again, whole
  EXPECT_EQ(cache->load(key), payload);
}

// Entries of 1000 bytes (plus the header) under a limit that holds two: storing a third
// evicts the one used longest ago, which a load counts as a use.
TEST(DiskCache, SizeLimitEvictsLeastRecentlyUsed) {
  TempDirectory directory;
  auto cache = open_cache(directory, 2500);
  ASSERT_NE(cache, nullptr);
  const std::vector<char> payload(1000, 'p');
  CacheKey a = key_of("a"), b = key_of("b"), c = key_of("c");
  std::ofstream(directory.path() / "notes.txt") << std::string(5000, 'n');  // not an entry: never counted or removed
  ASSERT_TRUE(cache->store(a, payload));
  ASSERT_TRUE(cache->store(b, payload));
  auto now = fs::file_time_type::clock::now();
  fs::last_write_time(directory.path() / a.hex, now - std::chrono::minutes(10));
  fs::last_write_time(directory.path() / b.hex, now - std::chrono::minutes(5));
  ASSERT_TRUE(cache->load(a));  // a is now the most recently used
  ASSERT_TRUE(cache->store(c, payload));
  EXPECT_TRUE(cache->load(a));
  EXPECT_FALSE(cache->load(b));
  EXPECT_TRUE(cache->load(c));
  EXPECT_TRUE(fs::exists(directory.path() / "notes.txt"));
  // An entry larger than the whole limit is not stored at all.
  EXPECT_FALSE(cache->store(key_of("huge"), std::vector<char>(3000, 'h')));
  EXPECT_TRUE(cache->load(a));
  EXPECT_TRUE(cache->load(c));
}

// Threads storing one key over and over while others load it: every load sees nothing or
// the whole entry, and no temporary file is left behind. Processes race the same way.
TEST(DiskCache, RacingWritersAndReadersSeeWholeEntries) {
  TempDirectory directory;
  auto cache = open_cache(directory);
  ASSERT_NE(cache, nullptr);
  CacheKey key = key_of("raced");
  const std::vector<char> payload(200000, 'r');
  std::atomic<int> torn{0}, seen{0};
  std::atomic<bool> stored{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      // Readers start once one entry is whole (on 2 cores they could otherwise finish
      // before any writer began), then race with the writers' other 49.
      if (t % 2 == 1)
        while (!stored.load()) std::this_thread::yield();
      for (int i = 0; i < 50; ++i) {
        if (t % 2 == 0) {
          cache->store(key, payload);
          stored.store(true);
        } else if (auto loaded = cache->load(key)) {
          ++seen;
          if (*loaded != payload) ++torn;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(torn, 0);
  EXPECT_GT(seen, 0);
  EXPECT_EQ(file_names(directory.path()), std::vector<std::string>{key.hex});
}

// --- settings -----------------------------------------------------------------------

std::map<std::string, std::string> fake_environment;
const char* lookup(const char* name) {
  auto it = fake_environment.find(name);
  return it == fake_environment.end() ? nullptr : it->second.c_str();
}

DiskCacheSettings settings_for(std::map<std::string, std::string> environment, std::vector<std::string>& warnings) {
  fake_environment = std::move(environment);
  return read_cache_settings(lookup, warnings);
}

TEST(CacheSettings, DefaultsFollowXdgThenHome) {
  std::vector<std::string> warnings;
  auto settings = settings_for({{"HOME", "/home/u"}}, warnings);
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/home/u/.cache/cucpu");
  EXPECT_EQ(settings.max_bytes, uint64_t{1024} << 20);
  EXPECT_EQ(settings_for({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/xdg"}}, warnings).directory, "/xdg/cucpu");
  // The XDG specification ignores a relative XDG_CACHE_HOME.
  EXPECT_EQ(settings_for({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "rel"}}, warnings).directory, "/home/u/.cache/cucpu");
  EXPECT_EQ(settings_for({}, warnings).directory, "");
  EXPECT_TRUE(warnings.empty());
}

TEST(CacheSettings, ValuesAreRead) {
  std::vector<std::string> warnings;
  auto settings =
      settings_for({{"CUCPU_CACHE", "0"}, {"CUCPU_CACHE_DIR", "/tmp/c"}, {"CUCPU_CACHE_MAX_MB", "16"}}, warnings);
  EXPECT_FALSE(settings.enabled);
  EXPECT_EQ(settings.directory, "/tmp/c");
  EXPECT_EQ(settings.max_bytes, uint64_t{16} << 20);
  EXPECT_TRUE(settings_for({{"CUCPU_CACHE", "1"}}, warnings).enabled);
  EXPECT_TRUE(warnings.empty());
}

TEST(CacheSettings, BadValuesWarnAndFallBack) {
  std::vector<std::string> warnings;
  auto settings = settings_for(
      {{"HOME", "/h"}, {"CUCPU_CACHE", "yes"}, {"CUCPU_CACHE_DIR", ""}, {"CUCPU_CACHE_MAX_MB", "lots"}}, warnings);
  EXPECT_TRUE(settings.enabled);
  EXPECT_EQ(settings.directory, "/h/.cache/cucpu");
  EXPECT_EQ(settings.max_bytes, uint64_t{1024} << 20);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0], "CUCPU_CACHE=yes is neither 0 nor 1; using 1");
  EXPECT_EQ(warnings[1], "CUCPU_CACHE_DIR is empty; using /h/.cache/cucpu");
  EXPECT_EQ(warnings[2], "CUCPU_CACHE_MAX_MB=lots is not a size in 1..1048576; using 1024");
  warnings.clear();
  for (const char* bad : {"0", "-1", "1048577", "12MB", ""}) {
    EXPECT_EQ(settings_for({{"CUCPU_CACHE_MAX_MB", bad}}, warnings).max_bytes, uint64_t{1024} << 20) << bad;
  }
  EXPECT_EQ(warnings.size(), 5u);
}

// --- compile_module with the cache --------------------------------------------------

// A kernel that adds a module variable to its argument, and one with every fact the
// cache must keep: shared, local and const bytes, launch bounds, a barrier, a cluster shape.
constexpr const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.global .align 4 .u32 bias = 40;
.const .align 8 .b8 table[24];
.visible .entry add_bias(.param .u64 out, .param .u32 x)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [x];
  ld.global.u32 %r2, [bias];
  add.u32 %r3, %r1, %r2;
  st.global.u32 [%rd1], %r3;
  ret;
}
.visible .entry described(.param .u8 a, .param .align 16 .b8 b[32]) .reqntid 64, 2, 1 .reqnctapercluster 2, 1, 1
{
  .shared .align 4 .b8 tile[512];
  .local .align 4 .b8 scratch[48];
  bar.sync 0;
  ret;
}
)";

struct Compiled {
  std::unique_ptr<CompiledModule> module;
  std::string error;
};

Compiled compile(const std::string& text, DiskCache* cache, std::string_view texts_key) {
  auto module = ptx::parse(text, "cache_test.ptx");
  if (!module) return {nullptr, module.error().message};
  CompileOptions options;
  options.runtime = exec::GridExecutor::runtime_symbols();
  options.cache = cache;
  options.ptx_texts = {texts_key};
  auto compiled = compile_module(*module, options);
  if (!compiled) return {nullptr, compiled.error().message};
  return {std::move(*compiled), ""};
}

// Runs add_bias(&out, x) as one thread; returns out.
uint32_t run_add_bias(const CompiledModule& module, uint32_t x) {
  const KernelInfo* kernel = module.find_kernel("add_bias");
  EXPECT_NE(kernel, nullptr);
  if (kernel == nullptr) return 0;
  uint32_t out = 0;
  alignas(16) uint8_t params[64] = {};
  uint32_t* out_pointer = &out;
  std::memcpy(params + kernel->params.at(0).offset, &out_pointer, sizeof out_pointer);
  std::memcpy(params + kernel->params.at(1).offset, &x, sizeof x);
  ThreadContext context{};
  context.ntid[0] = context.ntid[1] = context.ntid[2] = 1;
  context.nctaid[0] = context.nctaid[1] = context.nctaid[2] = 1;
  context.params = params;
  context.param_bytes = kernel->param_bytes;
  kernel->entry(&context);
  return out;
}

void expect_same_facts(const CompiledModule& fresh, const CompiledModule& cached) {
  EXPECT_EQ(fresh.kernel_names(), cached.kernel_names());
  for (const std::string& name : fresh.kernel_names()) {
    const KernelInfo& a = *fresh.find_kernel(name);
    const KernelInfo& b = *cached.find_kernel(name);
    SCOPED_TRACE(name);
    ASSERT_EQ(a.params.size(), b.params.size());
    for (size_t i = 0; i < a.params.size(); ++i) {
      EXPECT_EQ(a.params[i].offset, b.params[i].offset);
      EXPECT_EQ(a.params[i].size, b.params[i].size);
      EXPECT_EQ(a.params[i].align, b.params[i].align);
    }
    EXPECT_EQ(a.param_bytes, b.param_bytes);
    EXPECT_EQ(a.static_shared_bytes, b.static_shared_bytes);
    EXPECT_EQ(a.dynamic_shared_offset, b.dynamic_shared_offset);
    EXPECT_EQ(a.local_bytes, b.local_bytes);
    EXPECT_EQ(a.module_const_bytes, b.module_const_bytes);
    EXPECT_EQ(a.max_threads_per_block, b.max_threads_per_block);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(a.reqntid[d], b.reqntid[d]);
      EXPECT_EQ(a.cluster_dims[d], b.cluster_dims[d]);
    }
    EXPECT_EQ(a.uses_barriers, b.uses_barriers);
    EXPECT_EQ(a.explicit_cluster, b.explicit_cluster);
    EXPECT_EQ(a.max_cluster_rank, b.max_cluster_rank);
    EXPECT_EQ(a.waits_for_cluster, b.waits_for_cluster);
    EXPECT_NE(b.entry, nullptr);
  }
  for (const char* name : {"bias", "table"}) {
    ASSERT_NE(cached.find_global(name), nullptr) << name;
    EXPECT_EQ(fresh.find_global(name)->size, cached.find_global(name)->size);
    EXPECT_EQ(fresh.find_global(name)->space, cached.find_global(name)->space);
    EXPECT_NE(cached.find_global(name)->address, nullptr);
  }
}

// A PTX module that parses but does not compile (an external variable, which needs
// linking): compile_module fails whenever it translates it, so compiling it successfully
// shows that it did not.
constexpr const char* kUntranslatable = R"(.version 8.0
.target sm_90
.address_size 64
.extern .global .align 4 .u32 elsewhere;
.visible .entry refused()
{
  ret;
}
)";

TEST(CompileWithDiskCache, SecondCompileIsAHitWithWorkingKernelsAndVariables) {
  TempDirectory directory;
  auto cache = open_cache(directory);
  ASSERT_NE(cache, nullptr);
  ASSERT_TRUE(ptx::parse(kUntranslatable));
  ASSERT_NE(compile(kUntranslatable, nullptr, "").error, "") << "the refused module must not compile";

  Compiled fresh = compile(kPtx, cache.get(), kPtx);
  ASSERT_TRUE(fresh.module) << fresh.error;
  ASSERT_EQ(file_names(directory.path()).size(), 1u);  // stored
  EXPECT_EQ(run_add_bias(*fresh.module, 2), 42u);

  // The same PTX texts name the same entry: the module handed over is not even
  // translated (it would fail), the code comes from the cache.
  Compiled cached = compile(kUntranslatable, cache.get(), kPtx);
  ASSERT_TRUE(cached.module) << cached.error;
  expect_same_facts(*fresh.module, *cached.module);
  EXPECT_EQ(run_add_bias(*cached.module, 2), 42u);
  // The variable's address is the storage the loaded kernel reads.
  const GlobalInfo* bias = cached.module->find_global("bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(*static_cast<uint32_t*>(bias->address), 40u);
  *static_cast<uint32_t*>(bias->address) = 7;
  EXPECT_EQ(run_add_bias(*cached.module, 2), 9u);
  EXPECT_EQ(run_add_bias(*fresh.module, 2), 42u);  // each load has storage of its own
}

TEST(CompileWithDiskCache, OtherPtxIsAnotherEntry) {
  TempDirectory directory;
  auto cache = open_cache(directory);
  ASSERT_NE(cache, nullptr);
  ASSERT_TRUE(compile(kPtx, cache.get(), kPtx).module);
  std::string changed = std::string(kPtx) + "// a comment changes the text\n";
  ASSERT_TRUE(compile(changed, cache.get(), changed).module);
  EXPECT_EQ(file_names(directory.path()).size(), 2u);
  EXPECT_FALSE(compile(kUntranslatable, cache.get(), kUntranslatable).module);  // errors are not cached
  EXPECT_EQ(file_names(directory.path()).size(), 2u);
}

// However an entry is damaged, the module is compiled again and the entry replaced.
TEST(CompileWithDiskCache, DamagedEntryIsCompiledAgain) {
  TempDirectory directory;
  auto cache = open_cache(directory);
  ASSERT_NE(cache, nullptr);
  ASSERT_TRUE(compile(kPtx, cache.get(), kPtx).module);
  auto names = file_names(directory.path());
  ASSERT_EQ(names.size(), 1u);
  CacheKey key{names[0]};
  fs::path file = directory.path() / key.hex;
  auto original = cache->load(key);
  ASSERT_TRUE(original);

  auto expect_recompiled = [&](const char* how) {
    SCOPED_TRACE(how);
    EXPECT_FALSE(compile(kUntranslatable, cache.get(), kPtx).module);  // not a hit: it translates
    Compiled again = compile(kPtx, cache.get(), kPtx);
    ASSERT_TRUE(again.module) << again.error;
    EXPECT_EQ(run_add_bias(*again.module, 1), 41u);
    EXPECT_TRUE(cache->load(key));  // replaced by a whole entry
  };
  fs::resize_file(file, fs::file_size(file) / 2);
  expect_recompiled("truncated");
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
    f.put('\x5a');
    f.put('\xa5');
  }
  expect_recompiled("corrupted");
  // An entry whose hash is right but whose contents are not a module (only a cucpu bug
  // makes one): refused when unpacked.
  ASSERT_TRUE(cache->store(key, bytes_of("not a module")));
  expect_recompiled("not a module");
  std::vector<char> short_entry(original->begin(), original->begin() + 40);
  ASSERT_TRUE(cache->store(key, short_entry));
  expect_recompiled("a module cut short");
}

TEST(CompileWithDiskCache, CacheOffWritesNothing) {
  TempDirectory directory;
  ::setenv("CUCPU_CACHE", "0", 1);
  ::setenv("CUCPU_CACHE_DIR", (directory.path() / "cache").c_str(), 1);
  DiskCache* cache = process_disk_cache();
  ::unsetenv("CUCPU_CACHE");
  EXPECT_EQ(cache, nullptr);
  ASSERT_TRUE(compile(kPtx, cache, kPtx).module);
  EXPECT_FALSE(fs::exists(directory.path() / "cache"));
}

}  // namespace
}  // namespace cucpu::jit
