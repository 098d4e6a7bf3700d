// The parts of a running block that every strategy shares: the special registers of a
// thread (PTX ISA 10, %tid ... %nsmid) and the block's first error.
#include "exec/block_execution.h"

#include <fmt/format.h>

#include "exec/kernel_faults.h"

namespace cucpu::exec {

void fill_thread_context(jit::ThreadContext& context, const BlockSetup& setup, uint32_t linear_tid, void* executor) {
  const Dim3& block = setup.shape->block;
  const Dim3& grid = setup.shape->grid;
  context.tid[0] = linear_tid % block.x;
  context.tid[1] = linear_tid / block.x % block.y;
  context.tid[2] = linear_tid / (block.x * block.y);
  context.ntid[0] = block.x;
  context.ntid[1] = block.y;
  context.ntid[2] = block.z;
  context.ctaid[0] = setup.block_index.x;
  context.ctaid[1] = setup.block_index.y;
  context.ctaid[2] = setup.block_index.z;
  context.nctaid[0] = grid.x;
  context.nctaid[1] = grid.y;
  context.nctaid[2] = grid.z;
  context.laneid = linear_tid % kWarpSize;
  context.warpid = linear_tid / kWarpSize;
  context.nwarpid = (setup.thread_count() + kWarpSize - 1) / kWarpSize;
  context.smid = setup.worker_index;
  context.nsmid = setup.worker_count;
  context.dynamic_smem_size = setup.shape->dynamic_shared_bytes;
  // %total_smem_size: the block's static and dynamic shared memory in the 128-byte units the
  // H100 allocates (it reads 128 for 40 bytes, 5120 for 5040), the reserved part not counted.
  context.total_smem_size = (setup.shared_bytes + 127) / 128 * 128;
  context.reserved = 0;
  context.shared_base = setup.shared_base;
  context.params = static_cast<const uint8_t*>(setup.params);
  context.executor = executor;
  context.grid_workspace = setup.grid_workspace;
}

std::string describe_block(const Dim3& block_index) {
  return fmt::format("block ({}, {}, {})", block_index.x, block_index.y, block_index.z);
}

void BlockExecution::report_error(ErrorCode code, std::string message) {
  if (!first_error_) first_error_ = make_error(code, std::move(message));
}

void BlockExecution::report_fault(const BlockSetup& setup) {
  if (fault_.signal == 0) return;
  Error error = fault_error(fault_, setup);
  fault_ = {};
  report_error(error.code, std::move(error.message));
}

Result<void> BlockExecution::block_result() {
  if (first_error_) return *first_error_;
  return {};
}

}  // namespace cucpu::exec
