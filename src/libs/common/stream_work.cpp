#include "libs/common/stream_work.h"

#include <fmt/format.h>

#include <vector>

#include "core/context.h"
#include "core/memory_registry.h"
#include "core/sticky_error.h"
#include "core/stream_engine.h"
#include "core/stream_handle.h"

namespace cucpu::libs {
namespace {

Result<core::Stream*> stream_of(const void* handle) {
  core::Stream* stream = core::to_stream(handle, core::NullStream::Legacy);
  if (!stream) return Error{ErrorCode::InvalidResourceHandle, "not a stream"};
  return stream;
}

}  // namespace

bool is_device_memory(DeviceRange range) {
  return range.bytes == 0 || core::memory().contains_range(range.base, range.bytes);
}

bool require_device_memory(const char* function, DeviceRange range) {
  if (is_device_memory(range)) return true;
  // Where a GPU kernel would have faulted: said on stderr as a kernel's fault is, then sticky.
  Error error{ErrorCode::IllegalAddress,
              fmt::format("{}: {} bytes at {} are not device memory", function, range.bytes, range.base)};
  fmt::print(stderr, "cucpu: {} (an illegal address on a GPU)\n", error.message);
  core::set_sticky_error(error);
  return false;
}

Result<void> prepare_device() {
  if (core::in_host_function()) return Error{ErrorCode::NotPermitted, "a library call inside a stream's host function"};
  core::runtime_device();
  if (auto error = core::sticky_error()) return *error;
  return {};
}

Result<void> enqueue(const void* stream, const char* function, std::initializer_list<DeviceRange> ranges,
                     std::function<void()> work) {
  if (auto ready = prepare_device(); !ready) return ready.error();
  auto target = stream_of(stream);
  if (!target) return target.error();
  core::Command command;
  command.kind = core::CommandKind::Kernel;
  command.run = [function, ranges = std::vector<DeviceRange>(ranges), work = std::move(work)] {
    for (const DeviceRange& range : ranges)
      if (!require_device_memory(function, range)) return;
    work();
  };
  auto queued = core::StreamEngine::instance().enqueue(**target, std::move(command));
  if (!queued) return queued.error();
  return {};
}

Result<void> synchronize(const void* stream) {
  auto target = stream_of(stream);
  if (!target) return target.error();
  core::StreamEngine::instance().synchronize(**target);
  if (auto error = core::sticky_error()) return *error;
  return {};
}

}  // namespace cucpu::libs
