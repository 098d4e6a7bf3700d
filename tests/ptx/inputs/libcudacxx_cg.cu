// libcu++ and cooperative groups: cuda::std::atomic / cuda::atomic_ref with scopes and
// memory orders, cuda::barrier, and cooperative_groups tiles, reductions and grid sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/std/atomic>

namespace cg = cooperative_groups;

__global__ void count_and_flag(const int* in, int n, cuda::std::atomic<int>* total, int* flag) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) total->fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(*flag);
  if (i == 0) ref.store(1, cuda::std::memory_order_release);
  while (ref.load(cuda::std::memory_order_acquire) == 0) {
  }
}

__global__ void tile_reduce(const float* in, float* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const float value = in[block.group_index().x * block.size() + block.thread_rank()];
  const float sum = cg::reduce(tile, value, cg::plus<float>());
  const unsigned ballot = tile.ballot(value > 0.0f);
  const float first = tile.shfl(value, 0);
  if (tile.thread_rank() == 0) atomicAdd(out, sum + first + __popc(ballot));
  block.sync();
}

__global__ void grid_phases(int* data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] += 1;
  grid.sync();
  data[grid.thread_rank()] += data[(grid.thread_rank() + 1) % grid.size()];
}

__global__ void barrier_phases(float* data) {
  // The libcu++ documentation's idiom: the barrier is initialized by init(), not a constructor.
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  data[threadIdx.x] *= 2.0f;
  bar.arrive_and_wait();
  data[threadIdx.x] += data[(threadIdx.x + 1) % blockDim.x];
}
