// Compiling a ptx::Module to native code (LLVM ORC), and what the executor needs to
// know about each kernel of it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jit/kernel_abi.h"
#include "ptx/module.h"
#include "support/result.h"

namespace cucpu::jit {

// Where one kernel parameter lives in the parameter buffer (PTX .param layout:
// each parameter at the next multiple of its alignment).
struct ParamSlot {
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 1;
};

// Compiles one kernel for the compiled block strategy (kernel_abi.h CompiledBlockFrame),
// one block shape at a time, at the first launch with that shape; thread-safe.
class BlockCompiler {
 public:
  virtual ~BlockCompiler() = default;
  // The block function for blocks of x*y*z threads; an error when it cannot be made (the
  // kernel then runs as it would without the strategy).
  virtual Result<CompiledBlockCode> block_function(uint32_t x, uint32_t y, uint32_t z) const = 0;
};

struct KernelInfo {
  std::string name;
  std::vector<ParamSlot> params;
  uint32_t param_bytes = 0;          // size of the whole parameter buffer
  // Both counted from the end of the reserved shared memory (kernel_abi.h), as CUDA reports
  // sizes: the block's window is kReservedSharedBytes longer.
  uint32_t static_shared_bytes = 0;  // .shared variables the kernel can reach
  uint32_t dynamic_shared_offset = 0;// where `extern .shared x[]` starts (aligned, >= static)
  uint32_t local_bytes = 0;          // .local per thread
  // The module's .const variables one after another, each aligned: what an H100 reports as
  // every kernel's cudaFuncAttributes::constSizeBytes (e2e dp_device_runtime_queries).
  uint32_t module_const_bytes = 0;
  uint32_t max_threads_per_block = 1024;  // from .maxntid/.reqntid, else the device limit
  uint32_t reqntid[3] = {0, 0, 0};
  bool uses_barriers = false;        // calls a runtime function that waits for other threads
  // Thread block clusters: .reqnctapercluster (0s: none; __cluster_dims__), .explicitcluster,
  // .maxclusterrank (0: none), and whether anything it reaches waits at barrier.cluster (its
  // blocks then run as clusters even where the launch gives none: 1x1x1 clusters).
  uint32_t cluster_dims[3] = {0, 0, 0};
  bool explicit_cluster = false;
  uint32_t max_cluster_rank = 0;
  bool waits_for_cluster = false;
  // The architecture the PTX was written for (.target sm_XX: XX), which CUDA reports as
  // the kernel's ptxVersion; 0 when the module names none.
  uint32_t ptx_arch = 0;
  KernelEntry entry = nullptr;
  // The compiled block strategy: why it cannot run this kernel (empty: it can), and what
  // makes the kernel's block functions (null when it cannot).
  std::string compiled_obstacle;
  const BlockCompiler* block_compiler = nullptr;
};

// A module-scope variable after loading: its storage lives as long as the module.
struct GlobalInfo {
  std::string name;
  ptx::StateSpace space = ptx::StateSpace::Global;
  void* address = nullptr;
  uint64_t size = 0;
};

class CompiledModule {
 public:
  virtual ~CompiledModule() = default;
  virtual const KernelInfo* find_kernel(const std::string& name) const = 0;
  virtual const GlobalInfo* find_global(const std::string& name) const = 0;
  virtual std::vector<std::string> kernel_names() const = 0;
};

class DiskCache;

struct CompileOptions {
  RuntimeSymbols runtime;   // the executor's runtime functions (kernel_abi.h)
  int optimization = 2;     // 0..3, the LLVM pipeline level
  bool dump_ir = false;     // print the LLVM IR to stderr (CUCPU_DEBUG=jit also logs it); skips cache hits
  // Where compiled code is kept between runs (disk_cache.h; cache_settings.h has the
  // process's), and the PTX texts the module was parsed and linked from, in order, which
  // name its entry. A hit skips translation, optimization and code generation; without a
  // cache or texts the module is compiled and nothing is stored.
  DiskCache* cache = nullptr;
  std::vector<std::string_view> ptx_texts;
};

// Compiles every function of the module. Unsupported instructions are reported as
// ErrorCode::InvalidPtx naming the instruction and its line, before any code runs.
Result<std::unique_ptr<CompiledModule>> compile_module(const ptx::Module& module, const CompileOptions& options);

// The kernel whose compiled entry is at `entry`, in any module loaded now; nullptr if none.
// Device-side launches name their kernel this way: in PTX, `mov.u64 %rd, kernel` gives
// the kernel's entry address.
const KernelInfo* find_kernel_by_entry(const void* entry);

// Translates to textual LLVM IR without compiling (for tests and `cucpu ptx --llvm`).
Result<std::string> translate_to_llvm_ir(const ptx::Module& module);

}  // namespace cucpu::jit
