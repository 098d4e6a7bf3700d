// printf (vprintf with a local buffer), local arrays indexed dynamically, double math.
#include <cstdio>
__global__ void printf_local(double* out, int k) {
  double history[16];
  for (int i = 0; i < 16; ++i) history[i] = sin((double)i) * exp(0.1 * i) + sqrt((double)(i + k));
  double x = history[k & 15];
  x = pow(x, 1.5) + log(fabs(x) + 1.0) + fma(x, 2.0, 1.0) + 1.0 / x;
  out[threadIdx.x] = x + rsqrt(x * x + 1.0) + floor(x) + ceil(x) + trunc(x) + round(x);
  if (threadIdx.x == 0) printf("thread %d block %d value %f %s\n", threadIdx.x, blockIdx.x, x, "end");
}
