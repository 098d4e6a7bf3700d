// Defines what caller.cu uses (-rdc=true).
__device__ int callee_total = 7;
__device__ int callee_scale(int x) { return 3 * x; }
