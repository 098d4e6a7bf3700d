// cudaStream_t -> core::Stream (stream_handle.h). A created stream's handle is the
// core::Stream's address.
#include "api/runtime/stream_handle.h"

#include "core/stream_engine.h"

namespace cucpu::runtime {

core::Stream* to_stream(cudaStream_t handle, NullStream null_stream) {
  core::StreamEngine& engine = core::StreamEngine::instance();
  if (handle == nullptr) return null_stream == NullStream::Legacy ? &engine.legacy() : &engine.per_thread();
  if (handle == cudaStreamLegacy) return &engine.legacy();
  if (handle == cudaStreamPerThread) return &engine.per_thread();
  if (!engine.is_created(handle)) return nullptr;
  return reinterpret_cast<core::Stream*>(handle);
}

}  // namespace cucpu::runtime
