// Streams and events: the runtime's own (a CUstream is a cudaStream_t, a CUevent a
// cudaEvent_t: core/stream_engine.h, core/event.h), with the driver's checks and codes.
// The _ptsz forms are --default-stream per-thread's, where NULL is the thread's stream.
#include <cuda.h>

#include <algorithm>

#include "api/driver/driver_state.h"
#include "api/driver/launch_attributes.h"
#include "core/event.h"
#include "core/stream_engine.h"
#include "core/stream_handle.h"
#include "exec/device_printf.h"

using namespace cucpu;
using core::NullStream;

namespace {

core::StreamEngine& engine() { return core::StreamEngine::instance(); }

core::Event* to_event(CUevent handle) {
  return core::is_event(handle) ? reinterpret_cast<core::Event*>(handle) : nullptr;
}

CUresult create_stream(CUstream* phStream, unsigned flags, int priority) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!phStream || (flags & ~unsigned{CU_STREAM_NON_BLOCKING}) != 0) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  priority = std::clamp(priority, core::kGreatestStreamPriority, core::kLeastStreamPriority);
  core::Stream& created = engine().create(flags == CU_STREAM_NON_BLOCKING, priority);
  *phStream = reinterpret_cast<CUstream>(&created);
  return CUDA_SUCCESS;
}

// CUDA_ERROR_NOT_READY is an answer: work is pending.
CUresult query(CUstream handle, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (engine().is_capturing(*stream)) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  return engine().is_idle(*stream) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult synchronize(CUstream handle, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (engine().is_capturing(*stream)) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  engine().synchronize(*stream);
  exec::flush_device_output();
  return driver::sticky();  // a fault in the work waited for
}

CUresult wait_event(CUstream handle, CUevent hEvent, unsigned flags, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (flags & ~unsigned{CU_EVENT_WAIT_EXTERNAL}) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  core::Event* event = to_event(hEvent);
  if (!stream || !event) return CUDA_ERROR_INVALID_HANDLE;
  auto waited = core::wait_for_event(*stream, *event);
  return waited ? CUDA_SUCCESS : driver::to_cu_result(waited.error());
}

CUresult record(CUevent hEvent, CUstream handle, unsigned flags, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (flags & ~unsigned{CU_EVENT_RECORD_EXTERNAL}) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Event* event = to_event(hEvent);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!event || !stream) return CUDA_ERROR_INVALID_HANDLE;
  auto recorded = event->record(*stream);
  return recorded ? CUDA_SUCCESS : driver::to_cu_result(recorded.error());
}

// Stream attributes (launch_attributes.h, shared with the runtime's).
CUresult set_attribute(CUstream handle, CUstreamAttrID attribute, const CUstreamAttrValue* value,
                       NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  auto set = driver::set_stream_attribute(*stream, attribute, *value);
  return set ? CUDA_SUCCESS : driver::to_cu_result(set.error());
}

CUresult get_attribute(CUstream handle, CUstreamAttrID attribute, CUstreamAttrValue* value, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  auto got = driver::get_stream_attribute(*stream, attribute, value);
  return got ? CUDA_SUCCESS : driver::to_cu_result(got.error());
}

CUresult copy_attributes(CUstream destination, CUstream source, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Stream* to = core::to_stream(destination, null_stream);
  core::Stream* from = core::to_stream(source, null_stream);
  if (!to || !from) return CUDA_ERROR_INVALID_HANDLE;
  driver::copy_stream_attributes(*to, *from);
  return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuStreamCreate(CUstream* phStream, unsigned int Flags) { return create_stream(phStream, Flags, 0); }

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* phStream, unsigned int flags, int priority) {
  return create_stream(phStream, flags, priority);
}

