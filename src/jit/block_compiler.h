// Internal to src/jit: the BlockCompiler of a kernel loaded into ORC (block_compiler.cpp).
#pragma once

#include <llvm/ExecutionEngine/Orc/LLJIT.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

#include "jit/compile.h"
#include "jit/orc_module.h"
#include "jit/register_access.h"
#include "jit/warp_analysis.h"

namespace cucpu::jit {

class OrcBlockCompiler final : public BlockCompiler {
 public:
  // `jit` holds the kernel's module; `ptx` stays alive with this compiler. Without
  // `access`, the kernel's register accesses are found when first needed.
  OrcBlockCompiler(llvm::orc::LLJIT& jit, std::shared_ptr<const ptx::Module> ptx, const ptx::Function& kernel,
                   std::optional<FunctionAccess> access, std::vector<ParamSlot> params, BlockFunctionCache cache);

  Result<CompiledBlockCode> block_function(uint32_t x, uint32_t y, uint32_t z) const override;

 private:
  Result<CompiledBlockCode> make(const BlockShape& shape) const;
  // The block function as an object file and its layout (code.entry not yet set).
  Result<std::unique_ptr<llvm::MemoryBuffer>> compile(const BlockShape& shape, const std::string& name,
                                                      CompiledBlockCode& code) const;

  llvm::orc::LLJIT& jit_;
  std::shared_ptr<const ptx::Module> ptx_;
  const ptx::Function& kernel_;
  mutable std::optional<FunctionAccess> access_;
  std::vector<ParamSlot> params_;
  BlockFunctionCache cache_;
  mutable std::mutex mutex_;
  mutable std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Result<CompiledBlockCode>> made_;
};

}  // namespace cucpu::jit
