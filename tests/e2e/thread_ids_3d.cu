// threadIdx/blockIdx/blockDim/gridDim in a 3D launch: every thread writes its ids, the
// host prints a sample and checks the linearisation (x fastest).
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void ids(int4* out) {
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int id = block * blockDim.x * blockDim.y * blockDim.z + thread;
    out[id] = make_int4(block, thread, blockIdx.x * 100 + blockIdx.y * 10 + blockIdx.z,
                        threadIdx.x * 100 + threadIdx.y * 10 + threadIdx.z);
}

int main() {
    dim3 grid(2, 3, 4), block(5, 3, 2);
    int n = 2 * 3 * 4 * 5 * 3 * 2;
    int4* d;
    cudaMalloc(&d, n * sizeof(int4));
    cudaMemset(d, 0xff, n * sizeof(int4));
    ids<<<grid, block>>>(d);
    std::vector<int4> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(int4), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int id = 0; id < n; ++id) bad += h[id].x * 30 + h[id].y != id;
    std::printf("%d threads, %d with wrong ids\n", n, bad);
    for (int id : {0, 1, 5, 29, 30, 31, 359, 719})
        std::printf("thread %3d: block %2d thread %2d blockIdx %03d threadIdx %03d\n", id, h[id].x, h[id].y, h[id].z,
                    h[id].w);
    cudaFree(d);
    return 0;
}
