// Stream handles -> streams (stream_handle.h).
#include "core/stream_handle.h"

#include <cstdint>

#include "core/stream_engine.h"

namespace cucpu::core {

Stream* to_stream(const void* handle, NullStream null_stream) {
  constexpr uintptr_t kLegacy = 0x1, kPerThread = 0x2;
  StreamEngine& engine = StreamEngine::instance();
  const auto value = reinterpret_cast<uintptr_t>(handle);
  if (value == 0) return null_stream == NullStream::Legacy ? &engine.legacy() : &engine.per_thread();
  if (value == kLegacy) return &engine.legacy();
  if (value == kPerThread) return &engine.per_thread();
  if (!engine.is_created(handle)) return nullptr;
  return static_cast<Stream*>(const_cast<void*>(handle));
}

}  // namespace cucpu::core
