// bounded_rounds: rounds between two __syncthreads in which only the threads below a bound
// do anything (`if (threadIdx.x < s)`, the shared-memory tree of a reduction). The compiled
// block strategy ends such a round at the first warp with no thread below the bound when the
// warps after it would only park at the barrier; everything else must run every warp:
//   - trees over int sums with blocks of 256, 100, 64 and 33 threads, `tid < s` written in
//     three ways (`tid < s`, `s > tid`, `tid <= s - 1`), the whole array printed;
//   - the same tree with a bound from a parameter (0, 31, 32, 70, past the block);
//   - rounds where only the threads at or above a bound work (a scan's `tid >= s` and
//     `tid > s`): the idle warps come first there;
//   - a per-thread value updated before the branch in every round and read after the loop
//     (each warp must compute it every round);
//   - 64x4 blocks, where %tid.x < 32 leaves warp 1 idle but not warp 2;
//   - lanes that exited before the tree (the last lane of some warps);
//   - rounds that end in `return` for the threads at or above a bound (`tid >= bound`,
//     `tid / 32 != 0`, `tid != 0`): the warps left only exit, unless the threads staying
//     meet a barrier again (then every warp must be there); and for those below it.
#include <cstdio>
#include <vector>

__global__ void tree_lt(const int* in, int* out) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sh[tid] += sh[tid + s] * 3 + 1;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = sh[tid];
}

__global__ void tree_gt(const int* in, int* out) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (s > tid) sh[tid] = sh[tid] * 5 - sh[tid + s];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = sh[tid];
}

__global__ void tree_le(const int* in, int* out) {
    extern __shared__ int sh[];
    const int tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid <= s - 1) sh[tid] ^= sh[tid + s] + tid;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = sh[tid];
}

// One round bounded by a parameter, then a second one by bound / 2 (each reads one buffer
// and writes the other).
__global__ void param_bound(const int* in, int* out, unsigned bound) {
    extern __shared__ int sh[];
    int* a = sh;
    int* b = sh + blockDim.x;
    const unsigned tid = threadIdx.x, n = blockDim.x;
    a[tid] = in[blockIdx.x * n + tid];
    b[tid] = 0;
    __syncthreads();
    if (tid < bound) b[tid] = a[(tid + 1) % n] + 7;
    __syncthreads();
    if (tid < bound / 2) a[tid] = b[n - 1 - tid] - b[tid];
    __syncthreads();
    out[blockIdx.x * n + tid] = a[tid] + b[tid] * 3;
}

// Hillis-Steele steps on two buffers: the threads at or above s add, the others keep.
__global__ void scan_ge(const int* in, int* out) {
    extern __shared__ int sh[];
    int* a = sh;
    int* b = sh + blockDim.x;
    const unsigned tid = threadIdx.x;
    a[tid] = in[blockIdx.x * blockDim.x + tid];
    b[tid] = a[tid];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s <<= 1) {
        if (tid >= s) b[tid] = a[tid] + a[tid - s];
        __syncthreads();
        if (tid > s) a[tid] = b[tid] * 2 - 1;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = a[tid] ^ b[tid];
}

// x changes in every round before the branch and is read after the last one.
__global__ void value_across_rounds(const int* in, int* out) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    unsigned x = tid * 7 + 1;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        x = x * 1664525u + s;
        if (tid < s) sh[tid] += sh[tid + s];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = sh[tid] + static_cast<int>(x);
}

// 64x4 threads: a row is two warps, %tid.x < s for s <= 32 leaves every odd warp idle.
__global__ void rows_of_two_warps(const int* in, int* out) {
    __shared__ int sh[4][64];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const unsigned id = ty * 64 + tx;
    sh[ty][tx] = in[blockIdx.x * 256 + id];
    __syncthreads();
    for (unsigned s = 32; s > 0; s >>= 1) {
        if (tx < s) sh[ty][tx] += sh[ty][tx + s] + ty;
        __syncthreads();
    }
    out[blockIdx.x * 256 + id] = sh[ty][tx];
}

// The last lane of every warp from the third on exits before the tree (its slot stays).
__global__ void exited_lanes(const int* in, int* out) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    out[blockIdx.x * blockDim.x + tid] = -1;
    if (tid >= 64 && tid % 32 == 31) return;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sh[tid] += sh[tid + s] * 2;
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + tid] = sh[tid];
}

// After a barrier, the threads at or above `bound` return; the others write.
__global__ void exit_above(const int* in, int* out, unsigned bound) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    out[blockIdx.x * blockDim.x + tid] = -1;
    __syncthreads();
    if (tid >= bound) return;
    out[blockIdx.x * blockDim.x + tid] = sh[blockDim.x - 1 - tid] * 3 + sh[tid];
}

