// Uses a __device__ function and variable defined in callee.cu (-rdc=true).
extern __device__ int callee_total;
__device__ int callee_scale(int x);
__global__ void caller(int* out) { out[threadIdx.x] = callee_scale(threadIdx.x) + callee_total; }
