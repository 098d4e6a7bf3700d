// A kernel that calls non-inlined device functions (nvcc's .param calling sequence),
// one of which returns a struct and one that recurses.
struct Pair { int lo; int hi; };

__device__ __noinline__ Pair split(long long v) { return Pair{int(v & 0xffffffff), int(v >> 32)}; }
__device__ __noinline__ int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
__device__ __noinline__ float scale(float x, float s, int k) { return x * s + k; }

extern "C" __global__ void device_call(const long long* in, int* out, float* f) {
  Pair p = split(in[threadIdx.x]);
  out[2 * threadIdx.x] = p.lo + factorial(threadIdx.x + 1);
  out[2 * threadIdx.x + 1] = p.hi;
  f[threadIdx.x] = scale(f[threadIdx.x], 2.5f, threadIdx.x);
}
