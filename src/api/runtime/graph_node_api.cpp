// Graph nodes beyond the basic ones of graph_api.cpp: child graphs, event record and wait,
// memory allocation and free (core/graph_memory.h), conditional nodes with their handles
// (exec/graph_conditional.h), and cudaGraphAddNode, which adds a node of any kind from
// cudaGraphNodeParams (the basic kinds through graph_api.cpp's entry points).
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "api/runtime/graph_handle.h"
#include "api/runtime/missing_function.h"
#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/event.h"
#include "core/graph.h"
#include "core/graph_building.h"
#include "core/graph_memory.h"
#include "exec/graph_conditional.h"

using namespace cucpu;

namespace {

using runtime::to_graph;
using runtime::to_node;
using runtime::to_graph_handle;

core::Event* to_event(cudaEvent_t handle) {
  return core::is_event(handle) ? reinterpret_cast<core::Event*>(handle) : nullptr;
}

// A graph's allocation, checked as the GPU checks them: pinned device memory of a
// device that exists, no IPC handle types.
cudaError_t check_alloc_params(const cudaMemAllocNodeParams* p) {
  if (!p || p->bytesize == 0) return cudaErrorInvalidValue;
  if (p->poolProps.allocType != cudaMemAllocationTypePinned || p->poolProps.handleTypes != cudaMemHandleTypeNone ||
      p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id < 0 ||
      p->poolProps.location.id >= core::device_count())
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

cudaError_t add_child_graph_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 size_t dependency_count, cudaGraph_t child_handle,
                                 cudaGraphChildGraphNodeOwnership ownership) {
  if (ownership != cudaGraphChildGraphOwnershipClone && ownership != cudaGraphChildGraphOwnershipMove)
    return runtime::record(cudaErrorInvalidValue);
  auto content = core::child_graph_node(to_graph(graph), to_graph(child_handle),
                                        ownership == cudaGraphChildGraphOwnershipClone);
  if (!content) return runtime::record(content.error());
  return runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(*content));
}

cudaError_t add_event_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                           size_t dependency_count, cudaEvent_t handle, bool record) {
  core::Event* event = to_event(handle);
  if (!event) return runtime::record(cudaErrorInvalidValue);
  return runtime::add_graph_node(node, graph, dependencies, dependency_count, core::event_node(event, record));
}

// A conditional node with `size` empty bodies, which it returns in phGraph_out.
cudaError_t add_conditional_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 size_t dependency_count, cudaConditionalNodeParams& p) {
  core::ConditionType type;
  switch (p.type) {
    case cudaGraphCondTypeIf: type = core::ConditionType::If; break;
    case cudaGraphCondTypeWhile: type = core::ConditionType::While; break;
    case cudaGraphCondTypeSwitch: type = core::ConditionType::Switch; break;
    default: return runtime::record(cudaErrorInvalidValue);
  }
  if (!to_graph(graph)) return runtime::record(cudaErrorInvalidValue);
  auto content = core::conditional_node(p.handle, type, p.size);
  if (!content) return runtime::record(content.error());
  if (cudaError_t error = runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(*content));
      error != cudaSuccess)
    return error;
  // CUDA-owned and valid as long as the node: the node's own list of bodies.
  p.phGraph_out = reinterpret_cast<cudaGraph_t*>(const_cast<core::Graph**>(to_node(*node)->content().bodies.data()));
  return cudaSuccess;
}

}  // namespace

namespace cucpu::runtime {

cudaError_t add_mem_alloc_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                               size_t dependency_count, const cudaMemAllocNodeParams* params, void** dptr) {
  if (cudaError_t error = check_alloc_params(params); error != cudaSuccess) return runtime::record(error);
  if (!to_graph(graph) || (dependency_count > 0 && !dependencies)) return runtime::record(cudaErrorInvalidValue);
  std::vector<core::GraphNode*> after;
  for (size_t i = 0; i < dependency_count; ++i) after.push_back(to_node(dependencies[i]));
  auto content = core::mem_alloc_node(*to_graph(graph), after, params->bytesize, params->poolProps.location.id);
  if (!content) return runtime::record(content.error());
  void* pointer = content->allocation->pointer();
  if (cudaError_t error = runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(*content));
      error != cudaSuccess)
    return error;
  *dptr = pointer;
  return cudaSuccess;
}

cudaError_t add_mem_free_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                              size_t dependency_count, void* dptr) {
  auto content = core::mem_free_node(dptr);
  if (!content) return runtime::record(content.error());
  return runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(*content));
}

}  // namespace cucpu::runtime

extern "C" {

cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                 cudaGraph_t childGraph) {
  return add_child_graph_node(pGraphNode, graph, pDependencies, numDependencies, childGraph,
                              cudaGraphChildGraphOwnershipClone);
}

cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  if (!node || !pGraph || to_node(node)->kind() != core::CommandKind::Graph)
    return runtime::record(cudaErrorInvalidValue);
  *pGraph = to_graph_handle(to_node(node)->content().bodies.at(0));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                  cudaEvent_t event) {
  return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, true);
}

cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                                cudaEvent_t event) {
  return add_event_node(pGraphNode, graph, pDependencies, numDependencies, event, false);
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  if (!node || !event_out || to_node(node)->kind() != core::CommandKind::EventRecord)
    return runtime::record(cudaErrorInvalidValue);
  *event_out = static_cast<cudaEvent_t>(const_cast<void*>(to_node(node)->content().event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  if (!node || !event_out || to_node(node)->kind() != core::CommandKind::EventWait || !to_node(node)->content().event)
    return runtime::record(cudaErrorInvalidValue);
  *event_out = static_cast<cudaEvent_t>(const_cast<void*>(to_node(node)->content().event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                               struct cudaMemAllocNodeParams* nodeParams) {
  if (!nodeParams) return runtime::record(cudaErrorInvalidValue);
  return runtime::add_mem_alloc_node(pGraphNode, graph, pDependencies, numDependencies, nodeParams, &nodeParams->dptr);
}

cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams* params_out) {
  if (!node || !params_out || to_node(node)->kind() != core::CommandKind::MemAlloc)
    return runtime::record(cudaErrorInvalidValue);
  const core::GraphAllocation& allocation = *to_node(node)->content().allocation;
  *params_out = cudaMemAllocNodeParams{};
  params_out->poolProps.allocType = cudaMemAllocationTypePinned;
  params_out->poolProps.location = {cudaMemLocationTypeDevice, allocation.device()};
  params_out->bytesize = allocation.size();
  params_out->dptr = allocation.pointer();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                              void* dptr) {
  return runtime::add_mem_free_node(pGraphNode, graph, pDependencies, numDependencies, dptr);
}

cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  if (!node || !dptr_out || to_node(node)->kind() != core::CommandKind::MemFree)
    return runtime::record(cudaErrorInvalidValue);
  *static_cast<void**>(dptr_out) = to_node(node)->content().allocation->pointer();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void* value) {
  if (device < 0 || device >= core::device_count()) return runtime::record(cudaErrorInvalidDevice);
  if (!value) return runtime::record(cudaErrorInvalidValue);
  const core::GraphMemoryUsage usage = core::graph_memory_usage(device);
  uint64_t result = 0;
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent:
      result = usage.used;
      break;
    case cudaGraphMemAttrUsedMemHigh:
      result = usage.used_high;
      break;
    case cudaGraphMemAttrReservedMemCurrent:
      result = usage.reserved;
      break;
    case cudaGraphMemAttrReservedMemHigh:
      result = usage.reserved_high;
      break;
    default:
      return runtime::record(cudaErrorInvalidValue);
  }
  *static_cast<uint64_t*>(value) = result;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void* value) {
  if (device < 0 || device >= core::device_count()) return runtime::record(cudaErrorInvalidDevice);
  // Only the high watermarks can be set, and only to 0.
  if (!value || *static_cast<const uint64_t*>(value) != 0) return runtime::record(cudaErrorInvalidValue);
  switch (attr) {
    case cudaGraphMemAttrUsedMemHigh:
      core::reset_graph_memory_used_high(device);
      break;
    case cudaGraphMemAttrReservedMemHigh:
      core::reset_graph_memory_reserved_high(device);
      break;
    default:
      return runtime::record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int device) {
  if (device < 0 || device >= core::device_count()) return runtime::record(cudaErrorInvalidDevice);
  core::trim_graph_memory(device);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out, cudaGraph_t graph,
                                                       unsigned int defaultLaunchValue, unsigned int flags) {
  if (!pHandle_out || !to_graph(graph) || (flags & ~unsigned{cudaGraphCondAssignDefault}) != 0)
    return runtime::record(cudaErrorInvalidValue);
  *pHandle_out = exec::create_graph_conditional(defaultLaunchValue, (flags & cudaGraphCondAssignDefault) != 0);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies, const cudaGraphEdgeData* dependencyData,
                                       size_t numDependencies, struct cudaGraphNodeParams* nodeParams) {
  if (!nodeParams) return runtime::record(cudaErrorInvalidValue);
  (void)dependencyData;  // only default edges exist on a CPU (see cudaGraphAddDependencies)
  cudaGraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams kernel{p.kernel.func,           p.kernel.gridDim,      p.kernel.blockDim,
                                        p.kernel.sharedMemBytes, p.kernel.kernelParams, p.kernel.extra};
      return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &kernel);
    }
    case cudaGraphNodeTypeMemcpy:
      if (p.memcpy.flags != 0) return runtime::record(cudaErrorInvalidValue);
      return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams memset{p.memset.dst,         p.memset.pitch, p.memset.value,
                                    p.memset.elementSize, p.memset.width, p.memset.height};
      return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &memset);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams host{p.host.fn, p.host.userData};
      return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &host);
    }
    case cudaGraphNodeTypeGraph:
      if (cudaError_t error =
              add_child_graph_node(pGraphNode, graph, pDependencies, numDependencies, p.graph.graph, p.graph.ownership);
          error != cudaSuccess)
        return error;
      p.graph.graph = to_graph_handle(to_node(*pGraphNode)->content().bodies.at(0));  // the node's own graph
      return cudaSuccess;
    case cudaGraphNodeTypeEmpty:
      return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeWaitEvent:
      return add_event_node(pGraphNode, graph, pDependencies, numDependencies, p.eventWait.event, false);
    case cudaGraphNodeTypeEventRecord:
      return add_event_node(pGraphNode, graph, pDependencies, numDependencies, p.eventRecord.event, true);
    case cudaGraphNodeTypeMemAlloc: {
      const cudaMemAllocNodeParams alloc{p.alloc.poolProps, p.alloc.accessDescs, p.alloc.accessDescCount,
                                         p.alloc.bytesize, nullptr};
      return runtime::add_mem_alloc_node(pGraphNode, graph, pDependencies, numDependencies, &alloc, &p.alloc.dptr);
    }
    case cudaGraphNodeTypeMemFree:
      return runtime::add_mem_free_node(pGraphNode, graph, pDependencies, numDependencies, p.free.dptr);
    case cudaGraphNodeTypeConditional:
      return add_conditional_node(pGraphNode, graph, pDependencies, numDependencies, p.conditional);
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
      return static_cast<cudaError_t>(cucpu_report_missing_function("cudaGraphAddNode (external semaphore nodes)"));
    default:
      return runtime::record(cudaErrorInvalidValue);
  }
}

}  // extern "C"
