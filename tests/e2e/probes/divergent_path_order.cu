// Probe, not a test: when one warp diverges, which side does the GPU run first, and do
// lanes that leave a loop (or skip an if) early wait for the others at the join? The
// answers are not promised by the Programming Guide or the PTX ISA (both sides racing on
// shared memory is a data race); they tell a strategy that runs warps as SIMD lanes with
// masks which path order reproduces what an H100 prints. Each case is one warp.
//   D cases: one side stores to shared memory, the other side loads the same slots (the
//     question's own snippets), written "light" (a store or two: ptxas may predicate them)
//     and "heavy" (a loop with a trip count from global memory on each side: a real branch).
//   T cases: each path takes tickets from a shared counter (atomicAdd); the path whose
//     lanes hold the lower tickets ran first.
//   S lines: a sweep over which lanes take the branch (sizes 1 to 31, scattered masks).
// divergent_path_order.h100.out is what an H100 printed; README.md here says what it means.
#include <cstdio>

constexpr int kLanes = 32, kRounds = 4;
constexpr int kUnset = -5000;  // what a slot holds before any store of the case

struct Record {
    int value[kLanes];            // the lane's slot of s after the case, or its ticket
    int rounds[kRounds][kLanes];  // per loop round: a ticket or what the lane loaded
    int after[kLanes];            // a ticket taken after the join
};

__device__ int work(const int* trips, int lane, int seed) {
    int acc = seed;
#pragma unroll 1
    for (int k = 0; k < trips[lane]; ++k) acc = (acc * 3 + k) % 97;
    return acc;
}

// D1: lanes 0-15 store 1, lanes 16-31 load the slot of lane - 16 and add 10 (writer in `if`).
// nvcc turns both sides' stores into one after the join, leaving only the load in a branch.
__global__ void d1_light_writer_first(const int*, Record* r) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    __syncwarp();
    if (lane < 16)
        s[lane] = 1;
    else
        s[lane] = s[lane - 16] + 10;
    __syncwarp();
    r->value[lane] = s[lane];
}

// D2: the same with the reader in `if` and the writer in `else`.
__global__ void d2_light_reader_first(const int*, Record* r) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    __syncwarp();
    if (lane >= 16)
        s[lane] = s[lane - 16] + 10;
    else
        s[lane] = 1;
    __syncwarp();
    r->value[lane] = s[lane];
}

