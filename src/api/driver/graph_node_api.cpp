// Building graphs node by node through the driver: cuGraphAdd*Node for kernels, copies,
// sets, host functions, child graphs, events, memory allocation and free, the generic
// cuGraphAddNode with its conditional nodes (cuGraphConditionalHandleCreate), the
// getters of nodes and edges, cuGraphClone, and the graph memory attributes. The node
// contents are core's (core/graph_building.h), shared with the runtime's cudaGraphAdd*Node;
// a CUgraphNode is a cudaGraphNode_t.
#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "api/driver/copy_description.h"
#include "api/driver/driver_state.h"
#include "api/driver/kernel_arguments.h"
#include "api/driver/launch_attributes.h"
#include "core/device.h"
#include "core/event.h"
#include "core/graph.h"
#include "core/graph_building.h"
#include "core/graph_memory.h"
#include "core/launch.h"
#include "core/strided_copy.h"
#include "exec/graph_conditional.h"

using namespace cucpu;

namespace {

core::Graph* to_graph(CUgraph handle) {
  return core::is_graph(handle) ? reinterpret_cast<core::Graph*>(handle) : nullptr;
}
CUgraph to_graph_handle(core::Graph* graph) { return reinterpret_cast<CUgraph>(graph); }
core::GraphNode* to_node(CUgraphNode handle) { return reinterpret_cast<core::GraphNode*>(handle); }
CUgraphNode to_node_handle(core::GraphNode* node) { return reinterpret_cast<CUgraphNode>(node); }
core::GraphNode* kernel_node(CUgraphNode handle) {
  core::GraphNode* node = to_node(handle);
  return node && node->kind() == core::CommandKind::Kernel ? node : nullptr;
}
// Adds `content` (or returns its error) after the given dependencies.
CUresult add(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
             Result<core::NodeContent> content) {
  if (!content) return driver::to_cu_result(content.error());
  const bool refused = !node || (count > 0 && !dependencies);  // core then destroys the node's bodies
  std::vector<core::GraphNode*> after;
  for (size_t i = 0; !refused && i < count; ++i) after.push_back(to_node(dependencies[i]));
  auto added = core::add_graph_node(refused ? nullptr : to_graph(graph), after, std::move(*content));
  if (!added) return driver::to_cu_result(added.error());
  *node = to_node_handle(*added);
  return CUDA_SUCCESS;
}

CUresult kernel_content(const CUDA_KERNEL_NODE_PARAMS& p, Result<core::NodeContent>* content) {
  core::Kernel* kernel = driver::to_function(p.func ? p.func : reinterpret_cast<CUfunction>(p.kern));
  if (!kernel) return CUDA_ERROR_INVALID_HANDLE;  // the H200's code for no function
  std::vector<void*> unpacked;
  void** args = nullptr;
  if (CUresult bad = driver::kernel_arguments(*kernel, p.kernelParams, p.extra, &unpacked, &args); bad != CUDA_SUCCESS)
    return bad;
  *content = core::kernel_node(*kernel, core::LaunchRequest{exec::Dim3{p.gridDimX, p.gridDimY, p.gridDimZ},
                                                            exec::Dim3{p.blockDimX, p.blockDimY, p.blockDimZ},
                                                            p.sharedMemBytes, args, false});
  return CUDA_SUCCESS;
}

Result<core::NodeContent> copy_content(const CUDA_MEMCPY3D& p) {
  Result<core::StridedCopy> copy = driver::describe_copy(p);
  if (!copy) return copy.error();
  return core::NodeContent{.kind = core::CommandKind::Copy, .run = [copy = *copy] { core::run_strided_copy(copy); }};
}

Result<core::NodeContent> memset_content(const CUDA_MEMSET_NODE_PARAMS& p) {
  return core::memset_node(driver::to_pointer(p.dst), p.pitch, p.value, p.elementSize, p.width, p.height);
}

core::Event* to_event(CUevent handle) {
  return core::is_event(handle) ? reinterpret_cast<core::Event*>(handle) : nullptr;
}

Result<core::NodeContent> event_content(CUevent handle, bool record) {
  core::Event* event = to_event(handle);
  if (!event) return Error{ErrorCode::InvalidValue, "not an event"};
  return core::event_node(event, record);
}

// A graph's allocation, checked as the GPU checks them: pinned device memory of a device
// that exists, no IPC handle types.
CUresult add_mem_alloc(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                       const CUmemPoolProps& pool, size_t bytes, CUdeviceptr* dptr) {
  if (bytes == 0 || pool.allocType != CU_MEM_ALLOCATION_TYPE_PINNED || pool.handleTypes != CU_MEM_HANDLE_TYPE_NONE ||
      pool.location.type != CU_MEM_LOCATION_TYPE_DEVICE || pool.location.id < 0 ||
      pool.location.id >= core::device_count() || !to_graph(graph) || (count > 0 && !dependencies))
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<core::GraphNode*> after(count);
  for (size_t i = 0; i < count; ++i) after[i] = to_node(dependencies[i]);
  auto content = core::mem_alloc_node(*to_graph(graph), after, bytes, pool.location.id);
  if (!content) return driver::to_cu_result(content.error());
  void* pointer = content->allocation->pointer();
  if (CUresult bad = add(node, graph, dependencies, count, std::move(content)); bad != CUDA_SUCCESS) return bad;
  *dptr = reinterpret_cast<CUdeviceptr>(pointer);
  return CUDA_SUCCESS;
}

CUresult add_child(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count, CUgraph child,
                   CUgraphChildGraphNodeOwnership ownership) {
  if (ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE && ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_MOVE)
    return CUDA_ERROR_INVALID_VALUE;
  return add(node, graph, dependencies, count,
             core::child_graph_node(to_graph(graph), to_graph(child), ownership == CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE));
}

CUresult add_conditional(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                         CUDA_CONDITIONAL_NODE_PARAMS& p) {
  core::ConditionType type;
  switch (p.type) {
    case CU_GRAPH_COND_TYPE_IF: type = core::ConditionType::If; break;
    case CU_GRAPH_COND_TYPE_WHILE: type = core::ConditionType::While; break;
    case CU_GRAPH_COND_TYPE_SWITCH: type = core::ConditionType::Switch; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  if (!to_graph(graph)) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult bad = add(node, graph, dependencies, count, core::conditional_node(p.handle, type, p.size));
      bad != CUDA_SUCCESS)
    return bad;
  // CUDA-owned and valid as long as the node: the node's own list of bodies.
  p.phGraph_out = reinterpret_cast<CUgraph*>(const_cast<core::Graph**>(to_node(*node)->content().bodies.data()));
  return CUDA_SUCCESS;
}

CUgraphNodeType node_type(core::CommandKind kind) {
  switch (kind) {
    case core::CommandKind::Kernel: return CU_GRAPH_NODE_TYPE_KERNEL;
    case core::CommandKind::Copy: return CU_GRAPH_NODE_TYPE_MEMCPY;
    case core::CommandKind::Set: return CU_GRAPH_NODE_TYPE_MEMSET;
    case core::CommandKind::HostFunction: return CU_GRAPH_NODE_TYPE_HOST;
    case core::CommandKind::EventRecord: return CU_GRAPH_NODE_TYPE_EVENT_RECORD;
    case core::CommandKind::EventWait: return CU_GRAPH_NODE_TYPE_WAIT_EVENT;
    case core::CommandKind::Graph: return CU_GRAPH_NODE_TYPE_GRAPH;
    case core::CommandKind::MemAlloc: return CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    case core::CommandKind::MemFree: return CU_GRAPH_NODE_TYPE_MEM_FREE;
    case core::CommandKind::Conditional: return CU_GRAPH_NODE_TYPE_CONDITIONAL;
    case core::CommandKind::Empty: break;
  }
  return CU_GRAPH_NODE_TYPE_EMPTY;
}

// The list-returning calls share CUDA's convention: a null array asks for the count; else
// up to *count entries are written, the rest of the array set to null, and *count becomes
// the number written.
CUresult list_nodes(const std::vector<core::GraphNode*>& nodes, CUgraphNode* out, size_t* count) {
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  if (!out) {
    *count = nodes.size();
    return CUDA_SUCCESS;
  }
  const size_t written = std::min(*count, nodes.size());
  for (size_t i = 0; i < *count; ++i) out[i] = i < written ? to_node_handle(nodes[i]) : nullptr;
  *count = written;
  return CUDA_SUCCESS;
}

CUresult get_edges(CUgraph graph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* edge_data, size_t* count) {
  core::Graph* found = to_graph(graph);
  if (!found || !count || (from == nullptr) != (to == nullptr)) return CUDA_ERROR_INVALID_VALUE;
  const auto edges = found->edges();
  if (!from) {
    *count = edges.size();
    return CUDA_SUCCESS;
  }
  const size_t written = std::min(*count, edges.size());
  for (size_t i = 0; i < *count; ++i) {
    from[i] = i < written ? to_node_handle(edges[i].first) : nullptr;
    to[i] = i < written ? to_node_handle(edges[i].second) : nullptr;
    if (edge_data) edge_data[i] = CUgraphEdgeData{};  // every edge is a default edge on a CPU
  }
  *count = written;
  return CUDA_SUCCESS;
}

CUresult add_dependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to, size_t count) {
  core::Graph* found = to_graph(graph);
  if (!found || (count > 0 && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i)
    if (auto added = found->add_dependency(to_node(from[i]), to_node(to[i])); !added)
      return driver::to_cu_result(added.error());
  return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuGraphAddKernelNode_v2(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                         size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
  Result<core::NodeContent> content = Error{ErrorCode::InvalidValue, "kernel node"};
  if (CUresult bad = kernel_content(*nodeParams, &content); bad != CUDA_SUCCESS) return bad;
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(content));
}

// The CUDA 11 form, without a CUkernel or context.
CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1* nodeParams) {
  if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
  const auto& k = *nodeParams;
  const CUDA_KERNEL_NODE_PARAMS kernel{k.func,       k.gridDimX,       k.gridDimY,    k.gridDimZ, k.blockDimX,
                                       k.blockDimY,  k.blockDimZ,      k.sharedMemBytes, k.kernelParams, k.extra,
                                       nullptr,      nullptr};
  return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &kernel);
}

CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, const CUDA_MEMCPY3D* copyParams, CUcontext ctx) {
  CUCPU_REQUIRE_CONTEXT(context);
  (void)ctx;  // every context reaches the same memory
  if (!copyParams) return CUDA_ERROR_INVALID_VALUE;
  return add(phGraphNode, hGraph, dependencies, numDependencies, copy_content(*copyParams));
}

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS* memsetParams,
                                      CUcontext ctx) {
  CUCPU_REQUIRE_CONTEXT(context);
  (void)ctx;
  if (!memsetParams) return CUDA_ERROR_INVALID_VALUE;
  return add(phGraphNode, hGraph, dependencies, numDependencies, memset_content(*memsetParams));
}

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS* nodeParams) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!nodeParams || !nodeParams->fn) return CUDA_ERROR_INVALID_VALUE;
  return add(phGraphNode, hGraph, dependencies, numDependencies,
             core::host_node(nodeParams->fn, nodeParams->userData));
}

CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                     size_t numDependencies) {
  CUCPU_REQUIRE_CONTEXT(context);
  return add(phGraphNode, hGraph, dependencies, numDependencies, core::NodeContent{});
}

CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                          size_t numDependencies, CUgraph childGraph) {
  CUCPU_REQUIRE_CONTEXT(context);
  return add_child(phGraphNode, hGraph, dependencies, numDependencies, childGraph,
                   CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE);
}

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                           size_t numDependencies, CUevent event) {
  CUCPU_REQUIRE_CONTEXT(context);
  return add(phGraphNode, hGraph, dependencies, numDependencies, event_content(event, true));
}

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                         size_t numDependencies, CUevent event) {
  CUCPU_REQUIRE_CONTEXT(context);
  return add(phGraphNode, hGraph, dependencies, numDependencies, event_content(event, false));
}

CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                        size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS* nodeParams) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
  return add_mem_alloc(phGraphNode, hGraph, dependencies, numDependencies, nodeParams->poolProps,
                       nodeParams->bytesize, &nodeParams->dptr);
}

CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                       size_t numDependencies, CUdeviceptr dptr) {
  CUCPU_REQUIRE_CONTEXT(context);
  return add(phGraphNode, hGraph, dependencies, numDependencies, core::mem_free_node(driver::to_pointer(dptr)));
}

CUresult CUDAAPI cuGraphAddNode_v2(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                   const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                   CUgraphNodeParams* nodeParams) {
  CUCPU_REQUIRE_CONTEXT(context);
  if (!nodeParams) return CUDA_ERROR_INVALID_VALUE;
  (void)dependencyData;  // only default edges exist on a CPU
  CUgraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      const auto& k = p.kernel;
      const CUDA_KERNEL_NODE_PARAMS kernel{k.func,      k.gridDimX,       k.gridDimY,      k.gridDimZ,
                                           k.blockDimX, k.blockDimY,      k.blockDimZ,     k.sharedMemBytes,
                                           k.kernelParams, k.extra,       k.kern,          k.ctx};
      return cuGraphAddKernelNode_v2(phGraphNode, hGraph, dependencies, numDependencies, &kernel);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      if (p.memcpy.flags != 0 || p.memcpy.reserved != 0) return CUDA_ERROR_INVALID_VALUE;
      return cuGraphAddMemcpyNode(phGraphNode, hGraph, dependencies, numDependencies, &p.memcpy.copyParams,
                                  p.memcpy.copyCtx);
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const auto& m = p.memset;
      const CUDA_MEMSET_NODE_PARAMS memset{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
      return cuGraphAddMemsetNode(phGraphNode, hGraph, dependencies, numDependencies, &memset, m.ctx);
    }
    case CU_GRAPH_NODE_TYPE_HOST: {
      const CUDA_HOST_NODE_PARAMS host{p.host.fn, p.host.userData};
      return cuGraphAddHostNode(phGraphNode, hGraph, dependencies, numDependencies, &host);
    }
    case CU_GRAPH_NODE_TYPE_GRAPH:
      if (CUresult bad = add_child(phGraphNode, hGraph, dependencies, numDependencies, p.graph.graph,
                                   p.graph.ownership);
          bad != CUDA_SUCCESS)
        return bad;
      p.graph.graph = to_graph_handle(to_node(*phGraphNode)->content().bodies.at(0));  // the node's own graph
      return CUDA_SUCCESS;
    case CU_GRAPH_NODE_TYPE_EMPTY: return cuGraphAddEmptyNode(phGraphNode, hGraph, dependencies, numDependencies);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      return cuGraphAddEventWaitNode(phGraphNode, hGraph, dependencies, numDependencies, p.eventWait.event);
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      return cuGraphAddEventRecordNode(phGraphNode, hGraph, dependencies, numDependencies, p.eventRecord.event);
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
      return add_mem_alloc(phGraphNode, hGraph, dependencies, numDependencies, p.alloc.poolProps, p.alloc.bytesize,
                           &p.alloc.dptr);
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
      return cuGraphAddMemFreeNode(phGraphNode, hGraph, dependencies, numDependencies, p.free.dptr);
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
      return add_conditional(phGraphNode, hGraph, dependencies, numDependencies, p.conditional);
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
      std::fprintf(stderr, "cucpu: cuGraphAddNode for external semaphore and batch memory operation nodes is not "
                           "implemented yet: it returns CUDA_ERROR_NOT_SUPPORTED\n");
      return CUDA_ERROR_NOT_SUPPORTED;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGraphAddNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                size_t numDependencies, CUgraphNodeParams* nodeParams) {
  return cuGraphAddNode_v2(phGraphNode, hGraph, dependencies, nullptr, numDependencies, nodeParams);
}

CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle* pHandle_out, CUgraph hGraph, CUcontext ctx,
                                                unsigned int defaultLaunchValue, unsigned int flags) {
  CUCPU_REQUIRE_CONTEXT(context);
  (void)ctx;
  if (!pHandle_out || !to_graph(hGraph) || (flags & ~unsigned{CU_GRAPH_COND_ASSIGN_DEFAULT}) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *pHandle_out = exec::create_graph_conditional(defaultLaunchValue, (flags & CU_GRAPH_COND_ASSIGN_DEFAULT) != 0);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphClone(CUgraph* phGraphClone, CUgraph originalGraph) {
  CUCPU_REQUIRE_INIT();
  core::Graph* original = to_graph(originalGraph);
  if (!phGraphClone || !original) return CUDA_ERROR_INVALID_VALUE;
  Result<core::Graph*> clone = core::clone_graph(*original);
  if (!clone) return driver::to_cu_result(clone.error());
  *phGraphClone = to_graph_handle(*clone);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode* nodes, size_t* numNodes) {
  CUCPU_REQUIRE_INIT();
  core::Graph* graph = to_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  return list_nodes(graph->nodes(), nodes, numNodes);
}

CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode* rootNodes, size_t* numRootNodes) {
  CUCPU_REQUIRE_INIT();
  core::Graph* graph = to_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  return list_nodes(graph->roots(), rootNodes, numRootNodes);
}

CUresult CUDAAPI cuGraphGetEdges_v2(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* edgeData,
                                    size_t* numEdges) {
  CUCPU_REQUIRE_INIT();
  return get_edges(hGraph, from, to, edgeData, numEdges);
}
CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, size_t* numEdges) {
  CUCPU_REQUIRE_INIT();
  return get_edges(hGraph, from, to, nullptr, numEdges);
}

