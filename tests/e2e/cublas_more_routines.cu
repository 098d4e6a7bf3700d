// More of cuBLAS through cucpu's libcublas.so.13, compared with the GPU's output: the
// type-generic level-1 routines (the Ex forms: half, bfloat16, float, double and complex
// vectors, results through host and device pointers, the combinations refused), the complex
// symmetric level-2 routines, batched least squares and grouped batched products. Small
// integers and halves keep every printed result exact.
// NVCC-FLAGS: -lcublas
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
static T read_back(const T* device, size_t i = 0) {
  T value;
  cudaMemcpy(&value, device + i, sizeof(T), cudaMemcpyDeviceToHost);
  return value;
}

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  std::vector<__half> hx, hy;
  for (int i = 0; i < 8; ++i) hx.push_back(__float2half(i % 5 - 2.5f)), hy.push_back(__float2half(i % 3 + 0.5f));
  __half* x = device_copy(hx);
  __half* y = device_copy(hy);
  __half hdot;
  status("DotEx half", cublasDotEx(h, 8, x, CUDA_R_16F, 1, y, CUDA_R_16F, 1, &hdot, CUDA_R_16F, CUDA_R_32F));
  printf("half dot %g\n", __half2float(hdot));
  float alpha = 2;
  status("AxpyEx half", cublasAxpyEx(h, 8, &alpha, CUDA_R_32F, x, CUDA_R_16F, 1, y, CUDA_R_16F, 1, CUDA_R_32F));
  printf("y[3] %g y[7] %g\n", __half2float(read_back(y, 3)), __half2float(read_back(y, 7)));
  float half_scale = -0.5f;
  status("ScalEx half", cublasScalEx(h, 4, &half_scale, CUDA_R_32F, y, CUDA_R_16F, 2, CUDA_R_32F));
  printf("y[0] %g y[2] %g y[1] %g\n", __half2float(read_back(y, 0)), __half2float(read_back(y, 2)), __half2float(read_back(y, 1)));
  __half hnorm;
  std::vector<__half> pythagoras = {__float2half(3), __float2half(4)};
  __half* p = device_copy(pythagoras);
  status("Nrm2Ex half", cublasNrm2Ex(h, 2, p, CUDA_R_16F, 1, &hnorm, CUDA_R_16F, CUDA_R_32F));
  printf("nrm2 %g\n", __half2float(hnorm));
  int index = 0;
  status("IamaxEx half", cublasIamaxEx(h, 8, x, CUDA_R_16F, 1, &index));
  printf("iamax %d\n", index);
  status("IaminEx half", cublasIaminEx(h, 8, x, CUDA_R_16F, 1, &index));
  printf("iamin %d\n", index);

  std::vector<__nv_bfloat16> bx = {__float2bfloat16(1), __float2bfloat16(-2), __float2bfloat16(3)};
  __nv_bfloat16* b = device_copy(bx);
  float bsum;
  status("AsumEx bf16 into float", cublasAsumEx(h, 3, b, CUDA_R_16BF, 1, &bsum, CUDA_R_32F, CUDA_R_32F));
  __nv_bfloat16 bsum16;
  status("AsumEx bf16", cublasAsumEx(h, 3, b, CUDA_R_16BF, 1, &bsum16, CUDA_R_16BF, CUDA_R_32F));
  printf("asum %g\n", __bfloat162float(bsum16));

  std::vector<cuDoubleComplex> zx = {{1, 2}, {3, -1}}, zy = {{0, 1}, {2, 2}};
  cuDoubleComplex* zx_d = device_copy(zx);
  cuDoubleComplex* zy_d = device_copy(zy);
  cuDoubleComplex* result;
  cudaMalloc(&result, sizeof(cuDoubleComplex));
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  status("DotcEx complex double, device result",
         cublasDotcEx(h, 2, zx_d, CUDA_C_64F, 1, zy_d, CUDA_C_64F, 1, result, CUDA_C_64F, CUDA_C_64F));
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  cuDoubleComplex z = read_back(result);
  printf("dotc %g %g\n", z.x, z.y);
  status("SwapEx", cublasSwapEx(h, 2, zx_d, CUDA_C_64F, 1, zy_d, CUDA_C_64F, 1));
  z = read_back(zx_d, 1);
  printf("swapped x[1] %g %g\n", z.x, z.y);
  status("CopyEx reversed", cublasCopyEx(h, 2, zy_d, CUDA_C_64F, -1, zx_d, CUDA_C_64F, 1));
  z = read_back(zx_d, 0);
  printf("copied x[0] %g %g\n", z.x, z.y);

  float fdot;
  status("DotEx mixed types", cublasDotEx(h, 2, x, CUDA_R_16F, 1, b, CUDA_R_16BF, 1, &fdot, CUDA_R_32F, CUDA_R_32F));
  status("DotEx half in double", cublasDotEx(h, 2, x, CUDA_R_16F, 1, y, CUDA_R_16F, 1, &hdot, CUDA_R_16F, CUDA_R_64F));

  // Complex symmetric (not Hermitian) symv, syr, syr2 on the lower triangle.
  std::vector<cuComplex> a = {{1, 1}, {2, 0}, {0, -1}, {9, 9}, {3, 2}, {1, 1}, {9, 9}, {9, 9}, {2, -2}};
  cuComplex* A = device_copy(a);
  cuComplex* cx = device_copy(std::vector<cuComplex>{{1, 0}, {0, 1}, {1, -1}});
  cuComplex* cy = device_copy(std::vector<cuComplex>{{1, 1}, {0, 0}, {2, 0}});
  cuComplex one = {1, 0}, two = {0, 2};
  status("Csymv", cublasCsymv(h, CUBLAS_FILL_MODE_LOWER, 3, &one, A, 3, cx, 1, &two, cy, 1));
  for (int i = 0; i < 3; ++i) printf(" %g%+gi", read_back(cy, i).x, read_back(cy, i).y);
  printf("\n");
  status("Csyr", cublasCsyr(h, CUBLAS_FILL_MODE_LOWER, 3, &two, cx, 1, A, 3));
  status("Csyr2", cublasCsyr2(h, CUBLAS_FILL_MODE_LOWER, 3, &one, cx, 1, cy, 1, A, 3));
  for (int i = 0; i < 9; ++i) printf(" %g%+gi", read_back(A, i).x, read_back(A, i).y);
  printf("\n");

  // Batched least squares: an exactly solvable overdetermined system.
  std::vector<double> ls = {1, 1, 1, 1, 0, 1, 2, 3};  // columns (1, t) at t = 0..3
  std::vector<double> rhs = {1, 3, 5, 7};             // 1 + 2t
  double* LA = device_copy(ls);
  double* LB = device_copy(rhs);
  std::vector<double*> la = {LA}, lb = {LB};
  double** PA = device_copy(la);
  double** PB = device_copy(lb);
  int info = -9;
  int* dev_info = device_copy(std::vector<int>{-9});
  status("DgelsBatched", cublasDgelsBatched(h, CUBLAS_OP_N, 4, 2, 1, PA, 4, PB, 4, &info, dev_info, 1));
  printf("info %d dev info %d, x = %.6f %.6f\n", info, read_back(dev_info), read_back(LB, 0), read_back(LB, 1));
  status("DgelsBatched m < n", cublasDgelsBatched(h, CUBLAS_OP_N, 1, 2, 1, PA, 4, PB, 4, &info, dev_info, 1));
  printf("info %d\n", info);

  // Grouped batched: two groups of different shapes.
  std::vector<float> ga = {1, 2, 3, 4, 5, 6, 7, 8}, gc(10, 0);
  float* GA = device_copy(ga);
  float* GC = device_copy(gc);
  std::vector<const float*> as = {GA, GA + 4, GA};
  std::vector<float*> cs = {GC, GC + 4, GC + 8};
  const float** GPA = device_copy(as);
  float** GPC = device_copy(cs);
  cublasOperation_t ta[] = {CUBLAS_OP_N, CUBLAS_OP_T}, tb[] = {CUBLAS_OP_N, CUBLAS_OP_N};
  int gm[] = {2, 1}, gn[] = {2, 2}, gk[] = {2, 1}, glda[] = {2, 1}, gldb[] = {2, 1}, gldc[] = {2, 1}, sizes[] = {2, 1};
  float galpha[] = {1, 2}, gbeta[] = {0, 0};
  status("SgemmGroupedBatched", cublasSgemmGroupedBatched(h, ta, tb, gm, gn, gk, galpha, GPA, glda, GPA, gldb, gbeta,
                                                          GPC, gldc, 2, sizes));
  for (int i = 0; i < 10; ++i) printf(" %g", read_back(GC, i));
  printf("\n");
  cublasDestroy(h);
  return 0;
}