// D3-D6: the readers store what they load (plus 1000 and their work) to another array, t,
// so that nvcc cannot merge the two sides' stores into one after the join as it does in D1
// and D2 (where every load therefore comes before every store, whichever side runs first).
// A loop on each side makes the branch real. A reader ending below 0 loaded kUnset.
// D3: writers (lanes 0-15) in `if`, readers (16-31, loading lane - 16) in `else`.
__global__ void d3_heavy_writer_first(const int* trips, Record* r) {
    __shared__ int s[kLanes], t[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    t[lane] = kUnset;
    __syncwarp();
    if (lane < 16)
        s[lane] = 1 + work(trips, lane, 1);
    else
        t[lane] = s[lane - 16] + 1000 + work(trips, lane, 2);
    __syncwarp();
    r->value[lane] = lane < 16 ? s[lane] : t[lane];
}

// D4: D3 with the readers in `if`.
__global__ void d4_heavy_reader_first(const int* trips, Record* r) {
    __shared__ int s[kLanes], t[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    t[lane] = kUnset;
    __syncwarp();
    if (lane >= 16)
        t[lane] = s[lane - 16] + 1000 + work(trips, lane, 2);
    else
        s[lane] = 1 + work(trips, lane, 1);
    __syncwarp();
    r->value[lane] = lane < 16 ? s[lane] : t[lane];
}

// D5, D6: D3 and D4 with the halves swapped: the readers are lanes 0-15, loading lane + 16.
__global__ void d5_heavy_low_readers_in_if(const int* trips, Record* r) {
    __shared__ int s[kLanes], t[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    t[lane] = kUnset;
    __syncwarp();
    if (lane < 16)
        t[lane] = s[lane + 16] + 1000 + work(trips, lane, 2);
    else
        s[lane] = 1 + work(trips, lane, 1);
    __syncwarp();
    r->value[lane] = lane < 16 ? t[lane] : s[lane];
}

__global__ void d6_heavy_low_readers_in_else(const int* trips, Record* r) {
    __shared__ int s[kLanes], t[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    t[lane] = kUnset;
    __syncwarp();
    if (lane >= 16)
        s[lane] = 1 + work(trips, lane, 1);
    else
        t[lane] = s[lane + 16] + 1000 + work(trips, lane, 2);
    __syncwarp();
    r->value[lane] = lane < 16 ? t[lane] : s[lane];
}

// D9: D1 without the loops but with the readers' results in t, as D3: light code that ptxas
// may predicate.
__global__ void d9_light_separate_stores(const int*, Record* r) {
    __shared__ int s[kLanes], t[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    t[lane] = kUnset;
    __syncwarp();
    if (lane < 16)
        s[lane] = 1;
    else
        t[lane] = s[lane - 16] + 10;
    __syncwarp();
    r->value[lane] = lane < 16 ? s[lane] : t[lane];
}

// D7: a loop that lanes 0-15 leave after 1 round and lanes 16-31 after 3; after the loop
// every lane stores 100 + lane. In each round lanes 16-31 load the slot of lane - 16: kUnset
// while lanes 0-15 wait at the loop's exit, 100 + lane - 16 once they have run past it.
__global__ void d7_loop_early_exit(const int* trips, Record* r) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    __syncwarp();
    const int n = lane < 16 ? trips[0] : trips[1];
    volatile int* vs = s;  // loaded again in every round
#pragma unroll 1
    for (int k = 0; k < n; ++k) r->rounds[k][lane] = vs[lane ^ 16];
    s[lane] = 100 + lane;
    __syncwarp();
    r->value[lane] = s[lane];
}

// D8: `if` without `else`: lanes 16-31 load the slot of lane - 16 (after a loop); after the
// join every lane stores 100 + lane. kUnset: lanes 0-15 waited at the join.
__global__ void d8_if_without_else(const int* trips, Record* r) {
    __shared__ int s[kLanes];
    const int lane = threadIdx.x;
    s[lane] = kUnset;
    __syncwarp();
    if (lane >= 16) {
        r->rounds[1][lane] = work(trips, lane, 2);
        r->rounds[0][lane] = s[lane - 16];
    }
    s[lane] = 100 + lane;
    __syncwarp();
    r->value[lane] = s[lane];
}

// The two ways a path takes its ticket: before its work, or after it. Sides of one branch use
// different ways, so that the compiler cannot move a common ticket out of both sides into
// the code before or after the branch.
__device__ void ticket_then_work(int* tick, const int* trips, Record* r, int lane, int seed) {
    r->value[lane] = atomicAdd(tick, 1);
    r->after[lane] = work(trips, lane, seed);
}

__device__ void work_then_ticket(int* tick, const int* trips, Record* r, int lane, int seed) {
    r->after[lane] = work(trips, lane, seed);
    r->value[lane] = atomicAdd(tick, 1);
}

// A ticket after a loop is taken with another instruction than the loop's (atom.inc, not
// atom.add): nvcc otherwise rotates the loop so that its last round's atomicAdd is also the
// ticket after the loop.
__device__ int after_loop_ticket(int* tick) {
    return static_cast<int>(atomicInc(reinterpret_cast<unsigned*>(tick), 1u << 30));
}

// T1-T3: tickets taken on each side of a two-way branch.
__global__ void t1_low_half_in_if(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane < 16)
        ticket_then_work(&tick, trips, r, lane, 1);
    else
        work_then_ticket(&tick, trips, r, lane, 2);
}

__global__ void t2_high_half_in_if(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane >= 16)
        ticket_then_work(&tick, trips, r, lane, 1);
    else
        work_then_ticket(&tick, trips, r, lane, 2);
}

__global__ void t3_odd_lanes_in_if(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane & 1)
        ticket_then_work(&tick, trips, r, lane, 1);
    else
        work_then_ticket(&tick, trips, r, lane, 2);
}

// T9, T10: uneven splits (4 lanes and 28), to tell "the not-taken side first" from "the larger
// side first".
__global__ void t9_four_lanes_in_if(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane < 4)
        ticket_then_work(&tick, trips, r, lane, 1);
    else
        work_then_ticket(&tick, trips, r, lane, 2);
}

__global__ void t10_four_lanes_in_else(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane >= 4)
        ticket_then_work(&tick, trips, r, lane, 1);
    else
        work_then_ticket(&tick, trips, r, lane, 2);
}

