// Stream capture: cudaStreamBeginCapture / EndCapture / IsCapturing / GetCaptureInfo
// (and their _ptsz twins). While a stream captures, its commands become graph nodes
// (core/stream_engine.h); the capture mode only restricts what other calls may do on a
// GPU, and cucpu does not enforce those restrictions.
#include <cuda_runtime_api.h>

#include "api/runtime/runtime_state.h"
#include "api/runtime/stream_handle.h"
#include "core/graph.h"
#include "core/stream_engine.h"

using namespace cucpu;
using runtime::NullStream;

namespace {

cudaError_t begin(cudaStream_t handle, cudaStreamCaptureMode mode, NullStream null_stream) {
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed)
    return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  core::Stream* stream = runtime::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  core::Graph* graph = core::create_graph();
  if (auto begun = core::StreamEngine::instance().begin_capture(*stream, *graph); !begun) {
    core::destroy_graph(graph);
    return runtime::record(begun.error());
  }
  return cudaSuccess;
}

cudaError_t end(cudaStream_t handle, cudaGraph_t* graph, NullStream null_stream) {
  if (!graph) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = runtime::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  auto ended = core::StreamEngine::instance().end_capture(*stream);
  if (!ended) return runtime::record(ended.error());
  *graph = reinterpret_cast<cudaGraph_t>(*ended);
  return cudaSuccess;
}

cudaError_t is_capturing(cudaStream_t handle, cudaStreamCaptureStatus* status, NullStream null_stream) {
  if (!status) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = runtime::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  *status = core::StreamEngine::instance().is_capturing(*stream) ? cudaStreamCaptureStatusActive
                                                                  : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

// The dependency array must outlive the call (until the next call on the stream, says the
// reference); one per host thread is enough for that.
thread_local core::CaptureMark last_info;

cudaError_t get_capture_info(cudaStream_t handle, cudaStreamCaptureStatus* status, unsigned long long* id,
                             cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                             const cudaGraphEdgeData** edge_data, size_t* dependency_count, NullStream null_stream) {
  if (!status) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = runtime::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  last_info = core::StreamEngine::instance().capture_of(*stream);
  const bool active = last_info.session != nullptr;
  *status = active ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (!active) return cudaSuccess;  // the other outputs are left alone when not capturing
  if (id) *id = last_info.session->id;
  if (graph) *graph = reinterpret_cast<cudaGraph_t>(last_info.session->graph);
  if (dependencies) *dependencies = reinterpret_cast<const cudaGraphNode_t*>(last_info.tips.data());
  if (edge_data) *edge_data = nullptr;  // every captured edge is a default edge
  if (dependency_count) *dependency_count = last_info.tips.size();
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  return begin(stream, mode, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
  return begin(stream, mode, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  return end(stream, pGraph, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* pGraph) {
  return end(stream, pGraph, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus* pCaptureStatus) {
  return is_capturing(stream, pCaptureStatus, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus* pCaptureStatus) {
  return is_capturing(stream, pCaptureStatus, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus* captureStatus_out,
                                               unsigned long long* id_out, cudaGraph_t* graph_out,
                                               const cudaGraphNode_t** dependencies_out,
                                               const cudaGraphEdgeData** edgeData_out, size_t* numDependencies_out) {
  return get_capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                          numDependencies_out, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                    enum cudaStreamCaptureStatus* captureStatus_out,
                                                    unsigned long long* id_out, cudaGraph_t* graph_out,
                                                    const cudaGraphNode_t** dependencies_out,
                                                    const cudaGraphEdgeData** edgeData_out,
                                                    size_t* numDependencies_out) {
  return get_capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                          numDependencies_out, NullStream::PerThread);
}

}  // extern "C"
