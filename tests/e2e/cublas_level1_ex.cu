// cuBLAS's type-generic level-1 routines (the Ex forms) through cucpu's libcublas.so.13,
// compared with the GPU's output: half, bfloat16, float, double and complex vectors, results
// through host and device pointers, the combinations refused. Small integers and halves keep
// every result exact.
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
  cublasDestroy(h);
  return 0;
}
