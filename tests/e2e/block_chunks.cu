// Many blocks of one grid, as cucpu's workers run them: a worker claims a chunk of blocks
// and its block function runs them one after another, advancing %ctaid itself. Each block
// must still see its own ids (3D grids, x fastest, %clusterid with them) and start afresh
// (every warp's lanes live, nothing left from the block before), also right after a block
// whose lanes made runtime calls (device malloc), met in a divergent shuffle or exited
// early. A fault or a failed assert in a block in the middle of a chunk is the grid's error.
#include <cassert>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

__device__ unsigned cluster_id(int d) {
    unsigned v;
    if (d == 0) asm("mov.u32 %0, %%clusterid.x;" : "=r"(v));
    if (d == 1) asm("mov.u32 %0, %%clusterid.y;" : "=r"(v));
    if (d == 2) asm("mov.u32 %0, %%clusterid.z;" : "=r"(v));
    return v;
}

// Every thread writes its block's ids; a barrier between, so that warps meet.
__global__ void ids(uint4* out) {
    __shared__ unsigned first_warp_sum;
    const unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    if (thread == 0) first_warp_sum = 0;
    __syncthreads();
    if (thread < 32) atomicAdd(&first_warp_sum, 1u);
    __syncthreads();
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    out[block * threads + thread] = make_uint4(block, thread, blockIdx.x | blockIdx.y << 10 | blockIdx.z << 20,
                                               cluster_id(0) | cluster_id(1) << 10 | cluster_id(2) << 20 |
                                                   (first_warp_sum == 32u) << 30);
}

// Blocks that leave things behind for the next one: lanes that call malloc (a runtime call
// from one lane), lanes that meet in a shuffle of half the warp inside divergent code, warps
// that exit before the barrier. Each thread records what it saw.
__global__ void varied(unsigned* out) {
    __shared__ unsigned live_threads;
    const unsigned b = blockIdx.x, t = threadIdx.x, lane = t % 32;
    if (t == 0) live_threads = 0;
    __syncthreads();
    unsigned seen = 1000 * b + t;
    if (b % 7 == 3 && t == 5) {
        unsigned* p = static_cast<unsigned*>(malloc(16));
        p[0] = b;
        seen += p[0] == b ? 1u << 20 : 0;
        free(p);
    }
    if (b % 5 == 1 && (lane & 1)) seen += __shfl_sync(0xaaaaaaaau, lane, (lane + 2) % 32) << 22;
    if (b % 11 == 4 && t >= 64) {
        out[b * blockDim.x + t] = seen;
        return;
    }
    atomicAdd(&live_threads, 1u);
    __syncthreads();
    out[b * blockDim.x + t] = seen + (live_threads << 12);
}

// Block `bad` writes through a null pointer; the rest write their index.
__global__ void faults_in_one_block(unsigned* out, unsigned bad) {
    __syncthreads();
    unsigned* target = blockIdx.x == bad && threadIdx.x == 37 ? nullptr : out + blockIdx.x;
    if (threadIdx.x == 37) *target = blockIdx.x;
}

// Thread 5 of every block calls malloc (a runtime call from one lane); thread 9 of block
// `bad` fails an assert, whose message names its block.
__global__ void asserts_in_one_block(unsigned* out, unsigned bad) {
    if (threadIdx.x == 5) {
        unsigned* p = static_cast<unsigned*>(malloc(4));
        p[0] = blockIdx.x;
        out[blockIdx.x] = p[0];
        free(p);
    }
    if (threadIdx.x == 9) assert(blockIdx.x != bad);
}

int run_assert_case();

int main(int argc, char** argv) {
    setvbuf(stdout, nullptr, _IONBF, 0);  // in order with cucpu's messages on stderr
    if (argc > 1 && std::string(argv[1]) == "assert") return run_assert_case();
    {
        const dim3 grid(9, 7, 5), block(16, 2, 2);
        const unsigned blocks = 9 * 7 * 5, threads = 64, n = blocks * threads;
        uint4* d;
        cudaMalloc(&d, n * sizeof(uint4));
        cudaMemset(d, 0xff, n * sizeof(uint4));
        ids<<<grid, block>>>(d);
        std::vector<uint4> h(n);
        cudaMemcpy(h.data(), d, n * sizeof(uint4), cudaMemcpyDeviceToHost);
        unsigned bad = 0;
        for (unsigned id = 0; id < n; ++id) {
            const unsigned b = id / threads, x = b % 9, y = b / 9 % 7, z = b / 63;
            const unsigned ids = x | y << 10 | z << 20;
            bad += h[id].x != b || h[id].y != id % threads || h[id].z != ids || h[id].w != (ids | 1u << 30);
        }
        std::printf("ids: %u threads in %u blocks, %u with wrong ids\n", n, blocks, bad);
        for (unsigned id : {0u, 63u, 64u, 575u, 576u, 10000u, 20159u})
            std::printf("thread %5u: block %3u thread %2u blockIdx %08x clusterid|ok %08x\n", id, h[id].x, h[id].y,
                        h[id].z, h[id].w);
        cudaFree(d);
    }
    {
        const unsigned blocks = 300, threads = 128, n = blocks * threads;
        unsigned* d;
        cudaMalloc(&d, n * sizeof(unsigned));
        varied<<<blocks, threads>>>(d);
        std::vector<unsigned> h(n);
        cudaError_t e = cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
        unsigned long long sum = 0;
        for (unsigned i = 0; i < n; ++i) sum = sum * 1000003u + h[i];
        std::printf("varied: %s, hash %016llx\n", cudaGetErrorName(e), sum);
        for (unsigned i : {0u, 5u, 64u, 129u, 389u, 517u, 581u, 645u, 2053u, 38399u})
            std::printf("thread %5u: %08x\n", i, h[i]);
        cudaFree(d);
    }
    {
        const unsigned blocks = 300;
        unsigned* d;
        cudaMalloc(&d, blocks * sizeof(unsigned));
        faults_in_one_block<<<blocks, 64>>>(d, 137);
        cudaError_t synced = cudaDeviceSynchronize();
        cudaError_t next = cudaDeviceSynchronize();
        std::printf("fault in block 137: synchronize %s, next call %s\n", cudaGetErrorName(synced),
                    cudaGetErrorName(next));
    }
    return 0;
}

// `block_chunks assert`: the failed assert alone (after the fault above, an H200 refused the
// next launch with cudaErrorDevicesUnavailable even after cudaDeviceReset).
int run_assert_case() {
    {
        const unsigned blocks = 300;
        unsigned* d;
        cudaMalloc(&d, blocks * sizeof(unsigned));
        asserts_in_one_block<<<blocks, 64>>>(d, 201);
        cudaError_t synced = cudaDeviceSynchronize();
        cudaError_t next = cudaDeviceSynchronize();
        std::printf("assert in block 201: synchronize %s, next call %s\n", cudaGetErrorName(synced),
                    cudaGetErrorName(next));
    }
    return 0;
}
