// Stream-ordered allocations handed from one stream to another through events: allocated
// and filled on one stream, copied (and freed) on another, while the first frees and
// allocates again without waiting. Every pattern checks the data that reached the host;
// the allocator may reuse a block only once the work on it is ordered before (CUDA
// Programming Guide "Stream Ordered Memory Allocator": reuse and event dependencies).
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

constexpr int kN = 1 << 16;  // ints per allocation
constexpr int kRounds = 24;

// Thread 0 of block 0 spins a while, so that work queued behind it stays pending.
__global__ void fill(int* p, int v, long long spin) {
    if (spin && blockIdx.x == 0 && threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < spin) {}
    }
    p[blockIdx.x * blockDim.x + threadIdx.x] = v + blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void add_one(int* p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

static int wrong_in(const int* host, int v) {
    int wrong = 0;
    for (int i = 0; i < kN; ++i) wrong += host[i] != v + i;
    return wrong;
}

static int check_rounds(int* const* host, int base) {
    int wrong = 0;
    for (int r = 0; r < kRounds; ++r) wrong += wrong_in(host[r], base + r * 1000);
    return wrong;
}

int main() {
    cudaStream_t s1, s2, s3;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    cudaStreamCreate(&s3);  // a blocking stream: ordered with the legacy stream
    std::vector<int*> pinned(kRounds), pageable(kRounds);
    for (int r = 0; r < kRounds; ++r) {
        cudaMallocHost(&pinned[r], kN * sizeof(int));
        pageable[r] = new int[kN];
    }
    std::vector<cudaEvent_t> events(3 * kRounds);
    for (cudaEvent_t& e : events) cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    const long long spin = 200000;

    // 1. Allocated and filled on s1, copied and freed on s2 after an event; s1 goes on at once.
    for (int* const* host : {pinned.data(), pageable.data()}) {
        for (int r = 0; r < kRounds; ++r) {
            int* p;
            cudaMallocAsync(&p, kN * sizeof(int), s1);
            fill<<<kN / 256, 256, 0, s1>>>(p, r * 1000, r % 3 == 0 ? spin : 0);
            cudaEventRecord(events[r], s1);
            cudaStreamWaitEvent(s2, events[r], 0);
            cudaMemcpyAsync(host[r], p, kN * sizeof(int), cudaMemcpyDeviceToHost, s2);
            cudaFreeAsync(p, s2);
        }
        cudaDeviceSynchronize();
        printf("filled on s1, copied and freed on s2 (%s): %d wrong, %s\n",
               host == pinned.data() ? "pinned" : "pageable", check_rounds(host, 0),
               cudaGetErrorName(cudaGetLastError()));
    }

    // 2. Copied on s2, then freed back on s1 once s2's copy is done (an event the other
    // way), and s1 allocates and overwrites right after the free.
    for (int r = 0; r < kRounds; ++r) {
        int* p;
        cudaMallocAsync(&p, kN * sizeof(int), s1);
        fill<<<kN / 256, 256, 0, s1>>>(p, 7 + r * 1000, 0);
        cudaEventRecord(events[r], s1);
        cudaStreamWaitEvent(s2, events[r], 0);
        cudaMemcpyAsync(pinned[r], p, kN * sizeof(int), cudaMemcpyDeviceToHost, s2);
        cudaEventRecord(events[kRounds + r], s2);
        cudaStreamWaitEvent(s1, events[kRounds + r], 0);
        cudaFreeAsync(p, s1);
        int* q;
        cudaMallocAsync(&q, kN * sizeof(int), s1);
        fill<<<kN / 256, 256, 0, s1>>>(q, -1, 0);
        cudaFreeAsync(q, s1);
    }
    cudaDeviceSynchronize();
    printf("copied on s2, freed and reallocated on s1: %d wrong, %s\n", check_rounds(pinned.data(), 7),
           cudaGetErrorName(cudaGetLastError()));

    // 3. A ring: each round's block is allocated on one stream, incremented on the next
    // and freed on the third, all through events.
    cudaStream_t ring[3] = {s1, s2, s3};
    for (int r = 0; r < kRounds; ++r) {
        cudaStream_t a = ring[r % 3], b = ring[(r + 1) % 3], c = ring[(r + 2) % 3];
        int* p;
        cudaMallocAsync(&p, kN * sizeof(int), a);
        fill<<<kN / 256, 256, 0, a>>>(p, 11 + r * 1000 - 1, r % 4 == 0 ? spin : 0);
        cudaEventRecord(events[r], a);
        cudaStreamWaitEvent(b, events[r], 0);
        add_one<<<kN / 256, 256, 0, b>>>(p);
        cudaEventRecord(events[kRounds + r], b);
        cudaStreamWaitEvent(c, events[kRounds + r], 0);
        cudaMemcpyAsync(pinned[r], p, kN * sizeof(int), cudaMemcpyDeviceToHost, c);
        cudaFreeAsync(p, c);
    }
    cudaDeviceSynchronize();
    printf("ring of three streams: %d wrong, %s\n", check_rounds(pinned.data(), 11),
           cudaGetErrorName(cudaGetLastError()));

    // 4. The legacy stream: allocated on the blocking stream s3, used and freed on the
    // legacy stream (implicitly ordered after s3), reallocated on s3.
    for (int r = 0; r < kRounds; ++r) {
        int* p;
        cudaMallocAsync(&p, kN * sizeof(int), s3);
        fill<<<kN / 256, 256, 0, s3>>>(p, 13 + r * 1000, r % 5 == 0 ? spin : 0);
        cudaMemcpyAsync(pinned[r], p, kN * sizeof(int), cudaMemcpyDeviceToHost, 0);
        cudaFreeAsync(p, 0);
    }
    cudaDeviceSynchronize();
    printf("legacy stream after a blocking stream: %d wrong, %s\n", check_rounds(pinned.data(), 13),
           cudaGetErrorName(cudaGetLastError()));

    // 5. A pool that keeps its memory (release threshold: all), the same three hand-offs.
    cudaMemPool_t pool;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPoolCreate(&pool, &props);
    unsigned long long keep = ~0ull;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    for (int r = 0; r < kRounds; ++r) {
        int* p;
        cudaMallocFromPoolAsync(&p, kN * sizeof(int), pool, s1);
        fill<<<kN / 256, 256, 0, s1>>>(p, 17 + r * 1000, r % 2 == 0 ? spin : 0);
        cudaEventRecord(events[r], s1);
        cudaStreamWaitEvent(s2, events[r], 0);
        cudaMemcpyAsync(pinned[r], p, kN * sizeof(int), cudaMemcpyDeviceToHost, s2);
        cudaFreeAsync(p, s2);
        int* q;  // s1 again, at once: may take s2's pending block only by waiting for its free
        cudaMallocFromPoolAsync(&q, kN * sizeof(int), pool, s1);
        fill<<<kN / 256, 256, 0, s1>>>(q, -5, 0);
        cudaFreeAsync(q, s1);
    }
    cudaDeviceSynchronize();
    printf("pool keeping its memory: %d wrong, %s\n", check_rounds(pinned.data(), 17),
           cudaGetErrorName(cudaGetLastError()));
    cudaMemPoolDestroy(pool);
    return 0;
}
