// __activemask(), __ballot_sync(__activemask(), ...) and __shfl_sync inside and after divergent
// branches of one warp. __activemask() is "the mask of all currently active threads" (PTX
// ISA activemask): inside a branch, the lanes that took it; after the join, the warp again,
// as the H100 reconverges at the join (ptxas's BSSY/BSYNC) and a SIMD-lane strategy that
// reconverges at the immediate post-dominator does too (and so do cucpu's fibers, which
// give an activemask the lanes that wait at the same call site once the warp has settled). The Programming Guide does not
// promise which lanes are converged at an __activemask() call, so these values are what
// this nvcc and an H100 give, every time; each branch holds a loop with a trip count from
// global memory, so ptxas cannot turn it into predicated code that leaves the warp whole.
// The shuffles after the join name the full mask and are correct under any scheduling.
// Printed per case: one hex value per lane (lanes 0-7 first), 0 where a lane wrote nothing.
#include <cstdio>

constexpr int kLanes = 32, kLoopRounds = 8;

__device__ int work(const int* trips, int lane, int seed) {
    int acc = seed;
#pragma unroll 1
    for (int k = 0; k < trips[lane]; ++k) acc = (acc * 3 + k) % 97;
    return acc;
}

struct Record {
    unsigned inside[kLanes];           // __activemask() inside the branch the lane took
    unsigned ballot_inside[kLanes];    // __ballot_sync(__activemask(), lane % 3 == 0) there
    unsigned after[kLanes];            // __activemask() after the join
    unsigned ballot_after[kLanes];     // __ballot_sync(0xffffffff, lane % 3 == 0) after it
    unsigned loop[kLoopRounds][kLanes];  // __activemask() in each round of a loop (case 2: scratch)
    unsigned shuffled[kLanes];         // a shuffle's result
};

// Case 1: if/else on parity. Each side keeps its work's result (in `shuffled`), so that the
// loops stay.
__global__ void parity(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    if (lane & 1) {
        r->shuffled[lane] = work(trips, lane, 1);
        r->inside[lane] = __activemask();
        r->ballot_inside[lane] = __ballot_sync(__activemask(), lane % 3 == 0);
    } else {
        r->inside[lane] = __activemask();
        r->shuffled[lane] = work(trips, lane, 2);
        r->ballot_inside[lane] = __ballot_sync(__activemask(), lane % 3 == 0);
    }
    r->after[lane] = __activemask();
    r->ballot_after[lane] = __ballot_sync(0xffffffff, lane % 3 == 0);
}

// Case 2: nested branches: lanes 0-15 split on lane < 8, lanes 16-31 on parity. The two
// sides of each branch do their steps in different orders, so that the compiler cannot move
// a common first or last step out of them.
__global__ void nested(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    if (lane < 16) {
        r->shuffled[lane] = work(trips, lane, 1);
        if (lane < 8) {
            r->inside[lane] = __activemask();
            r->loop[1][lane] = work(trips, lane, 2);
        } else {
            r->loop[1][lane] = work(trips, lane, 3);
            r->inside[lane] = __activemask();
        }
        r->ballot_inside[lane] = __ballot_sync(__activemask(), lane % 3 == 0);  // after the inner join
        r->loop[0][lane] = __activemask();
    } else {
        if (lane & 1) {
            r->shuffled[lane] = work(trips, lane, 4);
            r->inside[lane] = __activemask();
        } else {
            r->inside[lane] = __activemask();
            r->shuffled[lane] = work(trips, lane, 5);
        }
        r->loop[0][lane] = __activemask();  // after the inner join
        r->ballot_inside[lane] = __ballot_sync(__activemask(), lane % 3 == 0);
    }
    r->after[lane] = __activemask();
    r->ballot_after[lane] = __ballot_sync(0xffffffff, lane % 3 == 0);
}

