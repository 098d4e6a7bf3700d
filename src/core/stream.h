// A stream: an ordered queue of device commands (CUDA Programming Guide "Streams"). The
// data lives here; StreamEngine (stream_engine.h) queues commands, runs them and applies
// the cross-stream rules.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "core/completion.h"

namespace cucpu::core {

// What a command does, for the rules that depend on it (a broken device skips the work
// that touches memory, host functions still run) and for graph capture's node types.
enum class CommandKind {
  Kernel, Copy, Set, HostFunction, EventRecord, EventWait,
  Empty,  // a graph node that only orders others
  Graph,  // a graph launch or child graph node: runs each node under the rules of its own kind
  MemAlloc, MemFree,  // graph memory nodes (core/graph_memory.h)
  Conditional,        // a graph's conditional node: runs its bodies as the handle's value says
};

// One unit of stream work. `run` must be callable more than once (a captured graph runs
// its commands at every launch), so it owns copies of everything it needs.
struct Command {
  CommandKind kind = CommandKind::EventWait;
  std::function<void()> run;          // what the device does; empty for a pure wait
  std::vector<CompletionRef> after;   // work of other streams that must finish first
  CompletionRef done = std::make_shared<Completion>();
};

// cudaDeviceGetStreamPriorityRange on an H100/H200: 0 is the least urgent, -5 the most.
constexpr int kLeastStreamPriority = 0;
constexpr int kGreatestStreamPriority = -5;

enum class StreamKind {
  Legacy,     // the NULL stream of the legacy default-stream semantics (cudaStreamLegacy)
  PerThread,  // one host thread's default stream (cudaStreamPerThread, --default-stream per-thread)
  Created,    // cudaStreamCreate*
};

class Graph;
class GraphNode;

// Stream capture (CUDA Programming Guide "Creating a Graph Using Stream Capture"): while a
// stream captures, its commands become nodes of the session's graph instead of running.
// Streams that wait on an event recorded in the capture join the same session.
// cudaStreamCaptureMode: which calls a capture forbids ("potentially unsafe" ones: they
// may synchronise with the capturing work), on which threads.
enum class CaptureMode { Global, ThreadLocal, Relaxed };

struct CaptureSession {
  Graph* graph = nullptr;
  const void* origin = nullptr;  // the stream cudaStreamBeginCapture was called on
  uint64_t id = 0;
  CaptureMode mode = CaptureMode::Global;
  std::thread::id thread;        // the thread that began it
  bool into_existing_graph = false;  // cudaStreamBeginCaptureToGraph
  std::atomic<bool> invalidated{false};  // set under the engine's mutex: an unsafe call broke it
};

// Where a capture stands on one stream (or in an event recorded there): the session and
// the nodes the next captured command depends on.
struct CaptureMark {
  std::shared_ptr<CaptureSession> session;
  std::vector<GraphNode*> tips;
};

// Stream attributes (cudaStreamSetAttribute) that only steer the GPU's caches and waits:
// kept to be read back and copied. The defaults are what an H200 reads before any set.
struct StreamHints {
  const void* window_base = nullptr;  // cudaAccessPolicyWindow
  uint64_t window_bytes = 0;
  float hit_ratio = 0.0f;
  int hit_property = 0, miss_property = 0;
  int sync_policy = -1;
  int mem_sync_domain = 0;
  uint8_t domain_map_default = 0, domain_map_remote = 1;
};

class Stream {
 public:
  Stream(StreamKind kind, bool non_blocking, int priority, uint64_t id)
      : kind_(kind), non_blocking_(non_blocking), priority_(priority), id_(id) {}

  StreamKind kind() const { return kind_; }
  bool non_blocking() const { return non_blocking_; }  // cudaStreamNonBlocking: exempt from the legacy stream's barriers
  int priority() const { return priority_.load(std::memory_order_relaxed); }  // a hint; lower is more urgent
  // cudaStreamSetAttribute(cudaStreamAttributePriority): from the next time the stream's
  // thread starts.
  void set_priority(int priority) { priority_.store(priority, std::memory_order_relaxed); }
  uint64_t id() const { return id_; }
  // Guarded by the caller (the runtime's attribute calls hold one mutex).
  StreamHints hints;

 private:
  friend class StreamEngine;

  const StreamKind kind_;
  const bool non_blocking_;
  std::atomic<int> priority_;
  const uint64_t id_;
  // Guarded by the engine's mutex:
  std::deque<Command> queue_;        // enqueued, not started
  // Kernel commands' closures run but not yet freed: the host thread that queued them frees
  // them at its next enqueue (see StreamEngine::enqueue).
  std::vector<std::function<void()>> finished_;
  CompletionRef tail_;               // the last command enqueued (null: never used)
  bool runner_active_ = false;       // a thread is running this stream's commands
  bool destroyed_ = false;           // cudaStreamDestroy: freed once its work is done
  CaptureMark capture_;              // session null: not capturing
  std::condition_variable work_queued_;
  // Commands ever queued, readable without the mutex: an idle runner spins on it before
  // it sleeps on work_queued_.
  std::atomic<uint64_t> commands_queued_{0};
};

}  // namespace cucpu::core