// The threads below `bound` return, the others write: the warps that have work come last.
__global__ void exit_below(const int* in, int* out, unsigned bound) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    out[blockIdx.x * blockDim.x + tid] = -1;
    __syncthreads();
    if (tid < bound) return;
    out[blockIdx.x * blockDim.x + tid] = sh[blockDim.x - 1 - tid] - sh[tid] * 7;
}

// The same by warp number, and `tid != 0`, each after a barrier.
__global__ void exit_warps(const int* in, int* out) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    out[blockIdx.x * blockDim.x + tid] = -1;
    __syncthreads();
    if (tid / 32 != 0) return;
    sh[tid] += sh[tid + 32] + sh[blockDim.x - 1 - tid];
    __syncthreads();
    if (tid != 0) return;
    out[blockIdx.x * blockDim.x] = sh[0] - sh[31];
}

// The threads staying meet a barrier again: threads at or above the bound must have exited
// for it, and the ones below write after it.
__global__ void exit_then_barrier(const int* in, int* out, unsigned bound) {
    extern __shared__ int sh[];
    const unsigned tid = threadIdx.x;
    sh[tid] = in[blockIdx.x * blockDim.x + tid];
    out[blockIdx.x * blockDim.x + tid] = -1;
    __syncthreads();
    if (tid >= bound) return;
    sh[tid] += 5;
    __syncthreads();
    out[blockIdx.x * blockDim.x + tid] = sh[(tid + 1) % bound] - tid;
}

constexpr int kBlocks = 3;

// One line per case: a hash of every output, then the first and some later values.
void report(const char* name, unsigned threads, const std::vector<int>& out) {
    unsigned hash = 2166136261u;
    for (int v : out) hash = (hash ^ static_cast<unsigned>(v)) * 16777619u;
    std::printf("%s threads=%u hash=%08x out[0]=%d out[1]=%d out[%u]=%d out[%u]=%d\n", name, threads, hash, out[0],
                out[1], threads / 2, out[threads / 2], threads + 1, out[threads + 1]);
}

int main() {
    const int max_threads = 256;
    std::vector<int> host(kBlocks * max_threads);
    for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>((i * 2654435761u) >> 20) - 2048;
    int *in, *out;
    cudaMalloc(&in, host.size() * sizeof(int));
    cudaMalloc(&out, host.size() * sizeof(int));
    cudaMemcpy(in, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    std::vector<int> result;
    auto take = [&](const char* name, unsigned threads) {
        result.assign(kBlocks * threads, 0);
        const cudaError_t error = cudaDeviceSynchronize();
        if (error != cudaSuccess) {
            std::printf("%s threads=%u: %s\n", name, threads, cudaGetErrorString(error));
            return;
        }
        cudaMemcpy(result.data(), out, result.size() * sizeof(int), cudaMemcpyDeviceToHost);
        report(name, threads, result);
    };
    for (unsigned threads : {256u, 100u, 64u, 33u}) {
        const size_t shared = threads * sizeof(int);
        tree_lt<<<kBlocks, threads, shared>>>(in, out);
        take("tree_lt", threads);
        tree_gt<<<kBlocks, threads, shared>>>(in, out);
        take("tree_gt", threads);
        tree_le<<<kBlocks, threads, shared>>>(in, out);
        take("tree_le", threads);
        scan_ge<<<kBlocks, threads, 2 * shared>>>(in, out);
        take("scan_ge", threads);
        value_across_rounds<<<kBlocks, threads, shared>>>(in, out);
        take("value_across_rounds", threads);
        exited_lanes<<<kBlocks, threads, shared>>>(in, out);
        take("exited_lanes", threads);
    }
    for (unsigned bound : {0u, 31u, 32u, 70u, 1000u}) {
        param_bound<<<kBlocks, 160, 2 * 160 * sizeof(int)>>>(in, out, bound);
        char name[32];
        std::snprintf(name, sizeof name, "param_bound_%u", bound);
        take(name, 160);
    }
    for (unsigned bound : {0u, 1u, 33u, 64u, 1000u}) {
        char name[32];
        exit_above<<<kBlocks, 192, 192 * sizeof(int)>>>(in, out, bound);
        std::snprintf(name, sizeof name, "exit_above_%u", bound);
        take(name, 192);
        exit_below<<<kBlocks, 192, 192 * sizeof(int)>>>(in, out, bound);
        std::snprintf(name, sizeof name, "exit_below_%u", bound);
        take(name, 192);
        if (bound == 0 || bound > 192) continue;
        exit_then_barrier<<<kBlocks, 192, 192 * sizeof(int)>>>(in, out, bound);
        std::snprintf(name, sizeof name, "exit_then_barrier_%u", bound);
        take(name, 192);
    }
    exit_warps<<<kBlocks, 128, 128 * sizeof(int)>>>(in, out);
    take("exit_warps", 128);
    rows_of_two_warps<<<kBlocks, dim3(64, 4)>>>(in, out);
    take("rows_of_two_warps", 256);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