// T4: nested: if (lane < 16) { if (lane < 8) A else B } else { if (lane < 24) C else D }.
__global__ void t4_nested(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane < 16) {
        if (lane < 8)
            ticket_then_work(&tick, trips, r, lane, 1);
        else
            work_then_ticket(&tick, trips, r, lane, 2);
    } else {
        if (lane < 24)
            ticket_then_work(&tick, trips, r, lane, 3);
        else
            work_then_ticket(&tick, trips, r, lane, 4);
    }
}

// T5: a loop of lane / 8 + 1 rounds with a ticket each round, then a ticket after the loop:
// do the lanes that left early take theirs before the others' later rounds?
__global__ void t5_loop_early_exit(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    const int n = trips[2 + lane / 8];
#pragma unroll 1
    for (int k = 0; k < n; ++k) r->rounds[k][lane] = atomicAdd(&tick, 1);
    r->after[lane] = after_loop_ticket(&tick);
}

// T6: `if` without `else`: lanes 16-31 take a ticket inside (after a loop), then every lane
// one after the join.
__global__ void t6_if_without_else(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane >= 16) work_then_ticket(&tick, trips, r, lane, 1);
    r->rounds[0][lane] = atomicAdd(&tick, 1);
}

// T7: lanes 16-31 take a ticket and return; lanes 0-15 take one and go on to take another.
__global__ void t7_early_return(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    if (lane >= 16) {
        work_then_ticket(&tick, trips, r, lane, 1);
        return;
    }
    r->value[lane] = atomicAdd(&tick, 1);
    r->rounds[0][lane] = atomicAdd(&tick, 1);
}

// T8: a loop with `break` in its middle: each round takes a ticket, lanes break in round
// lane / 8 before a second ticket; then a ticket after the loop.
__global__ void t8_loop_break(const int* trips, Record* r) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    const int last = trips[2 + lane / 8] - 1;
#pragma unroll 1
    for (int k = 0; k < kRounds; ++k) {
        const int first = atomicAdd(&tick, 1);
        if (k == last) break;
        r->rounds[k][lane] = first * 100 + atomicAdd(&tick, 1);
    }
    r->after[lane] = after_loop_ticket(&tick);
}

// S: a sweep over which lanes take the branch, `mask` bit `lane`. Both sides take their
// ticket first (with different instructions, atom.add and atom.inc, so that nvcc cannot hoist
// one ticket above the branch) and then work; MaskInIf puts the mask's lanes in `if`
// (true) or in `else` (false), which swaps the sides' places in the code.
template <bool MaskInIf>
__global__ void sweep(const int* trips, Record* r, unsigned mask) {
    __shared__ int tick;
    const int lane = threadIdx.x;
    if (lane == 0) tick = 0;
    __syncwarp();
    const bool in_mask = (mask >> lane) & 1;
    if (in_mask == MaskInIf) {
        r->value[lane] = atomicAdd(&tick, 1);
        r->after[lane] = work(trips, lane, 1);
    } else {
        r->value[lane] = static_cast<int>(atomicInc(reinterpret_cast<unsigned*>(&tick), 1u << 30));
        r->after[lane] = work(trips, lane, 2);
    }
}

// Which lanes ran first: "mask" (the lanes of mask), "rest", or "mixed" (tickets interleave).
template <bool MaskInIf>
const char* sweep_first(const int* d_trips, unsigned mask) {
    Record* d_r;
    cudaMalloc(&d_r, sizeof(Record));
    sweep<MaskInIf><<<1, kLanes>>>(d_trips, d_r, mask);
    Record r;
    cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost);
    cudaFree(d_r);
    int mask_max = -1, rest_min = 1 << 30, rest_max = -1, mask_min = 1 << 30;
    for (int i = 0; i < kLanes; ++i) {
        const int v = r.value[i];
        if ((mask >> i) & 1) {
            mask_max = v > mask_max ? v : mask_max;
            mask_min = v < mask_min ? v : mask_min;
        } else {
            rest_max = v > rest_max ? v : rest_max;
            rest_min = v < rest_min ? v : rest_min;
        }
    }
    return mask_max < rest_min ? "mask" : rest_max < mask_min ? "rest" : "mixed";
}

typedef void (*Case)(const int*, Record*);

static void print_row(const char* what, const int* v) {
    printf("  %s:\n", what);
    for (int i = 0; i < kLanes; ++i) printf(" %6d%s", v[i], i % 16 == 15 ? "\n" : "");
}

