// Events: creation with flags, record (with flags), query, synchronize, elapsed time,
// destroy. core/event.h keeps the records; here are the checks and the error mapping.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/event.h"
#include "exec/device_printf.h"

using namespace cucpu;
using core::NullStream;

namespace {

core::Event* to_event(cudaEvent_t handle) {
  return core::is_event(handle) ? reinterpret_cast<core::Event*>(handle) : nullptr;
}

cudaError_t create(cudaEvent_t* event, unsigned flags) {
  constexpr unsigned kKnownFlags = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!event || (flags & ~kKnownFlags) != 0) return runtime::record(cudaErrorInvalidValue);
  // An interprocess event must also disable timing (Runtime API reference).
  if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)) return runtime::record(cudaErrorInvalidValue);
  if (flags & cudaEventInterprocess) {
    std::fprintf(stderr, "cucpu: cudaEventCreateWithFlags: cudaEventInterprocess events are not supported\n");
    return runtime::record(cudaErrorNotSupported);
  }
  CUCPU_RETURN_IF_STICKY();
  // cudaEventBlockingSync needs nothing: host waits always block (core/completion.h).
  *event = reinterpret_cast<cudaEvent_t>(core::create_event((flags & cudaEventDisableTiming) != 0));
  return cudaSuccess;
}

cudaError_t record(cudaEvent_t handle, cudaStream_t stream_handle, unsigned flags, NullStream null_stream) {
  // cudaEventRecordExternal matters only to graph capture; outside it a record is a record.
  if (flags & ~unsigned{cudaEventRecordExternal}) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  core::Event* event = to_event(handle);
  core::Stream* stream = core::to_stream(stream_handle, null_stream);
  if (!event || !stream) return runtime::record(cudaErrorInvalidResourceHandle);
  auto recorded = event->record(*stream);
  return recorded ? cudaSuccess : runtime::record(recorded.error());
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) { return create(event, cudaEventDefault); }

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) { return create(event, flags); }

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return record(event, stream, cudaEventRecordDefault, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  return record(event, stream, cudaEventRecordDefault, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return record(event, stream, flags, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  return record(event, stream, flags, NullStream::PerThread);
}

// cudaErrorNotReady is an answer, not a failure: it is not recorded as the last error.
cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t handle) {
  CUCPU_RETURN_IF_STICKY();
  core::Event* event = to_event(handle);
  if (!event) return runtime::record(cudaErrorInvalidResourceHandle);
  return event->is_complete() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t handle) {
  CUCPU_RETURN_IF_STICKY();
  core::Event* event = to_event(handle);
  if (!event) return runtime::record(cudaErrorInvalidResourceHandle);
  event->synchronize();
  exec::flush_device_output();
  return runtime::record(runtime::sticky());  // a fault in the work waited for
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  core::Event* first = to_event(start);
  core::Event* last = to_event(end);
  if (!first || !last) return runtime::record(cudaErrorInvalidResourceHandle);
  auto elapsed = core::Event::elapsed_ms(*first, *last);
  if (!elapsed) {
    if (elapsed.error().code == ErrorCode::NotReady) return cudaErrorNotReady;
    return runtime::record(elapsed.error());
  }
  *ms = *elapsed;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t handle) {
  CUCPU_RETURN_IF_STICKY();
  core::Event* event = to_event(handle);
  if (!event) return runtime::record(cudaErrorInvalidResourceHandle);
  core::destroy_event(event);
  return cudaSuccess;
}

}  // extern "C"
