// The stream engine (stream_engine.h). One mutex guards every stream's queue and last
// command; it is held only to queue, to take the next command and to snapshot what a
// synchronising call waits for, never while a command runs. A stream's runtime thread
// takes its commands in order, waits for each one's prerequisites, runs it and marks it
// done; prerequisites always name commands enqueued earlier, so waits cannot form a cycle.
#include "core/stream_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <system_error>
#include <thread>

#include "core/graph.h"
#include "core/sticky_error.h"
#include "support/log.h"
#include "support/spin_wait.h"

namespace cucpu::core {
namespace {

thread_local bool running_host_function = false;
thread_local bool is_stream_thread = false;  // a stream's runtime thread (run_stream)
thread_local int stream_thread_priority = kLeastStreamPriority;  // that stream's priority
thread_local CaptureMode thread_capture_mode = CaptureMode::Global;  // cudaThreadExchangeStreamCaptureMode

// The calling host thread's default stream, handed back (its work still finishes) when
// the thread ends.
struct PerThreadStream {
  Stream* stream = nullptr;
  ~PerThreadStream() {
    if (stream) StreamEngine::instance().destroy(*stream);
  }
};
thread_local PerThreadStream per_thread_stream;

bool touches_device_memory(CommandKind kind) {
  return kind == CommandKind::Kernel || kind == CommandKind::Copy || kind == CommandKind::Set;
}

void execute(Command& command) {
  for (const CompletionRef& before : command.after) before->wait();
  run_command(command.kind, command.run);
  command.done->mark_done();
}

}  // namespace

void run_command(CommandKind kind, const std::function<void()>& run) {
  // A broken device runs no more kernels or copies (as a GPU context after a fault);
  // events and host functions still complete so that nobody waits forever.
  if (!run || (touches_device_memory(kind) && sticky_error())) return;
  running_host_function = kind == CommandKind::HostFunction;
  run();
  running_host_function = false;
}

bool in_host_function() { return running_host_function; }

int running_stream_priority() { return stream_thread_priority; }

CaptureMode exchange_thread_capture_mode(CaptureMode mode) { return std::exchange(thread_capture_mode, mode); }

StreamEngine& StreamEngine::instance() {
  static StreamEngine* engine = [] {
    auto* made = new StreamEngine;  // immortal: see grid_executor.cpp
    // A program may end with work still queued. Let it finish before static destructors
    // tear down the modules its kernels run from (the GPU would just drop it, but a
    // half-destroyed process must not run kernels).
    // Not when a stream's own thread exits (a host function calling exit): it would wait
    // for the command it is running.
    std::atexit([] {
      if (!is_stream_thread) StreamEngine::instance().synchronize_all();
    });
    return made;
  }();
  return *engine;
}

StreamEngine::StreamEngine() : legacy_(StreamKind::Legacy, false, 0, 0) {}

Stream& StreamEngine::per_thread() {
  if (!per_thread_stream.stream) {
    std::lock_guard lock(mutex_);
    per_thread_stream.stream = new Stream(StreamKind::PerThread, false, 0, next_id_++);
    streams_.push_back(per_thread_stream.stream);
  }
  return *per_thread_stream.stream;
}

Stream& StreamEngine::create(bool non_blocking, int priority) {
  std::lock_guard lock(mutex_);
  auto* stream = new Stream(StreamKind::Created, non_blocking, priority, next_id_++);
  streams_.push_back(stream);
  created_.insert(stream);
  return *stream;
}

bool StreamEngine::is_created(const void* handle) const {
  std::lock_guard lock(mutex_);
  return created_.contains(handle);
}

void StreamEngine::destroy(Stream& stream) {
  std::lock_guard lock(mutex_);
  created_.erase(&stream);
  stream.destroyed_ = true;
  if (!stream.runner_active_)
    free_locked(stream);
  else
    stream.work_queued_.notify_one();  // an idle runner may end now
}

void StreamEngine::free_locked(Stream& stream) {
  streams_.erase(std::find(streams_.begin(), streams_.end(), &stream));
  delete &stream;
}

CompletionList StreamEngine::pending_before_locked(Stream& stream) const {
  CompletionList pending;
  auto add = [&](const CompletionRef& completion) {
    if (completion && !completion->is_done()) pending.push_back(completion);
  };
  add(stream.tail_);
  if (stream.kind() == StreamKind::Legacy) {
    for (const Stream* other : streams_)
      if (!other->non_blocking()) add(other->tail_);
  } else if (!stream.non_blocking()) {
    add(legacy_.tail_);
  }
  return pending;
}

Result<CompletionRef> StreamEngine::enqueue(Stream& stream, Command command) {
  // The kernels' closures that ran since the stream's last enqueue (run_stream), taken
  // under the mutex and freed after it; the two vectors trade places, so that neither
  // thread allocates for them.
  thread_local std::vector<std::function<void()>> finished;
  struct FreeFinished {
    ~FreeFinished() { finished.clear(); }
  } free_finished;  // declared before the lock: runs after it is released
  auto lock = support::locked_spinning(mutex_);  // the stream's thread takes it after every command
  finished.swap(stream.finished_);
  if (stream.capture_.session) {
    if (stream.capture_.session->invalidated)
      return make_error(ErrorCode::StreamCaptureInvalidated, "the stream's capture was invalidated");
    // Captured, not run: the command becomes the next node of the session's graph. Its
    // `after` (work outside the capture) is done or ordered by the time a graph launches.
    auto node = stream.capture_.session->graph->add(command.kind, std::move(command.run), stream.capture_.tips);
    if (!node) return node.error();
    stream.capture_.tips = {*node};
    command.done->mark_done();
    return command.done;
  }
  // The stream's own order is its queue; the rest are the legacy stream's barriers.
  CompletionList implicit = pending_before_locked(stream);
  for (CompletionRef& completion : implicit)
    if (completion != stream.tail_) command.after.push_back(std::move(completion));
  std::erase_if(command.after, [](const CompletionRef& completion) { return !completion || completion->is_done(); });

  CompletionRef done = command.done;
  stream.queue_.push_back(std::move(command));
  stream.commands_queued_.fetch_add(1, std::memory_order_release);
  if (stream.runner_active_) {
    stream.work_queued_.notify_one();
  } else {
    try {
      std::thread([this, &stream] { run_stream(stream); }).detach();
    } catch (const std::system_error& error) {
      stream.queue_.pop_back();
      return make_error(ErrorCode::MemoryAllocation, fmt::format("cannot start a stream thread: {}", error.what()));
    }
    stream.runner_active_ = true;
  }
  stream.tail_ = done;
  return done;
}

void StreamEngine::run_stream(Stream& stream) {
  is_stream_thread = true;
  stream_thread_priority = stream.priority();
  log::debug(log::Category::Core, "stream {}: runtime thread started", stream.id());
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stream.queue_.empty() && !stream.destroyed_) {
      // A host thread that launches and synchronises in a loop queues its next command
      // within microseconds: spin for it before sleeping (support/spin_wait.h).
      const uint64_t queued = stream.commands_queued_.load(std::memory_order_relaxed);
      lock.unlock();
      support::spin_until([&] { return stream.commands_queued_.load(std::memory_order_acquire) != queued; });
      // The host is likely still inside enqueue, holding the mutex for a moment:
      // sleeping on it would cost the wake-up the spin saved.
      support::lock_spinning(lock);
    }
    if (stream.queue_.empty() && !stream.destroyed_)
      stream.work_queued_.wait_for(lock, kRunnerIdle,
                                   [&] { return !stream.queue_.empty() || stream.destroyed_; });
    if (stream.queue_.empty()) break;
    std::function<void()> kept;
    {
      Command command = std::move(stream.queue_.front());
      stream.queue_.pop_front();
      lock.unlock();
      execute(command);
      // A kernel's closure (its parameter buffer) was allocated by the host thread that
      // queued it: that thread frees it (enqueue), from and into its own malloc cache,
      // where freeing it here would send both threads to malloc's shared, locked arena at
      // every launch. Other closures (a staged copy) go now, not later.
      if (command.kind == CommandKind::Kernel) kept = std::move(command.run);
    }
    support::lock_spinning(lock);  // a host thread queueing or synchronising holds it briefly
    if (kept) stream.finished_.push_back(std::move(kept));
  }
  stream.runner_active_ = false;
  log::debug(log::Category::Core, "stream {}: runtime thread ends", stream.id());
  if (stream.destroyed_) free_locked(stream);
}

