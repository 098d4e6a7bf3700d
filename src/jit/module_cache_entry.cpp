// A compiled module packed for the disk cache. The key holds everything the code depends
// on: the PTX texts (not the parsed module: source lines reach the code, as activemask's
// call sites), the host target as detect_host_target() gives it, the optimization level and
// this entry format's version; make_cache_key adds cucpu's build and LLVM's version.
// The entry, all integers little endian:
//   u32 format version
//   u32 kernel count, then per kernel: name; u32 parameter count, then offset, size, align
//       of each; param_bytes static_shared_bytes dynamic_shared_offset local_bytes
//       module_const_bytes max_threads_per_block reqntid[3] cluster_dims[3]
//       max_cluster_rank ptx_arch (u32 each); uses_barriers explicit_cluster waits_for_cluster (u8 each);
//       compiled_obstacle (a name); block_compiler is made again at load
//   u32 variable count, then per variable: name, u8 state space, u64 size
//   u64 object size, then the ELF object
// where a name is a u32 length and its bytes.
#include "jit/module_cache_entry.h"

#include <fmt/format.h>

#include <cstring>
#include <string>

namespace cucpu::jit {
namespace {

constexpr uint32_t kFormatVersion = 3;

// A field added to KernelInfo or GlobalInfo must be packed too (and kFormatVersion
// raised), or a module loaded from the cache would silently lack it.
static_assert(sizeof(KernelInfo) == 176, "KernelInfo changed: update pack_module/unpack_module");
static_assert(sizeof(GlobalInfo) == 56, "GlobalInfo changed: update pack_module/unpack_module");

class Writer {
 public:
  template <typename T>
  void number(T value) {
    static_assert(std::is_integral_v<T>);
    const auto* bytes = reinterpret_cast<const char*>(&value);
    out.insert(out.end(), bytes, bytes + sizeof value);
  }
  void text(std::string_view value) {
    number(static_cast<uint32_t>(value.size()));
    out.insert(out.end(), value.begin(), value.end());
  }
  std::vector<char> out;
};

// Reads what Writer wrote; past the end it reads zeros and remembers that it failed.
class Reader {
 public:
  explicit Reader(std::span<const char> in) : in_(in) {}
  template <typename T>
  T number() {
    T value{};
    if (take(sizeof value)) std::memcpy(&value, in_.data() + at_ - sizeof value, sizeof value);
    return value;
  }
  std::string text() {
    auto size = number<uint32_t>();
    if (!take(size)) return {};
    return std::string(in_.data() + at_ - size, size);
  }
  std::span<const char> bytes(uint64_t size) {
    if (!take(size)) return {};
    return in_.subspan(at_ - size, size);
  }
  bool failed() const { return failed_; }
  bool at_end() const { return at_ == in_.size(); }

