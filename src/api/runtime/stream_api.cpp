// Stream management: creation with flags and priorities, queries and synchronisation,
// waits on events and host functions. The engine behind them is core/stream_engine.h;
// here are the argument checks and the mapping of handles and errors. Each function that
// takes a stream has a _ptsz twin (--default-stream per-thread) in which NULL is the
// calling thread's default stream.
#include <cuda_runtime_api.h>

#include <algorithm>

#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/event.h"
#include "core/memory_registry.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"
#include "exec/device_printf.h"

using namespace cucpu;
using core::NullStream;

namespace {

cudaError_t create(cudaStream_t* stream, unsigned flags, int priority) {
  if (!stream || (flags & ~unsigned{cudaStreamNonBlocking}) != 0) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  // Out-of-range priorities are clamped to the range, as the Runtime API reference says.
  priority = std::clamp(priority, core::kGreatestStreamPriority, core::kLeastStreamPriority);
  core::Stream& created = core::StreamEngine::instance().create(flags == cudaStreamNonBlocking, priority);
  *stream = reinterpret_cast<cudaStream_t>(&created);
  return cudaSuccess;
}

// Resolves the handle into `stream`; an invalid one is cudaErrorInvalidResourceHandle.
#define CUCPU_RESOLVE_STREAM(stream, handle, null_stream)                                  \
  core::Stream* stream = core::to_stream(handle, null_stream);                          \
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle)

cudaError_t get_priority(cudaStream_t handle, int* priority, NullStream null_stream) {
  if (!priority) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  *priority = stream->priority();
  return cudaSuccess;
}

cudaError_t get_flags(cudaStream_t handle, unsigned* flags, NullStream null_stream) {
  if (!flags) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  *flags = stream->non_blocking() ? cudaStreamNonBlocking : cudaStreamDefault;
  return cudaSuccess;
}

cudaError_t get_id(cudaStream_t handle, unsigned long long* id, NullStream null_stream) {
  if (!id) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  *id = stream->id();
  return cudaSuccess;
}

cudaError_t get_device(cudaStream_t handle, int* device, NullStream null_stream) {
  if (!device) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  *device = runtime::current_device();  // all devices share one engine (core/device.h)
  return cudaSuccess;
}

// cudaErrorNotReady is an answer, not a failure: it is not recorded as the last error.
cudaError_t query(cudaStream_t handle, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  if (core::StreamEngine::instance().is_capturing(*stream)) return runtime::record(cudaErrorStreamCaptureUnsupported);
  return core::StreamEngine::instance().is_idle(*stream) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t synchronize(cudaStream_t handle, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  // A capturing stream runs nothing, so there is nothing it could wait for.
  if (core::StreamEngine::instance().is_capturing(*stream)) return runtime::record(cudaErrorStreamCaptureUnsupported);
  core::StreamEngine::instance().synchronize(*stream);
  exec::flush_device_output();
  return runtime::record(runtime::sticky());  // a fault in the work waited for
}

cudaError_t wait_event(cudaStream_t handle, cudaEvent_t event, unsigned flags, NullStream null_stream) {
  if (flags & ~unsigned{cudaEventWaitExternal}) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  if (!core::is_event(event)) return runtime::record(cudaErrorInvalidResourceHandle);
  auto waited = core::wait_for_event(*stream, *reinterpret_cast<core::Event*>(event));
  return waited ? cudaSuccess : runtime::record(waited.error());
}

cudaError_t launch_host_function(cudaStream_t handle, std::function<void()> function, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  core::Command command;
  command.kind = core::CommandKind::HostFunction;
  command.run = std::move(function);
  auto queued = core::StreamEngine::instance().enqueue(*stream, std::move(command));
  return queued ? cudaSuccess : runtime::record(queued.error());
}

cudaError_t host_func(cudaStream_t handle, cudaHostFn_t function, void* user_data, NullStream null_stream) {
  if (!function) return runtime::record(cudaErrorInvalidValue);
  return launch_host_function(handle, [function, user_data] { function(user_data); }, null_stream);
}

// The callback learns the device's state when the stream reaches it (a fault in earlier
// work is its status), and gets the handle it was added with.
cudaError_t add_callback(cudaStream_t handle, cudaStreamCallback_t callback, void* user_data, unsigned flags,
                         NullStream null_stream) {
  if (!callback || flags != 0) return runtime::record(cudaErrorInvalidValue);
  return launch_host_function(
      handle,
      [callback, handle, user_data] {
        auto error = core::sticky_error();
        callback(handle, error ? runtime::to_cuda_error(*error) : cudaSuccess, user_data);
      },
      null_stream);
}

// Managed memory is host memory that every stream and the host see at once, so attaching
// it to a stream (or to the host, or globally) changes nothing; the call checks its arguments.
cudaError_t attach_memory(cudaStream_t handle, void* pointer, size_t length, unsigned flags, NullStream null_stream) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
    return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  CUCPU_RESOLVE_STREAM(stream, handle, null_stream);
  (void)stream;
  auto allocation = core::memory().find(pointer);
  if (!allocation || (length != 0 && !core::memory().contains_range(pointer, length)))
    return runtime::record(cudaErrorInvalidValue);
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* pStream) { return create(pStream, cudaStreamDefault, 0); }

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return create(pStream, flags, 0);
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
  return create(pStream, flags, priority);
}

cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  // Either pointer may be null: the caller wants only the other value.
  if (leastPriority) *leastPriority = core::kLeastStreamPriority;
  if (greatestPriority) *greatestPriority = core::kGreatestStreamPriority;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  CUCPU_RETURN_IF_STICKY();
  // Only created streams can be destroyed; the default streams are not the caller's.
  if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
      !core::StreamEngine::instance().is_created(stream))
    return runtime::record(cudaErrorInvalidResourceHandle);
  core::StreamEngine::instance().destroy(*reinterpret_cast<core::Stream*>(stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  return get_priority(hStream, priority, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamGetPriority_ptsz(cudaStream_t hStream, int* priority) {
  return get_priority(hStream, priority, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  return get_flags(hStream, flags, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int* flags) {
  return get_flags(hStream, flags, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  return get_id(hStream, streamId, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long* streamId) {
  return get_id(hStream, streamId, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  return get_device(hStream, device, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamGetDevice_ptsz(cudaStream_t hStream, int* device) {
  return get_device(hStream, device, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) { return query(stream, NullStream::Legacy); }
cudaError_t CUDARTAPI cudaStreamQuery_ptsz(cudaStream_t stream) { return query(stream, NullStream::PerThread); }

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) { return synchronize(stream, NullStream::Legacy); }
cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return synchronize(stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return wait_event(stream, event, flags, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return wait_event(stream, event, flags, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return host_func(stream, fn, userData, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  return host_func(stream, fn, userData, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                            unsigned int flags) {
  return add_callback(stream, callback, userData, flags, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                                 unsigned int flags) {
  return add_callback(stream, callback, userData, flags, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length, unsigned int flags) {
  return attach_memory(stream, devPtr, length, flags, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void* devPtr, size_t length,
                                                    unsigned int flags) {
  return attach_memory(stream, devPtr, length, flags, NullStream::PerThread);
}

}  // extern "C"
