// Events: a record is a command of its stream that notes the time when it runs, i.e.
// when the stream has finished everything before it (and, on the legacy stream or a
// blocking one, what the implicit barriers add). The clock is steady_clock (monotonic).
#include "core/event.h"

#include <mutex>
#include <unordered_set>

namespace cucpu::core {
namespace {

std::mutex handles_mutex;
std::unordered_set<const void*>* handles = new std::unordered_set<const void*>;  // immortal, as the engine

}  // namespace

Result<void> Event::record(Stream& stream) {
  StreamEngine& engine = StreamEngine::instance();
  if (CaptureMark mark = engine.capture_of(stream); mark.session) {
    std::lock_guard lock(mutex_);
    captured_ = std::move(mark);  // a record in a capture is a mark in the graph, not a node
    return {};
  }
  auto record = std::make_shared<Record>();
  Command command;
  command.kind = CommandKind::EventRecord;
  command.run = [record] { record->reached = std::chrono::steady_clock::now(); };
  record->done = command.done;
  auto queued = engine.enqueue(stream, std::move(command));
  if (!queued) return queued.error();
  std::lock_guard lock(mutex_);
  latest_ = std::move(record);
  captured_ = CaptureMark{};
  return {};
}

CaptureMark Event::capture_mark() const {
  std::lock_guard lock(mutex_);
  return captured_;
}

void Event::record_reached() {
  auto record = std::make_shared<Record>();
  record->done = std::make_shared<Completion>();
  record->reached = std::chrono::steady_clock::now();
  record->done->mark_done();
  std::lock_guard lock(mutex_);
  latest_ = std::move(record);
}

std::shared_ptr<Event::Record> Event::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

bool Event::is_complete() const {
  auto record = latest();
  return !record || record->done->is_done();
}

void Event::synchronize() const {
  if (auto record = latest()) record->done->wait();
}

CompletionRef Event::completion() const {
  auto record = latest();
  return record ? record->done : nullptr;
}

Result<float> Event::elapsed_ms(const Event& start, const Event& end) {
  auto first = start.latest(), last = end.latest();
  if (start.timing_disabled() || end.timing_disabled())
    return make_error(ErrorCode::InvalidResourceHandle, "an event created with cudaEventDisableTiming");
  if (!first || !last) return make_error(ErrorCode::InvalidResourceHandle, "an event that was never recorded");
  if (!first->done->is_done() || !last->done->is_done())
    return make_error(ErrorCode::NotReady, "an event its stream has not reached yet");
  return std::chrono::duration<float, std::milli>(last->reached - first->reached).count();
}

Event* create_event(bool timing_disabled) {
  auto* event = new Event(timing_disabled);
  std::lock_guard lock(handles_mutex);
  handles->insert(event);
  return event;
}

bool is_event(const void* handle) {
  std::lock_guard lock(handles_mutex);
  return handles->contains(handle);
}

void destroy_event(Event* event) {
  {
    std::lock_guard lock(handles_mutex);
    handles->erase(event);
  }
  delete event;  // a pending record keeps its own Record alive
}

Result<void> wait_for_event(Stream& stream, const Event& event) {
  StreamEngine& engine = StreamEngine::instance();
  if (CaptureMark mark = event.capture_mark(); mark.session) {
    engine.join_capture(stream, mark);
    return {};
  }
  // Work outside a capture is done before the graph can run: a capturing stream need not wait.
  CompletionRef recorded = event.completion();
  if (!recorded || engine.is_capturing(stream)) return {};
  Command command;
  command.kind = CommandKind::EventWait;
  command.after.push_back(std::move(recorded));
  auto queued = engine.enqueue(stream, std::move(command));
  if (!queued) return queued.error();
  return {};
}

}  // namespace cucpu::core