CUresult CUDAAPI cuGraphAddDependencies_v2(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                           const CUgraphEdgeData* edgeData, size_t numDependencies) {
  CUCPU_REQUIRE_INIT();
  (void)edgeData;  // only default edges exist on a CPU
  return add_dependencies(hGraph, from, to, numDependencies);
}
CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                        size_t numDependencies) {
  CUCPU_REQUIRE_INIT();
  return add_dependencies(hGraph, from, to, numDependencies);
}

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType* type) {
  CUCPU_REQUIRE_INIT();
  if (!hNode || !type) return CUDA_ERROR_INVALID_VALUE;
  *type = node_type(to_node(hNode)->kind());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph* phGraph) {
  CUCPU_REQUIRE_INIT();
  if (!hNode || !phGraph || to_node(hNode)->kind() != core::CommandKind::Graph) return CUDA_ERROR_INVALID_VALUE;
  *phGraph = to_graph_handle(to_node(hNode)->content().bodies.at(0));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode hNode, CUDA_MEM_ALLOC_NODE_PARAMS* params_out) {
  CUCPU_REQUIRE_INIT();
  if (!hNode || !params_out || to_node(hNode)->kind() != core::CommandKind::MemAlloc) return CUDA_ERROR_INVALID_VALUE;
  const core::GraphAllocation& allocation = *to_node(hNode)->content().allocation;
  *params_out = CUDA_MEM_ALLOC_NODE_PARAMS{};
  params_out->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  params_out->poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, allocation.device()};
  params_out->bytesize = allocation.size();
  params_out->dptr = reinterpret_cast<CUdeviceptr>(allocation.pointer());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr* dptr_out) {
  CUCPU_REQUIRE_INIT();
  if (!hNode || !dptr_out || to_node(hNode)->kind() != core::CommandKind::MemFree) return CUDA_ERROR_INVALID_VALUE;
  *dptr_out = reinterpret_cast<CUdeviceptr>(to_node(hNode)->content().allocation->pointer());
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void* value) {
  CUCPU_REQUIRE_INIT();
  if (device < 0 || device >= core::device_count()) return CUDA_ERROR_INVALID_DEVICE;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  const core::GraphMemoryUsage usage = core::graph_memory_usage(device);
  switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT: *static_cast<cuuint64_t*>(value) = usage.used; return CUDA_SUCCESS;
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: *static_cast<cuuint64_t*>(value) = usage.used_high; return CUDA_SUCCESS;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT: *static_cast<cuuint64_t*>(value) = usage.reserved; return CUDA_SUCCESS;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
      *static_cast<cuuint64_t*>(value) = usage.reserved_high;
      return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void* value) {
  CUCPU_REQUIRE_INIT();
  if (device < 0 || device >= core::device_count()) return CUDA_ERROR_INVALID_DEVICE;
  // Only the high watermarks can be set, and only to 0.
  if (!value || *static_cast<const cuuint64_t*>(value) != 0) return CUDA_ERROR_INVALID_VALUE;
  switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH: core::reset_graph_memory_used_high(device); return CUDA_SUCCESS;
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: core::reset_graph_memory_reserved_high(device); return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice device) {
  CUCPU_REQUIRE_INIT();
  if (device < 0 || device >= core::device_count()) return CUDA_ERROR_INVALID_DEVICE;
  core::trim_graph_memory(device);
  return CUDA_SUCCESS;
}

// Kernel node attributes (launch_attributes.h, shared with the runtime's).
CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               const CUkernelNodeAttrValue* value) {
  CUCPU_REQUIRE_INIT();
  core::GraphNode* node = kernel_node(hNode);
  if (!node || !value) return CUDA_ERROR_INVALID_VALUE;
  auto set = driver::set_kernel_node_attribute(*node, attr, *value, "cuGraphKernelNodeSetAttribute");
  return set ? CUDA_SUCCESS : driver::to_cu_result(set.error());
}

CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               CUkernelNodeAttrValue* value_out) {
  CUCPU_REQUIRE_INIT();
  core::GraphNode* node = kernel_node(hNode);
  if (!node || !value_out) return CUDA_ERROR_INVALID_VALUE;
  auto got = driver::get_kernel_node_attribute(*node, attr, value_out);
  return got ? CUDA_SUCCESS : driver::to_cu_result(got.error());
}

CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
  CUCPU_REQUIRE_INIT();
  core::GraphNode* to = kernel_node(dst);
  core::GraphNode* from = kernel_node(src);
  if (!to || !from) return CUDA_ERROR_INVALID_VALUE;
  to->launch_attributes = from->launch_attributes;
  return CUDA_SUCCESS;
}

}  // extern "C"
