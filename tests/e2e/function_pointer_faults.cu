// Calls through function pointers that point at no function: a null pointer is the sticky
// cudaErrorInvalidPc on an H100, never a dead host process; each round runs in a child
// process of its own (fault_rounds.h says why). (A call through the address of a __device__
// variable hung the H100 for over a minute, so that round is not part of the test; cucpu
// gives cudaErrorInvalidPc there too.)
#include <cstdio>

#include <cuda_runtime.h>

#include "fault_rounds.h"

typedef int (*IntOp)(int);

__device__ int twice(int x) { return 2 * x; }
__device__ int not_code[16];

// The pointer comes from memory, so the compiler cannot see what it is.
__global__ void call_through(IntOp const* table, int index, int* out) {
    int i = threadIdx.x;
    IntOp op = i == 5 ? table[index] : table[0];
    out[i] = op(i);
}

__device__ IntOp twice_pointer = twice;

// table[0]: twice; table[1]: null; table[2]: the address of data.
__global__ void fill_table(IntOp* table) {
    table[0] = twice_pointer;
    table[1] = nullptr;
    table[2] = reinterpret_cast<IntOp>(not_code);
}

IntOp* g_table;
int* g_out;

template <typename Launch>
void pointer_round(const char* name, Launch launch) {
    run_fault_round(
        name,
        [] {
            cudaMalloc(&g_table, 3 * sizeof(IntOp));
            cudaMalloc(&g_out, 64 * sizeof(int));
            fill_table<<<1, 1>>>(g_table);
            cudaDeviceSynchronize();
        },
        launch,
        [] {
            int h[8];
            cudaMemcpy(h, g_out, sizeof(h), cudaMemcpyDeviceToHost);
            printf("  out:");
            for (int v : h) printf(" %d", v);
            printf("\n");
        });
}

int main() {
    pointer_round("call through a valid pointer", [] { call_through<<<1, 8>>>(g_table, 0, g_out); });
    pointer_round("call through null", [] { call_through<<<1, 8>>>(g_table, 1, g_out); });
    return 0;
}
