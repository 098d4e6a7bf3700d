// The old CUDA SDK reduction (reduce4 of the "reduction" sample before CUDA 9): a tree over
// shared memory with __syncthreads() down to 64 values, then the last warp unrolled with
// `volatile` shared memory and no barrier at all ("warpReduce"):
//     sdata[tid] += sdata[tid + 32]; sdata[tid] += sdata[tid + 16]; ... sdata[tid + 1];
// Lanes 0-15 load sdata[16..31] in the same instruction in which lanes 16-31 store there.
// Pre-Volta GPUs ran the 32 lanes in lockstep, every load of a step before every store, and
// so does an H100 for this converged warp, every time (a race under today's memory model,
// which is why the sample now uses __syncwarp or shuffles). The block's sum in sdata[0] is
// then right; the other lanes' slots hold partial sums that only lockstep explains.
// Printed per block: the sum, the true sum, and for block 0 the warp's 32 slots.
#include <cstdio>

template <unsigned BlockSize>
__device__ void warp_reduce(volatile int* sdata, unsigned tid) {
    if (BlockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (BlockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (BlockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (BlockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (BlockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (BlockSize >= 2) sdata[tid] += sdata[tid + 1];
}

// Each thread first adds two elements (reduce4's "first add during load").
template <unsigned BlockSize>
__global__ void reduce(const int* in, int* block_sums, int* warp_slots, unsigned n) {
    __shared__ int sdata[BlockSize];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (BlockSize * 2) + tid;
    int sum = i < n ? in[i] : 0;
    if (i + BlockSize < n) sum += in[i + BlockSize];
    sdata[tid] = sum;
    __syncthreads();
    for (unsigned s = BlockSize / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] = sum = sum + sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) warp_reduce<BlockSize>(sdata, tid);
    // Each lane reads back only its own slot: no other lane writes it after its last store.
    if (tid < 32) warp_slots[blockIdx.x * 32 + tid] = sdata[tid];
    if (tid == 0) block_sums[blockIdx.x] = sdata[0];
}

template <unsigned BlockSize>
void run(unsigned blocks, unsigned n) {
    int* in = new int[n];
    for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>((i * 37) % 101) - 40;
    int *d_in, *d_sums, *d_slots;
    cudaMalloc(&d_in, n * sizeof(int));
    cudaMalloc(&d_sums, blocks * sizeof(int));
    cudaMalloc(&d_slots, blocks * 32 * sizeof(int));
    cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce<BlockSize><<<blocks, BlockSize>>>(d_in, d_sums, d_slots, n);
    int* sums = new int[blocks];
    int* slots = new int[blocks * 32];
    cudaMemcpy(sums, d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(slots, d_slots, blocks * 32 * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%u blocks of %u threads, %u elements (%s):\n", blocks, BlockSize, n, cudaGetErrorName(cudaGetLastError()));
    int wrong = 0;
    for (unsigned b = 0; b < blocks; ++b) {
        int want = 0;
        for (unsigned i = b * BlockSize * 2; i < (b + 1) * BlockSize * 2 && i < n; ++i) want += in[i];
        printf("  block %u: sum %6d, true sum %6d%s\n", b, sums[b], want, sums[b] == want ? "" : "  WRONG");
        wrong += sums[b] != want;
    }
    printf("  block 0's sdata[0..31] after the warp steps:\n");
    for (int i = 0; i < 32; ++i) printf(" %6d%s", slots[i], i % 8 == 7 ? "\n" : "");
    printf("  wrong sums: %d\n", wrong);
    cudaFree(d_in);
    cudaFree(d_sums);
    cudaFree(d_slots);
    delete[] in;
    delete[] sums;
    delete[] slots;
}

int main() {
    run<256>(8, 8 * 512 - 37);  // the last block partly past the end
    run<64>(5, 5 * 128);        // the warp steps start at sdata[tid + 32] directly
    return 0;
}
