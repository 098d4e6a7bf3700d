// Warp-synchronous prefix sums as written before Volta: `volatile` shared memory, no barrier
// inside the warp. Step d of a Hillis-Steele scan has lane k load s[k - d] while lane k - d
// stores its own new value there; the scan is right only if every load of the step comes
// before every store, which a converged warp on an H100 does every time (a race under
// today's memory model: the Programming Guide asks for __syncwarp between such steps).
// A scheduler that runs one lane after another lets lane k see lane k - d's new value,
// which adds values twice.
// Cases: the old SDK scan sample's form (each warp scans a window of 2 x 32 slots whose lower
// half is zero, so there is no branch; a block of 128 then scans the 4 warp totals the same
// way, with __syncthreads between the levels) and the form of "Efficient Parallel Scan
// Algorithms for GPUs" (Sengupta, Harris, Garland), `if (lane >= d) s[i] = s[i - d] + s[i]`,
// where the lanes below d sit out each step. Printed: the inclusive sums and a check.
#include <cstdio>

constexpr unsigned kThreads = 128, kBlocks = 2, kBranchyThreads = 64;

// Inclusive scan of groups of `size` lanes (a power of two, at most 32): each group has 2 x size
// slots, the lower half zeros, so s[pos - offset] is always a slot of the group.
__device__ unsigned padded_scan_inclusive(unsigned value, volatile unsigned* s, unsigned size) {
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
    s[pos] = 0;
    pos += size;
    s[pos] = value;
    for (unsigned offset = 1; offset < size; offset <<= 1) s[pos] += s[pos - offset];
    return s[pos];
}

__global__ void block_scan(const unsigned* in, unsigned* out) {
    __shared__ unsigned s[2 * kThreads];
    const unsigned value = in[blockIdx.x * kThreads + threadIdx.x];
    const unsigned warp_sum = padded_scan_inclusive(value, s, 32);
    __syncthreads();
    if ((threadIdx.x & 31) == 31) s[threadIdx.x / 32] = warp_sum;  // each warp's total
    __syncthreads();
    if (threadIdx.x < kThreads / 32) {
        const unsigned total = s[threadIdx.x];
        s[threadIdx.x] = padded_scan_inclusive(total, s, kThreads / 32) - total;  // exclusive
    }
    __syncthreads();
    out[blockIdx.x * kThreads + threadIdx.x] = warp_sum + s[threadIdx.x / 32];
}

__global__ void branchy_warp_scan(const int* in, int* out) {
    __shared__ int storage[kBranchyThreads];
    volatile int* s = storage;
    const unsigned i = threadIdx.x, lane = i & 31;
    s[i] = in[i];
    __syncthreads();
    if (lane >= 1) s[i] = s[i - 1] + s[i];
    if (lane >= 2) s[i] = s[i - 2] + s[i];
    if (lane >= 4) s[i] = s[i - 4] + s[i];
    if (lane >= 8) s[i] = s[i - 8] + s[i];
    if (lane >= 16) s[i] = s[i - 16] + s[i];
    out[i] = s[i];  // its own slot: no other lane writes it
}

// Prints rows of 16 and the first place where the scan is wrong, restarting every `group`.
template <class T>
void print_scan(const T* in, const T* out, unsigned n, unsigned group) {
    unsigned wrong = 0, first_wrong = n;
    T sum = 0;
    for (unsigned i = 0; i < n; ++i) {
        sum = i % group == 0 ? in[i] : sum + in[i];
        if (out[i] != sum && wrong++ == 0) first_wrong = i;
        printf(" %5d%s", static_cast<int>(out[i]), i % 16 == 15 ? "\n" : "");
    }
    if (wrong == 0)
        printf("  a right inclusive scan\n");
    else
        printf("  %u sums wrong, the first at %u\n", wrong, first_wrong);
}

int main() {
    unsigned in[kBlocks * kThreads], out[kBlocks * kThreads];
    for (unsigned i = 0; i < kBlocks * kThreads; ++i) in[i] = (i * 7) % 10;
    unsigned *d_in, *d_out;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof out);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    block_scan<<<kBlocks, kThreads>>>(d_in, d_out);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    printf("SDK-style padded warp scans, then the warp totals, %u blocks of %u (%s):\n", kBlocks, kThreads,
           cudaGetErrorName(cudaGetLastError()));
    print_scan(in, out, kBlocks * kThreads, kThreads);

    int branchy_in[kBranchyThreads], branchy_out[kBranchyThreads];
    for (unsigned i = 0; i < kBranchyThreads; ++i) branchy_in[i] = static_cast<int>((i * 3) % 8) - 2;
    int *d_branchy_in, *d_branchy_out;
    cudaMalloc(&d_branchy_in, sizeof branchy_in);
    cudaMalloc(&d_branchy_out, sizeof branchy_out);
    cudaMemcpy(d_branchy_in, branchy_in, sizeof branchy_in, cudaMemcpyHostToDevice);
    branchy_warp_scan<<<1, kBranchyThreads>>>(d_branchy_in, d_branchy_out);
    cudaMemcpy(branchy_out, d_branchy_out, sizeof branchy_out, cudaMemcpyDeviceToHost);
    printf("if (lane >= d) s[i] = s[i - d] + s[i], d = 1..16, one block of %u (%s):\n", kBranchyThreads,
           cudaGetErrorName(cudaGetLastError()));
    print_scan(branchy_in, branchy_out, kBranchyThreads, 32);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_branchy_in);
    cudaFree(d_branchy_out);
    return 0;
}
