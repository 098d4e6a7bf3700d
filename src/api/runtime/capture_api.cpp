// Stream capture: cudaStreamBeginCapture[ToGraph] / EndCapture / IsCapturing /
// GetCaptureInfo / UpdateCaptureDependencies (and their _ptsz twins), and
// cudaThreadExchangeStreamCaptureMode. While a stream captures, its commands become graph
// nodes (core/stream_engine.h); the capture mode decides which threads' potentially unsafe
// calls fail and invalidate the capture (StreamEngine::check_unsafe_call).
#include <cuda_runtime_api.h>

#include <optional>
#include <vector>

#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/graph.h"
#include "core/stream_capture.h"
#include "core/stream_engine.h"

using namespace cucpu;
using core::NullStream;

namespace {

std::optional<core::CaptureMode> to_mode(cudaStreamCaptureMode mode) {
  switch (mode) {
    case cudaStreamCaptureModeGlobal: return core::CaptureMode::Global;
    case cudaStreamCaptureModeThreadLocal: return core::CaptureMode::ThreadLocal;
    case cudaStreamCaptureModeRelaxed: return core::CaptureMode::Relaxed;
  }
  return std::nullopt;
}

cudaStreamCaptureMode from_mode(core::CaptureMode mode) {
  switch (mode) {
    case core::CaptureMode::Global: return cudaStreamCaptureModeGlobal;
    case core::CaptureMode::ThreadLocal: return cudaStreamCaptureModeThreadLocal;
    case core::CaptureMode::Relaxed: break;
  }
  return cudaStreamCaptureModeRelaxed;
}

core::GraphNode* to_node(cudaGraphNode_t handle) { return reinterpret_cast<core::GraphNode*>(handle); }

// cudaStreamBeginCapture makes a new graph (existing == null); cudaStreamBeginCaptureToGraph
// adds to `existing`, after `dependencies`.
cudaError_t begin(cudaStream_t handle, cudaStreamCaptureMode mode, NullStream null_stream, cudaGraph_t existing = nullptr,
                  const cudaGraphNode_t* dependencies = nullptr, size_t dependency_count = 0) {
  std::optional<core::CaptureMode> capture_mode = to_mode(mode);
  if (!capture_mode) return runtime::record(cudaErrorInvalidValue);
  CUCPU_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  std::vector<core::GraphNode*> tips;
  for (size_t i = 0; i < dependency_count; ++i) tips.push_back(to_node(dependencies[i]));
  auto begun = core::begin_stream_capture(*stream, *capture_mode, reinterpret_cast<core::Graph*>(existing),
                                          std::move(tips));
  return begun ? cudaSuccess : runtime::record(begun.error());
}

cudaError_t end(cudaStream_t handle, cudaGraph_t* graph, NullStream null_stream) {
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  auto ended = core::end_stream_capture(*stream, graph != nullptr);
  if (!ended) {
    if (graph && ended.error().code == ErrorCode::StreamCaptureInvalidated) *graph = nullptr;
    return runtime::record(ended.error());
  }
  if (graph) *graph = reinterpret_cast<cudaGraph_t>(*ended);
  return cudaSuccess;
}

cudaStreamCaptureStatus status_of(const core::CaptureMark& mark) {
  if (!mark.session) return cudaStreamCaptureStatusNone;
  return mark.session->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
}

cudaError_t is_capturing(cudaStream_t handle, cudaStreamCaptureStatus* status, NullStream null_stream) {
  if (!status) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  *status = status_of(core::StreamEngine::instance().capture_of(*stream));
  return cudaSuccess;
}

cudaError_t update_dependencies(cudaStream_t handle, cudaGraphNode_t* dependencies, size_t count, unsigned flags,
                                NullStream null_stream) {
  if ((count > 0 && !dependencies) ||
      (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies))
    return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  std::vector<core::GraphNode*> nodes;
  for (size_t i = 0; i < count; ++i) nodes.push_back(to_node(dependencies[i]));
  auto updated = core::StreamEngine::instance().update_capture_tips(*stream, nodes,
                                                                    flags == cudaStreamSetCaptureDependencies);
  return updated ? cudaSuccess : runtime::record(updated.error());
}

// The dependency array must outlive the call (until the next call on the stream, says the
// reference); one per host thread is enough for that.
thread_local core::CaptureMark last_info;

cudaError_t get_capture_info(cudaStream_t handle, cudaStreamCaptureStatus* status, unsigned long long* id,
                             cudaGraph_t* graph, const cudaGraphNode_t** dependencies,
                             const cudaGraphEdgeData** edge_data, size_t* dependency_count, NullStream null_stream) {
  if (!status) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  last_info = core::StreamEngine::instance().capture_of(*stream);
  *status = status_of(last_info);
  if (!last_info.session) return cudaSuccess;  // the other outputs are left alone when not capturing
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

cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t* dependencies,
                                                    const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode) {
  (void)dependencyData;  // only default edges exist on a CPU (see cudaGraphAddDependencies)
  if (!core::is_graph(graph) || (numDependencies > 0 && !dependencies)) return runtime::record(cudaErrorInvalidValue);
  return begin(stream, mode, NullStream::Legacy, graph, dependencies, numDependencies);
}
cudaError_t CUDARTAPI cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                         const cudaGraphNode_t* dependencies,
                                                         const cudaGraphEdgeData* dependencyData,
                                                         size_t numDependencies, enum cudaStreamCaptureMode mode) {
  (void)dependencyData;
  if (!core::is_graph(graph) || (numDependencies > 0 && !dependencies)) return runtime::record(cudaErrorInvalidValue);
  return begin(stream, mode, NullStream::PerThread, graph, dependencies, numDependencies);
}

cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                          const cudaGraphEdgeData* dependencyData,
                                                          size_t numDependencies, unsigned int flags) {
  (void)dependencyData;
  return update_dependencies(stream, dependencies, numDependencies, flags, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                               const cudaGraphEdgeData* dependencyData,
                                                               size_t numDependencies, unsigned int flags) {
  (void)dependencyData;
  return update_dependencies(stream, dependencies, numDependencies, flags, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode* mode) {
  if (!mode) return runtime::record(cudaErrorInvalidValue);
  std::optional<core::CaptureMode> wanted = to_mode(*mode);
  if (!wanted) return runtime::record(cudaErrorInvalidValue);
  *mode = from_mode(core::exchange_thread_capture_mode(*wanted));
  return cudaSuccess;
}

}  // extern "C"