static Record run(const char* title, Case kernel, const int* d_trips) {
    Record* d_r;
    cudaMalloc(&d_r, sizeof(Record));
    cudaMemset(d_r, 0xff, sizeof(Record));  // -1 where nothing was written
    kernel<<<1, kLanes>>>(d_trips, d_r);
    Record r;
    cudaMemcpy(&r, d_r, sizeof r, cudaMemcpyDeviceToHost);
    printf("%s (%s):\n", title, cudaGetErrorName(cudaGetLastError()));
    cudaFree(d_r);
    return r;
}

// Did the readers (lanes [from, from + 16)) see the writers' stores? Readers ending below 0
// loaded kUnset.
static void say_data(const Record& r, int from) {
    int saw = 0;
    for (int i = from; i < from + 16; ++i) saw += r.value[i] >= 0;
    print_row("s after the branch", r.value);
    printf("  => %s (%d of 16 readers saw the writers' stores)\n",
           saw == 16 ? "WRITERS' SIDE RAN FIRST" : saw == 0 ? "READERS' SIDE RAN FIRST" : "MIXED", saw);
}

// Which lane groups hold the lowest tickets, in order.
static void say_order(const int* tickets, const char* const* names, const int* starts, int groups) {
    int lowest[8];
    for (int g = 0; g < groups; ++g) {
        lowest[g] = 1 << 30;
        for (int i = starts[g]; i < starts[g + 1]; ++i) lowest[g] = tickets[i] < lowest[g] ? tickets[i] : lowest[g];
    }
    printf("  => order:");
    for (int n = 0; n < groups; ++n) {
        int best = -1;
        for (int g = 0; g < groups; ++g)
            if (lowest[g] != 1 << 29 && (best < 0 || lowest[g] < lowest[best])) best = g;
        printf(" %s(%d)", names[best], lowest[best]);
        lowest[best] = 1 << 29;
    }
    printf("\n");
}

