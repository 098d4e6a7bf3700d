// Conditional handles (graph_conditional.h): a table from handle to value behind one mutex.
// Calls are rare (once per kernel that decides, once per conditional node), so a lookup
// under the mutex costs nothing that matters and makes a stale handle an error, not a crash.
#include "exec/graph_conditional.h"

#include <fmt/format.h>

#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <unordered_map>

#include "exec/block_execution.h"
#include "jit/kernel_abi.h"

namespace cucpu::exec {
namespace {

struct Conditional {
  uint32_t value = 0;
  uint32_t default_value = 0;
  bool assign_default = false;
};

std::mutex table_mutex;
auto* table = new std::unordered_map<uint64_t, Conditional>;  // immortal, as the executor
uint64_t next_handle = 1;

// cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value) from device
// code, with the device runtime's generic ABI (kernel_abi.h).
void set_conditional_from_device(jit::ThreadContext* context, void* const* args, void* /*result*/) {
  uint64_t handle = 0;
  uint32_t value = 0;
  std::memcpy(&handle, args[0], sizeof(handle));
  std::memcpy(&value, args[1], sizeof(value));
  if (set_graph_conditional(handle, value)) return;
  auto* self = static_cast<ThreadExecution*>(context->executor);
  self->block->report_error(
      ErrorCode::InvalidValue,
      fmt::format("thread {}: cudaGraphSetConditional with {:#x}, not a conditional handle", self->linear_tid, handle));
}

}  // namespace

uint64_t create_graph_conditional(uint32_t default_value, bool assign_default) {
  std::lock_guard lock(table_mutex);
  const uint64_t handle = next_handle++;
  table->emplace(handle, Conditional{default_value, default_value, assign_default});
  return handle;
}

void destroy_graph_conditional(uint64_t handle) {
  std::lock_guard lock(table_mutex);
  table->erase(handle);
}

bool is_graph_conditional(uint64_t handle) {
  std::lock_guard lock(table_mutex);
  return table->contains(handle);
}

std::optional<uint32_t> graph_conditional_value(uint64_t handle) {
  std::lock_guard lock(table_mutex);
  auto found = table->find(handle);
  if (found == table->end()) return std::nullopt;
  return found->second.value;
}

void reset_graph_conditional(uint64_t handle) {
  std::lock_guard lock(table_mutex);
  auto found = table->find(handle);
  if (found != table->end() && found->second.assign_default) found->second.value = found->second.default_value;
}

bool set_graph_conditional(uint64_t handle, uint32_t value) {
  std::lock_guard lock(table_mutex);
  auto found = table->find(handle);
  if (found == table->end()) return false;
  found->second.value = value;
  return true;
}

jit::RuntimeSymbols graph_device_symbols() {
  static_assert(std::size(jit::kGraphDeviceFunctions) == 1);
  return {{std::string(jit::kDeviceRuntimePrefix) + jit::kGraphDeviceFunctions[0],
           reinterpret_cast<void*>(&set_conditional_from_device)}};
}

}  // namespace cucpu::exec
