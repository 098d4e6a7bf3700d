// cuBLAS's legacy API (cublas.h) through cucpu's libcublas.so.13, compared with the GPU's
// output: the implicit handle (cublasInit/Shutdown), characters for enumerations, scalars
// by value, results returned, errors kept for cublasGetError. Small integers keep every
// result exact whatever order a BLAS adds in.
// NVCC-FLAGS: -lcublas
#include <cublas.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

static void status(const char* what, cublasStatus s) { printf("%s: %d\n", what, static_cast<int>(s)); }

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

static void print(const char* what, const float* device, int n) {
  std::vector<float> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s:", what);
  for (float v : host) printf(" %g", v);
  printf("\n");
}

int main() {
  status("cublasInit", cublasInit());
  int version = 0;
  status("cublasGetVersion", cublasGetVersion(&version));
  printf("version %d\n", version);
  float* A = nullptr;
  status("cublasAlloc", cublasAlloc(9, sizeof(float), reinterpret_cast<void**>(&A)));
  const std::vector<float> a = {1, -2, 3, 0, 2, -1, 4, 1, -3};
  status("cublasSetVector", cublasSetVector(9, sizeof(float), a.data(), 1, A, 1));
  float* C = device_copy(std::vector<float>(9, 1));
  cublasSgemm('n', 'T', 3, 3, 3, 2, A, 3, A, 3, -1, C, 3);
  status("Sgemm", cublasGetError());
  print("Sgemm", C, 9);
  printf("Sdot %g\n", cublasSdot(9, A, 1, C, 1));
  printf("Sasum %g\n", cublasSasum(9, A, 1));
  double* x = device_copy(std::vector<double>{1, -7, 3});
  printf("Idamax %d\n", cublasIdamax(3, x, 1));
  cuComplex* z = device_copy(std::vector<cuComplex>{{1, 2}, {3, 4}});
  cuComplex dot = cublasCdotc(2, z, 1, z, 1);
  printf("Cdotc %g %g\n", dot.x, dot.y);
  cublasSaxpy(9, 3, A, 1, C, 1);
  print("Saxpy", C, 9);
  cublasStrmm('L', 'U', 'N', 'U', 3, 3, 1, A, 3, C, 3);
  status("Strmm", cublasGetError());
  print("Strmm (in place)", C, 9);
  float* y = device_copy(std::vector<float>{0, 0, 0});
  cublasSgemv('t', 3, 3, 1, A, 3, C, 1, 0, y, 1);
  print("Sgemv", y, 3);
  cublasSgemm('x', 'N', 3, 3, 3, 1, A, 3, A, 3, 0, C, 3);
  status("Sgemm bad transa", cublasGetError());
  status("cublasGetError again", cublasGetError());
  cublasSgemm('N', 'N', -1, 3, 3, 1, A, 3, A, 3, 0, C, 3);
  status("Sgemm m < 0", cublasGetError());
  status("cublasFree", cublasFree(A));
  status("cublasShutdown", cublasShutdown());
  cudaFree(C), cudaFree(x), cudaFree(z), cudaFree(y);
  return 0;
}
