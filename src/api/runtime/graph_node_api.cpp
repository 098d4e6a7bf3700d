// Graph nodes beyond the basic ones of graph_api.cpp: child graphs, event record and wait,
// memory allocation and free (core/graph_memory.h), conditional nodes with their handles
// (exec/graph_conditional.h), and cudaGraphAddNode, which adds a node of any kind from
// cudaGraphNodeParams (the basic kinds through graph_api.cpp's entry points).
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "api/runtime/graph_handle.h"
#include "api/runtime/missing_function.h"
#include "api/runtime/runtime_state.h"
#include "core/device.h"
#include "core/event.h"
#include "core/graph.h"
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

// An allocation of `graph` that every path to the new node has freed already (all its
// memalloc nodes are followed by a memfree node among the new node's ancestors): the
// new allocation may take its address, as CUDA reuses virtual addresses within a graph.
std::shared_ptr<core::GraphAllocation> freed_before(const core::Graph& graph, const cudaGraphNode_t* dependencies,
                                                    size_t dependency_count, size_t size, int device) {
  std::unordered_set<const core::GraphNode*> ancestors;
  std::vector<const core::GraphNode*> pending;
  for (size_t i = 0; i < dependency_count; ++i) pending.push_back(to_node(dependencies[i]));
  while (!pending.empty()) {
    const core::GraphNode* node = pending.back();
    pending.pop_back();
    if (!graph.contains(node) || !ancestors.insert(node).second) continue;
    for (const core::GraphNode* dependency : node->dependencies()) pending.push_back(dependency);
  }
  std::unordered_map<const core::GraphAllocation*, int> open;  // allocations minus frees seen
  for (const core::GraphNode* node : graph.nodes()) {
    const auto& allocation = node->content().allocation;
    if (node->kind() == core::CommandKind::MemAlloc) ++open[allocation.get()];
    if (node->kind() == core::CommandKind::MemFree && ancestors.contains(node)) --open[allocation.get()];
  }
  for (const core::GraphNode* node : ancestors) {
    const auto& allocation = node->content().allocation;
    if (node->kind() == core::CommandKind::MemFree && open[allocation.get()] == 0 && allocation->size() >= size &&
        allocation->device() == device)
      return allocation;
  }
  return nullptr;
}

cudaError_t add_child_graph_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 size_t dependency_count, cudaGraph_t child_handle,
                                 cudaGraphChildGraphNodeOwnership ownership) {
  core::Graph* child = to_graph(child_handle);
  if (!child || child->owned_by_node() || to_graph(graph) == child) return runtime::record(cudaErrorInvalidValue);
  if (ownership != cudaGraphChildGraphOwnershipClone && ownership != cudaGraphChildGraphOwnershipMove)
    return runtime::record(cudaErrorInvalidValue);
  core::Graph* body = child;
  if (ownership == cudaGraphChildGraphOwnershipClone) {
    body = core::create_graph();
    child->copy_into(*body);
  }
  return runtime::add_graph_node(node, graph, dependencies, dependency_count,
                  core::NodeContent{.kind = core::CommandKind::Graph, .bodies = {body}});
}

cudaError_t add_event_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                           size_t dependency_count, cudaEvent_t handle, bool record) {
  core::Event* event = to_event(handle);
  if (!event) return runtime::record(cudaErrorInvalidValue);
  core::NodeContent content{.kind = record ? core::CommandKind::EventRecord : core::CommandKind::EventWait,
                            .event = event};
  // The event is checked when the node runs: a destroyed event is skipped, not touched.
  if (record)
    content.run = [event] {
      if (core::is_event(event)) event->record_reached();
    };
  else
    content.run = [event] {
      if (!core::is_event(event)) return;
      if (core::CompletionRef completion = event->completion()) completion->wait();
    };
  return runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(content));
}

// A conditional node with `size` empty bodies, which it returns in phGraph_out.
cudaError_t add_conditional_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 size_t dependency_count, cudaConditionalNodeParams& p) {
  if (!exec::is_graph_conditional(p.handle)) return runtime::record(cudaErrorInvalidValue);
  core::Condition condition{p.handle, core::ConditionType::If};
  switch (p.type) {
    case cudaGraphCondTypeIf:
      if (p.size != 1 && p.size != 2) return runtime::record(cudaErrorInvalidValue);
      break;
    case cudaGraphCondTypeWhile:
      if (p.size != 1) return runtime::record(cudaErrorInvalidValue);
      condition.type = core::ConditionType::While;
      break;
    case cudaGraphCondTypeSwitch:
      if (p.size == 0) return runtime::record(cudaErrorInvalidValue);
      condition.type = core::ConditionType::Switch;
      break;
    default:
      return runtime::record(cudaErrorInvalidValue);
  }
  if (!to_graph(graph)) return runtime::record(cudaErrorInvalidValue);
  core::NodeContent content{.kind = core::CommandKind::Conditional, .condition = condition};
  for (unsigned i = 0; i < p.size; ++i) content.bodies.push_back(core::create_graph());
  if (cudaError_t error = runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(content));
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
  const int device = params->poolProps.location.id;
  Result<std::shared_ptr<core::GraphAllocation>> allocation =
      freed_before(*to_graph(graph), dependencies, dependency_count, params->bytesize, device);
  if (!*allocation) allocation = core::reserve_graph_allocation(params->bytesize, device);
  if (!allocation) return runtime::record(allocation.error());
  void* pointer = (*allocation)->pointer();
  // Nothing to do when it runs: the launch backed it (graph_memory.h), pages come on use.
  core::NodeContent content{.kind = core::CommandKind::MemAlloc, .allocation = *allocation};
  if (cudaError_t error = runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(content));
      error != cudaSuccess)
    return error;
  *dptr = pointer;
  return cudaSuccess;
}

cudaError_t add_mem_free_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                              size_t dependency_count, void* dptr) {
  std::shared_ptr<core::GraphAllocation> allocation = core::find_graph_allocation(dptr);
  if (!allocation) return runtime::record(cudaErrorInvalidValue);  // not the address of a graph allocation
  core::NodeContent content{.kind = core::CommandKind::MemFree,
                            .run = [allocation] { allocation->release_pages(); },
                            .allocation = allocation};
  return runtime::add_graph_node(node, graph, dependencies, dependency_count, std::move(content));
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
