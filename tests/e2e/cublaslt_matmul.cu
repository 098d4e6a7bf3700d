// cublasLt through cucpu's libcublasLt.so.13, compared with the GPU's output: descriptors and
// their attributes, the heuristic, matmuls column- and row-major, transposed, strided-batched,
// with bias and ReLU epilogues, half inputs into float, host and device scalars, and what is
// refused (the auxiliary-output and gradient epilogues are cublaslt_epilogues.cu's). Small
// integers keep every product exact in any summation order.
// NVCC-FLAGS: -lcublasLt
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

static void status(const char* what, cublasStatus_t s) { printf("%s: %s\n", what, cublasLtGetStatusName(s)); }

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

static std::vector<float> integers(int count, int seed) {
  std::vector<float> a(count);
  for (int i = 0; i < count; ++i) a[i] = (i * 5 + seed) % 9 - 4;
  return a;
}

int main() {
  cublasLtHandle_t lt;
  status("create", cublasLtCreate(&lt));
  const int m = 3, n = 2, k = 4;
  float* A = device_copy(integers(m * k * 2, 1));
  float* B = device_copy(integers(k * n * 2, 2));
  float* C = device_copy(integers(m * n * 2, 3));
  float* D = device_copy(std::vector<float>(m * n * 2, 0));
  cublasLtMatmulDesc_t op;
  status("MatmulDescCreate", cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m);
  size_t written = 0;
  int32_t order = -1;
  status("get ORDER size", cublasLtMatrixLayoutGetAttribute(la, CUBLASLT_MATRIX_LAYOUT_ORDER, nullptr, 0, &written));
  cublasLtMatrixLayoutGetAttribute(la, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order, &written);
  printf("order %d (%zu bytes)\n", order, written);
  uint64_t rows = 0;
  status("get ROWS with 4 bytes", cublasLtMatrixLayoutGetAttribute(la, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, 4, &written));
  status("set LD with 4 bytes", cublasLtMatrixLayoutSetAttribute(la, CUBLASLT_MATRIX_LAYOUT_LD, &order, 4));

  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  uint64_t workspace = 1 << 20;
  status("set workspace", cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                               sizeof workspace));
  cublasLtMatmulHeuristicResult_t result[4] = {};
  int found = 0;
  status("heuristic", cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 4, result, &found));
  printf("found >= 1: %d, state %s\n", found >= 1, cublasLtGetStatusName(result[0].state));

  float one = 1, two = 2;
  status("matmul", cublasLtMatmul(lt, op, &two, A, la, B, lb, &one, C, lc, D, lc, &result[0].algo, nullptr, 0, 0));
  cudaDeviceSynchronize();
  print("D = 2AB + C", D, m * n);

  // Transposed A (stored k x m), strided batches of two.
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t);
  cublasLtMatrixLayout_t lat;
  cublasLtMatrixLayoutCreate(&lat, CUDA_R_32F, k, m, k);
  int32_t batches = 2;
  int64_t stride_a = m * k, stride_b = k * n, stride_c = m * n;
  for (auto [l, stride] : {std::pair{lat, stride_a}, std::pair{lb, stride_b}, std::pair{lc, stride_c}}) {
    cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batches, sizeof batches);
    cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
  }
  status("matmul T, batched", cublasLtMatmul(lt, op, &one, A, lat, B, lb, &one, C, lc, D, lc, nullptr, nullptr, 0, 0));
  cudaDeviceSynchronize();
  print("batched", D, m * n * 2);

  // Bias and ReLU, device scalars.
  cublasOperation_t nt = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &nt, sizeof nt);
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue);
  float* bias = device_copy(std::vector<float>{10, -20, 1});
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
  cublasLtPointerMode_t device_mode = CUBLASLT_POINTER_MODE_DEVICE;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_POINTER_MODE, &device_mode, sizeof device_mode);
  float* scalars = device_copy(std::vector<float>{1, 0});
  cublasLtMatrixLayout_t la1, lb1, lc1;
  cublasLtMatrixLayoutCreate(&la1, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&lb1, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&lc1, CUDA_R_32F, m, n, m);
  status("matmul relu+bias", cublasLtMatmul(lt, op, scalars, A, la1, B, lb1, scalars + 1, C, lc1, D, lc1, nullptr, nullptr, 0, 0));
  cudaDeviceSynchronize();
  print("relu(AB + bias)", D, m * n);

  // Row-major, half inputs, float output.
  cublasLtMatmulDesc_t op16;
  cublasLtMatmulDescCreate(&op16, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  std::vector<__half> ha(m * k), hb(k * n);
  std::vector<float> fa = integers(m * k, 4), fb = integers(k * n, 5);
  for (int i = 0; i < m * k; ++i) ha[i] = __float2half(fa[i]);
  for (int i = 0; i < k * n; ++i) hb[i] = __float2half(fb[i]);
  __half* HA = device_copy(ha);
  __half* HB = device_copy(hb);
  cublasLtMatrixLayout_t ra, rb, rc;
  cublasLtMatrixLayoutCreate(&ra, CUDA_R_16F, m, k, k);
  cublasLtMatrixLayoutCreate(&rb, CUDA_R_16F, k, n, n);
  cublasLtMatrixLayoutCreate(&rc, CUDA_R_32F, m, n, n);
  cublasLtOrder_t row = CUBLASLT_ORDER_ROW;
  for (cublasLtMatrixLayout_t l : {ra, rb, rc}) cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &row, sizeof row);
  float zero = 0;
  status("matmul row-major half", cublasLtMatmul(lt, op16, &one, HA, ra, HB, rb, &zero, D, rc, D, rc, nullptr, nullptr, 0, 0));
  cudaDeviceSynchronize();
  print("row-major", D, m * n);

  // Refused: mismatched shapes, no handle.
  status("shapes", cublasLtMatmul(lt, op, &one, A, lb, B, lb, &zero, C, lc, D, lc, nullptr, nullptr, 0, 0));
  status("null handle", cublasLtMatmul(nullptr, op, &one, A, la, B, lb, &zero, C, lc, D, lc, nullptr, nullptr, 0, 0));
  status("destroy", cublasLtDestroy(lt));
  return 0;
}