CUresult CUDAAPI cuStreamDestroy_v2(CUstream hStream) {
  CUCPU_REQUIRE_CONTEXT(context);
  // Only created streams can be destroyed; the default streams are not the caller's.
  if (!hStream || hStream == CU_STREAM_LEGACY || hStream == CU_STREAM_PER_THREAD || !engine().is_created(hStream))
    return CUDA_ERROR_INVALID_HANDLE;
  engine().destroy(*reinterpret_cast<core::Stream*>(hStream));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

CUresult CUDAAPI cuStreamQuery(CUstream hStream) { return query(hStream, NullStream::Legacy); }
CUresult CUDAAPI cuStreamQuery_ptsz(CUstream hStream) { return query(hStream, NullStream::PerThread); }
CUresult CUDAAPI cuStreamSynchronize(CUstream hStream) { return synchronize(hStream, NullStream::Legacy); }
CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream hStream) { return synchronize(hStream, NullStream::PerThread); }

CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return wait_event(hStream, hEvent, Flags, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return wait_event(hStream, hEvent, Flags, NullStream::PerThread);
}

CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int* flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(hStream, NullStream::Legacy);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  *flags = stream->non_blocking() ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int* priority) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(hStream, NullStream::Legacy);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  *priority = stream->priority();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamGetId(CUstream hStream, unsigned long long* streamId) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!streamId) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(hStream, NullStream::Legacy);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  *streamId = stream->id();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent* phEvent, unsigned int Flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  constexpr unsigned kKnownFlags = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
  if (!phEvent || (Flags & ~kKnownFlags)) return CUDA_ERROR_INVALID_VALUE;
  if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING)) return CUDA_ERROR_INVALID_VALUE;
  if (Flags & CU_EVENT_INTERPROCESS) return CUDA_ERROR_NOT_SUPPORTED;
  *phEvent = reinterpret_cast<CUevent>(core::create_event((Flags & CU_EVENT_DISABLE_TIMING) != 0));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream) {
  return record(hEvent, hStream, CU_EVENT_RECORD_DEFAULT, NullStream::Legacy);
}
CUresult CUDAAPI cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) {
  return record(hEvent, hStream, CU_EVENT_RECORD_DEFAULT, NullStream::PerThread);
}
CUresult CUDAAPI cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return record(hEvent, hStream, flags, NullStream::Legacy);
}
CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return record(hEvent, hStream, flags, NullStream::PerThread);
}

CUresult CUDAAPI cuEventQuery(CUevent hEvent) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Event* event = to_event(hEvent);
  if (!event) return CUDA_ERROR_INVALID_HANDLE;
  return event->is_complete() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Event* event = to_event(hEvent);
  if (!event) return CUDA_ERROR_INVALID_HANDLE;
  event->synchronize();
  exec::flush_device_output();
  return driver::sticky();
}

CUresult CUDAAPI cuEventElapsedTime_v2(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!pMilliseconds) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Event* first = to_event(hStart);
  core::Event* last = to_event(hEnd);
  if (!first || !last) return CUDA_ERROR_INVALID_HANDLE;
  auto elapsed = core::Event::elapsed_ms(*first, *last);
  if (!elapsed) return driver::to_cu_result(elapsed.error());
  *pMilliseconds = *elapsed;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd);
}

CUresult CUDAAPI cuEventDestroy_v2(CUevent hEvent) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Event* event = to_event(hEvent);
  if (!event) return CUDA_ERROR_INVALID_HANDLE;
  core::destroy_event(event);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }

CUresult CUDAAPI cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue* value) {
  return set_attribute(hStream, attr, value, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamSetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue* value) {
  return set_attribute(hStream, attr, value, NullStream::PerThread);
}
CUresult CUDAAPI cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue* value_out) {
  return get_attribute(hStream, attr, value_out, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamGetAttribute_ptsz(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue* value_out) {
  return get_attribute(hStream, attr, value_out, NullStream::PerThread);
}
CUresult CUDAAPI cuStreamCopyAttributes(CUstream dst, CUstream src) {
  return copy_attributes(dst, src, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src) {
  return copy_attributes(dst, src, NullStream::PerThread);
}

}  // extern "C"