int main() {
    int trips[kLanes];
    for (int i = 0; i < kLanes; ++i) trips[i] = 3 + i % 3;
    // D7: rounds of lanes 0-15 and 16-31; T5, T8: rounds of lanes 0-7, 8-15, 16-23, 24-31
    trips[0] = 1, trips[1] = 3, trips[2] = 1, trips[3] = 2, trips[4] = 3, trips[5] = 4;
    int* d_trips;
    cudaMalloc(&d_trips, sizeof trips);
    cudaMemcpy(d_trips, trips, sizeof trips, cudaMemcpyHostToDevice);

    say_data(run("D1 light: if (lane < 16) s[lane] = 1; else s[lane] = s[lane - 16] + 10", d1_light_writer_first,
                 d_trips), 16);
    say_data(run("D2 light: if (lane >= 16) s[lane] = s[lane - 16] + 10; else s[lane] = 1", d2_light_reader_first,
                 d_trips), 16);
    say_data(run("D3 heavy: if (lane < 16) write; else read lane - 16", d3_heavy_writer_first, d_trips), 16);
    say_data(run("D4 heavy: if (lane >= 16) read lane - 16; else write", d4_heavy_reader_first, d_trips), 16);
    say_data(run("D5 heavy: if (lane < 16) read lane + 16; else write", d5_heavy_low_readers_in_if, d_trips), 0);
    say_data(run("D6 heavy: if (lane >= 16) write; else read lane + 16", d6_heavy_low_readers_in_else, d_trips), 0);
    say_data(run("D9 light: if (lane < 16) s[lane] = 1; else t[lane] = s[lane - 16] + 10", d9_light_separate_stores,
                 d_trips), 16);

    Record r = run("D7 loop: lanes 0-15 1 round, 16-31 3 rounds, loading s[lane ^ 16]; then s[lane] = 100 + lane",
                   d7_loop_early_exit, d_trips);
    for (int k = 0; k < 3; ++k) {
        char what[64];
        snprintf(what, sizeof what, "loaded in round %d", k);
        print_row(what, r.rounds[k]);
    }
    int unset = 0;
    for (int k = 1; k < 3; ++k)
        for (int i = 16; i < 32; ++i) unset += r.rounds[k][i] == kUnset;
    printf("  => %s (%d of 32 loads in rounds 1-2 saw no store)\n",
           unset == 32 ? "EARLY LEAVERS WAITED AT THE LOOP'S EXIT" : unset == 0 ? "EARLY LEAVERS RAN AHEAD" : "MIXED",
           unset);

    r = run("D8 if without else: lanes 16-31 load s[lane - 16]; after the join s[lane] = 100 + lane",
            d8_if_without_else, d_trips);
    print_row("loaded inside the if", r.rounds[0]);
    unset = 0;
    for (int i = 16; i < 32; ++i) unset += r.rounds[0][i] == kUnset;
    printf("  => %s (%d of 16 loads saw no store)\n",
           unset == 16 ? "SKIPPING LANES WAITED AT THE JOIN" : unset == 0 ? "SKIPPING LANES RAN AHEAD" : "MIXED",
           unset);

    const char* halves[] = {"lanes0-15", "lanes16-31"};
    const int half_starts[] = {0, 16, 32};
    r = run("T1: if (lane < 16) A else B", t1_low_half_in_if, d_trips);
    print_row("tickets", r.value);
    say_order(r.value, halves, half_starts, 2);
    r = run("T2: if (lane >= 16) A else B", t2_high_half_in_if, d_trips);
    print_row("tickets", r.value);
    say_order(r.value, halves, half_starts, 2);

    const char* uneven[] = {"lanes0-3", "lanes4-31"};
    const int uneven_starts[] = {0, 4, 32};
    r = run("T9: if (lane < 4) A else B", t9_four_lanes_in_if, d_trips);
    print_row("tickets", r.value);
    say_order(r.value, uneven, uneven_starts, 2);
    r = run("T10: if (lane >= 4) A else B", t10_four_lanes_in_else, d_trips);
    print_row("tickets", r.value);
    say_order(r.value, uneven, uneven_starts, 2);

    r = run("T3: if (lane & 1) A else B", t3_odd_lanes_in_if, d_trips);
    print_row("tickets", r.value);
    int odd_lowest = 1 << 30, even_lowest = 1 << 30;
    for (int i = 0; i < kLanes; ++i) {
        int& lowest = i & 1 ? odd_lowest : even_lowest;
        lowest = r.value[i] < lowest ? r.value[i] : lowest;
    }
    printf("  => order: %s\n", odd_lowest < even_lowest ? "odd lanes (the if side) first" : "even lanes (the else side) first");

    r = run("T4: if (lane < 16) { if (lane < 8) A else B } else { if (lane < 24) C else D }", t4_nested, d_trips);
    print_row("tickets", r.value);
    const char* quarters[] = {"A:0-7", "B:8-15", "C:16-23", "D:24-31"};
    const int quarter_starts[] = {0, 8, 16, 24, 32};
    say_order(r.value, quarters, quarter_starts, 4);

    r = run("T5: loop of lane / 8 + 1 rounds, a ticket per round, then one after the loop", t5_loop_early_exit,
            d_trips);
    for (int k = 0; k < kRounds; ++k) {
        char what[64];
        snprintf(what, sizeof what, "round %d", k);
        print_row(what, r.rounds[k]);
    }
    print_row("after the loop", r.after);

    r = run("T6: if (lane >= 16) ticket; then a ticket after the join", t6_if_without_else, d_trips);
    print_row("inside the if", r.value);
    print_row("after the join", r.rounds[0]);

    r = run("T7: lanes 16-31 take a ticket and return, lanes 0-15 take two", t7_early_return, d_trips);
    print_row("first ticket", r.value);
    print_row("second ticket (lanes 0-15)", r.rounds[0]);

    r = run("T8: loop, lanes break in round lane / 8 after a first ticket (first * 100 + second)", t8_loop_break,
            d_trips);
    for (int k = 0; k < kRounds; ++k) {
        char what[64];
        snprintf(what, sizeof what, "round %d", k);
        print_row(what, r.rounds[k]);
    }
    print_row("after the loop", r.after);
    printf("S: if (lane in mask) A else B, and if (lane not in mask) B else A: which lanes run first\n");
    unsigned masks[80];
    int count = 0;
    for (int k = 1; k < 32; ++k) masks[count++] = (1u << k) - 1;     // lanes below k
    for (int k = 1; k < 32; ++k) masks[count++] = ~((1u << k) - 1);  // lanes from k
    const unsigned others[] = {0x55555555, 0xaaaaaaaa, 0x00ff00ff, 0xff00ff00, 0x0f0f0f0f, 0x80000001, 0x7ffffffe,
                               0x00000100, 0xfffffeff, 0x12345678, 0xedcba987, 0x0001ffff, 0xfffe0000, 0x00007fff};
    for (unsigned m : others) masks[count++] = m;
    for (int i = 0; i < count; ++i)
        printf("  mask %08x (%2d lanes): mask in if: %-5s  mask in else: %s\n", masks[i], __builtin_popcount(masks[i]),
               sweep_first<true>(d_trips, masks[i]), sweep_first<false>(d_trips, masks[i]));
    cudaFree(d_trips);
    return 0;
}
