// CUDA graphs built by hand: create, add kernel / memcpy / memset / host / empty nodes and
// edges, list nodes and edges, instantiate, launch on a stream, destroy (the other node
// kinds and cudaGraphAddNode: graph_node_api.cpp). The graph itself
// is core/graph.h; nodes are the same commands a stream runs, made with the same checks
// as the stream calls they stand for (a kernel node is checked like a launch).
#include <cuda_runtime_api.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "api/runtime/graph_handle.h"
#include "api/runtime/missing_function.h"
#include "api/runtime/runtime_state.h"
#include "core/stream_handle.h"
#include "core/graph.h"
#include "core/graph_building.h"
#include "core/stream_capture.h"
#include "core/launch.h"
#include "core/memory_registry.h"
#include "core/stream_engine.h"
#include "core/strided_copy.h"

using namespace cucpu;
using core::NullStream;

namespace {

using runtime::to_graph;
using runtime::to_node;
using runtime::to_node_handle;

cudaError_t add_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                     size_t dependency_count, core::CommandKind kind, std::function<void()> run) {
  return runtime::add_graph_node(node, graph, dependencies, dependency_count,
                                 core::NodeContent{.kind = kind, .run = std::move(run)});
}

// The list-returning calls share CUDA's convention: a null array asks for the count; else
// up to *count entries are written, the rest of the array set to null, and *count becomes
// the number written.
cudaError_t list_nodes(const std::vector<core::GraphNode*>& nodes, cudaGraphNode_t* out, size_t* count) {
  if (!count) return runtime::record(cudaErrorInvalidValue);
  if (!out) {
    *count = nodes.size();
    return cudaSuccess;
  }
  const size_t written = std::min(*count, nodes.size());
  for (size_t i = 0; i < *count; ++i) out[i] = i < written ? to_node_handle(nodes[i]) : nullptr;
  *count = written;
  return cudaSuccess;
}

cudaGraphNodeType node_type(core::CommandKind kind) {
  switch (kind) {
    case core::CommandKind::Kernel: return cudaGraphNodeTypeKernel;
    case core::CommandKind::Copy: return cudaGraphNodeTypeMemcpy;
    case core::CommandKind::Set: return cudaGraphNodeTypeMemset;
    case core::CommandKind::HostFunction: return cudaGraphNodeTypeHost;
    case core::CommandKind::EventRecord: return cudaGraphNodeTypeEventRecord;
    case core::CommandKind::EventWait: return cudaGraphNodeTypeWaitEvent;
    case core::CommandKind::Graph: return cudaGraphNodeTypeGraph;
    case core::CommandKind::MemAlloc: return cudaGraphNodeTypeMemAlloc;
    case core::CommandKind::MemFree: return cudaGraphNodeTypeMemFree;
    case core::CommandKind::Conditional: return cudaGraphNodeTypeConditional;
    case core::CommandKind::Empty: break;
  }
  return cudaGraphNodeTypeEmpty;
}

// A kernel node's work: the launch checked and its arguments copied now, as a launch does.
cudaError_t kernel_node_run(const cudaKernelNodeParams* p, std::function<void()>* run) {
  if (!p) return runtime::record(cudaErrorInvalidValue);
  if (p->extra) {
    std::fprintf(stderr, "cucpu: kernel graph nodes with arguments through `extra` are not supported yet\n");
    return runtime::record(cudaErrorNotSupported);
  }
  const core::Kernel* kernel = core::modules().find_kernel(p->func);
  if (!kernel) return runtime::record(cudaErrorInvalidDeviceFunction);
  const dim3 g = p->gridDim, b = p->blockDim;
  auto content = core::kernel_node(*kernel, core::LaunchRequest{exec::Dim3{g.x, g.y, g.z}, exec::Dim3{b.x, b.y, b.z},
                                                                p->sharedMemBytes, p->kernelParams, false});
  if (!content) return runtime::record(content.error());
  *run = content->run;
  return cudaSuccess;
}

