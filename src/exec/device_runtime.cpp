// The CDP2 device runtime functions (device_runtime.h): a `<<<>>>` in device code is
// __cudaCDP2GetParameterBufferV2 (checks the configuration, makes the child grid and hands
// out its parameter buffer), the caller's stores of the arguments into the buffer, then
// __cudaCDP2LaunchDeviceV2 (records the child in the launch tree, launch_tree.h); errors
// go to the launching thread's cudaGetLastError. Each function takes its arguments as
// pointers to their .param memory (kernel_abi.h) and returns cudaError_t values, numbered
// as driver_types.h numbers them (exec does not see the CUDA headers).
//
// The guide's Appendix D ABI (nvcc 13 emits it for sm < 90 with -DCUDA_FORCE_CDP1_IF_SUPPORTED)
// names the same calls without the __cudaCDP2 prefix and adds cudaGetParameterBuffer /
// cudaLaunchDevice (the kernel named at launch), device-side cudaDeviceSynchronize and the
// guide's limits: 24 nesting levels, cudaLimitDevRuntimeSyncDepth, 4 KB parameter buffers.
#include "exec/device_runtime.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <string>

#include "exec/block_execution.h"
#include "exec/device_heap.h"
#include "exec/device_limits.h"
#include "exec/device_printf.h"
#include "exec/device_runtime_call.h"
#include "exec/device_runtime_driver.h"
#include "exec/device_runtime_model_calls.h"
#include "exec/kernel_faults.h"
#include "support/error_text.h"

