// The compiled block strategy's lazy compiler (compile.h BlockCompiler): a kernel's block
// function for one block shape is made at the first launch with that shape, into an LLVM
// module of its own that declares what the kernel's module defines (declare_module) and is
// added to the same LLJIT, where those declarations resolve. Results are kept per shape.
#include "jit/block_compiler.h"

#include <fmt/format.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstdlib>

#include "jit/block_function.h"
#include "jit/host_target.h"
#include "jit/shared_layout.h"
#include "support/log.h"

namespace cucpu::jit {

OrcBlockCompiler::OrcBlockCompiler(llvm::orc::LLJIT& jit, std::shared_ptr<const ptx::Module> ptx,
                                   const ptx::Function& kernel, std::optional<FunctionAccess> access,
                                   std::vector<ParamSlot> params)
    : jit_(jit), ptx_(std::move(ptx)), kernel_(kernel), access_(std::move(access)), params_(std::move(params)) {}

Result<CompiledBlockCode> OrcBlockCompiler::block_function(uint32_t x, uint32_t y, uint32_t z) const {
  std::lock_guard guard(mutex_);
  const auto key = std::make_tuple(x, y, z);
  auto done = made_.find(key);
  if (done == made_.end()) done = made_.emplace(key, make(BlockShape{x, y, z})).first;
  return done->second;
}

Result<CompiledBlockCode> OrcBlockCompiler::make(const BlockShape& shape) const {
  const auto started = std::chrono::steady_clock::now();
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
  const std::string name = fmt::format("{}.block.{}x{}x{}", kernel_.name, shape.x, shape.y, shape.z);
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>(name, *context);
  ModuleSharedLayout shared = lay_out_shared_memory(*ptx_);
  ModuleLowering m;
  m.ptx = ptx_.get();
  m.context = context.get();
  m.module = module.get();
  m.shared = &shared;
  if (auto r = declare_module(m); !r) return r.error();
  CompiledBlockCode code;
  if (auto r = translate_block_function(m, kernel_, *access_, params_, shape, name, code); !r) return r.error();
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*module, &os))
    return make_error(ErrorCode::Unknown, "internal error: the block function's LLVM IR does not verify: " + os.str());
  auto target = detect_host_target();
  if (!target) return target.error();
  const auto translated = std::chrono::steady_clock::now();
  size_t instructions = 0;
  for (const llvm::Function& f : *module) instructions += f.getInstructionCount();
  const char* level = std::getenv("CUCPU_BLOCK_OPT");
  if (auto r = optimize_module(*module, *target, level ? std::atoi(level) : 2); !r) return r.error();
  const auto optimized = std::chrono::steady_clock::now();
  if (log::enabled(log::Category::Jit)) {
    std::string text;
    llvm::raw_string_ostream ir(text);
    module->print(ir, nullptr);
    log::write(log::Category::Jit, ir.str());
  }
  if (auto error = jit_.addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return make_error(ErrorCode::Unknown, "LLVM JIT: " + llvm::toString(std::move(error)));
  auto address = jit_.lookup(name);
  if (!address) return make_error(ErrorCode::Unknown, "LLVM JIT: " + llvm::toString(address.takeError()));
  code.entry = address->toPtr<BlockEntry>();
  using ms = std::chrono::duration<double, std::milli>;
  log::debug(log::Category::Jit,
             "kernel {}: block function for {}x{}x{} threads ({} IR instructions) compiled in {:.1f} ms (translate "
             "{:.1f}, optimize {:.1f})",
             kernel_.name, shape.x, shape.y, shape.z, instructions,
             ms(std::chrono::steady_clock::now() - started).count(), ms(translated - started).count(),
             ms(optimized - translated).count());
  return code;
}

}  // namespace cucpu::jit
