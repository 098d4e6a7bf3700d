// uniform_barrier_rounds: kernels whose barriers every thread of the block meets alike, which
// the compiled block strategy runs as uniform rounds (values the same in every thread of the
// block kept once per block across barriers, one copy of the code per round's start), and
// what must stay outside that: values that are the same within a warp but not between warps
// (the warp's number, a count loaded from memory), warps that exit before the barriers, and a
// barrier loop whose count every thread reads from shared memory.
#include <cstdio>
#include <vector>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e = (call);                                                                  \
        if (e != cudaSuccess) {                                                                  \
            std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));     \
            return 1;                                                                            \
        }                                                                                        \
    } while (0)

// A tree over sdata[0..width) whose first stride comes from a parameter (the same for the
// whole block, changed by every warp of every round): a warp that started a round from the
// stride another warp had already halved would add the wrong pairs.
__global__ void tree_sums(const unsigned* in, unsigned* out, unsigned width) {
    __shared__ unsigned sdata[256];
    const unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid] * (tid + 1);
    __syncthreads();
    unsigned rounds = 0;
    for (unsigned s = width / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s] ^ rounds;
        ++rounds;
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0] + rounds * 1000000u;
}

// The warp's number and what a loop that runs it times computes: the same in every lane of a
// warp, different between warps, live across barriers.
__global__ void by_warp(unsigned* out) {
    __shared__ unsigned partial[8];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned acc = 7;
#pragma unroll 1
    for (unsigned k = 0; k <= warp; ++k) acc = acc * 3 + k;
    if (lane == 0) partial[warp] = acc;
    __syncthreads();
    const unsigned mine = acc + partial[(warp + 1) % (blockDim.x / 32)];
    __syncthreads();
    if (lane == 0) partial[warp] = mine;
    __syncthreads();
    if (threadIdx.x < blockDim.x / 32) out[blockIdx.x * 8 + threadIdx.x] = partial[threadIdx.x] + acc;
}

// Threads past `active` return before the barriers: whole warps and part of one. The block's
// own parity picks how many rounds of a barrier loop the others run.
__global__ void early_exits(unsigned* out, unsigned active) {
    __shared__ unsigned sdata[256];
    const unsigned tid = threadIdx.x;
    if (tid >= active) return;
    const unsigned rounds = (blockIdx.x & 1) ? 3 : 5;
    unsigned value = tid + blockIdx.x;
    for (unsigned r = 0; r < rounds; ++r) {
        sdata[tid] = value;
        __syncthreads();
        value += sdata[(tid + r + 1) % active];
        __syncthreads();
    }
    out[blockIdx.x * 256 + tid] = value;
}

// The loop's count comes from shared memory (thread 0 wrote it): the same for every thread
// once read, but a load, so not known to be alike before it runs.
__global__ void shared_count_rounds(const unsigned* counts, unsigned* out) {
    __shared__ unsigned count, sum[64];
    if (threadIdx.x == 0) count = counts[blockIdx.x];
    sum[threadIdx.x] = threadIdx.x;
    __syncthreads();
    for (unsigned r = 0; r < count; ++r) {
        const unsigned left = sum[(threadIdx.x + 63) % 64];
        __syncthreads();
        sum[threadIdx.x] += left + r;
        __syncthreads();
    }
    out[blockIdx.x * 64 + threadIdx.x] = sum[threadIdx.x];
}

// Two-dimensional blocks: a row sum along y with the barrier in a loop over a parameter.
__global__ void rows_2d(unsigned* out, unsigned steps) {
    __shared__ unsigned tile[8][33];
    const unsigned x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = x * 5 + y * 11 + blockIdx.x;
    __syncthreads();
    for (unsigned step = 1; step <= steps; ++step) {
        const unsigned above = tile[(y + step) % 8][x];
        __syncthreads();
        tile[y][x] += above * step;
        __syncthreads();
    }
    out[(blockIdx.x * 8 + y) * 32 + x] = tile[y][x];
}

unsigned hash(const std::vector<unsigned>& values) {
    unsigned h = 2166136261u;
    for (unsigned v : values) h = (h ^ v) * 16777619u;
    return h;
}

int main() {
    const int blocks = 6;
    std::vector<unsigned> in(blocks * 256);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned>(i * 2654435761u >> 7);
    unsigned *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, in.size() * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_out, blocks * 256 * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    std::vector<unsigned> out(blocks * 256);
    auto fetch = [&](size_t count) {
        out.assign(count, 0);
        return cudaMemcpy(out.data(), d_out, count * sizeof(unsigned), cudaMemcpyDeviceToHost);
    };

    for (unsigned width : {256u, 128u, 96u, 8u}) {
        CHECK(cudaMemset(d_out, 0, blocks * 256 * sizeof(unsigned)));
        tree_sums<<<blocks, 256>>>(d_in, d_out, width);
        CHECK(cudaGetLastError());
        CHECK(fetch(blocks));
        std::printf("tree_sums width %u:", width);
        for (unsigned v : out) std::printf(" %u", v);
        std::printf("\n");
    }

    for (unsigned threads : {256u, 96u}) {
        CHECK(cudaMemset(d_out, 0, blocks * 256 * sizeof(unsigned)));
        by_warp<<<blocks, threads>>>(d_out);
        CHECK(cudaGetLastError());
        CHECK(fetch(blocks * 8));
        std::printf("by_warp %u threads:", threads);
        for (unsigned i = 0; i < threads / 32; ++i) std::printf(" %u", out[i]);
        std::printf(" hash %08x\n", hash(out));
    }

    for (unsigned active : {256u, 200u, 64u, 33u, 1u}) {
        CHECK(cudaMemset(d_out, 0, blocks * 256 * sizeof(unsigned)));
        early_exits<<<blocks, 256>>>(d_out, active);
        CHECK(cudaGetLastError());
        CHECK(fetch(blocks * 256));
        std::printf("early_exits active %u: first %u last %u hash %08x\n", active, out[0], out[active - 1], hash(out));
    }

    std::vector<unsigned> counts = {0, 1, 4, 2, 7, 3};
    CHECK(cudaMemcpy(d_in, counts.data(), counts.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, blocks * 256 * sizeof(unsigned)));
    shared_count_rounds<<<blocks, 64>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(fetch(blocks * 64));
    std::printf("shared_count_rounds:");
    for (int b = 0; b < blocks; ++b) std::printf(" %u", out[b * 64 + 5]);
    std::printf(" hash %08x\n", hash(out));

    for (unsigned steps : {0u, 3u, 9u}) {
        CHECK(cudaMemset(d_out, 0, blocks * 256 * sizeof(unsigned)));
        rows_2d<<<blocks, dim3(32, 8)>>>(d_out, steps);
        CHECK(cudaGetLastError());
        CHECK(fetch(blocks * 256));
        std::printf("rows_2d steps %u: first %u last %u hash %08x\n", steps, out[0], out[blocks * 256 - 1], hash(out));
    }
    CHECK(cudaDeviceSynchronize());
    std::printf("done\n");
    return 0;
}
