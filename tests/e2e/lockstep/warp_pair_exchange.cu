// Converged lanes of a warp run each instruction together: in `s[i] += s[i ^ 1]` every lane
// loads both values before any lane stores (Programming Guide, "SIMT Architecture": a warp
// executes one common instruction at a time while its threads agree on the path).
// Under the CUDA memory model this is a data race (the guide's __syncwarp section calls
// the same pattern unsafe), but an H100 runs it the same way every time and warp-synchronous
// code written before Volta depends on it. A scheduler that runs one lane after another
// between barriers lets lane 1 load s[0] after lane 0 stored it instead.
// Printed: the shared array after each kernel, and whether it is what lockstep gives.
#include <cstdio>
#include <vector>

constexpr int kMaxThreads = 128;

// s[i] = i, then each lane adds its partner's value: lockstep gives s[2k] = s[2k+1] = 4k+1.
__global__ void pair_exchange(int* out) {
    __shared__ int s[kMaxThreads];
    const int i = threadIdx.x;
    s[i] = i;
    __syncwarp();
    s[i] += s[i ^ 1];
    __syncwarp();
    out[i] = s[i];
}

// Five rounds s[i] += s[i ^ d] (d = 16, 8, 4, 2, 1), a __syncwarp() between rounds but none
// between one lane's load and its partner's store: lockstep leaves each warp's total in
// every one of its lanes.
__global__ void butterfly(const int* in, int* out) {
    __shared__ int s[kMaxThreads];
    const int i = threadIdx.x;
    s[i] = in[i];
    __syncwarp();
    for (int d = 16; d > 0; d >>= 1) {
        s[i] += s[i ^ d];
        __syncwarp();
    }
    out[i] = s[i];
}

// Each lane takes its right-hand neighbour's value inside its warp, s[i] = s[next], in a block
// of 80 threads whose last warp has 16 lanes: lockstep rotates each warp by one.
__global__ void rotate(int* out) {
    __shared__ int s[kMaxThreads];
    const int i = threadIdx.x;
    const int base = i & ~31;
    const int lanes = min(32, static_cast<int>(blockDim.x) - base);
    s[i] = 10 * i;
    __syncthreads();
    s[i] = s[base + (i - base + 1) % lanes];
    __syncthreads();
    out[i] = s[i];
}

// What lockstep gives, computed here: every lane of a round loads, then every lane stores.
template <class Partner>
static std::vector<int> lockstep_round(const std::vector<int>& s, Partner partner, bool add) {
    std::vector<int> next(s.size());
    for (int i = 0; i < static_cast<int>(s.size()); ++i) next[i] = (add ? s[i] : 0) + s[partner(i)];
    return next;
}

static void print(const char* title, const std::vector<int>& got, const std::vector<int>& lockstep) {
    printf("%s:\n", title);
    for (size_t i = 0; i < got.size(); ++i) printf(" %5d%s", got[i], i % 16 == 15 || i + 1 == got.size() ? "\n" : "");
    size_t first = 0;
    while (first < got.size() && got[first] == lockstep[first]) ++first;
    if (first == got.size())
        printf("  as lockstep\n");
    else
        printf("  NOT as lockstep: s[%zu] is %d, lockstep gives %d\n", first, got[first], lockstep[first]);
}

static std::vector<int> fetch(const int* device, int n) {
    cudaDeviceSynchronize();
    std::vector<int> host(n);
    cudaMemcpy(host.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost);
    return host;
}

int main() {
    int *d_in, *d_out;
    cudaMalloc(&d_in, kMaxThreads * sizeof(int));
    cudaMalloc(&d_out, kMaxThreads * sizeof(int));

    for (int threads : {32, 128}) {
        pair_exchange<<<1, threads>>>(d_out);
        std::vector<int> start(threads);
        for (int i = 0; i < threads; ++i) start[i] = i;
        const auto want = lockstep_round(start, [](int i) { return i ^ 1; }, true);
        char title[80];
        snprintf(title, sizeof title, "s[i] = i; s[i] += s[i ^ 1], %d threads", threads);
        print(title, fetch(d_out, threads), want);
    }

    std::vector<int> in(kMaxThreads);
    for (int i = 0; i < kMaxThreads; ++i) in[i] = (i * 5) % 11 + (i / 32) * 100;
    cudaMemcpy(d_in, in.data(), kMaxThreads * sizeof(int), cudaMemcpyHostToDevice);
    butterfly<<<1, kMaxThreads>>>(d_in, d_out);
    std::vector<int> want = in;
    for (int d = 16; d > 0; d >>= 1) want = lockstep_round(want, [d](int i) { return i ^ d; }, true);
    print("butterfly s[i] += s[i ^ d], d = 16..1, 128 threads (each warp's total in all its lanes)",
          fetch(d_out, kMaxThreads), want);

    const int rotated = 80;
    rotate<<<1, rotated>>>(d_out);
    std::vector<int> tens(rotated);
    for (int i = 0; i < rotated; ++i) tens[i] = 10 * i;
    want = lockstep_round(tens, [rotated](int i) {
        const int base = i & ~31, lanes = rotated - base < 32 ? rotated - base : 32;
        return base + (i - base + 1) % lanes;
    }, false);
    print("rotate s[i] = s[next lane of the warp], 80 threads (warps of 32, 32, 16)", fetch(d_out, rotated), want);

    printf("%s\n", cudaGetErrorName(cudaGetLastError()));
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
