// More of cuBLAS through cucpu's libcublas.so.13, compared with the GPU's output: batched
// gemv (pointer arrays and strided), syrkx/herkx, the packed/full triangle conversions. Small
// integers keep every result exact.
// NVCC-FLAGS: -lcublas
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

static void status(const char* what, cublasStatus_t s) { printf("%s: %s\n", what, cublasGetStatusName(s)); }

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

static void print(const char* what, const std::vector<float>& a) {
  printf("%s:", what);
  for (float v : a) printf(" %g", v);
  printf("\n");
}

static std::vector<float> integers(int count, int seed) {
  std::vector<float> a(count);
  for (int i = 0; i < count; ++i) a[i] = (i * 5 + seed) % 9 - 4;
  return a;
}

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  const int m = 3, n = 4, count = 3;
  float* A = device_copy(integers(m * n * count, 1));
  float* x = device_copy(integers(n * count, 2));
  float* y = device_copy(integers(m * count, 3));
  float one = 1, two = 2;
  status("SgemvStridedBatched", cublasSgemvStridedBatched(h, CUBLAS_OP_N, m, n, &two, A, m, m * n, x, 1, n, &one, y, 1, m, count));
  print("strided", host_copy(y, m * count));
  std::vector<const float*> as, xs;
  std::vector<float*> ys;
  for (int i = 0; i < count; ++i) as.push_back(A + i * m * n), xs.push_back(y + i * m), ys.push_back(x + i * n);
  const float** dA = device_copy(as);
  const float** dx = device_copy(xs);
  float** dy = device_copy(ys);
  status("SgemvBatched T", cublasSgemvBatched(h, CUBLAS_OP_T, m, n, &one, dA, m, dx, 1, &one, dy, 1, count));
  print("batched", host_copy(x, n * count));

  const int k = 3, nn = 4;
  float* P = device_copy(integers(nn * k, 4));
  float* Q = device_copy(integers(nn * k, 5));
  float* C = device_copy(integers(nn * nn, 6));
  status("Ssyrkx", cublasSsyrkx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, nn, k, &one, P, nn, Q, nn, &two, C, nn));
  print("syrkx", host_copy(C, nn * nn));
  std::vector<cuComplex> zp = {{1, 1}, {0, 2}, {-1, 0}, {2, -1}}, zc(4, {1, 0});
  cuComplex* Z = device_copy(zp);
  cuComplex* ZC = device_copy(zc);
  cuComplex calpha = {1, 0};
  float rbeta = 1;
  status("Cherkx", cublasCherkx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, 2, 2, &calpha, Z, 2, Z, 2, &rbeta, ZC, 2));
  std::vector<cuComplex> hz = host_copy(ZC, 4);
  printf("herkx: %g %g, %g %g, %g %g, %g %g\n", hz[0].x, hz[0].y, hz[1].x, hz[1].y, hz[2].x, hz[2].y, hz[3].x, hz[3].y);

  float* packed = device_copy(std::vector<float>{1, 2, 3, 4, 5, 6});
  float* full = device_copy(std::vector<float>(12, 0));
  status("Stpttr", cublasStpttr(h, CUBLAS_FILL_MODE_UPPER, 3, packed, full, 4));
  print("tpttr", host_copy(full, 12));
  float* repacked = device_copy(std::vector<float>(6, 0));
  status("Strttp lower", cublasStrttp(h, CUBLAS_FILL_MODE_LOWER, 3, full, 4, repacked));
  print("trttp", host_copy(repacked, 6));
  cublasDestroy(h);
  return 0;
}
