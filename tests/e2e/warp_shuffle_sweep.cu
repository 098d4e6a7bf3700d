// shfl.sync, every mode (up, down, bfly, idx) with lane operands b from 0 to 33 and a set of
// c operands (segment masks of every width, clamps below 31, odd combinations), under five
// membermasks whose lanes (and only they) run the shuffle, and in a 16-thread block, with b
// the same in every lane and b different per lane; then the full membermask again in warps
// that stay converged (where cucpu's compiled blocks shuffle the lanes' vectors directly). Both results are kept per lane: the value and the predicate (in
// range). The lanes outside the membermask write nothing. A source lane outside the
// membermask, b beyond 31 and the c operands the guide's intrinsics never make are what
// this nvcc and an H100 give. Printed: one FNV-1a hash per mode, membermask and kind of b,
// and a few rows in full (lanes 0-31) to show what a mismatch looks like.
#include <cstdint>
#include <cstdio>
#include <string>

constexpr int kLanes = 32, kModes = 4, kMaskCount = 5, kB = 34, kSalts = 6;
constexpr unsigned kMasks[kMaskCount] = {0xffffffffu, 0x0000ffffu, 0x55555555u, 0xf0f0f0f0u, 0xffff0000u};
__constant__ unsigned kC[] = {0x1f, 0x0, 0x10, 0x81f, 0x1000, 0x181f, 0x1c1f, 0x1e1f,
                           0x1f1f, 0x1f00, 0x0f, 0x803, 0x1f0f, 0x0c17, 0x0800};
constexpr int kCCount = 15;
const char* const kModeNames[kModes] = {"up", "down", "bfly", "idx"};

// A result per (b or salt, c, lane): the value and, in bit 0 of `in_range`, the predicate.
struct Result {
    unsigned value;
    unsigned in_range;
};