Result<void> StreamEngine::begin_capture(Stream& stream, Graph& graph, CaptureMode mode, std::vector<GraphNode*> tips,
                                         bool into_existing_graph) {
  std::lock_guard lock(mutex_);
  if (stream.kind() == StreamKind::Legacy)
    return make_error(ErrorCode::StreamCaptureUnsupported, "the legacy default stream cannot be captured");
  if (stream.capture_.session) return make_error(ErrorCode::IllegalState, "the stream is capturing already");
  auto session = std::make_shared<CaptureSession>();
  session->graph = &graph;
  session->origin = &stream;
  session->id = next_capture_id_++;
  session->mode = mode;
  session->thread = std::this_thread::get_id();
  session->into_existing_graph = into_existing_graph;
  stream.capture_.session = std::move(session);
  stream.capture_.tips = std::move(tips);
  return {};
}

Result<std::shared_ptr<CaptureSession>> StreamEngine::end_capture(Stream& stream) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<CaptureSession> session = stream.capture_.session;
  if (!session) return make_error(ErrorCode::IllegalState, "the stream is not capturing");
  if (session->origin != &stream)
    return make_error(ErrorCode::StreamCaptureUnmatched, "the capture began on another stream");
  if (session->mode != CaptureMode::Relaxed && session->thread != std::this_thread::get_id())
    return make_error(ErrorCode::StreamCaptureWrongThread, "the capture began on another host thread");
  for (Stream* other : streams_)
    if (other->capture_.session == session) other->capture_ = CaptureMark{};
  if (session->invalidated)
    return make_error(ErrorCode::StreamCaptureInvalidated, "an unsafe call during the capture invalidated it");
  return session;
}