namespace cucpu::exec {
namespace {

using namespace devrt;

// The special stream handles of cuda_device_runtime_api.h (CDP2).
constexpr uint64_t kNullStream = 0;
constexpr uint64_t kTailLaunchStream = 0x3;
constexpr uint64_t kFireAndForgetStream = 0x4;

// The ABI a launch came through. CDP2 launches have no nesting limit (what an H100 does);
// the Appendix D ABI has the guide's limits.
enum class LaunchAbi { Cdp2, AppendixD };

// CUDA Programming Guide, Appendix D, "Parameter Buffer Layout": at most 4 KB, 64-byte aligned.
constexpr std::size_t kMaxParameterBufferBytes = 4096;
constexpr std::size_t kParameterBufferAlignment = 64;

uint32_t cuda_error(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidValue:
      return kErrorInvalidValue;
    case ErrorCode::InvalidPitchValue:
      return kErrorInvalidPitchValue;
    case ErrorCode::MemoryAllocation:
      return kErrorMemoryAllocation;
    case ErrorCode::InvalidConfiguration:
      return kErrorInvalidConfiguration;
    case ErrorCode::InvalidDeviceFunction:
      return kErrorInvalidDeviceFunction;
    case ErrorCode::LaunchOutOfResources:
      return kErrorLaunchOutOfResources;
    case ErrorCode::NotSupported:
      return kErrorNotSupported;
    default:
      return kErrorUnknown;
  }
}

// The calling thread's block's scope; null where the block has none.
BlockLaunchScope* scope_of(ThreadExecution& self) { return self.block->launch_scope; }

void fail_call(ThreadExecution& self, uint32_t error) {
  if (BlockLaunchScope* scope = scope_of(self)) scope->set_last_error(self.linear_tid, error);
}

// The scope of the calling thread's block. Blocks of cooperative launches run interleaved
// without one: there the call fails the grid with a clear error.
BlockLaunchScope* require_scope(ThreadExecution& self, void* result, const char* function) {
  BlockLaunchScope* scope = scope_of(self);
  if (scope) return scope;
  self.block->report_error(ErrorCode::NotSupported,
                           std::string(function) + " in a cooperative launch is not supported yet");
  store_result(result, kErrorNotSupported);
  return nullptr;
}

// Stores `error` as the call's result, and as the thread's last error when it is one.
void finish_call(BlockLaunchScope& scope, ThreadExecution& self, void* result, uint32_t error) {
  if (error != kSuccess) scope.set_last_error(self.linear_tid, error);
  store_result(result, error);
}

// Whether an argument in the parameter buffer points into the launching block's shared
// memory or the launching thread's local memory (its stack), which a child grid cannot
// reach (CUDA Programming Guide, dynamic parallelism, "Shared Memory and Local Memory":
// passing such a pointer is illegal). Every 8-byte word is taken as a possible pointer:
// no other value falls into those windows by chance.
bool points_into_block_memory(const jit::ThreadContext& context, const PreparedGrid& prepared) {
  const auto shared_low = reinterpret_cast<uint64_t>(context.shared_base);
  const uint64_t shared_high = shared_low + jit::kReservedSharedBytes + context.total_smem_size;
  const RunningKernelThread& running = running_kernel_thread;
  for (uint32_t offset = 0; offset + 8 <= prepared.kernel->param_bytes; offset += 8) {
    uint64_t word;
    std::memcpy(&word, prepared.params + offset, sizeof(word));
    if (word >= shared_low && word < shared_high) return true;
    if (running.is_local(word)) return true;
  }
  return false;
}

// cudaGetParameterBufferV2(void* func, dim3 grid, dim3 block, unsigned shared_bytes), as
// __cudaCDP2GetParameterBufferV2 or the Appendix D function: checks the configuration,
// makes the child grid and hands out its parameter buffer (laid out as the kernel's .param
// space: each argument at a multiple of its alignment, 64-byte aligned as a whole).
void get_parameter_buffer_for(jit::ThreadContext* context, void* const* args, void* result, LaunchAbi abi) {
  ThreadExecution& self = executing_thread(context);
  store_result<uint64_t>(result, 0);
  BlockLaunchScope* scope = require_scope(self, nullptr, "a device-side launch");
  if (!scope) return;
  const jit::KernelInfo* kernel = jit::find_kernel_by_entry(argument<void*>(args, 0));
  if (!kernel) {
    scope->set_last_error(self.linear_tid, kErrorInvalidDeviceFunction);
    return;
  }
  if (abi == LaunchAbi::AppendixD && kernel->param_bytes > kMaxParameterBufferBytes) {
    scope->set_last_error(self.linear_tid, kErrorInvalidValue);
    return;
  }
  LaunchShape shape{dim3_argument(args, 1), dim3_argument(args, 2), argument<uint32_t>(args, 3)};
  Result<PreparedGrid> prepared = GridExecutor::instance().prepare_device_grid(*kernel, shape);
  if (!prepared) {
    scope->set_last_error(self.linear_tid, cuda_error(prepared.error().code));
    return;
  }
  store_result(result, reinterpret_cast<uint64_t>(prepared->params));
  scope->keep_prepared(std::move(*prepared));
}

// void* __cudaCDP2GetParameterBufferV2(void* func, dim3 grid, dim3 block, unsigned shared_bytes)
void get_parameter_buffer_v2(jit::ThreadContext* context, void* const* args, void* result) {
  get_parameter_buffer_for(context, args, result, LaunchAbi::Cdp2);
}

// void* cudaGetParameterBufferV2(void* func, dim3 grid, dim3 block, unsigned shared_bytes)
void appendix_d_get_parameter_buffer_v2(jit::ThreadContext* context, void* const* args, void* result) {
  get_parameter_buffer_for(context, args, result, LaunchAbi::AppendixD);
}

// Records a prepared grid in the launch tree as a child of the launching block's grid, in
// the stream `handle` names; the result is the launch's cudaError_t.
void launch_prepared(jit::ThreadContext* context, BlockLaunchScope& scope, PreparedGrid prepared, uint64_t handle,
                     LaunchAbi abi, void* result) {
  ThreadExecution& self = executing_thread(context);
  auto fail = [&](uint32_t error) { finish_call(scope, self, result, error); };
  if (points_into_block_memory(*context, prepared)) return fail(kErrorInvalidValue);
  TreeGrid& parent = scope.grid();
  // The guide's nesting depth: "Any launch which would result in a kernel at a deeper level
  // than the maximum will fail" (the host's grid is level 1, depth 0 here). CDP2 on an H100
  // (CUDA 13.0) accepts launches deeper than that (seen to 2000, conformance dp_depth_limits):
  // there is no depth limit there, only memory.
  if (abi == LaunchAbi::AppendixD && parent.depth() + 1 >= kMaxNestingLevels)
    return fail(kErrorLaunchMaxDepthExceeded);
  if (pending_launch_count() >= kept_limit(KeptLimit::PendingLaunchCount))
    return fail(kErrorLaunchPendingCountExceeded);
  if (abi == LaunchAbi::Cdp2 && handle == kTailLaunchStream) {
    launch_tail(parent, prepared.grid.release());
  } else if (abi == LaunchAbi::Cdp2 && handle == kFireAndForgetStream) {
    launch_child(parent, prepared.grid.release(), nullptr, scope.launches());
  } else if (std::shared_ptr<LaunchStream> stream = scope.stream(handle)) {
    launch_child(parent, prepared.grid.release(), stream, scope.launches());
  } else {
    return fail(kErrorInvalidResourceHandle);
  }
  store_result(result, kSuccess);
}

// cudaError_t cudaLaunchDeviceV2(void* parameter_buffer, cudaStream_t stream), either ABI.
void launch_device_v2_for(jit::ThreadContext* context, void* const* args, void* result, LaunchAbi abi) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "a device-side launch");
  if (!scope) return;
  PreparedGrid prepared = scope->take_prepared(argument<void*>(args, 0));
  if (!prepared.grid) return finish_call(*scope, self, result, kErrorInvalidValue);
  launch_prepared(context, *scope, std::move(prepared), argument<uint64_t>(args, 1), abi, result);
}

