// Half and bfloat16 arithmetic, conversions, packed half2, fast-math intrinsics.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void half_ops(__half* h, __half2* h2, __nv_bfloat16* bf, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = h[i];
  __half b = __float2half(f[i]);
  h[i] = __hfma(a, b, __hmul(a, a)) + hsqrt(b);
  h2[i] = __hfma2(h2[i], h2[i], __halves2half2(a, b));
  bf[i] = __float2bfloat16(__bfloat162float(bf[i]) * 2.0f) + bf[i];
  f[i] = __half2float(a) + __expf(f[i]) + __sinf(f[i]) + __fdividef(f[i], 3.0f) + __saturatef(f[i]) + rintf(f[i]);
  atomicAdd(h + n, a);
  atomicAdd(h2 + n, h2[i]);
}
