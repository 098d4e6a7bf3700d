// CUDA math library functions as nvcc inlines them (libdevice): a broad mix of float
// and double instructions. jit_test compares against the host's libm loosely.
extern "C" __global__ void math_functions(const float* x, const double* y, float* f, double* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i];
  double b = y[i];
  f[8 * i + 0] = sinf(a);
  f[8 * i + 1] = expf(a);
  f[8 * i + 2] = logf(fabsf(a) + 1.0f);
  f[8 * i + 3] = powf(fabsf(a), 1.5f);
  f[8 * i + 4] = sqrtf(fabsf(a));
  f[8 * i + 5] = tanhf(a);
  f[8 * i + 6] = __fdividef(a, 3.0f) + rsqrtf(fabsf(a) + 1.0f);
  f[8 * i + 7] = (float)(long long)(a * 1000.0f) / 7 + (unsigned)(a * a) % 5u;
  d[4 * i + 0] = sin(b);
  d[4 * i + 1] = exp(b);
  d[4 * i + 2] = sqrt(fabs(b)) + cbrt(b);
  d[4 * i + 3] = (double)((long long)(b * 1e6) / 3) + fmod(b, 0.7);
}