// cudaError_t __cudaCDP2LaunchDeviceV2(void* parameter_buffer, cudaStream_t stream)
void launch_device_v2(jit::ThreadContext* context, void* const* args, void* result) {
  launch_device_v2_for(context, args, result, LaunchAbi::Cdp2);
}

// cudaError_t cudaLaunchDeviceV2(void* parameter_buffer, cudaStream_t stream)
void appendix_d_launch_device_v2(jit::ThreadContext* context, void* const* args, void* result) {
  launch_device_v2_for(context, args, result, LaunchAbi::AppendixD);
}

// void* cudaGetParameterBuffer(size_t alignment, size_t size), as __cudaCDP2GetParameterBuffer
// or the Appendix D function: a buffer for a launch whose kernel cudaLaunchDevice names
// later. Null (and cudaErrorInvalidValue as the thread's last error) beyond 64-byte
// alignment or the ABI's size: the guide's 4 KB for Appendix D; for CDP2, which launches
// (cudaGetParameterBufferV2) with the kernel's whole parameter buffer, the largest a kernel
// may have (CUDA 12.1+: 32764 bytes).
void get_kernelless_parameter_buffer_for(jit::ThreadContext* context, void* const* args, void* result, LaunchAbi abi) {
  constexpr std::size_t kMaxKernelParameterBytes = 32764;
  ThreadExecution& self = executing_thread(context);
  store_result<uint64_t>(result, 0);
  BlockLaunchScope* scope = require_scope(self, nullptr, "cudaGetParameterBuffer");
  if (!scope) return;
  const auto alignment = argument<uint64_t>(args, 0);
  const auto bytes = argument<uint64_t>(args, 1);
  const std::size_t max_bytes = abi == LaunchAbi::AppendixD ? kMaxParameterBufferBytes : kMaxKernelParameterBytes;
  if (bytes > max_bytes || alignment > kParameterBufferAlignment) {
    scope->set_last_error(self.linear_tid, kErrorInvalidValue);
    return;
  }
  void* buffer = scope->new_parameter_buffer(bytes);
  if (!buffer) {
    scope->set_last_error(self.linear_tid, kErrorMemoryAllocation);
    return;
  }
  store_result(result, reinterpret_cast<uint64_t>(buffer));
}

// void* __cudaCDP2GetParameterBuffer(size_t alignment, size_t size)
void get_parameter_buffer(jit::ThreadContext* context, void* const* args, void* result) {
  get_kernelless_parameter_buffer_for(context, args, result, LaunchAbi::Cdp2);
}

// void* cudaGetParameterBuffer(size_t alignment, size_t size)
void appendix_d_get_parameter_buffer(jit::ThreadContext* context, void* const* args, void* result) {
  get_kernelless_parameter_buffer_for(context, args, result, LaunchAbi::AppendixD);
}

// cudaError_t cudaLaunchDevice(void* func, void* parameter_buffer, dim3 grid, dim3 block,
// unsigned shared_bytes, cudaStream_t stream), either ABI: the buffer comes from cudaGetParameterBuffer
// ("can be NULL" for a kernel without parameters).
void launch_device_for(jit::ThreadContext* context, void* const* args, void* result, LaunchAbi abi) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "a device-side launch");
  if (!scope) return;
  auto fail = [&](uint32_t error) { finish_call(*scope, self, result, error); };
  const jit::KernelInfo* kernel = jit::find_kernel_by_entry(argument<void*>(args, 0));
  if (!kernel) return fail(kErrorInvalidDeviceFunction);
  LaunchShape shape{dim3_argument(args, 2), dim3_argument(args, 3), argument<uint32_t>(args, 4)};
  Result<PreparedGrid> prepared = GridExecutor::instance().prepare_device_grid(*kernel, shape);
  if (!prepared) return fail(cuda_error(prepared.error().code));
  const void* buffer = argument<void*>(args, 1);
  if ((buffer || kernel->param_bytes > 0) &&
      !scope->take_parameter_buffer(buffer, prepared->params, kernel->param_bytes))
    return fail(kErrorInvalidValue);
  launch_prepared(context, *scope, std::move(*prepared), argument<uint64_t>(args, 5), abi, result);
}