Result<void> StreamEngine::update_capture_tips(Stream& stream, const std::vector<GraphNode*>& nodes, bool replace) {
  std::lock_guard lock(mutex_);
  if (!stream.capture_.session) return make_error(ErrorCode::IllegalState, "the stream is not capturing");
  if (stream.capture_.session->invalidated)
    return make_error(ErrorCode::StreamCaptureInvalidated, "the stream's capture was invalidated");
  for (GraphNode* node : nodes)
    if (!stream.capture_.session->graph->contains(node))
      return make_error(ErrorCode::InvalidValue, "a dependency that is not a node of the capture's graph");
  if (replace) stream.capture_.tips.clear();
  for (GraphNode* node : nodes)
    if (std::find(stream.capture_.tips.begin(), stream.capture_.tips.end(), node) == stream.capture_.tips.end())
      stream.capture_.tips.push_back(node);
  return {};
}

Result<void> StreamEngine::check_unsafe_call(const char* function) {
  if (thread_capture_mode == CaptureMode::Relaxed) return {};
  const std::thread::id me = std::this_thread::get_id();
  std::lock_guard lock(mutex_);
  std::shared_ptr<CaptureSession> forbidding;
  for (const Stream* stream : streams_) {
    const std::shared_ptr<CaptureSession>& session = stream->capture_.session;
    if (!session || session->invalidated) continue;
    // The thread's own non-relaxed captures forbid it; in Global mode, so do other
    // threads' global captures (CUDA Runtime API, cudaStreamCaptureMode).
    const bool own = session->thread == me && session->mode != CaptureMode::Relaxed;
    const bool others = thread_capture_mode == CaptureMode::Global && session->mode == CaptureMode::Global;
    if (own || others) forbidding = session;
  }
  if (!forbidding) return {};
  forbidding->invalidated = true;
  return make_error(ErrorCode::StreamCaptureUnsupported,
                    fmt::format("{} is not permitted while a stream is capturing (capture mode)", function));
}

CaptureMark StreamEngine::capture_of(Stream& stream) {
  std::lock_guard lock(mutex_);
  return stream.capture_;
}

void StreamEngine::join_capture(Stream& stream, const CaptureMark& mark) {
  std::lock_guard lock(mutex_);
  if (stream.capture_.session != mark.session) {
    stream.capture_ = mark;
    return;
  }
  for (GraphNode* tip : mark.tips)
    if (std::find(stream.capture_.tips.begin(), stream.capture_.tips.end(), tip) == stream.capture_.tips.end())
      stream.capture_.tips.push_back(tip);
}

CompletionList StreamEngine::pending_before(Stream& stream) {
  auto lock = support::locked_spinning(mutex_);
  return pending_before_locked(stream);
}

void StreamEngine::synchronize(Stream& stream) {
  for (const CompletionRef& completion : pending_before(stream)) completion->wait();
}

bool StreamEngine::is_idle(Stream& stream) {
  return std::ranges::all_of(pending_before(stream), [](const CompletionRef& c) { return c->is_done(); });
}

CompletionList StreamEngine::tails() {
  CompletionList tails;
  auto lock = support::locked_spinning(mutex_);
  if (legacy_.tail_) tails.push_back(legacy_.tail_);
  for (const Stream* stream : streams_)
    if (stream->tail_) tails.push_back(stream->tail_);
  return tails;
}

void StreamEngine::synchronize_all() {
  for (const CompletionRef& tail : tails()) tail->wait();
}

}  // namespace cucpu::core
