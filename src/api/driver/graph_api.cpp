// Stream capture and graphs through the driver: begin/end/query a capture, create and
// destroy graphs, instantiate and launch them (core/stream_capture.h, core/graph.h; a
// CUgraph is a cudaGraph_t). Building graphs node by node: graph_node_api.cpp.
#include <cuda.h>

#include <optional>
#include <vector>

#include "api/driver/driver_state.h"
#include "core/graph.h"
#include "core/stream_capture.h"
#include "core/stream_handle.h"

using namespace cucpu;
using core::NullStream;

namespace {

std::optional<core::CaptureMode> to_mode(CUstreamCaptureMode mode) {
  switch (mode) {
    case CU_STREAM_CAPTURE_MODE_GLOBAL: return core::CaptureMode::Global;
    case CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: return core::CaptureMode::ThreadLocal;
    case CU_STREAM_CAPTURE_MODE_RELAXED: return core::CaptureMode::Relaxed;
  }
  return std::nullopt;
}

CUstreamCaptureMode from_mode(core::CaptureMode mode) {
  switch (mode) {
    case core::CaptureMode::Global: return CU_STREAM_CAPTURE_MODE_GLOBAL;
    case core::CaptureMode::ThreadLocal: return CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
    case core::CaptureMode::Relaxed: break;
  }
  return CU_STREAM_CAPTURE_MODE_RELAXED;
}

core::Graph* to_graph(CUgraph handle) {
  return core::is_graph(handle) ? reinterpret_cast<core::Graph*>(handle) : nullptr;
}

core::GraphExec* to_exec(CUgraphExec handle) {
  return core::is_graph_exec(handle) ? reinterpret_cast<core::GraphExec*>(handle) : nullptr;
}

// cuStreamBeginCapture makes a new graph (existing == null); cuStreamBeginCaptureToGraph
// adds to `existing`, after `dependencies`.
CUresult begin(CUstream handle, CUstreamCaptureMode mode, NullStream null_stream, CUgraph existing = nullptr,
               const CUgraphNode* dependencies = nullptr, size_t dependency_count = 0) {
  CUCPU_REQUIRE_CONTEXT(context);
  std::optional<core::CaptureMode> capture_mode = to_mode(mode);
  if (!capture_mode) return CUDA_ERROR_INVALID_VALUE;
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  std::vector<core::GraphNode*> tips;
  for (size_t i = 0; i < dependency_count; ++i) tips.push_back(reinterpret_cast<core::GraphNode*>(dependencies[i]));
  auto begun = core::begin_stream_capture(*stream, *capture_mode, to_graph(existing), std::move(tips));
  return begun ? CUDA_SUCCESS : driver::to_cu_result(begun.error());
}

CUresult end(CUstream handle, CUgraph* phGraph, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  auto ended = core::end_stream_capture(*stream, phGraph != nullptr);
  if (!ended) {
    if (phGraph && ended.error().code == ErrorCode::StreamCaptureInvalidated) *phGraph = nullptr;
    return driver::to_cu_result(ended.error());
  }
  if (phGraph) *phGraph = reinterpret_cast<CUgraph>(*ended);
  return CUDA_SUCCESS;
}

CUstreamCaptureStatus status_of(const core::CaptureMark& mark) {
  if (!mark.session) return CU_STREAM_CAPTURE_STATUS_NONE;
  return mark.session->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED : CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

CUresult is_capturing(CUstream handle, CUstreamCaptureStatus* status, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  *status = status_of(core::StreamEngine::instance().capture_of(*stream));
  return CUDA_SUCCESS;
}

// The dependency array must outlive the call (until the next call on the stream).
thread_local core::CaptureMark last_info;

CUresult capture_info(CUstream handle, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                      const CUgraphNode** dependencies, const CUgraphEdgeData** edge_data, size_t* count,
                      NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  last_info = core::StreamEngine::instance().capture_of(*stream);
  *status = status_of(last_info);
  if (!last_info.session) return CUDA_SUCCESS;  // the other outputs are left alone when not capturing
  if (id) *id = last_info.session->id;
  if (graph) *graph = reinterpret_cast<CUgraph>(last_info.session->graph);
  if (dependencies) *dependencies = reinterpret_cast<const CUgraphNode*>(last_info.tips.data());
  if (edge_data) *edge_data = nullptr;  // every captured edge is a default edge
  if (count) *count = last_info.tips.size();
  return CUDA_SUCCESS;
}

CUresult update_dependencies(CUstream handle, CUgraphNode* dependencies, size_t count, unsigned flags,
                             NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if ((count > 0 && !dependencies) ||
      (flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES && flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES))
    return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  std::vector<core::GraphNode*> nodes;
  for (size_t i = 0; i < count; ++i) nodes.push_back(reinterpret_cast<core::GraphNode*>(dependencies[i]));
  auto updated =
      core::StreamEngine::instance().update_capture_tips(*stream, nodes, flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES);
  return updated ? CUDA_SUCCESS : driver::to_cu_result(updated.error());
}

CUresult launch(CUgraphExec hGraphExec, CUstream handle, NullStream null_stream) {
  CUCPU_REQUIRE_CONTEXT(context);
  CUCPU_DRIVER_RETURN_IF_STICKY();
  core::GraphExec* exec = to_exec(hGraphExec);
  if (!exec) return CUDA_ERROR_INVALID_VALUE;
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return CUDA_ERROR_INVALID_HANDLE;
  auto launched = core::launch_graph(*exec, *stream);
  return launched ? CUDA_SUCCESS : driver::to_cu_result(launched.error());
}

CUresult instantiate(CUgraphExec* phGraphExec, CUgraph hGraph, unsigned long long flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  core::Graph* graph = to_graph(hGraph);
  if (!phGraphExec || !graph) return CUDA_ERROR_INVALID_VALUE;
  constexpr unsigned long long kHostFlags = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
                                            CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
                                            CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
  if (flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) return CUDA_ERROR_NOT_SUPPORTED;
  if (flags & ~kHostFlags) return CUDA_ERROR_INVALID_VALUE;
  auto exec = core::instantiate_graph(*graph, flags & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
  if (!exec) return driver::to_cu_result(exec.error());
  *phGraphExec = reinterpret_cast<CUgraphExec>(*exec);
  return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode) {
  return begin(hStream, mode, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode) {
  return begin(hStream, mode, NullStream::PerThread);
}
// The CUDA 10.0 form: a global capture.
CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream) {
  return begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream hStream) {
  return begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, NullStream::PerThread);
}

CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream hStream, CUgraph hGraph, const CUgraphNode* dependencies,
                                             const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                             CUstreamCaptureMode mode) {
  CUCPU_REQUIRE_CONTEXT(context);
  (void)dependencyData;  // only default edges exist on a CPU
  if (!to_graph(hGraph) || (numDependencies > 0 && !dependencies)) return CUDA_ERROR_INVALID_VALUE;
  return begin(hStream, mode, NullStream::Legacy, hGraph, dependencies, numDependencies);
}
CUresult CUDAAPI cuStreamBeginCaptureToGraph_ptsz(CUstream hStream, CUgraph hGraph, const CUgraphNode* dependencies,
                                                  const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                                  CUstreamCaptureMode mode) {
  CUCPU_REQUIRE_CONTEXT(context);
  (void)dependencyData;
  if (!to_graph(hGraph) || (numDependencies > 0 && !dependencies)) return CUDA_ERROR_INVALID_VALUE;
  return begin(hStream, mode, NullStream::PerThread, hGraph, dependencies, numDependencies);
}

CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph* phGraph) { return end(hStream, phGraph, NullStream::Legacy); }
CUresult CUDAAPI cuStreamEndCapture_ptsz(CUstream hStream, CUgraph* phGraph) {
  return end(hStream, phGraph, NullStream::PerThread);
}

CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  return is_capturing(hStream, captureStatus, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  return is_capturing(hStream, captureStatus, NullStream::PerThread);
}

CUresult CUDAAPI cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus* captureStatus_out, cuuint64_t* id_out) {
  return capture_info(hStream, captureStatus_out, id_out, nullptr, nullptr, nullptr, nullptr, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                             cuuint64_t* id_out) {
  return capture_info(hStream, captureStatus_out, id_out, nullptr, nullptr, nullptr, nullptr, NullStream::PerThread);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                           cuuint64_t* id_out, CUgraph* graph_out,
                                           const CUgraphNode** dependencies_out, size_t* numDependencies_out) {
  return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, nullptr, numDependencies_out,
                      NullStream::Legacy);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                cuuint64_t* id_out, CUgraph* graph_out,
                                                const CUgraphNode** dependencies_out, size_t* numDependencies_out) {
  return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, nullptr, numDependencies_out,
                      NullStream::PerThread);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                           cuuint64_t* id_out, CUgraph* graph_out,
                                           const CUgraphNode** dependencies_out, const CUgraphEdgeData** edgeData_out,
                                           size_t* numDependencies_out) {
  return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                      numDependencies_out, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                                cuuint64_t* id_out, CUgraph* graph_out,
                                                const CUgraphNode** dependencies_out,
                                                const CUgraphEdgeData** edgeData_out, size_t* numDependencies_out) {
  return capture_info(hStream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                      numDependencies_out, NullStream::PerThread);
}

