// Kernel node attributes: cudaGraphKernelNodeSetAttribute / GetAttribute / CopyAttributes.
// The values are checked as a launch's are (launch_attribute_checks.h) and kept on the
// node to be read back and copied; they steer caches, priorities and placement on a GPU.
// A cluster shape or cooperative launch set this way would change how the node runs:
// those are not supported yet and say so.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "api/runtime/graph_handle.h"
#include "api/runtime/launch_attribute_checks.h"
#include "api/runtime/runtime_state.h"
#include "core/graph.h"

using namespace cucpu;

namespace {

static_assert(sizeof(cudaLaunchAttributeValue) == core::GraphNode::kLaunchAttributeBytes);

core::GraphNode* kernel_node(cudaGraphNode_t handle) {
  core::GraphNode* node = runtime::to_node(handle);
  return node && node->kind() == core::CommandKind::Kernel ? node : nullptr;
}

bool kept(cudaLaunchAttributeID attribute) {
  return attribute == cudaLaunchAttributeAccessPolicyWindow || attribute == cudaLaunchAttributePriority ||
         attribute == cudaLaunchAttributeMemSyncDomain || attribute == cudaLaunchAttributeMemSyncDomainMap ||
         attribute == cudaLaunchAttributeClusterSchedulingPolicyPreference ||
         attribute == cudaLaunchAttributePreferredSharedMemoryCarveout;
}

cudaError_t not_supported(cudaLaunchAttributeID attribute) {
  std::fprintf(stderr, "cucpu: cudaGraphKernelNodeSetAttribute: attribute %d (%s) is not supported yet\n",
               static_cast<int>(attribute),
               attribute == cudaLaunchAttributeClusterDimension ? "cluster dimension" : "cooperative");
  return runtime::record(cudaErrorNotSupported);
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      const cudaKernelNodeAttrValue* value) {
  core::GraphNode* node = kernel_node(hNode);
  if (!node || !value) return runtime::record(cudaErrorInvalidValue);
  if (attr == cudaLaunchAttributeClusterDimension || attr == cudaLaunchAttributeCooperative)
    return not_supported(attr);
  if (!kept(attr) || !runtime::valid_hint_value(attr, *value)) return runtime::record(cudaErrorInvalidValue);
  cudaKernelNodeAttrValue stored = *value;
  // Priorities are clamped to the stream priority range, as the H200 reads them back.
  if (attr == cudaLaunchAttributePriority)
    stored.priority = std::clamp(stored.priority, core::kGreatestStreamPriority, core::kLeastStreamPriority);
  std::memcpy(node->launch_attributes[attr].data(), &stored, sizeof stored);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      cudaKernelNodeAttrValue* value_out) {
  core::GraphNode* node = kernel_node(hNode);
  if (!node || !value_out || !kept(attr)) return runtime::record(cudaErrorInvalidValue);
  std::memcpy(value_out, node->launch_attributes[attr].data(), sizeof *value_out);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
  core::GraphNode* to = kernel_node(hDst);
  core::GraphNode* from = kernel_node(hSrc);
  if (!to || !from) return runtime::record(cudaErrorInvalidValue);
  to->launch_attributes = from->launch_attributes;
  return cudaSuccess;
}

}  // extern "C"
