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

// Shared memory the GPU reserves at the start of every block's window (an H100: 1 KiB,
// cudaDevAttrReservedSharedMemoryPerBlock; the first .shared variable sits at 0x400 and
// %reserved_smem_offset_begin/end/cap read 0/288/1024): cooperative groups keeps its
// multi-warp tile barriers there. The JIT lays .shared variables out after it; the
// executor's windows hold it before the kernel's static and dynamic shared memory, so a
// stray access up to 1 KiB below a block's shared memory does not fault, as on the GPU.
constexpr uint32_t kReservedSharedBytes = 1024;
constexpr uint32_t kReservedSharedInUse = 288;  // %reserved_smem_offset_end on the H100
// The alignment of every block's ThreadContext::shared_base (exec/shared_window.h).
constexpr uint32_t kSharedBaseAlignment = 128;

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
  uint32_t param_bytes;   // the size of the parameter buffer: isspacep.param
  uint8_t* shared_base;   // the block's shared memory: .shared address 0 is here (kSharedBaseAlignment)
  const uint8_t* params;  // the kernel's parameter buffer (layout: KernelInfo::params)
  void* executor;         // opaque to generated code: the executor's per-thread state
  // The grid-sync workspace of a cooperative launch (cooperative groups' grid_workspace:
  // u32 size, u32 barrier counter), 0 otherwise: %envreg1 is its high half, %envreg2 the low.
  uint64_t grid_workspace;
  // Thread block clusters (PTX ISA 10.x, CUDA Programming Guide "Thread Block Clusters");
  // without a cluster launch every block is a 1x1x1 cluster of its own.
  uint32_t cluster_ctaid[3];   // the block's position in its cluster
  uint32_t cluster_nctaid[3];  // the cluster's shape
  uint32_t clusterid[3];       // the cluster's position in the grid
  uint32_t nclusterid[3];      // clusters per grid dimension
  uint32_t cluster_ctarank;
  uint32_t cluster_nctarank;
  uint32_t is_explicit_cluster;
  // The ranks' shared memory lies side by side, shared_stride bytes apart, rank 0 first:
  // a .shared::cluster address is a signed 32-bit offset from the thread's own
  // shared_base, so a .shared::cta address is one too (PTX ISA 5.1.6.1).
  uint32_t shared_stride;
  void* cluster;  // opaque to generated code: the executor's cluster (null for a lone block)
  uint64_t gridid;      // %gridid: the launch's number, counted from 1 per process
  uint64_t graph_exec;  // %current_graph_exec: the cudaGraphExec_t whose node launched the grid, or 0
  // Set by exit inside a .func: the thread has ended, so every caller up to the kernel
  // returns at once (lower_control_flow.cpp). 0 when the thread starts.
  uint32_t exited;
  // %aggr_smem_size: the reserved shared memory and the block's static and dynamic bytes,
  // not rounded as %total_smem_size is (an H100 reads 45024 for 1024 + 4000 + 40000).
  uint32_t aggr_smem_size;
};

using KernelEntry = void (*)(ThreadContext*);

// --- The compiled block strategy (jit/translate_block_function.cpp, exec/compiled_block.cpp)
//
// A kernel compiled for one block shape is `void block(CompiledBlockFrame*)`: it runs every
// warp of the block, each as one SIMD program whose lanes are the warp's threads, until the
// block ends. Between barriers it runs the warps one after another ("rounds"); a warp's
// lanes that reach a barrier park there and resume at the barrier's resume point once the
// barrier completes. Each warp's registers live in its file, CompiledBlockFrame::registers.

// Lanes that go on at a resume point in the next round.
struct CompiledRun {
  uint32_t point = 0;  // resume point: 0 is the kernel's entry
  uint32_t mask = 0;
  uint32_t vote_true = 0;     // bar.red: of the threads its completion released, how many offered true
  uint32_t vote_threads = 0;  // ... and how many there were
};

// Why parked lanes wait.
enum class ParkKind : uint32_t {
  Sync,        // bar.sync / barrier.sync
  Reduce,      // bar.red (predicates holds the lanes that offered true)
  Collective,  // a warp collective whose other members have not arrived yet
  Yield,       // a spin loop's back-edge: the lanes go on next round, after the others ran
};

