// Registers that are a function of the thread's place (threadIdx, blockIdx and constants),
// which cucpu's compiled blocks keep as one value per warp (lane 0's, the others follow by
// their lane) and make again after each barrier instead of keeping every lane's copy:
// - such registers live across barriers, in blocks of several warps and grids of many
//   blocks, one of them defined again in every trip of a barrier loop;
// - one written inside a divergent branch and read at the join by lanes that skipped the
//   write (they must see their own older value, not the writers');
// - one written and read only inside a divergent branch (`s[tid + stride]` in a tree).
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

__global__ void remade_across_barriers(unsigned* out, unsigned rounds) {
    __shared__ unsigned s[192];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;  // live across every barrier below
    const unsigned j = i * 3 + 5;
    s[t] = j;
    __syncthreads();
    unsigned acc = 0;
    for (unsigned r = 0; r < rounds; ++r) {
        const unsigned k = (t * 7 + r * 13 + blockIdx.x) % blockDim.x;  // made in every trip
        acc = acc * 31 + s[k] + i;
        __syncthreads();
        s[t] = acc ^ j;
        __syncthreads();
    }
    out[i] = acc + j;
}

// Odd lanes overwrite idx inside a branch the compiler keeps (inline PTX); even lanes wait
// at the join with idx = tid + 7 and read it there.
__global__ void divergent_write_read_at_join(int* out, int offset) {
    const int tid = threadIdx.x;
    int idx = tid + 7;
    asm volatile(
        "{\n\t"
        ".reg .pred odd;\n\t"
        ".reg .b32 bit;\n\t"
        "and.b32 bit, %1, 1;\n\t"
        "setp.eq.u32 odd, bit, 0;\n\t"
        "@odd bra SKIP_ODD;\n\t"
        "add.s32 %0, %1, %2;\n"
        "SKIP_ODD:\n\t"
        "}"
        : "+r"(idx)
        : "r"(tid), "r"(offset));
    out[blockIdx.x * blockDim.x + tid] = idx;
}

// A tree over 96 threads (three warps) whose active lanes shrink unevenly: the partner's
// address is made and used inside `if (tid < stride)` only.
__global__ void tree_of_96(const float* in, float* out) {
    __shared__ float s[96];
    const unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 96 + tid];
    __syncthreads();
    for (unsigned n = 96; n > 1;) {
        const unsigned stride = (n + 1) / 2;
        if (tid < n - stride) s[tid] += s[tid + stride];
        n = stride;
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

int main() {
    {
        const unsigned blocks = 150, threads = 192, n = blocks * threads;
        unsigned* d;
        cudaMalloc(&d, n * sizeof(unsigned));
        remade_across_barriers<<<blocks, threads>>>(d, 5);
        std::vector<unsigned> h(n);
        cudaMemcpy(h.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
        unsigned long long hash = 0;
        for (unsigned x : h) hash = hash * 1000003u + x;
        std::printf("remade_across_barriers: hash %016llx, out[0] %08x out[191] %08x out[28799] %08x\n", hash, h[0],
                    h[191], h[28799]);
        cudaFree(d);
    }
    {
        const unsigned blocks = 70, threads = 64, n = blocks * threads;
        int* d;
        cudaMalloc(&d, n * sizeof(int));
        divergent_write_read_at_join<<<blocks, threads>>>(d, 1000);
        std::vector<int> h(n);
        cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
        unsigned wrong = 0;
        for (unsigned i = 0; i < n; ++i) {
            const int tid = static_cast<int>(i % threads);
            wrong += h[i] != (tid % 2 ? tid + 1000 : tid + 7);
        }
        std::printf("divergent_write_read_at_join: %u wrong; lanes 0-5: %d %d %d %d %d %d, last %d\n", wrong, h[0], h[1],
                    h[2], h[3], h[4], h[5], h[n - 1]);
        cudaFree(d);
    }
    {
        const unsigned blocks = 300, n = blocks * 96;
        std::vector<float> in(n);
        for (unsigned i = 0; i < n; ++i) in[i] = static_cast<float>((i * 2654435761u) >> 20) * 0.125f;
        float *d_in, *d_out;
        cudaMalloc(&d_in, n * sizeof(float));
        cudaMalloc(&d_out, blocks * sizeof(float));
        cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        tree_of_96<<<blocks, 96>>>(d_in, d_out);
        std::vector<float> out(blocks);
        cudaMemcpy(out.data(), d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
        unsigned long long hash = 0;
        for (float v : out) {
            unsigned bits;
            std::memcpy(&bits, &v, 4);
            hash = hash * 1000003u + bits;
        }
        std::printf("tree_of_96: hash %016llx, sums %.3f %.3f %.3f\n", hash, out[0], out[1], out[299]);
        cudaFree(d_in);
        cudaFree(d_out);
    }
    return 0;
}
