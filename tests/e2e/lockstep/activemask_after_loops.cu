// __activemask() after loops that the lanes of one warp leave in different rounds. An H100
// reconverges the warp at the loop's exit (ptxas brackets the loop with BSSY/BSYNC: lanes
// that leave early wait there for the others), so the whole warp is active after the loop,
// as it is for a strategy that runs warps as SIMD lanes and reconverges at the immediate
// post-dominator. cucpu's fibers instead give an activemask the lanes that reached the same
// call site by the time the warp settled: only the lanes that left in the same round.
// The Programming Guide does not promise reconvergence (__activemask() "does not guarantee"
// that lanes are converged), so these are the values this nvcc and an H100 give, every time.
// Printed per case: one hex value per lane (lanes 0-7 first), 0 where a lane wrote nothing.
#include <cstdio>

constexpr int kLanes = 32;

struct Record {
    unsigned inside[kLanes];  // __activemask() in the loop's first round (or inside a branch)
    unsigned after[kLanes];   // __activemask() after the loop
    unsigned ballot[kLanes];  // __ballot_sync(__activemask(), ...) after the loop
    unsigned result[kLanes];  // what the loop computed, so that it stays
};

// Case 1: for (k = 0; k < trips[lane]; ++k), 0 to 7 rounds.
__global__ void counted_loop(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    int acc = lane;
#pragma unroll 1
    for (int k = 0; k < trips[lane]; ++k) {
        if (k == 0) r->inside[lane] = __activemask();
        acc = (acc * 3 + k) % 97;
    }
    r->result[lane] = acc;
    r->after[lane] = __activemask();
    r->ballot[lane] = __ballot_sync(__activemask(), acc > 40);
}

// Case 2: a loop of 8 rounds that each lane leaves by `break` in round trips[lane].
__global__ void loop_with_break(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    int acc = lane;
#pragma unroll 1
    for (int k = 0; k < 8; ++k) {
        if (k == trips[lane]) break;
        acc = (acc * 5 + k) % 89;
    }
    r->result[lane] = acc;
    r->after[lane] = __activemask();
    r->ballot[lane] = __ballot_sync(__activemask(), acc > 40);
}

// Case 3: a while loop whose length follows the data (Collatz steps from lane + 1).
__global__ void data_dependent_while(const int*, Record* r) {
    const int lane = threadIdx.x;
    unsigned x = lane + 1, steps = 0;
    while (x != 1) {
        x = x % 2 ? 3 * x + 1 : x / 2;
        ++steps;
    }
    r->result[lane] = steps;
    r->after[lane] = __activemask();
    r->ballot[lane] = __ballot_sync(__activemask(), steps > 10);
}

// Case 4: the loop of case 1 inside `if (lane < 20)`: after the loop, still inside the
// branch, the active lanes are the branch's; after the branch, the warp.
__global__ void loop_inside_branch(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    if (lane < 20) {
        int acc = lane;
#pragma unroll 1
        for (int k = 0; k < trips[lane]; ++k) acc = (acc * 3 + k) % 97;
        r->result[lane] = acc;
        r->inside[lane] = __activemask();
    }
    r->after[lane] = __activemask();
}

static void print_lanes(const char* what, const unsigned* values) {
    printf("  %s:\n", what);
    for (int i = 0; i < kLanes; ++i) printf(" %08x%s", values[i], i % 8 == 7 ? "\n" : "");
}

typedef void (*Case)(const int*, Record*);

static Record run(const char* title, Case kernel, const int* d_trips) {
    Record* d_record;
    cudaMalloc(&d_record, sizeof(Record));
    cudaMemset(d_record, 0, sizeof(Record));
    kernel<<<1, kLanes>>>(d_trips, d_record);
    Record r;
    cudaMemcpy(&r, d_record, sizeof r, cudaMemcpyDeviceToHost);
    printf("%s (%s):\n", title, cudaGetErrorName(cudaGetLastError()));
    cudaFree(d_record);
    return r;
}

int main() {
    int trips[kLanes];
    for (int i = 0; i < kLanes; ++i) trips[i] = (i * 5) % 8;
    int* d_trips;
    cudaMalloc(&d_trips, sizeof trips);
    cudaMemcpy(d_trips, trips, sizeof trips, cudaMemcpyHostToDevice);

    Record r = run("1: for (k = 0; k < trips[lane]; ++k), trips 0-7", counted_loop, d_trips);
    print_lanes("__activemask() in round 0", r.inside);
    print_lanes("__activemask() after the loop", r.after);
    print_lanes("__ballot_sync(__activemask(), acc > 40) after the loop", r.ballot);

    r = run("2: for (k = 0; k < 8; ++k) { if (k == trips[lane]) break; ... }", loop_with_break, d_trips);
    print_lanes("__activemask() after the loop", r.after);
    print_lanes("__ballot_sync(__activemask(), acc > 40) after the loop", r.ballot);

    r = run("3: while (x != 1) x = x % 2 ? 3 * x + 1 : x / 2, from x = lane + 1", data_dependent_while, d_trips);
    print_lanes("steps", r.result);
    print_lanes("__activemask() after the loop", r.after);
    print_lanes("__ballot_sync(__activemask(), steps > 10) after the loop", r.ballot);

    r = run("4: if (lane < 20) { the loop of case 1 }", loop_inside_branch, d_trips);
    print_lanes("__activemask() after the loop, inside the branch", r.inside);
    print_lanes("__activemask() after the branch", r.after);
    cudaFree(d_trips);
    return 0;
}
