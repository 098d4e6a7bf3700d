// The values behind CUDA graphs' conditional handles (cudaGraphConditionalHandle, CUDA
// Programming Guide "Conditional Graph Nodes"): a kernel sets one with the device-side
// cudaGraphSetConditional, and the conditional node that follows reads it to choose which
// body graph runs (IF, SWITCH) or whether its body runs again (WHILE). The device function
// lives here, with the executor's runtime functions; core/graph reads and resets values.
#pragma once

#include <cstdint>
#include <optional>

#include "jit/compile.h"

namespace cucpu::exec {

// A new handle (never 0). With assign_default set, every launch of the graph starts with
// the value `default_value` (cudaGraphCondAssignDefault); else the value stays as last set.
uint64_t create_graph_conditional(uint32_t default_value, bool assign_default);
// The graph the handle was made for is gone: the handle is invalid from now on.
void destroy_graph_conditional(uint64_t handle);
bool is_graph_conditional(uint64_t handle);
// The value now; nullopt for an unknown handle.
std::optional<uint32_t> graph_conditional_value(uint64_t handle);
// A launch of the handle's graph begins: cudaGraphCondAssignDefault applies the default.
void reset_graph_conditional(uint64_t handle);
// What cudaGraphSetConditional does: false for an unknown handle.
bool set_graph_conditional(uint64_t handle, uint32_t value);

// __cucpu_devrt.cudaGraphSetConditional for every name of jit::kGraphDeviceFunctions.
jit::RuntimeSymbols graph_device_symbols();

}  // namespace cucpu::exec
