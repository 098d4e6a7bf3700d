// Atomics of many kinds and memory scopes.
#include <cuda/atomic>
__global__ void atomics(int* i, unsigned* u, float* f, double* d, unsigned long long* ull) {
  __shared__ int local_count;
  if (threadIdx.x == 0) local_count = 0;
  __syncthreads();
  atomicAdd(&local_count, 1);
  atomicAdd(i, 1);
  atomicSub(i + 1, 2);
  atomicMax(i + 2, (int)threadIdx.x);
  atomicMin(u, threadIdx.x);
  atomicInc(u + 1, 100u);
  atomicDec(u + 2, 100u);
  atomicAnd(u + 3, 0xffu);
  atomicOr(u + 4, 1u << (threadIdx.x & 31));
  atomicXor(u + 5, threadIdx.x);
  atomicExch(i + 3, 5);
  atomicCAS(i + 4, 0, 1);
  atomicAdd(f, 1.5f);
  atomicAdd(d, 2.5);
  atomicAdd_block(i + 5, 1);
  atomicAdd_system(i + 6, 1);
  atomicCAS(ull, 0ull, 1ull);
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(i[7]);
  ref.fetch_add(1, cuda::memory_order_acq_rel);
  ref.store(3, cuda::memory_order_release);
  __threadfence();
  __threadfence_block();
  __syncthreads();
  if (threadIdx.x == 0) i[8] = local_count;
}