// Lanes that wait: at a barrier, a collective, or a yield.
struct CompiledPark {
  uint32_t point = 0;         // where they resume
  uint32_t mask = 0;
  uint32_t barrier = 0;       // bar.sync/bar.red id
  uint32_t thread_count = 0;  // 0: every thread of the block
  ParkKind kind = ParkKind::Sync;
  uint32_t predicates = 0;
};

// One execution of a warp collective by the lanes `active`, for the general case
// (__cucpu_compiled_collective): each lane's membermask and offer, and its result.
struct CompiledCollective {
  uint32_t kind = 0;  // WarpCombineKind
  uint32_t operation = 0;
  uint32_t active = 0;
  uint32_t reserved = 0;
  uint32_t membermasks[32];
  uint64_t values[32];
  uint64_t arguments[32];
  uint64_t results[32];
};

// One warp's state between rounds. A direct round (translate_block_function.cpp) keeps no
// runs or parks here until it leaves direct mode (__cucpu_compiled_leave_direct); a block
// starts with one, so its warps start with none.
struct CompiledWarp {
  uint32_t live = 0;        // lanes that have not exited
  uint32_t run_count = 0;   // entries of runs
  uint32_t park_count = 0;  // entries of parks
  uint32_t reserved = 0;
  CompiledRun runs[32];
  CompiledPark parks[32];
};

struct CompiledBlockFrame {
  ThreadContext* block = nullptr;  // the block's context (the per-thread fields mean nothing)
  ThreadContext* lane = nullptr;   // one lane's context, filled by __cucpu_compiled_enter_lane
  uint8_t* warps = nullptr;        // warp_count CompiledWarp, warp_stride bytes apart
  uint8_t* local = nullptr;        // .local memory: one frame per thread, local_stride bytes apart
  uint8_t* registers = nullptr;    // the warps' registers: one file per warp, register_stride bytes apart
  uint32_t warp_count = 0;
  uint32_t warp_stride = 0;
  uint32_t local_stride = 0;
  uint32_t current_thread = 0;     // the first lane of the running warp, or the running lane
  void* execution = nullptr;       // the executor's block (opaque to generated code)
  // Set by the executor when a block left state behind that it must clear before the next
  // block (a lane's context, a warp's meeting, an error): the entry returns after the block.
  uint32_t between_blocks = 0;
  uint32_t reserved = 0;
  const uint8_t* grid_failed = nullptr;  // nonzero: another block of the grid failed, run no more
};

// Runs `count` blocks of the grid, one after another in linear order (x fastest), from the
// one in frame->block's %ctaid, which it advances (and %clusterid with it: the strategy runs
// no cluster of more than one block). Each block's warps start with all their lanes live and
// nothing queued. Returns how many blocks ran: fewer than `count` when a block set
// frame->between_blocks (the executor readies the next block itself, then calls again) or
// *frame->grid_failed. frame->block's %ctaid is then the last block's.
using BlockEntry = uint64_t (*)(CompiledBlockFrame*, uint64_t count);

// What the executor needs to run a kernel compiled for one block shape.
struct CompiledBlockCode {
  BlockEntry entry = nullptr;
  uint32_t warp_stride = 0;      // sizeof(CompiledWarp), 64-byte aligned
  uint32_t register_stride = 0;  // one warp's registers, 64-byte aligned
  uint32_t local_stride = 0;  // .local and call-sequence .param bytes per thread, 16-byte aligned
};