// Case 3: a loop whose trip count differs per lane (trips[lane], 0 to 7): the lanes still in
// round k are the lanes with more than k trips. (__activemask() after such a loop is the
// whole warp on an H100, which reconverges at the loop's exit: lockstep/activemask_after_loops.cu.)
__global__ void loop_rounds(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    int acc = lane;
#pragma unroll 1
    for (int k = 0; k < trips[lane]; ++k) {
        acc = (acc * 3 + k) % 97;
        r->loop[k][lane] = __activemask();
    }
    r->shuffled[lane] = __shfl_sync(0xffffffff, acc, (lane + 1) % kLanes);
}

// Case 4: lanes 20-31 return early; the others see only themselves.
__global__ void early_return(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    if (lane >= 20) return;
    r->after[lane] = __activemask();
    r->ballot_after[lane] = __ballot_sync(__activemask(), lane % 3 == 0);
    r->shuffled[lane] = __shfl_sync(__activemask(), lane * 10, (lane + 1) % 20);
}

// Case 5: values made on both sides of a parity branch, exchanged after the join with
// full-mask shuffles (xor 1 brings each lane the value of the other side), and inside the
// odd side with a shuffle among the odd lanes (xor 2).
__global__ void shuffles(const int* trips, Record* r) {
    const int lane = threadIdx.x;
    int v;
    if (lane & 1) {
        v = 1000 + work(trips, lane, 1);
        r->inside[lane] = __shfl_xor_sync(__activemask(), v, 2);
    } else {
        v = 2000 + work(trips, lane, 2);
    }
    r->shuffled[lane] = __shfl_xor_sync(0xffffffff, v, 1);
    r->after[lane] = __shfl_sync(0xffffffff, v, (lane + 5) % kLanes);
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

    Record r = run("1: if (lane & 1) ... else ...", parity, d_trips);
    print_lanes("__activemask() inside the branch", r.inside);
    print_lanes("__ballot_sync(__activemask(), lane % 3 == 0) inside it", r.ballot_inside);
    print_lanes("__activemask() after the join", r.after);
    print_lanes("__ballot_sync(0xffffffff, lane % 3 == 0) after it", r.ballot_after);

    r = run("2: if (lane < 16) { if (lane < 8) ... else ... } else { if (lane & 1) ... else ... }", nested, d_trips);
    print_lanes("__activemask() in the inner branch", r.inside);
    print_lanes("__activemask() after the inner join", r.loop[0]);
    print_lanes("__ballot_sync(__activemask(), lane % 3 == 0) after the inner join", r.ballot_inside);
    print_lanes("__activemask() after the outer join", r.after);
    print_lanes("__ballot_sync(0xffffffff, lane % 3 == 0) after it", r.ballot_after);

    r = run("3: for (k = 0; k < trips[lane]; ++k), trips 0-7", loop_rounds, d_trips);
    for (int k = 0; k < kLoopRounds; ++k) {
        char what[64];
        snprintf(what, sizeof what, "__activemask() in round %d", k);
        print_lanes(what, r.loop[k]);
    }
    print_lanes("__shfl_sync(0xffffffff, acc, lane + 1) after the loop", r.shuffled);

    r = run("4: lanes 20-31 return", early_return, d_trips);
    print_lanes("__activemask() of the others", r.after);
    print_lanes("__ballot_sync(__activemask(), lane % 3 == 0)", r.ballot_after);
    print_lanes("__shfl_sync(__activemask(), 10 * lane, (lane + 1) % 20)", r.shuffled);

    r = run("5: v = 1000 + ... (odd lanes) or 2000 + ... (even lanes)", shuffles, d_trips);
    print_lanes("__shfl_xor_sync(__activemask(), v, 2) inside the odd side", r.inside);
    print_lanes("__shfl_xor_sync(0xffffffff, v, 1) after the join", r.shuffled);
    print_lanes("__shfl_sync(0xffffffff, v, lane + 5) after the join", r.after);
    cudaFree(d_trips);
    return 0;
}