// cudaError_t __cudaCDP2LaunchDevice(void* func, void* parameter_buffer, dim3 grid, dim3 block,
// unsigned shared_bytes, cudaStream_t stream)
void launch_device(jit::ThreadContext* context, void* const* args, void* result) {
  launch_device_for(context, args, result, LaunchAbi::Cdp2);
}

// cudaError_t cudaLaunchDevice(void* func, void* parameter_buffer, dim3 grid, dim3 block,
// unsigned shared_bytes, cudaStream_t stream)
void appendix_d_launch_device(jit::ThreadContext* context, void* const* args, void* result) {
  launch_device_for(context, args, result, LaunchAbi::AppendixD);
}

// cudaError_t cudaDeviceSynchronize(void) in device code: the calling thread waits until
// all work its block launched so far is complete, and then sees the writes of those grids
// (Appendix D, "Synchronization"; the block is suspended meanwhile, see fiber_scheduler.h).
// At a level deeper than cudaLimitDevRuntimeSyncDepth it fails: "explicit synchronization
// deeper than this limit will return the cudaErrorLaunchMaxDepthExceeded" (the guide's
// "Configuration Options"; driver_types.h also has cudaErrorSyncDepthExceeded for it).
void device_synchronize(jit::ThreadContext* context, void* const*, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaDeviceSynchronize");
  if (!scope) return;
  if (scope->grid().depth() >= kept_limit(KeptLimit::DevRuntimeSyncDepth))
    return finish_call(*scope, self, result, kErrorLaunchMaxDepthExceeded);
  BlockLaunches* launches = scope->launches_if_any();
  if (launches && !launches->complete() && !self.block->wait_for_launches(self, *launches)) {
    self.block->report_error(ErrorCode::LaunchFailure,
                             "cudaDeviceSynchronize in a block that cannot be suspended (the kernel was compiled "
                             "as one that never waits)");
    return finish_call(*scope, self, result, kErrorLaunchFailure);
  }
  finish_call(*scope, self, result, launches && launches->failed() ? kErrorLaunchFailure : kSuccess);
}

// cudaError_t __cudaCDP2StreamCreateWithFlags(cudaStream_t* stream, unsigned flags): device
// streams must be cudaStreamNonBlocking (CUDA Programming Guide, "Streams" of dynamic
// parallelism): they are never ordered with the NULL stream.
void stream_create_with_flags(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr uint32_t kStreamNonBlocking = 0x1;
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaStreamCreateWithFlags");
  if (!scope) return;
  auto* handle = argument<uint64_t*>(args, 0);
  if (!handle || argument<uint32_t>(args, 1) != kStreamNonBlocking)
    return finish_call(*scope, self, result, kErrorInvalidValue);
  *handle = scope->create_stream();
  finish_call(*scope, self, result, kSuccess);
}

// cudaError_t __cudaCDP2StreamDestroy(cudaStream_t): work queued in it still runs.
void stream_destroy(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaStreamDestroy");
  if (!scope) return;
  const bool destroyed = scope->destroy_stream(argument<uint64_t>(args, 0));
  finish_call(*scope, self, result, destroyed ? kSuccess : kErrorInvalidResourceHandle);
}

// cudaError_t __cudaCDP2EventCreateWithFlags(cudaEvent_t* event, unsigned flags): device
// events must be cudaEventDisableTiming (they only order streams).
void event_create_with_flags(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr uint32_t kEventDisableTiming = 0x2;
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaEventCreateWithFlags");
  if (!scope) return;
  auto* handle = argument<uint64_t*>(args, 0);
  if (!handle || argument<uint32_t>(args, 1) != kEventDisableTiming)
    return finish_call(*scope, self, result, kErrorInvalidValue);
  *handle = scope->create_event();
  finish_call(*scope, self, result, kSuccess);
}

// cudaEventRecord(event, stream) and cudaEventRecordWithFlags(event, stream, 0).
void record_event(jit::ThreadContext* context, uint64_t event_handle, uint64_t stream_handle, uint32_t flags,
                  void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaEventRecord");
  if (!scope) return;
  if (flags != 0) return finish_call(*scope, self, result, kErrorInvalidValue);
  std::shared_ptr<DeviceEvent> event = scope->event(event_handle);
  std::shared_ptr<LaunchStream> stream = scope->stream(stream_handle);
  if (!event || !stream) return finish_call(*scope, self, result, kErrorInvalidResourceHandle);
  stream->enqueue_record(event);
  finish_call(*scope, self, result, kSuccess);
}

