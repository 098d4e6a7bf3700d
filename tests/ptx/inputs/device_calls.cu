// Non-inlined device functions: .func with params and return values, call.uni,
// a function pointer call (.callprototype), recursion.
__device__ __noinline__ float square(float x) { return x * x; }
__device__ __noinline__ int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
__device__ __noinline__ void store_pair(float* out, float a, double b) { out[0] = a; out[1] = (float)b; }
typedef float (*unary_fn)(float);
__device__ float twice(float x) { return 2.0f * x; }
__device__ unary_fn table[2] = {square, twice};

__global__ void call_functions(float* out, int which) {
  int i = threadIdx.x;
  out[i] = square(out[i]) + factorial(i & 7);
  out[i] += table[which & 1](out[i]);
  store_pair(out + 64, 1.0f, 2.0);
}
