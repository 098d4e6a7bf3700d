// Lanes that took different paths run together again where the paths join, and from there
// on in lockstep: a shared-memory exchange after the join, with no barrier, has every lane
// load before any lane stores. That is what an H100 does every time for the code below
// (ptxas brackets each divergent region with BSSY/BSYNC, which reconverge the warp at the
// join); the Programming Guide guarantees neither the reconvergence nor the lockstep (these
// are data races), but the strategy that runs warps as SIMD lanes reconverges at the
// immediate post-dominator and must print the same. One warp per case; each side of a
// branch does work the compiler cannot turn into predicated code (a loop whose trip count
// comes from global memory), so the warp really diverges.
// Printed per case: the 32 slots afterwards; a case says what lockstep after the join gives.
#include <cstdio>

constexpr int kLanes = 32;

// Per-lane work with a trip count read from memory: a real loop, a real branch around it.
__device__ int work(const int* trips, int lane, int seed) {
    int acc = seed;
#pragma unroll 1
    for (int k = 0; k < trips[lane]; ++k) acc = (acc * 3 + k) % 97;
    return acc;
}

// Case 1: if/else on lane parity, nothing shared inside; after the join each lane stores
// 1000 x (its partner's old slot) + its own result. Lockstep: s[i] = 1000 * (i ^ 1) + v.
__global__ void parity_then_exchange(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp();
    int v;
    if (lane & 1)
        v = work(trips, lane, 1);
    else
        v = 500 + work(trips, lane, 2);
    s[lane] = 1000 * s[lane ^ 1] + v;
    __syncwarp();
    out[lane] = s[lane];
}

// Case 2: both sides write their lane's slot; after the join each lane adds its partner's
// slot, written on the other side: reconvergence makes both sides finish first, lockstep
// makes both lanes of a pair load before either stores. Lockstep: both hold the pair's sum.
__global__ void sides_write_then_exchange(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = -1;
    __syncwarp();
    if (lane & 1)
        s[lane] = work(trips, lane, 1);
    else
        s[lane] = 500 + work(trips, lane, 2);
    s[lane] += s[lane ^ 1];
    __syncwarp();
    out[lane] = s[lane];
}

// Case 3: a loop whose trip count differs per lane (0 to 7 times); after it, the exchange of
// case 1. Lanes leave the loop at different iterations and meet again after it.
__global__ void loop_then_exchange(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp();
    const int v = work(trips, lane, lane);
    s[lane] = 1000 * s[lane ^ 1] + v;
    __syncwarp();
    out[lane] = s[lane];
}

// Case 4: odd lanes return early; the even lanes rotate among themselves, s[i] = 100 +
// s[i + 2] (mod 32), with no barrier. Lockstep: s[i] = 100 + i + 2. The odd lanes' outputs
// stay -1 (set before the launch).
__global__ void early_return_then_exchange(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp();
    if (lane & 1) return;
    s[lane] = 100 + s[(lane + 2) % kLanes];
    out[lane] = s[lane];
}

// Case 5: lanes whose work comes out negative return, after the work (inside a loop of
// their own); the rest exchange with their partner when it is still there, else keep their
// slot. trips = 0 marks the lanes that return. Lockstep: each survivor's s[i] = 1000 x its
// partner's old slot + v, or v alone.
__global__ void data_dependent_return_then_exchange(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp();
    const int v = trips[lane] == 0 ? -1 : work(trips, lane, 5);
    if (v < 0) return;
    const bool partner_stayed = trips[lane ^ 1] != 0;
    s[lane] = (partner_stayed ? 1000 * s[lane ^ 1] : 0) + v;
    out[lane] = s[lane];
}

// Case 6: nested branches (lanes 0-15 split again on parity, lanes 16-31 take a third path);
// after the outer join each lane takes the other half's old slot: s[i] = 1000 x s[i ^ 16] + v.
__global__ void nested_then_exchange(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp();
    int v;
    if (lane < 16) {
        if (lane & 1)
            v = work(trips, lane, 1);
        else
            v = 200 + work(trips, lane, 2);
    } else {
        v = 500 + work(trips, lane, 3);
    }
    s[lane] = 1000 * s[lane ^ 16] + v;
    __syncwarp();
    out[lane] = s[lane];
}

// Cases 7 and 8: one side stores what the other side loads, in both orders:
//     if (lane < 16) s[lane] = 1; else s[lane] = s[lane - 16] + 10;
// nvcc turns the two stores into one after the join (of a value chosen per lane), leaving
// only the load of lanes 16-31 in a branch, so whichever side runs first every lane loads
// before any lane stores: lanes 16-31 end with -5000 + 10, never 1 + 10.
// (tests/e2e/probes/divergent_path_order.cu asks which side runs first when they cannot.)
__global__ void store_and_load_sides(const int*, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = -5000;
    __syncwarp();
    if (lane < 16)
        s[lane] = 1;
    else
        s[lane] = s[lane - 16] + 10;
    __syncwarp();
    out[lane] = s[lane];
}