void event_record(jit::ThreadContext* context, void* const* args, void* result) {
  record_event(context, argument<uint64_t>(args, 0), argument<uint64_t>(args, 1), 0, result);
}

void event_record_with_flags(jit::ThreadContext* context, void* const* args, void* result) {
  record_event(context, argument<uint64_t>(args, 0), argument<uint64_t>(args, 1), argument<uint32_t>(args, 2), result);
}

// cudaError_t __cudaCDP2StreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags)
void stream_wait_event(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaStreamWaitEvent");
  if (!scope) return;
  if (argument<uint32_t>(args, 2) != 0) return finish_call(*scope, self, result, kErrorInvalidValue);
  std::shared_ptr<LaunchStream> stream = scope->stream(argument<uint64_t>(args, 0));
  std::shared_ptr<DeviceEvent> event = scope->event(argument<uint64_t>(args, 1));
  if (!event || !stream) return finish_call(*scope, self, result, kErrorInvalidResourceHandle);
  stream->enqueue_wait(event);
  finish_call(*scope, self, result, kSuccess);
}

// cudaError_t __cudaCDP2EventDestroy(cudaEvent_t): records and waits made go on.
void event_destroy(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaEventDestroy");
  if (!scope) return;
  const bool destroyed = scope->destroy_event(argument<uint64_t>(args, 0));
  finish_call(*scope, self, result, destroyed ? kSuccess : kErrorInvalidResourceHandle);
}

// cudaError_t __cudaCDP2Malloc(void** pointer, size_t bytes): the device heap, as malloc.
void device_runtime_malloc(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  auto** pointer = argument<void**>(args, 0);
  uint32_t error = kSuccess;
  if (!pointer) {
    error = kErrorInvalidValue;
  } else {
    *pointer = device_malloc(argument<uint64_t>(args, 1));
    if (!*pointer) error = kErrorMemoryAllocation;
  }
  if (error != kSuccess) fail_call(self, error);
  store_result(result, error);
}

// cudaError_t __cudaCDP2Free(void* pointer)
void device_runtime_free(jit::ThreadContext*, void* const* args, void* result) {
  device_free(argument<void*>(args, 0));
  store_result(result, kSuccess);
}

// cudaError_t __cudaCDP2MemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind,
// cudaStream_t): device-to-device only (CUDA Programming Guide, dynamic parallelism's
// "Memory Declarations": device code cannot reach host memory it was not given).
void memcpy_async(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr uint32_t kMemcpyDeviceToDevice = 3, kMemcpyDefault = 4;
  auto* dst = argument<uint8_t*>(args, 0);
  const auto* src = argument<const uint8_t*>(args, 1);
  const auto bytes = argument<uint64_t>(args, 2);
  const auto kind = argument<uint32_t>(args, 3);
  if (kind != kMemcpyDeviceToDevice && kind != kMemcpyDefault) {
    ThreadExecution& self = executing_thread(context);
    fail_call(self, kErrorInvalidValue);
    return store_result(result, kErrorInvalidValue);
  }
  enqueue_memory_command(
      context, argument<uint64_t>(args, 4), [=] { std::memmove(dst, src, bytes); }, result);
}

// cudaError_t __cudaCDP2MemsetAsync(void* pointer, int value, size_t bytes, cudaStream_t).
// An H100 (driver 580, CUDA 13.0) stores zeros whatever the value (conformance
// dp_device_memcpy records it); this stores the value asked for, as the API documents.
void memset_async(jit::ThreadContext* context, void* const* args, void* result) {
  auto* pointer = argument<uint8_t*>(args, 0);
  const auto value = static_cast<uint8_t>(argument<uint32_t>(args, 1));
  const auto bytes = argument<uint64_t>(args, 2);
  enqueue_memory_command(
      context, argument<uint64_t>(args, 3), [=] { std::memset(pointer, value, bytes); }, result);
}

// cudaError_t __cudaCDP2GetLastError(void), __cudaCDP2PeekAtLastError(void)
void get_last_error(jit::ThreadContext* context, void* const*, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = scope_of(self);
  store_result(result, scope ? scope->last_error(self.linear_tid, true) : kSuccess);
}

void peek_at_last_error(jit::ThreadContext* context, void* const*, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = scope_of(self);
  store_result(result, scope ? scope->last_error(self.linear_tid, false) : kSuccess);
}

