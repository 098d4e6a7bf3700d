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
  context.nctaid[0] = grid.x;
  context.nctaid[1] = grid.y;
  context.nctaid[2] = grid.z;
  context.laneid = linear_tid % kWarpSize;
  context.warpid = linear_tid / kWarpSize;
  // %nwarpid: warp slots of a multiprocessor, which %warpid ranges below; an H100 reads 64
  // (compute capability 7.5 devices have 32, 8.6/8.9 48: not modelled per profile).
  context.nwarpid = 64;
  context.smid = setup.worker_index;
  context.nsmid = setup.worker_count;
  context.dynamic_smem_size = setup.shape->dynamic_shared_bytes;
  // %total_smem_size: the block's static and dynamic shared memory in the 128-byte units the
  // H100 allocates (it reads 128 for 40 bytes, 5120 for 5040), the reserved part not counted.
  context.total_smem_size = (setup.shared_bytes + 127) / 128 * 128;
  context.param_bytes = setup.kernel->param_bytes;
  context.shared_base = setup.shared_base;
  context.params = static_cast<const uint8_t*>(setup.params);
  context.executor = executor;
  context.grid_workspace = setup.grid_workspace;
  // Cluster registers (PTX ISA 10.x) that are the same for every block: the cluster's shape
  // and how many clusters the grid has; place_block fills the block's own.
  const Dim3& cluster = setup.cluster_dims;
  context.cluster_nctaid[0] = cluster.x;
  context.cluster_nctaid[1] = cluster.y;
  context.cluster_nctaid[2] = cluster.z;
  context.nclusterid[0] = grid.x / cluster.x;
  context.nclusterid[1] = grid.y / cluster.y;
  context.nclusterid[2] = grid.z / cluster.z;
  context.cluster_nctarank = static_cast<uint32_t>(cluster.count());
  context.is_explicit_cluster = setup.explicit_cluster ? 1 : 0;
  context.shared_stride = setup.shared_stride != 0 ? setup.shared_stride : shared_span(setup.shared_bytes);
  context.cluster = setup.cluster;
  context.gridid = setup.shape->gridid;
  context.graph_exec = setup.shape->graph_exec;
  context.exited = 0;
  context.aggr_smem_size = jit::kReservedSharedBytes + setup.shared_bytes;
  place_block(context, setup);
}

void place_block(jit::ThreadContext& context, const BlockSetup& setup, uint32_t x, uint32_t y, uint32_t z) {
  const Dim3 index{x, y, z};
  context.ctaid[0] = index.x;
  context.ctaid[1] = index.y;
  context.ctaid[2] = index.z;
  // The block's place in its cluster, the cluster's in the grid. Without clusters (1x1x1,
  // nearly every launch) each block is its own cluster: no division per block.
  const Dim3& cluster = setup.cluster_dims;
  if (cluster.x == 1 && cluster.y == 1 && cluster.z == 1) {
    context.cluster_ctaid[0] = context.cluster_ctaid[1] = context.cluster_ctaid[2] = 0;
    context.clusterid[0] = index.x;
    context.clusterid[1] = index.y;
    context.clusterid[2] = index.z;
    context.cluster_ctarank = 0;
    return;
  }
  const uint32_t position[3] = {index.x, index.y, index.z};
  const uint32_t shape[3] = {cluster.x, cluster.y, cluster.z};
  for (int i = 0; i < 3; ++i) {
    context.cluster_ctaid[i] = position[i] % shape[i];
    context.clusterid[i] = position[i] / shape[i];
  }
  context.cluster_ctarank =
      context.cluster_ctaid[0] + shape[0] * (context.cluster_ctaid[1] + shape[1] * context.cluster_ctaid[2]);
}

std::string describe_block(const Dim3& block_index) {
  return fmt::format("block ({}, {}, {})", block_index.x, block_index.y, block_index.z);
}

void BlockExecution::report_error(ErrorCode code, std::string message) {
  if (error_flag_ != nullptr) *error_flag_ = 1;
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
