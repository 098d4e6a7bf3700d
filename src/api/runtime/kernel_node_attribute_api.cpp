// Kernel node attributes: cudaGraphKernelNodeSetAttribute / GetAttribute / CopyAttributes,
// served by the driver's (api/driver/launch_attributes.h): checked as a launch's are and
// kept on the node to be read back and copied.
#include <cuda_runtime_api.h>

#include "api/driver/launch_attributes.h"
#include "api/runtime/graph_handle.h"
#include "api/runtime/launch_attribute_values.h"
#include "api/runtime/runtime_state.h"
#include "core/graph.h"

using namespace cucpu;

namespace {

core::GraphNode* kernel_node(cudaGraphNode_t handle) {
  core::GraphNode* node = runtime::to_node(handle);
  return node && node->kind() == core::CommandKind::Kernel ? node : nullptr;
}

}  // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      const cudaKernelNodeAttrValue* value) {
  core::GraphNode* node = kernel_node(hNode);
  if (!node || !value) return runtime::record(cudaErrorInvalidValue);
  auto set = driver::set_kernel_node_attribute(*node, runtime::to_driver(attr), runtime::to_driver(*value),
                                               "cudaGraphKernelNodeSetAttribute");
  return set ? cudaSuccess : runtime::record(set.error());
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                      cudaKernelNodeAttrValue* value_out) {
  core::GraphNode* node = kernel_node(hNode);
  if (!node || !value_out) return runtime::record(cudaErrorInvalidValue);
  auto got = driver::get_kernel_node_attribute(*node, runtime::to_driver(attr), runtime::to_driver(value_out));
  return got ? cudaSuccess : runtime::record(got.error());
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
  core::GraphNode* to = kernel_node(hDst);
  core::GraphNode* from = kernel_node(hSrc);
  if (!to || !from) return runtime::record(cudaErrorInvalidValue);
  to->launch_attributes = from->launch_attributes;
  return cudaSuccess;
}

}  // extern "C"
