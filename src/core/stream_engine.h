// The stream engine: every stream's commands run in order on a runtime thread of their
// own (started when the stream has work, gone after a while without), so independent
// streams run concurrently on the grid executor. Cross-stream order comes from
// completions a command waits for before it runs: events (cudaStreamWaitEvent) and the
// legacy default stream's implicit barriers (CUDA Programming Guide "Default Stream",
// Runtime API "Stream synchronization behavior"):
//   - a command on the legacy stream waits for all earlier work of every blocking stream;
//   - a command on a blocking stream waits for all earlier work of the legacy stream;
//   - cudaStreamNonBlocking streams take part in neither.
// Per-thread default streams are ordinary blocking streams, one per host thread.
#pragma once

#include <chrono>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "core/stream.h"
#include "support/result.h"

namespace cucpu::core {

class StreamEngine {
 public:
  static StreamEngine& instance();  // process-wide and immortal, like the grid executor

  Stream& legacy() { return legacy_; }
  Stream& per_thread();  // the calling host thread's default stream, made on first use

  Stream& create(bool non_blocking, int priority);
  // A stream made by create() and not destroyed yet (for checking API handles).
  bool is_created(const void* handle) const;
  // cudaStreamDestroy: the handle is invalid at once; enqueued work still runs and the
  // stream is freed after its last command.
  void destroy(Stream& stream);

  // Queues a command; it runs once the stream's earlier commands and command.after are
  // done. Returns the command's completion.
  Result<CompletionRef> enqueue(Stream& stream, Command command);

  // Everything a command enqueued on `stream` now would wait for, the stream's own last
  // command included: what cudaStreamSynchronize waits for and cudaStreamQuery tests.
  CompletionList pending_before(Stream& stream);
  void synchronize(Stream& stream);
  bool is_idle(Stream& stream);
  // Waits for every command enqueued so far on every stream of every host thread
  // (cudaDeviceSynchronize).
  void synchronize_all();
  // The completions synchronize_all waits for: every stream's last command.
  CompletionList tails();

  // Stream capture (CaptureSession in stream.h). Capturing a stream makes a new graph
  // (or adds to `graph`, after `tips`: cudaStreamBeginCaptureToGraph); the legacy stream
  // cannot capture (StreamCaptureUnsupported), nor a capturing stream begin again (IllegalState).
  Result<void> begin_capture(Stream& stream, Graph& graph, CaptureMode mode = CaptureMode::Global,
                             std::vector<GraphNode*> tips = {},
                             bool into_existing_graph = false);
  // Ends the session `stream` began (on every stream that joined it) and returns it; a
  // session an unsafe call invalidated ends too, with StreamCaptureInvalidated.
  Result<std::shared_ptr<CaptureSession>> end_capture(Stream& stream);
  // cudaStreamUpdateCaptureDependencies: the next captured node depends on `nodes`
  // instead of (replace) or besides the current ones.
  Result<void> update_capture_tips(Stream& stream, const std::vector<GraphNode*>& nodes, bool replace);
  // Before a potentially unsafe call (one that may synchronise with captured work, such
  // as cudaMalloc): StreamCaptureUnsupported where a capture forbids it for the calling
  // thread's mode (cudaStreamCaptureModeGlobal / ThreadLocal), and that capture is
  // invalidated, as CUDA does.
  Result<void> check_unsafe_call(const char* function);
  // The stream's capture state; its session is null when the stream does not capture.
  CaptureMark capture_of(Stream& stream);
  bool is_capturing(Stream& stream) { return capture_of(stream).session != nullptr; }
  // cudaStreamWaitEvent on an event recorded in a capture: the stream joins the session,
  // its next node depending on the event's nodes too.
  void join_capture(Stream& stream, const CaptureMark& mark);

  // How long a stream's thread waits for more work before it ends.
  static constexpr std::chrono::milliseconds kRunnerIdle{200};

 private:
  StreamEngine();
  CompletionList pending_before_locked(Stream& stream) const;
  void run_stream(Stream& stream);
  void free_locked(Stream& stream);

  mutable std::mutex mutex_;
  Stream legacy_;
  std::vector<Stream*> streams_;          // every stream but the legacy one, until freed
  std::unordered_set<const void*> created_;  // live cudaStreamCreate handles
  uint64_t next_id_ = 1;
  uint64_t next_capture_id_ = 1;
};

// Runs a command's work under the rules of its kind: a broken device skips kernels,
// copies and sets; host functions run marked as such (for graph launches, node by node).
void run_command(CommandKind kind, const std::function<void()>& run);

// cudaThreadExchangeStreamCaptureMode: the calling thread's mode for unsafe calls
// (Global by default); returns the previous one.
CaptureMode exchange_thread_capture_mode(CaptureMode mode);

// Whether the calling thread is running a host function of a stream (cudaLaunchHostFunc,
// cudaStreamAddCallback): CUDA calls from there are not permitted.
bool in_host_function();

// The priority of the stream whose commands the calling thread runs (0, the least urgent,
// on any other thread): kernels pass it to the executor as a scheduling hint.
int running_stream_priority();

}  // namespace cucpu::core