// const char* __cudaCDP2GetErrorName(cudaError_t), __cudaCDP2GetErrorString(cudaError_t)
void get_error_name(jit::ThreadContext*, void* const* args, void* result) {
  const ErrorText* entry = find_error_text(argument<int32_t>(args, 0));
  store_result(result, reinterpret_cast<uint64_t>(entry ? entry->name : kUnrecognizedError));
}

void get_error_string(jit::ThreadContext*, void* const* args, void* result) {
  const ErrorText* entry = find_error_text(argument<int32_t>(args, 0));
  store_result(result, reinterpret_cast<uint64_t>(entry ? entry->text : kUnrecognizedError));
}

// *out = value for a query's int output; a null output is cudaErrorInvalidValue.
void store_int_result(jit::ThreadContext* context, int32_t* out, int32_t value, void* result) {
  if (!out) {
    fail_call(executing_thread(context), kErrorInvalidValue);
    return store_result(result, kErrorInvalidValue);
  }
  *out = value;
  store_result(result, kSuccess);
}

// cudaError_t __cudaCDP2DeviceGetLimit(size_t* value, cudaLimit limit)
void device_get_limit(jit::ThreadContext* context, void* const* args, void* result) {
  auto* value = argument<uint64_t*>(args, 0);
  const std::optional<std::size_t> limit = device_limit_value(argument<uint32_t>(args, 1));
  const uint32_t error = !value ? kErrorInvalidValue : !limit ? kErrorUnsupportedLimit : kSuccess;
  if (error == kSuccess) {
    *value = *limit;
  } else {
    fail_call(executing_thread(context), error);
  }
  store_result(result, error);
}

// cudaError_t __cudaCDP2GetDevice(int* device): the device running the kernel. Several
// devices (CUCPU_DEVICE_COUNT) share one executor, so this is the first one.
void get_device(jit::ThreadContext* context, void* const* args, void* result) {
  store_int_result(context, argument<int32_t*>(args, 0), 0, result);
}

// cudaError_t __cudaCDP2RuntimeGetVersion(int* version): CUDA 13.0, as the host's.
void runtime_get_version(jit::ThreadContext* context, void* const* args, void* result) {
  constexpr int32_t kRuntimeVersion = 13000;
  store_int_result(context, argument<int32_t*>(args, 0), kRuntimeVersion, result);
}

struct NamedFunction {
  const char* name;
  DeviceRuntimeFunction function;
};

