// sm_90 async-proxy instructions through inline PTX: st.async and red.async from each
// block of a 4-block cluster into its neighbour's shared memory, completing on the
// neighbour's mbarrier (which it waits on with expect_tx); cp.reduce.async.bulk into
// global memory (bulk_group) and into a neighbour's shared memory (mbarrier); and the
// proxy fences and cache hints (their effect on values is none). Prints values only.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr int kBlocks = 8, kCluster = 4, kThreads = 32;

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e = (call);                                                           \
    if (e != cudaSuccess) {                                                           \
      std::printf("%s failed: %s\n", #call, cudaGetErrorName(e));                     \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

__device__ uint32_t shared_address(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// The .shared::cluster address of `p` (in this CTA's shared memory) in CTA `rank`.
__device__ uint32_t in_rank(const void* p, uint32_t rank) {
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(shared_address(p)), "r"(rank));
  return remote;
}

// Thread 0: the mbarrier for one arrival plus `bytes` of transactions, visible to the cluster.
__device__ void init_barrier(uint64_t* bar, uint32_t bytes) {
  if (threadIdx.x != 0) return;
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes) : "memory");
}

__device__ void wait_phase_0(uint64_t* bar) {
  uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar))
        : "memory");
  }
}

// Each thread st.async's a .b32, a .b64 and a .v4.b32 into the next rank; each block then
// reports what the previous rank stored: 7 words per thread.
__global__ void __cluster_dims__(kCluster, 1, 1) store_ring(uint32_t* out) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) uint32_t words[kThreads];
  __shared__ alignas(16) uint64_t longs[kThreads];
  __shared__ alignas(16) uint4 quads[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  const uint32_t rank = cluster.block_rank(), next = (rank + 1) % cluster.num_blocks(), t = threadIdx.x;
  init_barrier(&bar, kThreads * (4 + 8 + 16));
  cluster.sync();
  const uint32_t v = rank * 1000 + t, mbar = in_rank(&bar, next);
  const uint64_t wide = (uint64_t{v} << 32) | 7;
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];"
               ::"r"(in_rank(&words[t], next)), "r"(v), "r"(mbar) : "memory");
  asm volatile("st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];"
               ::"r"(in_rank(&longs[t], next)), "l"(wide), "r"(mbar) : "memory");
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
               ::"r"(in_rank(&quads[t], next)), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3), "r"(mbar) : "memory");
  wait_phase_0(&bar);
  uint32_t* r = out + (blockIdx.x * kThreads + t) * 7;
  r[0] = words[t];
  r[1] = static_cast<uint32_t>(longs[t]);
  r[2] = static_cast<uint32_t>(longs[t] >> 32);
  r[3] = quads[t].x;
  r[4] = quads[t].y;
  r[5] = quads[t].z;
  r[6] = quads[t].w;
  cluster.sync();
}

// Each thread red.async's into the next rank's counters (24 bytes of transactions).
struct Counters {
  uint32_t sum;
  int32_t min;
  uint64_t wide;
  uint32_t inc, bits;
};

__global__ void __cluster_dims__(kCluster, 1, 1) reduce_ring(Counters* out) {
  __shared__ uint64_t bar;
  __shared__ Counters c;
  cg::cluster_group cluster = cg::this_cluster();
  const uint32_t rank = cluster.block_rank(), next = (rank + 1) % cluster.num_blocks(), t = threadIdx.x;
  if (t == 0) c = Counters{0, 0, 0, 0, 0};
  init_barrier(&bar, kThreads * 24);
  cluster.sync();
  const uint32_t mbar = in_rank(&bar, next);
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
               ::"r"(in_rank(&c.sum, next)), "r"(rank + 1), "r"(mbar) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%0], %1, [%2];"
               ::"r"(in_rank(&c.min, next)), "r"(-static_cast<int32_t>(rank * 100 + t)), "r"(mbar) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];"
               ::"r"(in_rank(&c.wide, next)), "l"((uint64_t{rank} << 32) | t), "r"(mbar) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%0], %1, [%2];"
               ::"r"(in_rank(&c.inc, next)), "r"(20u), "r"(mbar) : "memory");
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32 [%0], %1, [%2];"
               ::"r"(in_rank(&c.bits, next)), "r"((t * 2654435761u) >> 7), "r"(mbar) : "memory");
  wait_phase_0(&bar);
  if (t == 0) out[blockIdx.x] = c;
  cluster.sync();
}