core::GraphExec* to_exec(cudaGraphExec_t handle) {
  return core::is_graph_exec(handle) ? reinterpret_cast<core::GraphExec*>(handle) : nullptr;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  if (!pGraph || flags != 0) return runtime::record(cudaErrorInvalidValue);
  *pGraph = reinterpret_cast<cudaGraph_t>(core::create_graph());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t graph) {
  core::Graph* found = to_graph(graph);
  // A child graph or conditional body goes with its node.
  if (!found || found->owned_by_node()) return runtime::record(cudaErrorInvalidValue);
  core::destroy_graph(found);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  core::Graph* original = to_graph(originalGraph);
  if (!pGraphClone || !original) return runtime::record(cudaErrorInvalidValue);
  Result<core::Graph*> clone = core::clone_graph(*original);
  if (!clone) return runtime::record(clone.error());
  *pGraphClone = reinterpret_cast<cudaGraph_t>(*clone);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams* pNodeParams) {
  std::function<void()> run;
  if (cudaError_t error = kernel_node_run(pNodeParams, &run); error != cudaSuccess) return error;
  return add_node(pGraphNode, graph, pDependencies, numDependencies, core::CommandKind::Kernel, std::move(run));
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms* p) {
  if (!p || (p->srcArray && p->srcPtr.ptr) || (p->dstArray && p->dstPtr.ptr))
    return runtime::record(cudaErrorInvalidValue);
  if (p->srcArray || p->dstArray)
    return static_cast<cudaError_t>(cucpu_report_missing_function("cudaGraphAddMemcpyNode (with a CUDA array)"));
  auto copy = core::describe_copy_3d({p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.xsize, p->dstPtr.ysize},
                                     {p->dstPos.x, p->dstPos.y, p->dstPos.z},
                                     {p->srcPtr.ptr, p->srcPtr.pitch, p->srcPtr.xsize, p->srcPtr.ysize},
                                     {p->srcPos.x, p->srcPos.y, p->srcPos.z},
                                     {p->extent.width, p->extent.height, p->extent.depth});
  if (!copy) return runtime::record(copy.error());
  return add_node(pGraphNode, graph, pDependencies, numDependencies, core::CommandKind::Copy,
                  [copy = *copy] { core::run_strided_copy(copy); });
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                               void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return runtime::record(cudaErrorInvalidMemcpyDirection);
  if (count > 0 && (!dst || !src)) return runtime::record(cudaErrorInvalidValue);
  return add_node(pGraphNode, graph, pDependencies, numDependencies, core::CommandKind::Copy,
                  [dst, src, count] { std::memmove(dst, src, count); });
}

cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams* pMemsetParams) {
  if (!pMemsetParams) return runtime::record(cudaErrorInvalidValue);
  const cudaMemsetParams& p = *pMemsetParams;
  auto content = core::memset_node(p.dst, p.pitch, p.value, p.elementSize, p.width, p.height);
  if (!content) return runtime::record(content.error());
  return runtime::add_graph_node(pGraphNode, graph, pDependencies, numDependencies, std::move(*content));
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams* pNodeParams) {
  if (!pNodeParams || !pNodeParams->fn) return runtime::record(cudaErrorInvalidValue);
  return runtime::add_graph_node(pGraphNode, graph, pDependencies, numDependencies,
                                 core::host_node(pNodeParams->fn, pNodeParams->userData));
}

cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                            const cudaGraphNode_t* pDependencies, size_t numDependencies) {
  return add_node(pGraphNode, graph, pDependencies, numDependencies, core::CommandKind::Empty, nullptr);
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                               const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                               size_t numDependencies) {
  core::Graph* found = to_graph(graph);
  if (!found || (numDependencies > 0 && (!from || !to))) return runtime::record(cudaErrorInvalidValue);
  (void)edgeData;  // only default edges exist on a CPU: there is no programmatic overlap to describe
  for (size_t i = 0; i < numDependencies; ++i)
    if (auto added = found->add_dependency(to_node(from[i]), to_node(to[i])); !added)
      return runtime::record(added.error());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  core::Graph* found = to_graph(graph);
  if (!found) return runtime::record(cudaErrorInvalidValue);
  return list_nodes(found->nodes(), nodes, numNodes);
}

cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes, size_t* pNumRootNodes) {
  core::Graph* found = to_graph(graph);
  if (!found) return runtime::record(cudaErrorInvalidValue);
  return list_nodes(found->roots(), pRootNodes, pNumRootNodes);
}

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                                        cudaGraphEdgeData* edgeData, size_t* numEdges) {
  core::Graph* found = to_graph(graph);
  if (!found || !numEdges || (!from != !to) || (edgeData && !from)) return runtime::record(cudaErrorInvalidValue);
  const auto edges = found->edges();
  if (!from) {
    *numEdges = edges.size();
    return cudaSuccess;
  }
  const size_t written = std::min(*numEdges, edges.size());
  for (size_t i = 0; i < *numEdges; ++i) {
    from[i] = i < written ? to_node_handle(edges[i].first) : nullptr;
    to[i] = i < written ? to_node_handle(edges[i].second) : nullptr;
    if (edgeData) edgeData[i] = cudaGraphEdgeData{};
  }
  *numEdges = written;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType* pType) {
  if (!node || !pType) return runtime::record(cudaErrorInvalidValue);
  *pType = node_type(to_node(node)->kind());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                                    unsigned long long flags) {
  core::Graph* found = to_graph(graph);
  if (!pGraphExec || !found) return runtime::record(cudaErrorInvalidValue);
  // Uploading and node priorities need nothing here; a graph
  // launched from the device needs device-side launches, which cucpu does not have yet.
  constexpr unsigned long long kHostFlags = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                            cudaGraphInstantiateFlagUseNodePriority;
  if (flags & cudaGraphInstantiateFlagDeviceLaunch) {
    std::fprintf(stderr, "cucpu: cudaGraphInstantiate: cudaGraphInstantiateFlagDeviceLaunch is not supported yet\n");
    return runtime::record(cudaErrorNotSupported);
  }
  if (flags & ~kHostFlags) return runtime::record(cudaErrorInvalidValue);
  auto exec = core::instantiate_graph(*found, flags & cudaGraphInstantiateFlagAutoFreeOnLaunch);
  if (!exec) return runtime::record(exec.error());
  *pGraphExec = reinterpret_cast<cudaGraphExec_t>(*exec);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(pGraphExec, graph, flags);
}

cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams* pNodeParams) {
  core::GraphExec* exec = to_exec(hGraphExec);
  if (!exec || !node || to_node(node)->kind() != core::CommandKind::Kernel) return runtime::record(cudaErrorInvalidValue);
  std::function<void()> run;
  if (cudaError_t error = kernel_node_run(pNodeParams, &run); error != cudaSuccess) return error;
  auto set = exec->set_node_run(to_node(node), std::move(run));
  return set ? cudaSuccess : runtime::record(set.error());
}

cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                          cudaGraphExecUpdateResultInfo* resultInfo) {
  core::GraphExec* exec = to_exec(hGraphExec);
  core::Graph* graph = to_graph(hGraph);
  if (!exec || !graph) return runtime::record(cudaErrorInvalidValue);
  auto updated = exec->update_from(*graph);
  if (resultInfo)
    *resultInfo = cudaGraphExecUpdateResultInfo{
        updated ? cudaGraphExecUpdateSuccess : cudaGraphExecUpdateErrorTopologyChanged, nullptr, nullptr};
  return updated ? cudaSuccess : runtime::record(updated.error());
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  if (!core::is_graph_exec(graphExec)) return runtime::record(cudaErrorInvalidValue);
  core::destroy_graph_exec(reinterpret_cast<core::GraphExec*>(graphExec));
  return cudaSuccess;
}

}  // extern "C"

namespace {

cudaError_t launch_graph(cudaGraphExec_t exec, cudaStream_t handle, NullStream null_stream) {
  CUCPU_RETURN_IF_STICKY();
  core::GraphExec* graph_exec = to_exec(exec);
  if (!graph_exec) return runtime::record(cudaErrorInvalidValue);
  core::Stream* stream = core::to_stream(handle, null_stream);
  if (!stream) return runtime::record(cudaErrorInvalidResourceHandle);
  auto launched = core::launch_graph(*graph_exec, *stream);
  return launched ? cudaSuccess : runtime::record(launched.error());
}

// Nothing to upload: the device's memory is the host's.
cudaError_t upload_graph(cudaGraphExec_t exec, cudaStream_t handle, NullStream null_stream) {
  if (!core::is_graph_exec(exec)) return runtime::record(cudaErrorInvalidValue);
  if (!core::to_stream(handle, null_stream)) return runtime::record(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return launch_graph(graphExec, stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return launch_graph(graphExec, stream, NullStream::PerThread);
}

cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return upload_graph(graphExec, stream, NullStream::Legacy);
}
cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return upload_graph(graphExec, stream, NullStream::PerThread);
}

}  // extern "C"

namespace cucpu::runtime {

cudaError_t add_graph_node(cudaGraphNode_t* node, cudaGraph_t graph_handle, const cudaGraphNode_t* dependencies,
                           size_t dependency_count, core::NodeContent content) {
  // No graph for core when the arguments are refused: it destroys the node's bodies then.
  const bool refused = !node || (dependency_count > 0 && !dependencies);
  std::vector<core::GraphNode*> after;
  for (size_t i = 0; !refused && i < dependency_count; ++i) after.push_back(to_node(dependencies[i]));
  auto added = core::add_graph_node(refused ? nullptr : to_graph(graph_handle), after, std::move(content));
  if (!added) return record(added.error());
  *node = to_node_handle(*added);
  return cudaSuccess;
}

}  // namespace cucpu::runtime
