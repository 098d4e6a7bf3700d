// Kernels written to misbehave, each in its own round: the launch, the synchronisation that
// reports the fault, the sticky error (cudaGetLastError twice, then an unrelated call), and
// cudaDeviceReset. The process survives every round.
// Each round runs in a child process of its own (forked before it touches CUDA): on the H100
// the device stays unusable for the rest of the process after such a fault, even after
// cudaDeviceReset (a good kernel then gives cudaErrorDevicesUnavailable), so one fault per
// process is what can be compared with a GPU.
// Only faults a GPU reports deterministically are here; waits that hang a GPU (a stuck
// barrier, a lane missing from a shuffle) are in cucpu_only/stuck_waits.cu.
#include <cstdio>

#include <cuda_runtime.h>

#include "fault_rounds.h"

__global__ void trap_in_one_thread(int* out) {
    if (blockIdx.x == 1 && threadIdx.x == 7) __trap();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// brkpt with no debugger attached.
__global__ void breakpoint_in_one_thread(int* out) {
    if (blockIdx.x == 2 && threadIdx.x == 33) asm volatile("brkpt;");
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void write_through_null(int* out) {
    int* volatile null = nullptr;
    if (threadIdx.x == 3) *null = 42;
    out[threadIdx.x] = 1;
}

// 1 TiB past the end of a small allocation: no mapping there on the GPU or the host.
__global__ void write_far_out_of_bounds(int* out) {
    volatile size_t far = size_t{1} << 38;
    out[far + threadIdx.x] = 1;
}

// ld.global.v4.f32 from an address that is 4-byte but not 16-byte aligned.
__global__ void misaligned_vector_load(const float* in, float* out) {
    const float4* p = reinterpret_cast<const float4*>(in + 1);
    float4 v = p[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

// st.global.v2.f64 to an address that is 8-byte but not 16-byte aligned.
__global__ void misaligned_double2_store(double* out) {
    double2* p = reinterpret_cast<double2*>(out + 1);
    p[threadIdx.x] = make_double2(1.0, 2.0);
}

// Recursion far deeper than the 1 KiB default stack (or any fiber stack) holds.
__device__ int descend(volatile int* frame_data, int depth) {
    volatile int local[64];
    local[depth % 64] = depth;
    if (depth == 0) return local[0];
    return descend(frame_data, depth - 1) + local[depth % 64];
}
__global__ void recurse_too_deep(int* out, int depth) { out[threadIdx.x] = descend(out, depth); }

int* g_ints;
float* g_floats;
double* g_doubles;

void allocate() {
    cudaMalloc(&g_ints, 1024 * sizeof(int));
    cudaMalloc(&g_floats, 1024 * sizeof(float));
    cudaMalloc(&g_doubles, 1024 * sizeof(double));
    cudaMemset(g_floats, 0, 1024 * sizeof(float));
}

template <typename Launch>
void run_round_in_child(const char* name, Launch launch) {
    run_fault_round(name, allocate, launch, [] {});
}

int main() {
    run_round_in_child("trap", [] { trap_in_one_thread<<<4, 64>>>(g_ints); });
    run_round_in_child("null pointer write", [] { write_through_null<<<1, 32>>>(g_ints); });
    run_round_in_child("write 1 TiB out of bounds", [] { write_far_out_of_bounds<<<1, 32>>>(g_ints); });
    run_round_in_child("misaligned ld.v4.f32", [] { misaligned_vector_load<<<1, 32>>>(g_floats, g_floats); });
    run_round_in_child("misaligned st.v2.f64", [] { misaligned_double2_store<<<1, 32>>>(g_doubles); });
    run_round_in_child("recursion past the stack", [] { recurse_too_deep<<<1, 32>>>(g_ints, 1 << 20); });
    run_round_in_child("brkpt", [] { breakpoint_in_one_thread<<<4, 64>>>(g_ints); });
    return 0;
}
