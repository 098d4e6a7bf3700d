// The CDP2 device runtime functions (device_runtime.h): a `<<<>>>` in device code is
// __cudaCDP2GetParameterBufferV2 (checks the configuration, makes the child grid and hands
// out its parameter buffer), the caller's stores of the arguments into the buffer, then
// __cudaCDP2LaunchDeviceV2 (records the child in the launch tree, launch_tree.h); errors
// go to the launching thread's cudaGetLastError. Each function takes its arguments as
// pointers to their .param memory (kernel_abi.h) and returns cudaError_t values, numbered
// as driver_types.h numbers them (exec does not see the CUDA headers).
#include "exec/device_runtime.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "exec/block_execution.h"
#include "exec/device_heap.h"
#include "exec/device_limits.h"
#include "exec/device_printf.h"
#include "support/error_text.h"

namespace cucpu::exec {
namespace {

// cudaError_t values (driver_types.h).
constexpr uint32_t kSuccess = 0;
constexpr uint32_t kErrorInvalidValue = 1;
constexpr uint32_t kErrorMemoryAllocation = 2;
constexpr uint32_t kErrorInvalidConfiguration = 9;
constexpr uint32_t kErrorLaunchPendingCountExceeded = 69;
constexpr uint32_t kErrorInvalidDeviceFunction = 98;
constexpr uint32_t kErrorUnsupportedLimit = 215;
constexpr uint32_t kErrorInvalidResourceHandle = 400;
constexpr uint32_t kErrorLaunchOutOfResources = 701;
constexpr uint32_t kErrorNotSupported = 801;
constexpr uint32_t kErrorUnknown = 999;

// The special stream handles of cuda_device_runtime_api.h (CDP2).
constexpr uint64_t kNullStream = 0;
constexpr uint64_t kTailLaunchStream = 0x3;
constexpr uint64_t kFireAndForgetStream = 0x4;

uint32_t cuda_error(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidValue:
      return kErrorInvalidValue;
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

ThreadExecution& executing_thread(jit::ThreadContext* context) {
  return *static_cast<ThreadExecution*>(context->executor);
}

template <typename T>
T argument(void* const* args, size_t index) {
  T value;
  std::memcpy(&value, args[index], sizeof(T));
  return value;
}

template <typename T>
void store_result(void* result, T value) {
  if (result) std::memcpy(result, &value, sizeof(T));
}

Dim3 dim3_argument(void* const* args, size_t index) {
  uint32_t xyz[3];
  std::memcpy(xyz, args[index], sizeof(xyz));
  return Dim3{xyz[0], xyz[1], xyz[2]};
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
// memory, which a child grid cannot reach (CUDA Programming Guide, dynamic parallelism,
// "Shared Memory and Local Memory": passing such a pointer is illegal). Every 8-byte word
// is taken as a possible pointer: no other value falls into that window by chance.
bool points_into_shared_memory(const jit::ThreadContext& context, const PreparedGrid& prepared) {
  const auto low = reinterpret_cast<uint64_t>(context.shared_base);
  const uint64_t high = low + context.total_smem_size;
  for (uint32_t offset = 0; offset + 8 <= prepared.kernel->param_bytes; offset += 8) {
    uint64_t word;
    std::memcpy(&word, prepared.params + offset, sizeof(word));
    if (word >= low && word < high) return true;
  }
  return false;
}

// void* __cudaCDP2GetParameterBufferV2(void* func, dim3 grid, dim3 block, unsigned shared_bytes)
void get_parameter_buffer_v2(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  store_result<uint64_t>(result, 0);
  BlockLaunchScope* scope = require_scope(self, nullptr, "a device-side launch");
  if (!scope) return;
  const jit::KernelInfo* kernel = jit::find_kernel_by_entry(argument<void*>(args, 0));
  if (!kernel) {
    scope->set_last_error(self.linear_tid, kErrorInvalidDeviceFunction);
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

// cudaError_t __cudaCDP2LaunchDeviceV2(void* parameter_buffer, cudaStream_t stream)
void launch_device_v2(jit::ThreadContext* context, void* const* args, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "a device-side launch");
  if (!scope) return;
  auto fail = [&](uint32_t error) { finish_call(*scope, self, result, error); };
  PreparedGrid prepared = scope->take_prepared(argument<void*>(args, 0));
  if (!prepared.grid) return fail(kErrorInvalidValue);
  if (points_into_shared_memory(*context, prepared)) return fail(kErrorInvalidValue);
  // CDP2 on an H100 (CUDA 13.0) accepts launches deeper than the guide's 24 levels (seen to
  // 2000, conformance dp_depth_limits): there is no depth limit here, only memory.
  if (pending_launch_count() >= kept_limit(KeptLimit::PendingLaunchCount))
    return fail(kErrorLaunchPendingCountExceeded);
  TreeGrid& parent = scope->grid();
  const uint64_t handle = argument<uint64_t>(args, 1);
  if (handle == kTailLaunchStream) {
    launch_tail(parent, prepared.grid.release());
  } else if (handle == kFireAndForgetStream) {
    launch_child(parent, prepared.grid.release(), nullptr);
  } else if (std::shared_ptr<LaunchStream> stream = scope->stream(handle)) {
    launch_child(parent, prepared.grid.release(), stream);
  } else {
    return fail(kErrorInvalidResourceHandle);
  }
  store_result(result, kSuccess);
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

// Queues a memory command in the stream `handle` names (it runs at once when the stream
// is idle); the result is the call's cudaError_t.
void enqueue_memory_command(jit::ThreadContext* context, uint64_t handle, std::function<void()> command, void* result) {
  ThreadExecution& self = executing_thread(context);
  BlockLaunchScope* scope = require_scope(self, result, "cudaMemcpyAsync/cudaMemsetAsync");
  if (!scope) return;
  std::shared_ptr<LaunchStream> stream = scope->stream(handle);
  if (!stream) return finish_call(*scope, self, result, kErrorInvalidResourceHandle);
  stream->enqueue_memory_command(std::move(command));
  finish_call(*scope, self, result, kSuccess);
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

using DeviceRuntimeFunction = void (*)(jit::ThreadContext*, void* const*, void*);

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
};

}  // namespace

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

jit::RuntimeSymbols device_runtime_symbols() {
  static_assert(std::size(kFunctions) == std::size(jit::kDeviceRuntimeFunctions));
  jit::RuntimeSymbols symbols;
  for (const NamedFunction& f : kFunctions)
    symbols[std::string(jit::kDeviceRuntimePrefix) + f.name] = reinterpret_cast<void*>(f.function);
  return symbols;
}

}  // namespace cucpu::exec