__global__ void load_and_store_sides(const int*, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = -5000;
    __syncwarp();
    if (lane >= 16)
        s[lane] = s[lane - 16] + 10;
    else
        s[lane] = 1;
    __syncwarp();
    out[lane] = s[lane];
}

// Case 9: lanes 0-15 leave a loop after 1 round, lanes 16-31 after 3; after the loop every
// lane stores 100 + lane. In each round the lanes still in the loop load s[lane ^ 16]
// (volatile: again in every round). Lanes that leave wait at the loop's exit, so no round
// sees their store: every load gives -5000. Lanes 0-15's rounds 1 and 2 stay -1.
__global__ void loop_exit_waits(const int*, int* out) {
    __shared__ int s[kLanes];
    volatile int* vs = s;
    const int lane = threadIdx.x;
    s[lane] = -5000;
    __syncwarp();
    const int rounds = lane < 16 ? 1 : 3;
#pragma unroll 1
    for (int k = 0; k < rounds; ++k) out[k * kLanes + lane] = vs[lane ^ 16];
    s[lane] = 100 + lane;
    __syncwarp();
    out[3 * kLanes + lane] = s[lane];
}

// Case 10: `if` without `else`: lanes 16-31 work, then load s[lane - 16]; after the join every
// lane stores 100 + lane. Lanes 0-15 wait at the join, so the loads give -5000.
__global__ void join_waits(const int* trips, int* out) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = -5000;
    __syncwarp();
    if (lane >= 16) {
        out[kLanes + lane] = work(trips, lane, 1);
        out[lane] = s[lane - 16];
    }
    s[lane] = 100 + lane;
}

typedef void (*Case)(const int*, int*);

// Runs one case and prints `rows` rows of 32 outputs, each row under its label.
void run(const char* title, Case kernel, const int* d_trips, int rows = 1, const char* const* labels = nullptr) {
    int* d_out;
    cudaMalloc(&d_out, rows * kLanes * sizeof(int));
    cudaMemset(d_out, 0xff, rows * kLanes * sizeof(int));  // -1 for lanes that write nothing
    kernel<<<1, kLanes>>>(d_trips, d_out);
    int out[4 * kLanes];
    cudaMemcpy(out, d_out, rows * kLanes * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%s (%s):\n", title, cudaGetErrorName(cudaGetLastError()));
    for (int row = 0; row < rows; ++row) {
        if (labels) printf("  %s:\n", labels[row]);
        for (int i = 0; i < kLanes; ++i) printf(" %6d%s", out[row * kLanes + i], i % 8 == 7 ? "\n" : "");
    }
    cudaFree(d_out);
}

int main() {
    int trips[kLanes];
    for (int i = 0; i < kLanes; ++i) trips[i] = (i * 5) % 8;  // 0 to 7 times round the loop
    int* d_trips;
    cudaMalloc(&d_trips, sizeof trips);
    cudaMemcpy(d_trips, trips, sizeof trips, cudaMemcpyHostToDevice);
    run("1: if/else on parity, then s[i] = 1000 * s[i ^ 1] + v", parity_then_exchange, d_trips);
    run("2: each side writes s[i], then s[i] += s[i ^ 1]", sides_write_then_exchange, d_trips);
    run("3: loop of 0-7 trips per lane, then s[i] = 1000 * s[i ^ 1] + v", loop_then_exchange, d_trips);
    run("4: odd lanes return, then s[i] = 100 + s[i + 2] among the even lanes", early_return_then_exchange, d_trips);
    run("5: lanes with 0 trips return, then s[i] = 1000 * s[i ^ 1] + v where i ^ 1 stayed",
        data_dependent_return_then_exchange, d_trips);
    run("6: nested if/else, then s[i] = 1000 * s[i ^ 16] + v", nested_then_exchange, d_trips);
    run("7: if (lane < 16) s[lane] = 1; else s[lane] = s[lane - 16] + 10", store_and_load_sides, d_trips);
    run("8: if (lane >= 16) s[lane] = s[lane - 16] + 10; else s[lane] = 1", load_and_store_sides, d_trips);
    const char* const rounds[] = {"loaded in round 0", "loaded in round 1", "loaded in round 2", "s after the loop"};
    run("9: lanes 0-15 leave a loop after 1 round, 16-31 after 3, loading s[lane ^ 16]; then s[lane] = 100 + lane",
        loop_exit_waits, d_trips, 4, rounds);
    const char* const joined[] = {"loaded inside the if", "work"};
    run("10: if (lane >= 16) { work; load s[lane - 16] } then s[lane] = 100 + lane", join_waits, d_trips, 2, joined);
    cudaFree(d_trips);
    return 0;
}
