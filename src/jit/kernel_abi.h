// The contract between JIT-compiled kernels and the executor that runs them.
//
// A compiled kernel is `void entry(ThreadContext*)`, run once per CUDA thread. The
// generated code reads special registers, the parameter buffer and the shared-memory
// window from the ThreadContext at fixed offsets, and calls back into the executor
// (barriers, warp collectives) through the runtime functions named below, which the
// executor provides as RuntimeSymbols when the module is compiled.
// No LLVM here: the executor includes this header too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace cucpu::jit {

// One CUDA thread's view of where it runs. Plain data: generated code reads it with
// loads at offsetof(...), so field order is ABI (kernel_abi.cpp checks the offsets the
// JIT uses against this struct).
struct ThreadContext {
  uint32_t tid[3];
  uint32_t ntid[3];
  uint32_t ctaid[3];
  uint32_t nctaid[3];
  uint32_t laneid;
  uint32_t warpid;
  uint32_t nwarpid;
  uint32_t smid;   // the worker running the block
  uint32_t nsmid;
  uint32_t dynamic_smem_size;
  uint32_t total_smem_size;
  uint32_t reserved;
  uint8_t* shared_base;   // the block's shared memory: .shared address 0 is here
  const uint8_t* params;  // the kernel's parameter buffer (layout: KernelInfo::params)
  void* executor;         // opaque to generated code: the executor's per-thread state
};

using KernelEntry = void (*)(ThreadContext*);

// Runtime functions generated code may call; the executor defines them and passes their
// addresses by these names. Signatures (all take the calling thread's context first):
//   void     __cucpu_bar_sync(ThreadContext*, uint32_t barrier, uint32_t thread_count)
//              thread_count 0 = all threads of the block
//   uint32_t __cucpu_redux_sync_u32(ThreadContext*, uint32_t op, uint32_t value, uint32_t membermask)
//              op: static_cast<uint32_t>(ptx::AtomicOp) (Add, Min, Max, And, Or, Xor);
//              signed min/max pass op | 0x100
using RuntimeSymbols = std::map<std::string, void*>;

constexpr const char* kBarSync = "__cucpu_bar_sync";
constexpr const char* kReduxSyncU32 = "__cucpu_redux_sync_u32";

}  // namespace cucpu::jit
