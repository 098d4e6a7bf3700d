// The compiled block strategy's lazy compiler (compile.h BlockCompiler): a kernel's block
// function for one block shape is made at the first launch with that shape, into an LLVM
// module of its own that declares what the kernel's module defines (declare_module), and
// its object code is linked into the same LLJIT, where those declarations resolve. Results
// are kept per shape, and on disk beside the module's entry (disk_cache.h), so that a
// program's second run compiles no block function either. A block function's entry:
//   u32 format version, u32 warp_stride, u32 register_stride, u32 local_stride, the ELF object.
#include "jit/block_compiler.h"

#include <fmt/format.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstring>

#include "jit/block_function.h"
#include "jit/host_target.h"
#include "jit/shared_layout.h"
#include "support/log.h"

namespace cucpu::jit {
namespace {

constexpr uint32_t kEntryFormat = 2;
constexpr int kOptimization = 2;
// LLVM's instruction selection and register allocation grow faster than the function:
// cudaTensorCoreGemm's kernel, unrolled into 3,600 tensor-core steps, is a block function
// of 140,000 IR instructions that took 31 s to emit at the default code generation level and
// 2.3 s at the fast one (FastISel, the fast register allocator), the sample's kernel time
// unchanged (its work is in the tensor-core helpers). Block functions this large get the
// fast one.
constexpr size_t kFastCodeGenerationInstructions = 100000;

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::vector<char> pack_entry(const CompiledBlockCode& code, const llvm::MemoryBuffer& object) {
  const uint32_t header[4] = {kEntryFormat, code.warp_stride, code.register_stride, code.local_stride};
  std::vector<char> entry(sizeof(header) + object.getBufferSize());
  std::memcpy(entry.data(), header, sizeof(header));
  std::memcpy(entry.data() + sizeof(header), object.getBufferStart(), object.getBufferSize());
  return entry;
}

// The layout and object an entry holds; nullptr for an entry of another format.
std::unique_ptr<llvm::MemoryBuffer> unpack_entry(const std::vector<char>& entry, CompiledBlockCode& code) {
  uint32_t header[4];
  if (entry.size() <= sizeof(header)) return nullptr;
  std::memcpy(header, entry.data(), sizeof(header));
  if (header[0] != kEntryFormat) return nullptr;
  code.warp_stride = header[1];
  code.register_stride = header[2];
  code.local_stride = header[3];
  return llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(entry.data() + sizeof(header), entry.size() - sizeof(header)),
                                              "block function");
}

}  // namespace

OrcBlockCompiler::OrcBlockCompiler(llvm::orc::LLJIT& jit, std::shared_ptr<const ptx::Module> ptx,
                                   const ptx::Function& kernel, std::optional<FunctionAccess> access,
                                   std::vector<ParamSlot> params, BlockFunctionCache cache)
    : jit_(jit),
      ptx_(std::move(ptx)),
      kernel_(kernel),
      access_(std::move(access)),
      params_(std::move(params)),
      cache_(std::move(cache)) {}

Result<CompiledBlockCode> OrcBlockCompiler::block_function(uint32_t x, uint32_t y, uint32_t z) const {
  std::lock_guard guard(mutex_);
  const auto key = std::make_tuple(x, y, z);
  auto done = made_.find(key);
  if (done == made_.end()) done = made_.emplace(key, make(BlockShape{x, y, z})).first;
  return done->second;
}

Result<CompiledBlockCode> OrcBlockCompiler::make(const BlockShape& shape) const {
  const auto started = std::chrono::steady_clock::now();
  const std::string name = fmt::format("{}.block.{}x{}x{}", kernel_.name, shape.x, shape.y, shape.z);
  std::optional<CacheKey> key;
  if (cache_.cache != nullptr && cache_.module_key) {
    const std::string format = fmt::format("block function, entry format {}, O{}", kEntryFormat, kOptimization);
    const std::string_view parts[] = {format, cache_.module_key->hex, name};
    key = make_cache_key(parts);
  }
  CompiledBlockCode code;
  std::unique_ptr<llvm::MemoryBuffer> object;
  if (key) {
    if (auto entry = cache_.cache->load(*key)) object = unpack_entry(*entry, code);
  }
  const bool hit = object != nullptr;
  if (!hit) {
    auto compiled = compile(shape, name, code);
    if (!compiled) return compiled.error();
    object = std::move(*compiled);
    if (key) cache_.cache->store(*key, pack_entry(code, *object));
  }
  if (auto error = jit_.addObjectFile(std::move(object)))
    return make_error(ErrorCode::Unknown, "LLVM JIT: " + llvm::toString(std::move(error)));
  auto address = jit_.lookup(name);
  if (!address) return make_error(ErrorCode::Unknown, "LLVM JIT: " + llvm::toString(address.takeError()));
  code.entry = address->toPtr<BlockEntry>();
  log::debug(log::Category::Jit, "kernel {}: block function for {}x{}x{} threads {} in {:.1f} ms", kernel_.name,
             shape.x, shape.y, shape.z, hit ? "loaded from the disk cache" : "compiled", milliseconds_since(started));
  return code;
}

Result<std::unique_ptr<llvm::MemoryBuffer>> OrcBlockCompiler::compile(const BlockShape& shape, const std::string& name,
                                                                      CompiledBlockCode& code) const {
  if (!access_) {
    // The module came from the disk cache, untranslated: translate it (once) for the
    // register accesses its lowerings make.
    llvm::LLVMContext scratch;
    auto translated = translate_module(*ptx_, scratch);
    if (!translated) return translated.error();
    auto found = translated->kernel_access.find(kernel_.name);
    if (found == translated->kernel_access.end())
      return make_error(ErrorCode::Unknown, fmt::format("kernel {} has no register accesses", kernel_.name));
    access_ = std::move(found->second);
  }
  const auto started = std::chrono::steady_clock::now();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>(name, *context);
  ModuleSharedLayout shared = lay_out_shared_memory(*ptx_);
  ModuleLowering m;
  m.ptx = ptx_.get();
  m.context = context.get();
  m.module = module.get();
  m.shared = &shared;
  if (auto r = declare_module(m); !r) return r.error();
  if (auto r = translate_block_function(m, kernel_, *access_, params_, shape, name, code); !r) return r.error();
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os))
    return make_error(ErrorCode::Unknown, "internal error: the block function's LLVM IR does not verify: " + os.str());
  size_t instructions = 0;
  for (const llvm::Function& f : *module) instructions += f.getInstructionCount();
  const double translated = milliseconds_since(started);
  auto target = detect_host_target();
  if (!target) return target.error();
  if (auto r = optimize_module(*module, *target, kOptimization); !r) return r.error();
  if (log::enabled(log::Category::Jit)) {
    std::string text;
    llvm::raw_string_ostream ir(text);
    module->print(ir, nullptr);
    log::write(log::Category::Jit, ir.str());
  }
  const double optimized = milliseconds_since(started);
  const bool fast = instructions > kFastCodeGenerationInstructions;
  if (fast) target->setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  auto object = emit_object(*module, *target);
  log::debug(log::Category::Jit, "kernel {}: {} IR instructions; translate {:.1f} ms, optimize {:.1f} ms, emit {:.1f} ms{}",
             kernel_.name, instructions, translated, optimized - translated, milliseconds_since(started) - optimized,
             fast ? " (fast code generation: a large function)" : "");
  return object;
}

}  // namespace cucpu::jit