// Runtime functions of the compiled block strategy:
//   uint32_t __cucpu_compiled_settle(CompiledBlockFrame*)
//              at the end of a round that did not simply complete one barrier for everyone:
//              completes what the parked lanes wait for and queues the lanes it releases as
//              runs; 0: run another round, 1: the block has ended (or failed: reported)
//   void     __cucpu_compiled_leave_direct(CompiledBlockFrame*, uint32_t warp, uint32_t start, uint32_t target)
//              the running round was direct (each warp from `start` with its live lanes, the
//              warps before `warp` parked all of them at the plain __syncthreads of point
//              `target`, none recorded) and warp `warp` did something else: writes the parks
//              of the warps before it and the runs of those after it, so that the round goes
//              on the general way
//   void     __cucpu_compiled_enter_lane(CompiledBlockFrame*, uint32_t warp, uint32_t lane)
//              makes frame->lane the context of that lane (runtime calls from one lane)
//   void     __cucpu_compiled_unsupported(CompiledBlockFrame*, uint32_t warp, const char* what)
//              ends the block with an error naming what the strategy cannot run: never returns
//   void     __cucpu_warp_combine(uint32_t collective, uint32_t operation, uint32_t members,
//                                 const uint64_t* values, const uint64_t* arguments, uint64_t* results)
//              one warp collective over 32 lanes' offers, as the fiber strategy combines them;
//              collective: WarpCombineKind
//   uint32_t __cucpu_compiled_collective(CompiledBlockFrame*, uint32_t warp, CompiledCollective*)
//              the lanes meet the warp's other lanes at the warp rendezvous (exec/warp_rendezvous.h),
//              as the fiber strategy's do; returns the active lanes whose collective completed
//              (their results filled in); the others park until it does
//   void     __cucpu_compiled_collective_results(CompiledBlockFrame*, uint32_t warp, uint32_t lanes,
//                                                uint64_t* results)
//              the results of parked lanes whose collective completed since
//   void     __cucpu_jit_compiled_warp_step(void (*step)(void* const*, uint32_t, uint32_t),
//                                           const uint32_t* table, uint32_t entries, uint8_t* file,
//                                           uint64_t* buffer, uint32_t members)
//              a tensor-core warp step (jit/tensor_core_helpers.cpp): the registers the table names
//              (slot | bytes per lane << 8 | result << 16, then the offset in the warp's file)
//              copied into `buffer` (slot s of lane l at s * 32 + l, the other operands already
//              there), `step` run with stride 32, the named results copied back for `members`
enum class WarpCombineKind : uint32_t { Shuffle, Vote, Match, Elect, Nothing, Redux };
constexpr const char* kCompiledSettle = "__cucpu_compiled_settle";
constexpr const char* kCompiledEnterLane = "__cucpu_compiled_enter_lane";
constexpr const char* kCompiledLeaveDirect = "__cucpu_compiled_leave_direct";
constexpr const char* kCompiledUnsupported = "__cucpu_compiled_unsupported";
constexpr const char* kCompiledWarpStep = "__cucpu_jit_compiled_warp_step";
constexpr const char* kWarpCombine = "__cucpu_warp_combine";
constexpr const char* kCompiledCollective = "__cucpu_compiled_collective";
constexpr const char* kCompiledCollectiveResults = "__cucpu_compiled_collective_results";