// Thread 0 reduces 64 elements of each array into global memory with cp.reduce.async.bulk.
__global__ void bulk_reduce(uint32_t* u, int32_t* s, float* f, uint64_t* l, uint32_t* inc) {
  __shared__ alignas(16) uint32_t us[64];
  __shared__ alignas(16) int32_t ss[64];
  __shared__ alignas(16) float fs[64];
  __shared__ alignas(16) uint64_t ls[64];
  __shared__ alignas(16) uint32_t is[64];
  const uint32_t t = threadIdx.x, b = blockIdx.x;
  us[t] = t + 1 + b;
  ss[t] = static_cast<int32_t>(t * 7 % 64) - static_cast<int32_t>(b * 3);
  fs[t] = 0.25f * t + b;
  ls[t] = ~(uint64_t{1} << ((t + b) % 64));
  is[t] = 10;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 256;"
                 ::"l"(u), "r"(shared_address(us)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], 256;"
                 ::"l"(s), "r"(shared_address(ss)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 256;"
                 ::"l"(f), "r"(shared_address(fs)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b64 [%0], [%1], 512;"
                 ::"l"(l), "r"(shared_address(ls)) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [%0], [%1], 256;"
                 ::"l"(inc), "r"(shared_address(is)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// Thread 0 of each rank adds its 16 words into the next rank's acc (64 bytes of transactions).
__global__ void __cluster_dims__(2, 1, 1) cluster_bulk_reduce(uint32_t* out) {
  __shared__ uint64_t bar;
  __shared__ alignas(16) uint32_t acc[16];
  __shared__ alignas(16) uint32_t mine[16];
  cg::cluster_group cluster = cg::this_cluster();
  const uint32_t rank = cluster.block_rank(), next = (rank + 1) % cluster.num_blocks(), t = threadIdx.x;
  mine[t] = rank * 16 + t;
  acc[t] = 1000 + t;
  init_barrier(&bar, 64);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cluster.sync();
  if (t == 0) {
    asm volatile(
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 64, [%2];"
        ::"r"(in_rank(acc, next)), "r"(shared_address(mine)), "r"(in_rank(&bar, next)) : "memory");
  }
  wait_phase_0(&bar);
  out[blockIdx.x * 16 + t] = acc[t];
  cluster.sync();
}

// The fences and cache hints, on valid addresses: they change no value.
__global__ void fences(uint32_t* data, uint32_t* scratch) {
  const uint32_t t = threadIdx.x;
  asm volatile("fence.proxy.alias;" ::: "memory");
  asm volatile("fence.proxy.async;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cluster;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.release.cta;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.release.sys;" ::: "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.cta [%0], 128;" ::"l"(data) : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(data) : "memory");
  asm volatile("membar.proxy.alias;" ::: "memory");
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], 256;" ::"l"(data) : "memory");
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(data) : "memory");
  // discard makes the line's contents undefined: only scratch, never printed, is discarded.
  if (t == 0) asm volatile("discard.global.L2 [%0], 128;" ::"l"(scratch) : "memory");
  data[t] = data[t] * 3 + t;
}

int main() {
  uint32_t* ring;
  CHECK(cudaMallocManaged(&ring, kBlocks * kThreads * 7 * sizeof(uint32_t)));
  store_ring<<<kBlocks, kThreads>>>(ring);
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < kBlocks; ++b) {
    const uint32_t* r0 = ring + b * kThreads * 7;
    const uint32_t* r31 = ring + (b * kThreads + kThreads - 1) * 7;
    uint64_t sum = 0;
    for (int i = 0; i < kThreads * 7; ++i) sum += r0[i];
    std::printf("st.async block %d: t0 %u %u %u %u %u %u %u t31 %u %u %u sum %llu\n", b, r0[0], r0[1], r0[2], r0[3],
                r0[4], r0[5], r0[6], r31[0], r31[2], r31[6], static_cast<unsigned long long>(sum));
  }

  Counters* counters;
  CHECK(cudaMallocManaged(&counters, kBlocks * sizeof(Counters)));
  reduce_ring<<<kBlocks, kThreads>>>(counters);
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < kBlocks; ++b) {
    const Counters& c = counters[b];
    std::printf("red.async block %d: add %u min %d add.u64 0x%llx inc %u xor 0x%08x\n", b, c.sum, c.min,
                static_cast<unsigned long long>(c.wide), c.inc, c.bits);
  }

  constexpr int kReduceBlocks = 6;
  uint32_t *u, *inc;
  int32_t* s;
  float* f;
  uint64_t* l;
  CHECK(cudaMallocManaged(&u, 64 * sizeof(uint32_t)));
  CHECK(cudaMallocManaged(&s, 64 * sizeof(int32_t)));
  CHECK(cudaMallocManaged(&f, 64 * sizeof(float)));
  CHECK(cudaMallocManaged(&l, 64 * sizeof(uint64_t)));
  CHECK(cudaMallocManaged(&inc, 64 * sizeof(uint32_t)));
  for (int i = 0; i < 64; ++i) {
    u[i] = 100 * i;
    s[i] = 50 - i;
    f[i] = 0.5f * i;
    l[i] = ~uint64_t{0};
    inc[i] = i % 8;  // inc wraps to 0 past the source value 10
  }
  bulk_reduce<<<kReduceBlocks, 64>>>(u, s, f, l, inc);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 64; i += 9) {
    std::printf("cp.reduce.async.bulk [%d]: add.u32 %u min.s32 %d add.f32 %.2f and.b64 0x%016llx inc.u32 %u\n", i, u[i],
                s[i], f[i], static_cast<unsigned long long>(l[i]), inc[i]);
  }

  uint32_t* acc;
  CHECK(cudaMallocManaged(&acc, 4 * 16 * sizeof(uint32_t)));
  cluster_bulk_reduce<<<4, 16>>>(acc);
  CHECK(cudaDeviceSynchronize());
  for (int b = 0; b < 4; ++b) {
    std::printf("cp.reduce.async.bulk.shared::cluster block %d:", b);
    for (int i = 0; i < 16; i += 5) std::printf(" %u", acc[b * 16 + i]);
    std::printf("\n");
  }

  uint32_t *data, *scratch;
  CHECK(cudaMalloc(&scratch, 256));
  CHECK(cudaMallocManaged(&data, 64 * sizeof(uint32_t)));
  for (int i = 0; i < 64; ++i) data[i] = i;
  fences<<<1, 64>>>(data, scratch);
  CHECK(cudaDeviceSynchronize());
  std::printf("fences and hints: data[1] %u data[63] %u\n", data[1], data[63]);
  std::printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
