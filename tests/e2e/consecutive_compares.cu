// consecutive_compares: comparisons of a per-thread index that grows by one from lane to lane
// (`i = base + threadIdx.x`) with a value the same for the whole warp, the guard
// `if (i < n)` of nearly every kernel. The compiled block strategy counts the lanes below n
// from lane 0's index alone when lane 0 runs and the warp's last index does not pass the
// type's largest value; every other case compares lane by lane. Each line is one
// comparison's ballot per warp, for bases and bounds around the ends of each type (where the
// indices of one warp pass INT_MAX or UINT_MAX), n - i of 0, 31, 32, 33, and negative
// values, for <, <=, >, >= with the index on either side, 32 and 64 bits, signed and not.
// Some warps run with lane 0 (or lanes 0-3) already exited.
#include <climits>
#include <cstdint>
#include <cstdio>

// `n > i` and `n <= i` as written (nvcc would turn them around): setp with the index second.
template <typename T>
__device__ unsigned index_second(T n, T i, bool greater) {
    unsigned r;
    if constexpr (sizeof(T) == 4 && static_cast<T>(-1) < 0) {
        if (greater) asm("{ .reg .pred p; setp.gt.s32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(n), "r"(i));
        else asm("{ .reg .pred p; setp.le.s32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(n), "r"(i));
    } else if constexpr (sizeof(T) == 4) {
        if (greater) asm("{ .reg .pred p; setp.gt.u32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(n), "r"(i));
        else asm("{ .reg .pred p; setp.le.u32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(n), "r"(i));
    } else if constexpr (static_cast<T>(-1) < 0) {
        if (greater) asm("{ .reg .pred p; setp.gt.s64 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(n), "l"(i));
        else asm("{ .reg .pred p; setp.le.s64 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(n), "l"(i));
    } else {
        if (greater) asm("{ .reg .pred p; setp.gt.u64 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(n), "l"(i));
        else asm("{ .reg .pred p; setp.le.u64 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(n), "l"(i));
    }
    return r;
}

template <typename T>
__global__ void compares(T base, T n, unsigned* out, int exit_lanes) {
    const unsigned lane = threadIdx.x % 32;
    if (exit_lanes != 0 && threadIdx.x >= 32 && lane < static_cast<unsigned>(exit_lanes)) return;
    const T i = base + static_cast<T>(threadIdx.x);
    const unsigned active = __activemask();
    unsigned* o = out + (threadIdx.x / 32) * 8;
    const unsigned lt = __ballot_sync(active, i < n);
    const unsigned le = __ballot_sync(active, i <= n);
    const unsigned gt = __ballot_sync(active, i > n);
    const unsigned ge = __ballot_sync(active, i >= n);
    const unsigned lt_swapped = __ballot_sync(active, index_second(n, i, true));
    const unsigned ge_swapped = __ballot_sync(active, index_second(n, i, false));
    if (lane == __ffs(active) - 1) {
        o[0] = lt;
        o[1] = le;
        o[2] = gt;
        o[3] = ge;
        o[4] = lt_swapped;
        o[5] = ge_swapped;
    }
}

constexpr int kThreads = 96;

template <typename T>
void run(const char* type, T base, T n, unsigned* out, int exit_lanes) {
    cudaMemset(out, 0, kThreads / 32 * 8 * sizeof(unsigned));
    compares<T><<<1, kThreads>>>(base, n, out, exit_lanes);
    unsigned host[kThreads / 32 * 8];
    if (cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess) {
        std::printf("%s: %s\n", type, cudaGetErrorString(cudaGetLastError()));
        return;
    }
    std::printf("%s base=%lld n=%lld exit=%d:", type, static_cast<long long>(base), static_cast<long long>(n),
                exit_lanes);
    for (int w = 0; w < kThreads / 32; ++w)
        std::printf(" [%08x %08x %08x %08x %08x %08x]", host[w * 8], host[w * 8 + 1], host[w * 8 + 2], host[w * 8 + 3],
                    host[w * 8 + 4], host[w * 8 + 5]);
    std::printf("\n");
}

template <typename T>
void sweep(const char* type, T low, T high, unsigned* out) {
    const T bases[] = {static_cast<T>(0), static_cast<T>(5), static_cast<T>(low), static_cast<T>(low + 20),
                       static_cast<T>(high - 100), static_cast<T>(high - 63), static_cast<T>(high - 40),
                       static_cast<T>(high - 31), static_cast<T>(high - 20), static_cast<T>(-50)};
    const long long offsets[] = {-1, 0, 1, 7, 31, 32, 33, 64, 70, 96, 200};
    for (T base : bases) {
        for (long long offset : offsets) {
            const T n = static_cast<T>(base + static_cast<T>(offset));
            run<T>(type, base, n, out, 0);
        }
        run<T>(type, base, static_cast<T>(high), out, 0);
        run<T>(type, base, static_cast<T>(low), out, 0);
        run<T>(type, base, static_cast<T>(base + 40), out, 1);
        run<T>(type, base, static_cast<T>(base + 50), out, 4);
    }
}

int main() {
    unsigned* out;
    cudaMalloc(&out, kThreads / 32 * 8 * sizeof(unsigned));
    sweep<int>("s32", INT_MIN, INT_MAX, out);
    sweep<unsigned>("u32", 0u, UINT_MAX, out);
    sweep<long long>("s64", LLONG_MIN, LLONG_MAX, out);
    sweep<unsigned long long>("u64", 0ull, ULLONG_MAX, out);
    cudaFree(out);
    return 0;
}