// Runtime functions generated code may call; the executor defines them and passes their
// addresses by these names. Signatures (all take the calling thread's context first):
//   void     __cucpu_bar_sync(ThreadContext*, uint32_t barrier, uint32_t thread_count)
//              thread_count 0 = all threads of the block
//   void     __cucpu_bar_arrive(ThreadContext*, uint32_t barrier, uint32_t thread_count)
//              bar.arrive: counts toward the barrier, does not wait
//   uint32_t __cucpu_bar_red(ThreadContext*, uint32_t barrier, uint32_t thread_count, uint32_t op,
//                            uint32_t predicate)
//              bar.red: op static_cast<uint32_t>(ptx::AtomicOp) Popc (the count), And, Or (0 or 1)
//   void     __cucpu_yield(ThreadContext*)
//              a yield point on a spin loop's back-edge (independent thread scheduling)
//   uint32_t __cucpu_redux_sync_u32(ThreadContext*, uint32_t op, uint32_t value, uint32_t membermask)
//              op: static_cast<uint32_t>(ptx::AtomicOp) (Add, Min, Max, And, Or, Xor);
//              signed min/max pass op | 0x100
// Warp collectives (lower_warp_collectives.cpp, exec/warp_collectives.cpp); a `d|p` result
// is a u64 with d in bits 0..31 and p in bit 32:
//   uint64_t __cucpu_shfl_sync(ThreadContext*, uint32_t mode, uint32_t a, uint32_t b, uint32_t c, uint32_t membermask)
//              mode: static_cast<uint32_t>(ptx::ShuffleMode)
//   uint32_t __cucpu_vote_sync(ThreadContext*, uint32_t mode, uint32_t predicate, uint32_t membermask)
//              mode: ptx::VoteMode; all/any/uni return 0 or 1, ballot the mask
//   uint64_t __cucpu_match_sync(ThreadContext*, uint32_t mode, uint64_t value, uint32_t membermask)
//              mode: ptx::VoteMode (Any, All) | 0x100 for .b64
//   uint32_t __cucpu_activemask(ThreadContext*, uint32_t call_site)
//   void     __cucpu_bar_warp_sync(ThreadContext*, uint32_t membermask)
//   uint64_t __cucpu_elect_sync(ThreadContext*, uint32_t membermask)   d = the leader's lane
//   void     __cucpu_warp_step(ThreadContext*, uint32_t membermask, void* lane_data,
//                              void (*step)(void* const* lanes, uint32_t members, uint32_t stride),
//                              uint32_t operation)
//              the member lanes meet; `step` runs once with every member's lane_data (the
//              others null) and stride 1 (the compiled block strategy calls it itself, with
//              slot s of every lane's buffer together: stride 32); lanes meet only at the
//              same operation (tensor-core instructions)
// Thread block clusters (lower_cluster.cpp, exec/cluster_runner.cpp):
//   void     __cucpu_cluster_arrive(ThreadContext*)   barrier.cluster.arrive (any form)
//   void     __cucpu_cluster_wait(ThreadContext*)     barrier.cluster.wait: until every non-exited
//                                                      thread of the cluster has arrived
//   uint32_t __cucpu_is_local(ThreadContext*, uint64_t address)  isspacep.local: on the thread's stack
// Device library externs (lower_control_flow.cpp, exec/device_calls.cpp):
//   int32_t  __cucpu_vprintf(ThreadContext*, const char* format, const uint8_t* args)
//              returns the number of arguments the format consumed
//   void     __cucpu_assertfail(ThreadContext*, const char* message, const char* file,
//                               uint32_t line, const char* function, uint64_t char_size)  never returns
//   void     __cucpu_trap(ThreadContext*)                                                 never returns
//   void     __cucpu_breakpoint(ThreadContext*)   brkpt with no debugger attached: never returns
//   void     __cucpu_illegal_instruction(ThreadContext*, const char* why)
//              an instruction the GPU refuses when it runs (cudaErrorIllegalInstruction): never returns
//   void*    __cucpu_malloc(ThreadContext*, uint64_t bytes)    device malloc: NULL when the heap is full
//   void     __cucpu_free(ThreadContext*, void* pointer)
//   void     __cucpu_nanosleep(ThreadContext*, uint32_t nanoseconds)   nanosleep.u32: a yield point
//   void     __cucpu_misaligned(ThreadContext*, const void* address, uint32_t bytes)
//              an ld/st whose address is not a multiple of its size: never returns
//   void     __cucpu_bad_call_target(ThreadContext*, const void* target)
//              an indirect call through an address that is no callable .func: never returns
// Device runtime (dynamic parallelism; lower_device_runtime_call.cpp, exec/device_runtime.cpp):
// a call of the extern NAME of cuda_device_runtime_api.h listed in kDeviceRuntimeFunctions
// (the __cudaCDP2* names nvcc 13 emits, and the plain names of the guide's Appendix D ABI
// it emits for sm < 90 with -DCUDA_FORCE_CDP1_IF_SUPPORTED) calls the runtime function
// kDeviceRuntimePrefix + NAME, all with one signature:
//   void     __cucpu_devrt.NAME(ThreadContext*, void* const* args, void* result)
//              args[i] points at the i-th argument's .param memory, result at the return
//              .param (null when the function returns nothing)
using RuntimeSymbols = std::map<std::string, void*>;

constexpr const char* kBarSync = "__cucpu_bar_sync";
constexpr const char* kBarArrive = "__cucpu_bar_arrive";
constexpr const char* kBarRed = "__cucpu_bar_red";
constexpr const char* kYield = "__cucpu_yield";
constexpr const char* kReduxSyncU32 = "__cucpu_redux_sync_u32";
constexpr const char* kShflSync = "__cucpu_shfl_sync";
constexpr const char* kVoteSync = "__cucpu_vote_sync";
constexpr const char* kMatchSync = "__cucpu_match_sync";
constexpr const char* kActivemask = "__cucpu_activemask";
constexpr const char* kBarWarpSync = "__cucpu_bar_warp_sync";
constexpr const char* kElectSync = "__cucpu_elect_sync";
constexpr const char* kWarpStep = "__cucpu_warp_step";

