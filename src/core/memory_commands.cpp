// Copies and sets on streams (memory_commands.h).
#include "core/memory_commands.h"

#include <cstring>
#include <memory>
#include <vector>

#include "core/memory_registry.h"
#include "core/stream_engine.h"

namespace cucpu::core {
namespace {

// A pageable source up to this size is staged so that an async copy stays asynchronous;
// a bigger one makes the call wait (the guide allows either; this bounds the memory used).
constexpr size_t kMaxStagedBytes = size_t{256} << 20;

enum class Place { Pageable, PageLocked, Device };  // Device: device, managed or module memory

Place place_of(const void* pointer) {
  auto allocation = memory().find(pointer);
  if (!allocation) return Place::Pageable;
  switch (allocation->kind) {
    case MemoryKind::PinnedHost:
    case MemoryKind::RegisteredHost: return Place::PageLocked;
    default: return Place::Device;
  }
}

bool is_host(Place place) { return place != Place::Device; }

// Whether the call returns only once the copy is done (see the table in the header).
bool copy_waits(Place dst, Place src, HostSync sync) {
  if (sync == HostSync::Synchronous) return is_host(dst) || is_host(src);
  return dst == Place::Pageable || (is_host(dst) && is_host(src));
}

bool capturing(Stream& stream) { return StreamEngine::instance().is_capturing(stream); }

Result<void> submit(Stream& stream, Command command, bool wait) {
  auto queued = StreamEngine::instance().enqueue(stream, std::move(command));
  if (!queued) return queued.error();
  if (wait) (*queued)->wait();
  return {};
}

}  // namespace

Result<void> submit_copy(Stream& stream, void* dst, const void* src, size_t bytes, HostSync sync) {
  const Place to = place_of(dst), from = place_of(src);
  // A captured copy reads its source when the graph runs: nothing to stage or wait for.
  const bool captured = capturing(stream);
  const bool wait =
      !captured && (copy_waits(to, from, sync) || (from == Place::Pageable && bytes > kMaxStagedBytes));
  Command command;
  command.kind = CommandKind::Copy;
  if (from == Place::Pageable && !wait && !captured) {
    auto staged = std::make_shared<std::vector<unsigned char>>(static_cast<const unsigned char*>(src),
                                                               static_cast<const unsigned char*>(src) + bytes);
    command.run = [dst, staged, bytes] { std::memmove(dst, staged->data(), bytes); };
  } else {
    command.run = [dst, src, bytes] { std::memmove(dst, src, bytes); };
  }
  return submit(stream, std::move(command), wait);
}

Result<void> submit_set(Stream& stream, void* dst, int value, size_t bytes, HostSync sync) {
  Command command;
  command.kind = CommandKind::Set;
  command.run = [dst, value, bytes] { std::memset(dst, value, bytes); };
  return submit(stream, std::move(command),
                !capturing(stream) && sync == HostSync::Synchronous && place_of(dst) == Place::PageLocked);
}

Result<void> submit_fill(Stream& stream, void* dst, uint32_t value, size_t element_bytes, size_t count,
                         HostSync sync) {
  return submit_fill_2d(stream, dst, 0, value, element_bytes, count, 1, sync);
}

Result<void> submit_fill_2d(Stream& stream, void* dst, size_t pitch, uint32_t value, size_t element_bytes,
                            size_t width, size_t height, HostSync sync) {
  Command command;
  command.kind = CommandKind::Set;
  command.run = [=] {
    for (size_t row = 0; row < height; ++row) {
      auto* out = static_cast<unsigned char*>(dst) + row * pitch;
      if (element_bytes == 1) {
        std::memset(out, static_cast<int>(value & 0xff), width);
        continue;
      }
      for (size_t i = 0; i < width; ++i) std::memcpy(out + i * element_bytes, &value, element_bytes);
    }
  };
  return submit(stream, std::move(command),
                !capturing(stream) && sync == HostSync::Synchronous && place_of(dst) == Place::PageLocked);
}

Result<void> submit_strided_copy(Stream& stream, const StridedCopy& copy, HostSync sync) {
  const Place to = place_of(copy.dst), from = place_of(copy.src);
  Command command;
  command.kind = CommandKind::Copy;
  command.run = [copy] { run_strided_copy(copy); };
  return submit(stream, std::move(command),
                !capturing(stream) && (copy_waits(to, from, sync) || from == Place::Pageable));
}

Result<void> submit_strided_set(Stream& stream, const StridedSet& set, HostSync sync) {
  Command command;
  command.kind = CommandKind::Set;
  command.run = [set] { run_strided_set(set); };
  return submit(stream, std::move(command),
                !capturing(stream) && sync == HostSync::Synchronous && place_of(set.dst) == Place::PageLocked);
}

}  // namespace cucpu::core