// In the order of jit::kDeviceRuntimeFunctions.
// The _ptsz forms (--default-stream per-thread) are the same here: a block's NULL stream
// is its own either way.
constexpr NamedFunction kFunctions[] = {
    {"__cudaCDP2GetParameterBufferV2", get_parameter_buffer_v2},
    {"__cudaCDP2LaunchDeviceV2", launch_device_v2},
    {"__cudaCDP2LaunchDeviceV2_ptsz", launch_device_v2},
    {"__cudaCDP2GetLastError", get_last_error},
    {"__cudaCDP2PeekAtLastError", peek_at_last_error},
    {"__cudaCDP2GetErrorName", get_error_name},
    {"__cudaCDP2GetErrorString", get_error_string},
    {"__cudaCDP2DeviceGetLimit", device_get_limit},
    {"__cudaCDP2GetDevice", get_device},
    {"__cudaCDP2RuntimeGetVersion", runtime_get_version},
    {"__cudaCDP2StreamCreateWithFlags", stream_create_with_flags},
    {"__cudaCDP2StreamDestroy", stream_destroy},
    {"__cudaCDP2EventCreateWithFlags", event_create_with_flags},
    {"__cudaCDP2EventRecord", event_record},
    {"__cudaCDP2EventRecord_ptsz", event_record},
    {"__cudaCDP2EventRecordWithFlags", event_record_with_flags},
    {"__cudaCDP2EventRecordWithFlags_ptsz", event_record_with_flags},
    {"__cudaCDP2StreamWaitEvent", stream_wait_event},
    {"__cudaCDP2StreamWaitEvent_ptsz", stream_wait_event},
    {"__cudaCDP2EventDestroy", event_destroy},
    {"__cudaCDP2Malloc", device_runtime_malloc},
    {"__cudaCDP2Free", device_runtime_free},
    {"__cudaCDP2MemcpyAsync", memcpy_async},
    {"__cudaCDP2MemcpyAsync_ptsz", memcpy_async},
    {"__cudaCDP2MemsetAsync", memset_async},
    {"__cudaCDP2MemsetAsync_ptsz", memset_async},
    {"__cudaCDP2GetDeviceCount", get_device_count},
    {"__cudaCDP2DeviceGetAttribute", device_get_attribute},
    {"__cudaCDP2DeviceGetCacheConfig", device_get_cache_config},
    {"__cudaCDP2DeviceGetSharedMemConfig", device_get_shared_mem_config},
    {"__cudaCDP2FuncGetAttributes", func_get_attributes},
    {"__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessor", occupancy_max_active_blocks},
    {"__cudaCDP2OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", occupancy_max_active_blocks_with_flags},
    {"__cudaCDP2GetParameterBuffer", get_parameter_buffer},
    {"__cudaCDP2LaunchDevice", launch_device},
    {"__cudaCDP2LaunchDevice_ptsz", launch_device},
    {"__cudaCDP2Memcpy2DAsync", memcpy_2d_async},
    {"__cudaCDP2Memcpy2DAsync_ptsz", memcpy_2d_async},
    {"__cudaCDP2Memcpy3DAsync", memcpy_3d_async},
    {"__cudaCDP2Memcpy3DAsync_ptsz", memcpy_3d_async},
    {"__cudaCDP2Memset2DAsync", memset_2d_async},
    {"__cudaCDP2Memset2DAsync_ptsz", memset_2d_async},
    {"__cudaCDP2Memset3DAsync", memset_3d_async},
    {"__cudaCDP2Memset3DAsync_ptsz", memset_3d_async},
    {"cudaGetParameterBuffer", appendix_d_get_parameter_buffer},
    {"cudaGetParameterBufferV2", appendix_d_get_parameter_buffer_v2},
    {"cudaLaunchDevice", appendix_d_launch_device},
    {"cudaLaunchDevice_ptsz", appendix_d_launch_device},
    {"cudaLaunchDeviceV2", appendix_d_launch_device_v2},
    {"cudaLaunchDeviceV2_ptsz", appendix_d_launch_device_v2},
    {"cudaDeviceSynchronize", device_synchronize},
    {"cudaGetLastError", get_last_error},
    {"cudaPeekAtLastError", peek_at_last_error},
    {"cudaGetErrorName", get_error_name},
    {"cudaGetErrorString", get_error_string},
    {"cudaDeviceGetLimit", device_get_limit},
    {"cudaGetDevice", get_device},
    {"cudaRuntimeGetVersion", runtime_get_version},
    {"cudaStreamCreateWithFlags", stream_create_with_flags},
    {"cudaStreamDestroy", stream_destroy},
    {"cudaEventCreateWithFlags", event_create_with_flags},
    {"cudaEventRecord", event_record},
    {"cudaEventRecord_ptsz", event_record},
    {"cudaEventRecordWithFlags", event_record_with_flags},
    {"cudaEventRecordWithFlags_ptsz", event_record_with_flags},
    {"cudaStreamWaitEvent", stream_wait_event},
    {"cudaStreamWaitEvent_ptsz", stream_wait_event},
    {"cudaEventDestroy", event_destroy},
    {"cudaMalloc", device_runtime_malloc},
    {"cudaFree", device_runtime_free},
    {"cudaMemcpyAsync", memcpy_async},
    {"cudaMemcpyAsync_ptsz", memcpy_async},
    {"cudaMemsetAsync", memset_async},
    {"cudaMemsetAsync_ptsz", memset_async},
    {"cudaGetDeviceCount", get_device_count},
    {"cudaDeviceGetAttribute", device_get_attribute},
    {"cudaDeviceGetCacheConfig", device_get_cache_config},
    {"cudaFuncGetAttributes", func_get_attributes},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", occupancy_max_active_blocks},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", occupancy_max_active_blocks_with_flags},
    {"cudaMemcpy2DAsync", memcpy_2d_async},
    {"cudaMemcpy2DAsync_ptsz", memcpy_2d_async},
    {"cudaMemcpy3DAsync", memcpy_3d_async},
    {"cudaMemcpy3DAsync_ptsz", memcpy_3d_async},
    {"cudaMemset2DAsync", memset_2d_async},
    {"cudaMemset2DAsync_ptsz", memset_2d_async},
    {"cudaMemset3DAsync", memset_3d_async},
    {"cudaMemset3DAsync_ptsz", memset_3d_async},
};

}  // namespace

void devrt::fail_call(jit::ThreadContext* context, uint32_t error, void* result) {
  ThreadExecution& self = executing_thread(context);
  if (BlockLaunchScope* scope = scope_of(self)) scope->set_last_error(self.linear_tid, error);
  store_result(result, error);
}

