// Events (CUDA Programming Guide "Events"): a marker recorded into a stream that
// completes when the stream reaches it, with the time it did, for queries, host waits,
// cudaStreamWaitEvent and elapsed times.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>

#include "core/stream_engine.h"
#include "support/result.h"

namespace cucpu::core {

class Event {
 public:
  explicit Event(bool timing_disabled) : timing_disabled_(timing_disabled) {}

  bool timing_disabled() const { return timing_disabled_; }

  // cudaEventRecord: from now on the event stands for the work `stream` has so far.
  Result<void> record(Stream& stream);
  // A graph's event record node ran: the event stands for the graph's work before the
  // node, which is done, and was reached now.
  void record_reached();
  // Done, or never recorded (cudaEventQuery's cudaSuccess).
  bool is_complete() const;
  void synchronize() const;
  // The latest record's completion (null if never recorded), for cudaStreamWaitEvent:
  // a later record does not change what an earlier wait waits for.
  CompletionRef completion() const;

  // Where the capture stood when the event was last recorded in a capturing stream
  // (session null otherwise): cudaStreamWaitEvent on it joins the capture.
  CaptureMark capture_mark() const;

  // Milliseconds from start reaching its stream to end reaching its own.
  // InvalidResourceHandle: timing disabled or never recorded; NotReady: not reached yet.
  static Result<float> elapsed_ms(const Event& start, const Event& end);

 private:
  struct Record {
    CompletionRef done;
    std::chrono::steady_clock::time_point reached;  // written before done is marked
  };
  std::shared_ptr<Record> latest() const;

  const bool timing_disabled_;
  mutable std::mutex mutex_;
  std::shared_ptr<Record> latest_;
  CaptureMark captured_;
};

// cudaStreamWaitEvent/cuStreamWaitEvent: `stream`'s later work waits for what the event
// stands for now. An event recorded in a capture pulls the stream into the capture (fork
// and join); a never-recorded event is a wait for nothing.
Result<void> wait_for_event(Stream& stream, const Event& event);

// Live event handles, for checking the ones the API is given.
Event* create_event(bool timing_disabled);
bool is_event(const void* handle);
// The event's handle is invalid at once; a pending record still completes.
void destroy_event(Event* event);

}  // namespace cucpu::core
