// The device limits that size what the executor makes (cudaDeviceSetLimit): the stack of
// each CUDA thread here; the printf FIFO (device_printf.h) and the malloc heap
// (device_heap.h) beside the things they size; and the limits kept only to be read back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace cucpu::exec {

// What an H200 with CUDA 13 does (tests/data/dump_device_limits.cu, device_limits.out, and
// tests/e2e/setter_sweep.cu): sizes are raised to a minimum, then rounded up to a step in
// size_t arithmetic (SIZE_MAX wraps to 0, which the GPU then reads back), then capped.
constexpr std::size_t kDefaultThreadStackBytes = 1024;  // cudaLimitStackSize, set in steps of 16:
constexpr std::size_t kThreadStackGranule = 16;
constexpr std::size_t kMaxThreadStackBytes = 512 * 1024 - kThreadStackGranule;  // 307200 is taken, 524288 refused
constexpr std::size_t kMinPrintfFifoBytes = 512 * 1024;  // smaller requests get this
constexpr std::size_t kPrintfFifoGranule = 256;
constexpr std::size_t kMaxPrintfFifoBytes = std::size_t{1} << 31;
constexpr std::size_t kMinMallocHeapBytes = 4 << 20;     // smaller requests get this
constexpr std::size_t kMallocHeapGranule = 64 << 10;
constexpr std::size_t kMaxMallocHeapBytes = 17681179680;  // what 2^40 bytes read back as on the H200
constexpr std::size_t kMinPendingLaunchCount = 32;       // smaller requests get this
constexpr std::size_t kMaxPendingLaunchCount = 599186;   // larger requests get this
constexpr std::size_t kMaxL2FetchGranularity = 128;      // larger requests are refused
constexpr std::size_t kPersistingL2Granule = 3932160;    // the set-aside grows in these steps
constexpr std::size_t kDefaultPersistingL2Bytes = 11796480;

// cudaLimitStackSize. A fiber's stack is this or the executor's floor (CUCPU_FIBER_STACK_KIB:
// compiled kernels and the runtime functions they call need more than a GPU frame),
// whichever is larger, plus the kernel's .local bytes. Takes effect at the next launch.
void set_thread_stack_bytes(std::size_t bytes);
std::size_t thread_stack_bytes();

// Limits kept as plain values, so that a get returns what was set and a reset restores
// their defaults: the device runtime's pending-launch count and synchronisation depth
// (device_runtime.cpp checks them), and the L2 hints, which have no cache to steer here.
enum class KeptLimit { PendingLaunchCount, L2FetchGranularity, PersistingL2Bytes, DevRuntimeSyncDepth };
constexpr std::size_t kDefaultPendingLaunchCount = 2048;  // cuda_runtime_api.h
constexpr std::size_t kDefaultL2FetchGranularity = 64;
// cudaLimitDevRuntimeSyncDepth (compute capability < 9.0 only): the deepest level (the
// host's grid is level 1) whose threads may call cudaDeviceSynchronize; "two levels of
// grids" by default, at most the nesting depth of 24 levels (CUDA Programming Guide,
// Appendix D, "Nesting and Synchronization Depth" and "Configuration Options").
constexpr std::size_t kDefaultDevRuntimeSyncDepth = 2;
constexpr std::size_t kMaxNestingLevels = 24;
void set_kept_limit(KeptLimit limit, std::size_t value);
std::size_t kept_limit(KeptLimit limit);

// The value cudaDeviceGetLimit reports for a cudaLimit (by its enum value), for the host API
// and the device runtime alike; none for cudaLimitDevRuntimeSyncDepth (not a limit of a
// compute capability 9.0 device) and values that are no cudaLimit.
std::optional<std::size_t> device_limit_value(uint32_t limit);

// cudaDeviceReset: every limit the executor applies goes back to its default (the stack,
// the printf FIFO, the malloc heap, whose blocks are freed).
void reset_device_limits();

}  // namespace cucpu::exec
