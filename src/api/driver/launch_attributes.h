// Launch attributes as both APIs keep them (CUlaunchAttributeValue is cudaLaunchAttributeValue,
// byte for byte, and the ids are the same): the values an H200 accepts (tests/e2e/setter_sweep.cu),
// a stream's attributes (cuStreamSetAttribute, cudaStreamSetAttribute) and a kernel node's
// (cuGraphKernelNodeSetAttribute, cudaGraphKernelNodeSetAttribute). The runtime's entry
// points call these, as NVIDIA's runtime calls its driver. The priority becomes the
// stream's; the rest steer caches, waits and placement a CPU does not have, and are kept to
// be read back. Errors: InvalidValue; NotSupported (said on stderr) for a kernel node's
// cluster shape or cooperative launch, which would change how the node runs.
#pragma once

#include <cuda.h>

#include "core/graph.h"
#include "core/stream.h"
#include "support/result.h"

namespace cucpu::driver {

// The value of a hint attribute of a launch or kernel node: an access policy window with a
// hit ratio in [0, 1], at most the device's window size, a miss property that is not
// persisting; a memory sync domain Default or Remote and a map into the H200's four
// domains; a known cluster scheduling policy; a carveout of at most 100 percent.
// Attributes without a value check are valid.
bool valid_hint_value(CUlaunchAttributeID attribute, const CUlaunchAttributeValue& value);

// The access policy window, synchronization policy, priority (clamped to the stream
// priority range), memory sync domain and its map; any other attribute is InvalidValue.
Result<void> set_stream_attribute(core::Stream& stream, CUlaunchAttributeID attribute,
                                  const CUlaunchAttributeValue& value);
Result<void> get_stream_attribute(core::Stream& stream, CUlaunchAttributeID attribute, CUlaunchAttributeValue* value);
void copy_stream_attributes(core::Stream& to, core::Stream& from);

// `function` names the caller in the NotSupported message.
Result<void> set_kernel_node_attribute(core::GraphNode& node, CUlaunchAttributeID attribute,
                                       const CUlaunchAttributeValue& value, const char* function);
Result<void> get_kernel_node_attribute(const core::GraphNode& node, CUlaunchAttributeID attribute,
                                       CUlaunchAttributeValue* value);

}  // namespace cucpu::driver