void devrt::enqueue_memory_command(jit::ThreadContext* context, uint64_t handle, std::function<void()> command,
                                   void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "a device-side memory copy or set");
  if (!scope) return;
  std::shared_ptr<LaunchStream> stream = scope->stream(handle);
  if (!stream) return finish_call(*scope, self, result, kErrorInvalidResourceHandle);
  stream->enqueue_memory_command(std::move(command));
  finish_call(*scope, self, result, kSuccess);
}

uint32_t BlockLaunchScope::last_error(uint32_t linear_tid, bool reset) {
  if (linear_tid >= last_errors_.size()) return kSuccess;
  const uint32_t error = last_errors_[linear_tid];
  if (reset) last_errors_[linear_tid] = kSuccess;
  return error;
}

void BlockLaunchScope::set_last_error(uint32_t linear_tid, uint32_t error) {
  if (last_errors_.empty()) last_errors_.assign(thread_count_, kSuccess);
  if (linear_tid < last_errors_.size()) last_errors_[linear_tid] = error;
}

std::shared_ptr<LaunchStream> BlockLaunchScope::stream(uint64_t handle) {
  if (handle == kNullStream) {
    if (!null_stream_) null_stream_ = std::make_shared<LaunchStream>();
    return null_stream_;
  }
  auto it = streams_.find(handle);
  return it == streams_.end() ? nullptr : it->second;
}

uint64_t BlockLaunchScope::create_stream() {
  auto stream = std::make_shared<LaunchStream>();
  const auto handle = reinterpret_cast<uint64_t>(stream.get());
  streams_.emplace(handle, std::move(stream));
  return handle;
}

bool BlockLaunchScope::destroy_stream(uint64_t handle) { return streams_.erase(handle) != 0; }

std::shared_ptr<DeviceEvent> BlockLaunchScope::event(uint64_t handle) {
  auto it = events_.find(handle);
  return it == events_.end() ? nullptr : it->second;
}

uint64_t BlockLaunchScope::create_event() {
  auto event = std::make_shared<DeviceEvent>();
  const auto handle = reinterpret_cast<uint64_t>(event.get());
  events_.emplace(handle, std::move(event));
  return handle;
}

bool BlockLaunchScope::destroy_event(uint64_t handle) { return events_.erase(handle) != 0; }

PreparedGrid BlockLaunchScope::take_prepared(const void* params) {
  auto it = std::find_if(prepared_.begin(), prepared_.end(), [&](const PreparedGrid& p) { return p.params == params; });
  if (it == prepared_.end()) return {};
  PreparedGrid taken = std::move(*it);
  *it = std::move(prepared_.back());
  prepared_.pop_back();
  return taken;
}

void* BlockLaunchScope::new_parameter_buffer(std::size_t bytes) {
  // Never empty, so that every buffer has an address of its own.
  const std::size_t capacity = std::max<std::size_t>(bytes, 1);
  auto* memory = static_cast<uint8_t*>(
      ::operator new[](capacity, std::align_val_t{kParameterBufferAlignment}, std::nothrow));
  if (!memory) return nullptr;
  parameter_buffers_.push_back(ParameterBuffer{std::unique_ptr<uint8_t, AlignedFree>(memory), bytes});
  return memory;
}

bool BlockLaunchScope::take_parameter_buffer(const void* buffer, void* to, std::size_t bytes) {
  auto it = std::find_if(parameter_buffers_.begin(), parameter_buffers_.end(),
                         [&](const ParameterBuffer& b) { return b.memory.get() == buffer; });
  if (it == parameter_buffers_.end() || it->bytes < bytes) return false;
  if (bytes != 0) std::memcpy(to, it->memory.get(), bytes);
  *it = std::move(parameter_buffers_.back());
  parameter_buffers_.pop_back();
  return true;
}

void BlockLaunchScope::AlignedFree::operator()(uint8_t* memory) const {
  ::operator delete[](memory, std::align_val_t{kParameterBufferAlignment});
}

const std::shared_ptr<BlockLaunches>& BlockLaunchScope::launches() {
  if (!launches_) launches_ = std::make_shared<BlockLaunches>();
  return launches_;
}

DeviceRuntimeFunction device_runtime_function(std::string_view name) {
  for (const NamedFunction& f : kFunctions)
    if (name == f.name) return f.function;
  return nullptr;
}

jit::RuntimeSymbols device_runtime_symbols() {
  static_assert(std::size(kFunctions) == std::size(jit::kDeviceRuntimeFunctions));
  jit::RuntimeSymbols symbols = device_runtime_driver_symbols();
  for (const NamedFunction& f : kFunctions)
    symbols[std::string(jit::kDeviceRuntimePrefix) + f.name] = reinterpret_cast<void*>(f.function);
  return symbols;
}

}  // namespace cucpu::exec
