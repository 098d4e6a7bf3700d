// compile_module: the JIT pipeline as a script. ptx::Module -> LLVM IR
// (translate_module) -> host-optimized IR (optimize_module) -> an object file
// (emit_object) -> native code in ORC (load_into_orc). The object and what translation
// found out are kept in the disk cache, so that the next run that compiles the same PTX
// with the same cucpu on the same CPU loads them instead. Every step returns an error
// rather than running code it cannot translate faithfully; errors are never cached.
#include "jit/compile.h"

#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <iostream>
#include <optional>

#include "jit/disk_cache.h"
#include "jit/host_target.h"
#include "jit/module_cache_entry.h"
#include "jit/multiply_add_contraction.h"
#include "jit/orc_module.h"
#include "jit/translate_module.h"
#include "support/log.h"

namespace cucpu::jit {
namespace {

std::string print(const llvm::Module& module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return os.str();
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The compiled block strategy translates kernels again later, per block shape: it keeps
// its own copy of the module.
std::shared_ptr<const ptx::Module> shared_module(const ptx::Module& module) {
  return std::make_shared<const ptx::Module>(module);
}

// The module's entry in the cache, unpacked; nullopt on a miss or a damaged entry.
std::optional<CachedModule> load_cached(const DiskCache& cache, const CacheKey& key) {
  auto entry = cache.load(key);
  if (!entry) return std::nullopt;
  auto module = unpack_module(*entry);
  if (!module) {
    log::debug(log::Category::Jit, "disk cache entry {} ignored: {}", key.prefix(), module.error().message);
    return std::nullopt;
  }
  return std::move(*module);
}

}  // namespace

Result<std::unique_ptr<CompiledModule>> compile_module(const ptx::Module& written, const CompileOptions& options) {
  auto started = std::chrono::steady_clock::now();
  // What ptxas would run: its multiply-add contraction applied first.
  const ptx::Module module = contract_multiply_adds(written);
  // Find the host target (CPU name and features).
  auto target = detect_host_target();
  if (!target) return target.error();
  // Load the code from the disk cache if an earlier run compiled it: no JIT work then.
  std::optional<CacheKey> key;
  if (options.cache != nullptr && !options.ptx_texts.empty())
    key = module_cache_key(options.ptx_texts, *target, options.optimization);
  if (key && !options.dump_ir) {
    if (auto cached = load_cached(*options.cache, *key)) {
      auto loaded = load_into_orc(std::move(cached->facts), std::move(cached->object), *target, options.runtime,
                                  shared_module(module), {}, BlockFunctionCache{options.cache, key});
      if (loaded) {
        log::debug(log::Category::Jit, "disk cache hit {}: loaded in {:.1f} ms", key->prefix(),
                   milliseconds_since(started));
        return loaded;
      }
      log::debug(log::Category::Jit, "disk cache entry {} does not load ({}); compiling", key->prefix(),
                 loaded.error().message);
    }
  }
  // Translate PTX to LLVM IR; unsupported instructions stop here.
  auto context = std::make_unique<llvm::LLVMContext>();
  auto translated = translate_module(module, *context);
  if (!translated) return translated.error();
  // Optimize for the host.
  if (auto r = optimize_module(*translated->module, *target, options.optimization); !r) return r.error();
  // Show the IR if asked.
  if (options.dump_ir) std::cerr << print(*translated->module);
  if (log::enabled(log::Category::Jit)) log::write(log::Category::Jit, print(*translated->module));
  // Generate native code.
  auto object = emit_object(*translated->module, *target);
  if (!object) return object.error();
  // Keep it for the next run.
  if (key) {
    std::vector<char> entry = pack_module(translated->facts, **object);
    bool stored = options.cache->store(*key, entry);
    log::debug(log::Category::Jit, "disk cache miss {}: compiled in {:.1f} ms, {} {} bytes", key->prefix(),
               milliseconds_since(started), stored ? "stored" : "could not store", entry.size());
  }
  // Load the code and look up kernels and variables.
  return load_into_orc(std::move(translated->facts), std::move(*object), std::move(*target), options.runtime,
                       shared_module(module), std::move(translated->kernel_access),
                       BlockFunctionCache{options.cache, key});
}

Result<std::string> translate_to_llvm_ir(const ptx::Module& module) {
  llvm::LLVMContext context;
  auto translated = translate_module(contract_multiply_adds(module), context);
  if (!translated) return translated.error();
  return print(*translated->module);
}

}  // namespace cucpu::jit
