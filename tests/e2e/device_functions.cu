// Calls to non-inlined __device__ functions: scalar, struct and pointer parameters,
// struct return values, recursion, and a function called from two kernels.
#include <cstdio>

#include <cuda_runtime.h>

struct Pair {
    int a;
    float b;
};

__device__ __noinline__ Pair combine(Pair x, Pair y, int scale) { return Pair{x.a * scale + y.a, x.b * y.b}; }

__device__ __noinline__ long long factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

__device__ __noinline__ void accumulate(int* target, const int* values, int n) {
    for (int k = 0; k < n; ++k) *target += values[k];
}

__device__ __noinline__ double mix(double x, char c, short s, unsigned long long big) {
    return x * c + s + (double)(big >> 32);
}

__global__ void first(long long* out, const int* values) {
    Pair p = combine(Pair{(int)threadIdx.x + 1, 1.5f}, Pair{10, 2.0f}, 3);
    out[threadIdx.x * 4] = p.a;
    out[threadIdx.x * 4 + 1] = (long long)(p.b * 100);
    out[threadIdx.x * 4 + 2] = factorial(threadIdx.x + 10);
    int sum = threadIdx.x;
    accumulate(&sum, values, 5);
    out[threadIdx.x * 4 + 3] = sum;
}

__global__ void second(double* out) { out[threadIdx.x] = mix(0.25 * threadIdx.x, -3, 1000, 0x500000000ULL); }

int main() {
    long long* d_out;
    double* d_mix;
    int* d_values;
    int values[5] = {1, 2, 3, 4, 5};
    cudaMalloc(&d_out, 4 * 4 * sizeof(long long));
    cudaMalloc(&d_mix, 4 * sizeof(double));
    cudaMalloc(&d_values, sizeof(values));
    cudaMemcpy(d_values, values, sizeof(values), cudaMemcpyHostToDevice);
    first<<<1, 4>>>(d_out, d_values);
    second<<<1, 4>>>(d_mix);
    std::printf("launches: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    long long out[16];
    double mix_out[4];
    cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
    cudaMemcpy(mix_out, d_mix, sizeof(mix_out), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 4; ++t)
        std::printf("thread %d: combine {%lld, %lld/100}, %lld! ... = %lld, sum %lld, mix %.17g\n", t, out[4 * t],
                    out[4 * t + 1], (long long)t + 10, out[4 * t + 2], out[4 * t + 3], mix_out[t]);
    return 0;
}
