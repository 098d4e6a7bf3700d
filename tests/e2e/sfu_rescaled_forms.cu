// ex2.approx.f32 and lg2.approx.f32 without .ftz, where ptxas rescales around the SFU:
// ex2 of x from -160 to -120 (results down to and below the smallest subnormal) and lg2 of
// subnormal and tiny normal inputs. One line per input: x and the result's bits.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

__global__ void ex2_and_lg2(const float* x, unsigned* ex2, unsigned* lg2, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float e, l;
  asm("ex2.approx.f32 %0, %1;" : "=f"(e) : "f"(x[i]));
  asm("lg2.approx.f32 %0, %1;" : "=f"(l) : "f"(x[i]));
  ex2[i] = __float_as_uint(e);
  lg2[i] = __float_as_uint(l);
}

static unsigned bits_of(float f) {
  unsigned u;
  std::memcpy(&u, &f, 4);
  return u;
}

int main() {
  std::vector<float> xs;
  for (int i = 0; i <= 640; ++i) xs.push_back(-160.0f + i / 16.0f);  // ex2's rescaled range
  for (int i = 0; i < 200; ++i) xs.push_back(-126.0f - i * 0.0137f);
  for (unsigned b = 1; b < 0x00800000u; b = b * 3 + 1) {  // subnormals, for lg2
    float f;
    std::memcpy(&f, &b, 4);
    xs.push_back(f);
  }
  for (unsigned b : {0x00800000u, 0x00800001u, 0x00ffffffu, 0x01000000u, 0x0d800000u, 0x80000001u, 0x807fffffu})
    xs.push_back([&] { float f; std::memcpy(&f, &b, 4); return f; }());
  const int n = static_cast<int>(xs.size());
  float* x;
  unsigned *e, *l;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&e, n * sizeof(unsigned));
  cudaMalloc(&l, n * sizeof(unsigned));
  cudaMemcpy(x, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  ex2_and_lg2<<<(n + 127) / 128, 128>>>(x, e, l, n);
  std::vector<unsigned> ex2(n), lg2(n);
  cudaMemcpy(ex2.data(), e, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(lg2.data(), l, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("%s, %d inputs\n", cudaGetErrorName(cudaGetLastError()), n);
  for (int i = 0; i < n; ++i) std::printf("x %08x ex2 %08x lg2 %08x\n", bits_of(xs[i]), ex2[i], lg2[i]);
  cudaFree(x);
  cudaFree(e);
  cudaFree(l);
  return 0;
}