template <int Mode>
__device__ __forceinline__ Result shuffle(unsigned v, unsigned b, unsigned c, unsigned mask) {
    Result r;
    if constexpr (Mode == 0)
        asm volatile("{ .reg .pred q; shfl.sync.up.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                     : "=r"(r.value), "=r"(r.in_range) : "r"(v), "r"(b), "r"(c), "r"(mask));
    else if constexpr (Mode == 1)
        asm volatile("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                     : "=r"(r.value), "=r"(r.in_range) : "r"(v), "r"(b), "r"(c), "r"(mask));
    else if constexpr (Mode == 2)
        asm volatile("{ .reg .pred q; shfl.sync.bfly.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                     : "=r"(r.value), "=r"(r.in_range) : "r"(v), "r"(b), "r"(c), "r"(mask));
    else
        asm volatile("{ .reg .pred q; shfl.sync.idx.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
                     : "=r"(r.value), "=r"(r.in_range) : "r"(v), "r"(b), "r"(c), "r"(mask));
    return r;
}

// The shuffles of one warp under `mask`. uniform[b][c][lane]: b the same in every lane (the
// loop's counter); varying[salt][c][lane]: b = (7 * lane + 5 * salt) % 37.
template <int Mode>
__device__ void sweep_lanes(unsigned mask, Result* uniform, Result* varying) {
    const unsigned lane = threadIdx.x;
    if (!((mask >> lane) & 1)) return;
    for (unsigned b = 0; b < kB; ++b)
        for (int c = 0; c < kCCount; ++c)
            uniform[(b * kCCount + c) * kLanes + lane] = shuffle<Mode>((lane << 8) ^ (b * 0x10001u) ^ 0xa5, b, kC[c], mask);
    for (unsigned salt = 0; salt < kSalts; ++salt)
        for (int c = 0; c < kCCount; ++c)
            varying[(salt * kCCount + c) * kLanes + lane] =
                shuffle<Mode>((lane << 8) ^ (salt * 0x3001u) ^ 0x5a, (7 * lane + 5 * salt) % 37, kC[c], mask);
}

// One warp per membermask (block m of the grid), the membermask loaded from memory.
template <int Mode>
__global__ void sweep(const unsigned* masks, Result* uniform, Result* varying) {
    sweep_lanes<Mode>(masks[blockIdx.x], uniform + static_cast<size_t>(blockIdx.x) * kB * kCCount * kLanes,
                      varying + static_cast<size_t>(blockIdx.x) * kSalts * kCCount * kLanes);
}

// The full membermask as a constant: no lane leaves, the warp stays converged.
template <int Mode>
__global__ void sweep_full(Result* uniform, Result* varying) {
    sweep_lanes<Mode>(0xffffffffu, uniform, varying);
}

uint32_t fnv1a(const Result* results, size_t count) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < count; ++i)
        for (uint32_t word : {results[i].value, results[i].in_range})
            for (int byte = 0; byte < 4; ++byte) h = (h ^ ((word >> (8 * byte)) & 0xff)) * 16777619u;
    return h;
}

void print_row(const char* what, const Result* row) {
    printf("%s:", what);
    for (int l = 0; l < kLanes; ++l) printf(" %x%s", row[l].value, row[l].in_range ? "" : "!");
    printf("\n");
}

// Whether one warp's results on the device are those in `u` and `v`; prints which.
bool same_as(const Result* uniform, const Result* varying, const Result* u, const Result* v, int mode,
             const char* what) {
    static Result u2[kB * kCCount * kLanes], v2[kSalts * kCCount * kLanes];
    if (cudaMemcpy(u2, uniform, sizeof(u2), cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(v2, varying, sizeof(v2), cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("%s, %s: %s\n", kModeNames[mode], what, cudaGetErrorName(cudaGetLastError()));
        return false;
    }
    const bool same = fnv1a(u2, sizeof(u2) / sizeof(Result)) == fnv1a(u, sizeof(u2) / sizeof(Result)) &&
                      fnv1a(v2, sizeof(v2) / sizeof(Result)) == fnv1a(v, sizeof(v2) / sizeof(Result));
    printf("%-4s %s: %s\n", kModeNames[mode], what, same ? "the same" : "DIFFERENT");
    return true;
}

template <int Mode>
bool run(const unsigned* masks, Result* uniform, Result* varying) {
    const size_t uniform_count = size_t{kMaskCount} * kB * kCCount * kLanes;
    const size_t varying_count = size_t{kMaskCount} * kSalts * kCCount * kLanes;
    // Lanes outside a membermask write nothing: they keep this fill.
    cudaMemset(uniform, 0xee, uniform_count * sizeof(Result));
    cudaMemset(varying, 0xee, varying_count * sizeof(Result));
    sweep<Mode><<<kMaskCount, kLanes>>>(masks, uniform, varying);
    const cudaError_t status = cudaDeviceSynchronize();
    if (status != cudaSuccess) {
        printf("%s: %s\n", kModeNames[Mode], cudaGetErrorName(status));
        return false;
    }
    static Result u[kMaskCount * kB * kCCount * kLanes], v[kMaskCount * kSalts * kCCount * kLanes];
    cudaMemcpy(u, uniform, sizeof(u), cudaMemcpyDeviceToHost);
    cudaMemcpy(v, varying, sizeof(v), cudaMemcpyDeviceToHost);
    for (int m = 0; m < kMaskCount; ++m) {
        printf("%-4s mask %08x: uniform b %08x, per-lane b %08x\n", kModeNames[Mode], kMasks[m],
               fnv1a(u + static_cast<size_t>(m) * kB * kCCount * kLanes, size_t{kB} * kCCount * kLanes),
               fnv1a(v + static_cast<size_t>(m) * kSalts * kCCount * kLanes, size_t{kSalts} * kCCount * kLanes));
    }
    // The full membermask as a constant, in a converged warp: the same results.
    sweep_full<Mode><<<1, kLanes>>>(uniform, varying);
    if (!same_as(uniform, varying, u, v, Mode, "full membermask as a constant")) return false;
    // A block of 16 threads: the full membermask names 16 lanes that do not exist.
    cudaMemset(uniform, 0xee, uniform_count * sizeof(Result));
    cudaMemset(varying, 0xee, varying_count * sizeof(Result));
    sweep<Mode><<<1, kLanes / 2>>>(masks, uniform, varying);
    Result partial_u[kB * kCCount * kLanes], partial_v[kSalts * kCCount * kLanes];
    if (cudaMemcpy(partial_u, uniform, sizeof(partial_u), cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(partial_v, varying, sizeof(partial_v), cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("%s, 16 threads: %s\n", kModeNames[Mode], cudaGetErrorName(cudaGetLastError()));
        return false;
    }
    printf("%-4s mask %08x, 16-thread block: uniform b %08x, per-lane b %08x\n", kModeNames[Mode], kMasks[0],
           fnv1a(partial_u, size_t{kB} * kCCount * kLanes), fnv1a(partial_v, size_t{kSalts} * kCCount * kLanes));
    print_row((std::string(kModeNames[Mode]) + " 16 threads b=1 c=0x1f").c_str(), partial_u + (1 * kCCount + 0) * kLanes);
    sweep_full<Mode><<<1, kLanes / 2>>>(uniform, varying);
    if (!same_as(uniform, varying, partial_u, partial_v, Mode, "16 threads, full membermask as a constant")) return false;
    // In full (a "!" marks a lane whose source was out of range): full warp, b = 5, c = 0x181f
    // (segments of 8); even lanes, b = 1, c = 0x1f; per-lane b, lower half, c = 0x1f.
    char what[96];
    snprintf(what, sizeof what, "%s full b=5 c=0x181f", kModeNames[Mode]);
    print_row(what, u + (5 * kCCount + 5) * kLanes);
    snprintf(what, sizeof what, "%s even b=1 c=0x1f", kModeNames[Mode]);
    print_row(what, u + (size_t{2} * kB * kCCount + 1 * kCCount + 0) * kLanes);
    snprintf(what, sizeof what, "%s lower per-lane b c=0x1f", kModeNames[Mode]);
    print_row(what, v + (size_t{1} * kSalts * kCCount + 3 * kCCount + 0) * kLanes);
    return true;
}

int main() {
    unsigned* masks;
    Result *uniform, *varying;
    cudaMalloc(&masks, sizeof(kMasks));
    cudaMalloc(&uniform, sizeof(Result) * kMaskCount * kB * kCCount * kLanes);
    cudaMalloc(&varying, sizeof(Result) * kMaskCount * kSalts * kCCount * kLanes);
    cudaMemcpy(masks, kMasks, sizeof(kMasks), cudaMemcpyHostToDevice);
    const bool ok = run<0>(masks, uniform, varying) && run<1>(masks, uniform, varying) &&
                    run<2>(masks, uniform, varying) && run<3>(masks, uniform, varying);
    printf("%s\n", ok ? "done" : "FAILED");
    return ok ? 0 : 1;
}