 private:
  bool take(uint64_t size) {
    if (failed_ || size > in_.size() - at_) {
      failed_ = true;
      return false;
    }
    at_ += size;
    return true;
  }
  std::span<const char> in_;
  size_t at_ = 0;
  bool failed_ = false;
};

void write_kernel(Writer& w, const KernelInfo& k) {
  w.text(k.name);
  w.number(static_cast<uint32_t>(k.params.size()));
  for (const ParamSlot& p : k.params) {
    w.number(p.offset);
    w.number(p.size);
    w.number(p.align);
  }
  for (uint32_t n : {k.param_bytes, k.static_shared_bytes, k.dynamic_shared_offset, k.local_bytes, k.module_const_bytes,
                     k.max_threads_per_block})
    w.number(n);
  for (uint32_t n : k.reqntid) w.number(n);
  for (uint32_t n : k.cluster_dims) w.number(n);
  w.number(k.max_cluster_rank);
  w.number(k.ptx_arch);
  for (bool b : {k.uses_barriers, k.explicit_cluster, k.waits_for_cluster}) w.number(static_cast<uint8_t>(b));
  w.text(k.compiled_obstacle);
}

KernelInfo read_kernel(Reader& r) {
  KernelInfo k;
  k.name = r.text();
  auto params = r.number<uint32_t>();
  for (uint32_t i = 0; i < params && !r.failed(); ++i) {
    ParamSlot& p = k.params.emplace_back();
    p.offset = r.number<uint32_t>();
    p.size = r.number<uint32_t>();
    p.align = r.number<uint32_t>();
  }
  for (uint32_t* n : {&k.param_bytes, &k.static_shared_bytes, &k.dynamic_shared_offset, &k.local_bytes,
                      &k.module_const_bytes, &k.max_threads_per_block})
    *n = r.number<uint32_t>();
  for (uint32_t& n : k.reqntid) n = r.number<uint32_t>();
  for (uint32_t& n : k.cluster_dims) n = r.number<uint32_t>();
  k.max_cluster_rank = r.number<uint32_t>();
  k.ptx_arch = r.number<uint32_t>();
  for (bool* b : {&k.uses_barriers, &k.explicit_cluster, &k.waits_for_cluster}) *b = r.number<uint8_t>() != 0;
  k.compiled_obstacle = r.text();
  return k;
}

}  // namespace

CacheKey module_cache_key(std::span<const std::string_view> ptx_texts, const llvm::orc::JITTargetMachineBuilder& target,
                          int level) {
  std::string format = fmt::format("compiled module, entry format {}", kFormatVersion);
  std::string triple = target.getTargetTriple().str();
  std::string features = target.getFeatures().getString();
  std::string optimization = fmt::format("O{}", level);
  std::vector<std::string_view> parts{format, triple, target.getCPU(), features, optimization};
  parts.insert(parts.end(), ptx_texts.begin(), ptx_texts.end());
  return make_cache_key(parts);
}

std::vector<char> pack_module(const ModuleFacts& facts, const llvm::MemoryBuffer& object) {
  Writer w;
  w.number(kFormatVersion);
  w.number(static_cast<uint32_t>(facts.kernels.size()));
  for (const KernelInfo& k : facts.kernels) write_kernel(w, k);
  w.number(static_cast<uint32_t>(facts.globals.size()));
  for (const GlobalInfo& g : facts.globals) {
    w.text(g.name);
    w.number(static_cast<uint8_t>(g.space));
    w.number(g.size);
  }
  w.number(static_cast<uint64_t>(object.getBufferSize()));
  w.out.insert(w.out.end(), object.getBufferStart(), object.getBufferEnd());
  return std::move(w.out);
}

Result<CachedModule> unpack_module(std::span<const char> entry) {
  auto damaged = [](std::string_view why) {
    return make_error(ErrorCode::Unknown, fmt::format("cached module entry {}", why));
  };
  Reader r(entry);
  if (auto version = r.number<uint32_t>(); version != kFormatVersion)
    return damaged(fmt::format("has format {}, not {}", version, kFormatVersion));
  CachedModule module;
  auto kernels = r.number<uint32_t>();
  for (uint32_t i = 0; i < kernels && !r.failed(); ++i) module.facts.kernels.push_back(read_kernel(r));
  auto globals = r.number<uint32_t>();
  for (uint32_t i = 0; i < globals && !r.failed(); ++i) {
    GlobalInfo& g = module.facts.globals.emplace_back();
    g.name = r.text();
    auto space = static_cast<ptx::StateSpace>(r.number<uint8_t>());
    if (space != ptx::StateSpace::Global && space != ptx::StateSpace::Const) return damaged("names a bad state space");
    g.space = space;
    g.size = r.number<uint64_t>();
  }
  std::span<const char> object = r.bytes(r.number<uint64_t>());
  if (r.failed()) return damaged("ends early");
  if (!r.at_end()) return damaged("has bytes after its object");
  module.object = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), "cached module");
  return module;
}

}  // namespace cucpu::jit
