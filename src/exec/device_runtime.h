// The device runtime of dynamic parallelism (CUDA Programming Guide "CUDA Dynamic
// Parallelism": the CDP2 functions of cuda_device_runtime_api.h, and the ABI of the
// guide's Appendix D with device-side cudaDeviceSynchronize): what one block's threads
// have of it while the block runs, and the runtime functions __cucpu_devrt.* that the
// JIT's calls of those externs reach (kernel_abi.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "exec/grid.h"
#include "exec/launch_tree.h"
#include "jit/kernel_abi.h"

namespace cucpu::exec {

// A block's device-runtime state, made for each block by the block runner and reached by
// its threads through BlockExecution::launch_scope. Everything here is touched by the
// block's own threads only, which take turns on one worker: no locking.
class BlockLaunchScope {
 public:
  // grid: the grid the block belongs to, the parent of the block's launches.
  BlockLaunchScope(TreeGrid& grid, uint32_t thread_count) : grid_(grid), thread_count_(thread_count) {}

  TreeGrid& grid() const { return grid_; }

  // Whether the block's threads never used it: then it is as good as a new one, and the
  // next block of a worker's chunk may have it (run_compiled_blocks).
  bool untouched() const {
    return last_errors_.empty() && !null_stream_ && streams_.empty() && events_.empty() && prepared_.empty() &&
           parameter_buffers_.empty() && !launches_;
  }

  // The per-thread error of cudaGetLastError / cudaPeekAtLastError (a cudaError_t).
  uint32_t last_error(uint32_t linear_tid, bool reset);
  void set_last_error(uint32_t linear_tid, uint32_t error);

  // The stream a handle names: 0 is the block's NULL stream (made at its first use), others
  // streams this block created; null for any other handle (streams are private to the
  // block that made them). Streams outlive the block while work is queued in them.
  std::shared_ptr<LaunchStream> stream(uint64_t handle);
  uint64_t create_stream();
  bool destroy_stream(uint64_t handle);

  // Events this block created (private to it, as streams are); null for any other handle.
  std::shared_ptr<DeviceEvent> event(uint64_t handle);
  uint64_t create_event();
  bool destroy_event(uint64_t handle);

  // Parameter buffers handed out and not launched yet.
  void keep_prepared(PreparedGrid prepared) { prepared_.push_back(std::move(prepared)); }
  // Takes the prepared grid whose buffer is `params`; an empty grid when none is.
  PreparedGrid take_prepared(const void* params);

  // cudaGetParameterBuffer's buffers (the Appendix D ABI that names the kernel only at
  // cudaLaunchDevice): 64-byte aligned, `bytes` long; null when out of memory.
  void* new_parameter_buffer(std::size_t bytes);
  // Copies `bytes` of the buffer handed out at `buffer` to `to` and frees it; false when
  // `buffer` is none of this block's or is shorter.
  bool take_parameter_buffer(const void* buffer, void* to, std::size_t bytes);

  // The grids this block launched, for cudaDeviceSynchronize (made at the first launch).
  const std::shared_ptr<BlockLaunches>& launches();
  BlockLaunches* launches_if_any() const { return launches_.get(); }

 private:
  TreeGrid& grid_;
  uint32_t thread_count_;
  std::vector<uint32_t> last_errors_;  // sized at the first error
  std::shared_ptr<LaunchStream> null_stream_;
  std::map<uint64_t, std::shared_ptr<LaunchStream>> streams_;
  std::map<uint64_t, std::shared_ptr<DeviceEvent>> events_;
  std::vector<PreparedGrid> prepared_;
  struct AlignedFree {
    void operator()(uint8_t* memory) const;
  };
  struct ParameterBuffer {
    std::unique_ptr<uint8_t, AlignedFree> memory;
    std::size_t bytes = 0;
  };
  std::vector<ParameterBuffer> parameter_buffers_;
  std::shared_ptr<BlockLaunches> launches_;
};

// The signature of every __cucpu_devrt.* function (kernel_abi.h).
using DeviceRuntimeFunction = void (*)(jit::ThreadContext*, void* const* args, void* result);

// The function of jit::kDeviceRuntimeFunctions named `name`; null for none.
DeviceRuntimeFunction device_runtime_function(std::string_view name);

// __cucpu_devrt.NAME for every NAME of jit::kDeviceRuntimeFunctions and of
// jit::kDeviceRuntimeDriverFunctions (device_runtime_driver.h).
jit::RuntimeSymbols device_runtime_symbols();

}  // namespace cucpu::exec