constexpr const char* kClusterArrive = "__cucpu_cluster_arrive";
constexpr const char* kClusterWait = "__cucpu_cluster_wait";
constexpr const char* kIsLocal = "__cucpu_is_local";

constexpr const char* kVprintf = "__cucpu_vprintf";
constexpr const char* kAssertFail = "__cucpu_assertfail";
constexpr const char* kTrap = "__cucpu_trap";
constexpr const char* kBreakpoint = "__cucpu_breakpoint";
constexpr const char* kMalloc = "__cucpu_malloc";
constexpr const char* kFree = "__cucpu_free";
constexpr const char* kNanosleep = "__cucpu_nanosleep";
constexpr const char* kMisaligned = "__cucpu_misaligned";
constexpr const char* kIllegalInstruction = "__cucpu_illegal_instruction";
constexpr const char* kBadCallTarget = "__cucpu_bad_call_target";

constexpr const char* kDeviceRuntimePrefix = "__cucpu_devrt.";
constexpr const char* kDeviceRuntimeFunctions[] = {
    "__cudaCDP2GetParameterBufferV2",
    "__cudaCDP2LaunchDeviceV2",
    "__cudaCDP2LaunchDeviceV2_ptsz",
    "__cudaCDP2GetLastError",
    "__cudaCDP2PeekAtLastError",
    "__cudaCDP2GetErrorName",
    "__cudaCDP2GetErrorString",
    "__cudaCDP2DeviceGetLimit",
    "__cudaCDP2GetDevice",
    "__cudaCDP2RuntimeGetVersion",
    "__cudaCDP2StreamCreateWithFlags",
    "__cudaCDP2StreamDestroy",
    "__cudaCDP2EventCreateWithFlags",
    "__cudaCDP2EventRecord",
    "__cudaCDP2EventRecord_ptsz",
    "__cudaCDP2EventRecordWithFlags",
    "__cudaCDP2EventRecordWithFlags_ptsz",
    "__cudaCDP2StreamWaitEvent",
    "__cudaCDP2StreamWaitEvent_ptsz",
    "__cudaCDP2EventDestroy",
    "__cudaCDP2Malloc",
    "__cudaCDP2Free",
    "__cudaCDP2MemcpyAsync",
    "__cudaCDP2MemcpyAsync_ptsz",
    "__cudaCDP2MemsetAsync",
    "__cudaCDP2MemsetAsync_ptsz",
    "__cudaCDP2GetDeviceCount",
    "__cudaCDP2DeviceGetAttribute",
    "__cudaCDP2DeviceGetCacheConfig",
    "__cudaCDP2DeviceGetSharedMemConfig",
    "__cudaCDP2FuncGetAttributes",
    "__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessor",
    "__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "__cudaCDP2GetParameterBuffer",
    "__cudaCDP2LaunchDevice",
    "__cudaCDP2LaunchDevice_ptsz",
    "__cudaCDP2Memcpy2DAsync",
    "__cudaCDP2Memcpy2DAsync_ptsz",
    "__cudaCDP2Memcpy3DAsync",
    "__cudaCDP2Memcpy3DAsync_ptsz",
    "__cudaCDP2Memset2DAsync",
    "__cudaCDP2Memset2DAsync_ptsz",
    "__cudaCDP2Memset3DAsync",
    "__cudaCDP2Memset3DAsync_ptsz",
    // The Appendix D ABI: parameter buffers, launches, device-side synchronisation.
    "cudaGetParameterBuffer",
    "cudaGetParameterBufferV2",
    "cudaLaunchDevice",
    "cudaLaunchDevice_ptsz",
    "cudaLaunchDeviceV2",
    "cudaLaunchDeviceV2_ptsz",
    "cudaDeviceSynchronize",
    // Its names of the calls CDP2 names __cudaCDP2*.
    "cudaGetLastError",
    "cudaPeekAtLastError",
    "cudaGetErrorName",
    "cudaGetErrorString",
    "cudaDeviceGetLimit",
    "cudaGetDevice",
    "cudaRuntimeGetVersion",
    "cudaStreamCreateWithFlags",
    "cudaStreamDestroy",
    "cudaEventCreateWithFlags",
    "cudaEventRecord",
    "cudaEventRecord_ptsz",
    "cudaEventRecordWithFlags",
    "cudaEventRecordWithFlags_ptsz",
    "cudaStreamWaitEvent",
    "cudaStreamWaitEvent_ptsz",
    "cudaEventDestroy",
    "cudaMalloc",
    "cudaFree",
    "cudaMemcpyAsync",
    "cudaMemcpyAsync_ptsz",
    "cudaMemsetAsync",
    "cudaMemsetAsync_ptsz",
    "cudaGetDeviceCount",
    "cudaDeviceGetAttribute",
    "cudaDeviceGetCacheConfig",
    "cudaFuncGetAttributes",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaMemcpy2DAsync",
    "cudaMemcpy2DAsync_ptsz",
    "cudaMemcpy3DAsync",
    "cudaMemcpy3DAsync_ptsz",
    "cudaMemset2DAsync",
    "cudaMemset2DAsync_ptsz",
    "cudaMemset3DAsync",
    "cudaMemset3DAsync_ptsz",
};
// Device-side graph calls of cuda_device_runtime_api.h, lowered as the device runtime's
// functions are (same ABI and prefix), defined by exec/graph_conditional.cpp.
constexpr const char* kGraphDeviceFunctions[] = {
    "cudaGraphSetConditional",
};
// The driver's entry points that NVIDIA's device runtime library (libcudadevrt.a) calls,
// for when its PTX is compiled as code of its own (`cucpu ptx --compile`, tests; programs
// leave the library out and call the functions above): lowered as the device runtime's
// functions are (same ABI and prefix), defined by exec/device_runtime_driver.cpp. The
// cnp* names serve the library's Appendix D functions, __cuda_syscall_cnpv2* its
// __cudaCDP2* ones; they return the library's CNPerror codes, not cudaError_t.
constexpr const char* kDeviceRuntimeDriverFunctions[] = {
    "cnpGetLastError", "cnpSetLastError", "cnpGetDevice", "cnpGetDeviceCount", "cnpDeviceGetAttribute",
    "cnpGetLimit", "cnpGetCacheConfig", "cnpGetSharedMemConfig", "cnpFuncGetAttribute",
    "__cuda_syscall_cnpMaxActiveBlocksPerMultiprocessor", "__cuda_syscall_cnpMaxActiveBlocksPerMultiprocessorWithFlags",
    "cnpStreamCreate", "cnpStreamDestroy", "cnpStreamWaitEvent", "cnpEventCreate", "cnpEventRecord",
    "cnpEventDestroy", "cnpGetParameterBuffer", "cnpLaunchDevice", "cnpGetParameterBufferV2", "cnpLaunchDeviceV2",
    "__cuda_syscall_cnpv2GetLastError", "__cuda_syscall_cnpv2SetLastError", "__cuda_syscall_cnpv2GetDevice",
    "__cuda_syscall_cnpv2GetDeviceCount", "__cuda_syscall_cnpv2DeviceGetAttribute", "__cuda_syscall_cnpv2GetLimit",
    "__cuda_syscall_cnpv2GetCacheConfig", "__cuda_syscall_cnpv2GetSharedMemConfig",
    "__cuda_syscall_cnpv2FuncGetAttribute", "__cuda_syscall_cnpv2MaxActiveBlocksPerMultiprocessor",
    "__cuda_syscall_cnpv2MaxActiveBlocksPerMultiprocessorWithFlags", "__cuda_syscall_cnpv2StreamCreate",
    "__cuda_syscall_cnpv2StreamDestroy", "__cuda_syscall_cnpv2StreamWaitEvent", "__cuda_syscall_cnpv2EventCreate",
    "__cuda_syscall_cnpv2EventRecord", "__cuda_syscall_cnpv2EventDestroy", "__cuda_syscall_cnpv2GetParameterBuffer",
    "__cuda_syscall_cnpv2LaunchDevice", "__cuda_syscall_cnpv2GetParameterBufferV2",
    "__cuda_syscall_cnpv2LaunchDeviceV2",
    // The grid group of the library's cudaCG* functions (cooperative launches).
    "__cuda_syscall_CGS_get_intrinsic_handle", "__cuda_syscall_CGS_sync", "__cuda_syscall_CGS_get_size",
    "__cuda_syscall_CGS_get_rank",
};
// The device runtime function that waits for other threads (the grids its block launched):
// a kernel that can call it runs its blocks as fibers, which can be suspended.
constexpr const char* kDeviceSynchronize = "cudaDeviceSynchronize";

}  // namespace cucpu::jit
