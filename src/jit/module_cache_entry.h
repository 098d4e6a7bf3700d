// Internal to src/jit: a compiled module as a disk cache entry (disk_cache.h): its object
// code and the facts translation found about its kernels and variables, and the key that
// names it. compile.cpp stores an entry after compiling and loads one instead of compiling.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "jit/disk_cache.h"
#include "jit/module_facts.h"
#include "support/result.h"

namespace cucpu::jit {

struct CachedModule {
  ModuleFacts facts;
  std::unique_ptr<llvm::MemoryBuffer> object;
};

// The key of the module compiled from `ptx_texts` (the texts it was parsed and linked from,
// in order) for `target` (triple, CPU name and features) at LLVM optimization `level`.
CacheKey module_cache_key(std::span<const std::string_view> ptx_texts, const llvm::orc::JITTargetMachineBuilder& target,
                          int level);

std::vector<char> pack_module(const ModuleFacts& facts, const llvm::MemoryBuffer& object);

// The module an entry holds; an error saying what is wrong with an entry that does not
// parse (the disk cache has checked its hash, so only a cucpu bug makes one).
Result<CachedModule> unpack_module(std::span<const char> entry);

}  // namespace cucpu::jit
