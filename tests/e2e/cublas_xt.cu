// cuBLAS-XT through cucpu's libcublas.so.13, compared with the GPU's output: level-3 routines
// on matrices in pageable host memory and in device memory, blocking, after cublasXtDeviceSelect;
// the settings read back; calls before a device is selected. Small integers keep every
// result exact whatever order the products are added in.
// NVCC-FLAGS: -lcublas
#include <cublasXt.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

static void status(const char* what, cublasStatus_t s) { printf("%s: %d\n", what, static_cast<int>(s)); }

static std::vector<double> integers(int rows, int columns, int seed) {
  std::vector<double> a(static_cast<size_t>(rows) * columns);
  for (int j = 0; j < columns; ++j)
    for (int i = 0; i < rows; ++i) a[i + j * rows] = (i * 3 + j * 5 + seed) % 7 - 3;
  return a;
}

static void print(const char* what, const std::vector<double>& a) {
  printf("%s:", what);
  for (double v : a) printf(" %g", v);
  printf("\n");
}

int main() {
  cublasXtHandle_t handle;
  status("create", cublasXtCreate(&handle));
  const int n = 5;
  std::vector<double> a = integers(n, n, 1), b = integers(n, n, 2), c(n * n, 1);
  double one = 1, two = 2;
  status("Dgemm before DeviceSelect", cublasXtDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n,
                                                    b.data(), n, &one, c.data(), n));
  int devices[] = {0};
  status("DeviceSelect", cublasXtDeviceSelect(handle, 1, devices));
  int bad_devices[] = {7};
  status("DeviceSelect no such device", cublasXtDeviceSelect(handle, 1, bad_devices));
  status("SetBlockDim", cublasXtSetBlockDim(handle, 64));
  int block = 0;
  cublasXtGetBlockDim(handle, &block);
  printf("block dim %d\n", block);
  status("Dgemm host memory", cublasXtDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &two, a.data(), n, b.data(), n,
                                            &one, c.data(), n));
  print("gemm", c);
  double* device_a;
  cudaMalloc(&device_a, n * n * sizeof(double));
  cudaMemcpy(device_a, a.data(), n * n * sizeof(double), cudaMemcpyHostToDevice);
  status("Dsyrk device A, host C", cublasXtDsyrk(handle, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, n, &one, device_a, n,
                                                 &one, c.data(), n));
  print("syrk", c);
  std::vector<double> u = {1, 0, 0, 0, 0, 2, 1, 0, 0, 0, -1, 3, 1, 0, 0, 0, 1, -2, 1, 0, 2, 0, 1, 1, 1};
  std::vector<double> x = b;
  status("Dtrsm", cublasXtDtrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n,
                                &one, u.data(), n, x.data(), n));
  std::vector<double> back(n * n, 0);
  status("Dtrmm", cublasXtDtrmm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n,
                                &one, u.data(), n, x.data(), n, back.data(), n));
  print("trmm of trsm", back);
  std::vector<float> fa(4, 2), fc(4, 0);
  float fone = 1, fzero = 0;
  status("Sgemm", cublasXtSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &fone, fa.data(), 2, fa.data(), 2, &fzero,
                                fc.data(), 2));
  printf("Sgemm: %g %g %g %g\n", fc[0], fc[1], fc[2], fc[3]);
  std::vector<cuDoubleComplex> z = {{1, 1}, {2, -1}, {0, 3}, {1, 0}}, zc(4, {0, 0});
  status("Zherk", cublasXtZherk(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &one, z.data(), 2, &one, zc.data(), 2));
  printf("Zherk: %g %g, %g %g, %g %g\n", zc[0].x, zc[0].y, zc[1].x, zc[1].y, zc[3].x, zc[3].y);
  status("Dgemm ldc < m", cublasXtDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n, b.data(), n,
                                        &one, c.data(), 2));
  status("destroy", cublasXtDestroy(handle));
  cudaFree(device_a);
  return 0;
}