CUresult CUDAAPI cuStreamUpdateCaptureDependencies(CUstream hStream, CUgraphNode* dependencies, size_t numDependencies,
                                                   unsigned int flags) {
  return update_dependencies(hStream, dependencies, numDependencies, flags, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_ptsz(CUstream hStream, CUgraphNode* dependencies,
                                                        size_t numDependencies, unsigned int flags) {
  return update_dependencies(hStream, dependencies, numDependencies, flags, NullStream::PerThread);
}
// The CUDA 12.3 form with edge data: only default edges exist on a CPU.
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2(CUstream hStream, CUgraphNode* dependencies,
                                                      const CUgraphEdgeData*, size_t numDependencies,
                                                      unsigned int flags) {
  return update_dependencies(hStream, dependencies, numDependencies, flags, NullStream::Legacy);
}
CUresult CUDAAPI cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hStream, CUgraphNode* dependencies,
                                                           const CUgraphEdgeData*, size_t numDependencies,
                                                           unsigned int flags) {
  return update_dependencies(hStream, dependencies, numDependencies, flags, NullStream::PerThread);
}

CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  std::optional<core::CaptureMode> wanted = to_mode(*mode);
  if (!wanted) return CUDA_ERROR_INVALID_VALUE;
  *mode = from_mode(core::exchange_thread_capture_mode(*wanted));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphCreate(CUgraph* phGraph, unsigned int flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!phGraph || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  *phGraph = reinterpret_cast<CUgraph>(core::create_graph());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph) {
  CUCPU_REQUIRE_INIT();
  core::Graph* graph = to_graph(hGraph);
  if (!graph || graph->owned_by_node()) return CUDA_ERROR_INVALID_VALUE;  // a child graph goes with its node
  core::destroy_graph(graph);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* phGraphExec, CUgraph hGraph, unsigned long long flags) {
  return instantiate(phGraphExec, hGraph, flags);
}

// The CUDA 10-11 form, with an error node and a log buffer, which stay untouched on success.
CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec* phGraphExec, CUgraph hGraph, CUgraphNode*, char*, size_t) {
  return instantiate(phGraphExec, hGraph, 0);
}
CUresult CUDAAPI cuGraphInstantiate(CUgraphExec* phGraphExec, CUgraph hGraph, CUgraphNode*, char*, size_t) {
  return instantiate(phGraphExec, hGraph, 0);
}

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec) {
  CUCPU_REQUIRE_INIT();
  core::GraphExec* exec = to_exec(hGraphExec);
  if (!exec) return CUDA_ERROR_INVALID_VALUE;
  core::destroy_graph_exec(exec);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
  return launch(hGraphExec, hStream, NullStream::Legacy);
}
CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec hGraphExec, CUstream hStream) {
  return launch(hGraphExec, hStream, NullStream::PerThread);
}

// Nothing to upload: the device's memory is the host's.
CUresult CUDAAPI cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!to_exec(hGraphExec)) return CUDA_ERROR_INVALID_VALUE;
  return core::to_stream(hStream, NullStream::Legacy) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
CUresult CUDAAPI cuGraphUpload_ptsz(CUgraphExec hGraphExec, CUstream hStream) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!to_exec(hGraphExec)) return CUDA_ERROR_INVALID_VALUE;
  return core::to_stream(hStream, NullStream::PerThread) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

}  // extern "C"
