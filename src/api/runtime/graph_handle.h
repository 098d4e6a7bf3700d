// cudaGraph_t and cudaGraphNode_t as the runtime API hands them over, and adding a node the
// way every cudaGraphAdd*Node call does: graph_api.cpp and graph_node_api.cpp share these.
#pragma once

#include <cuda_runtime_api.h>

#include "core/graph.h"

namespace cucpu::runtime {

// The graph, or null when the handle names none.
inline core::Graph* to_graph(cudaGraph_t handle) {
  return core::is_graph(handle) ? reinterpret_cast<core::Graph*>(handle) : nullptr;
}
inline cudaGraph_t to_graph_handle(core::Graph* graph) { return reinterpret_cast<cudaGraph_t>(graph); }
inline core::GraphNode* to_node(cudaGraphNode_t handle) { return reinterpret_cast<core::GraphNode*>(handle); }
inline cudaGraphNode_t to_node_handle(core::GraphNode* node) { return reinterpret_cast<cudaGraphNode_t>(node); }

// Adds a node with `content` after checking the graph and the dependency list; on a bad
// argument the child graphs the node would have owned are destroyed. Records the error.
cudaError_t add_graph_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                           size_t dependency_count, core::NodeContent content);

// A memory allocation node (cudaGraphAddMemAllocNode) or free node (cudaGraphAddMemFreeNode);
// stream capture makes them for cudaMallocAsync and cudaFreeAsync too. Record the error.
cudaError_t add_mem_alloc_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                               size_t dependency_count, const cudaMemAllocNodeParams* params, void** dptr);
cudaError_t add_mem_free_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                              size_t dependency_count, void* dptr);

}  // namespace cucpu::runtime
