// cublasLt's auxiliary-output and gradient epilogues through cucpu's libcublasLt.so.13,
// compared with the GPU's output: RELU_AUX (the ReLU bit mask), GELU_AUX (GELU's input), with
// and without bias; DRELU and DGELU reading those, with the bias gradient (BGRAD); BGRADA and
// BGRADB; in float and with half inputs and output; the statuses of what cublasLt refuses
// (no aux pointer, an aux leading dimension it does not take, a transposed operand where a
// gradient epilogue needs none). Small integers keep products and masks exact; GELU's values
// are printed to three places.
// NVCC-FLAGS: -lcublasLt
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

static const int m = 5, n = 4, k = 3;
static const int64_t mask_ld = 128;  // in bits: one column of the mask per 128 bits

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T) + 16);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T* device, size_t count) {
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

static std::vector<float> integers(int count, int seed) {
  std::vector<float> a(count);
  for (int i = 0; i < count; ++i) a[i] = static_cast<float>((i * 5 + seed) % 9 - 4);
  return a;
}

static void print_floats(const char* what, const std::vector<float>& v, int places) {
  printf("  %s:", what);
  for (float x : v) printf(" %.*f", places, std::round(x * std::pow(10.0, places)) / std::pow(10.0, places) + 0.0);
  printf("\n");
}

static void print_mask(const uint8_t* device, int columns) {
  std::vector<uint8_t> bytes = host_copy(device, mask_ld / 8 * columns);
  printf("  mask:");
  for (int j = 0; j < columns; ++j) {
    printf(" ");
    for (int i = 0; i < m; ++i) printf("%d", (bytes[j * mask_ld / 8 + i / 8] >> (i % 8)) & 1);
  }
  printf("\n");
}

struct Setup {
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatmulPreference_t pref;
};

template <typename V>
static void set(cublasLtMatmulDesc_t op, cublasLtMatmulDescAttributes_t attribute, const V& value) {
  cublasLtMatmulDescSetAttribute(op, attribute, &value, sizeof value);
}

// Runs the heuristic and the matmul D = A B (+ nothing), printing both statuses.
static cublasStatus_t run(Setup& s, const char* label, const void* A, const void* B, void* D) {
  cublasLtMatmulHeuristicResult_t results[8] = {};
  int found = 0;
  cublasStatus_t h =
      cublasLtMatmulAlgoGetHeuristic(s.lt, s.op, s.la, s.lb, s.lc, s.lc, s.pref, 8, results, &found);
  const float one = 1, zero = 0;
  cublasStatus_t st =
      cublasLtMatmul(s.lt, s.op, &one, A, s.la, B, s.lb, &zero, D, s.lc, D, s.lc, found > 0 ? &results[0].algo : nullptr,
                     nullptr, 0, 0);
  cudaDeviceSynchronize();
  printf("%s: heuristic %s, an algorithm: %s; matmul %s\n", label, cublasLtGetStatusName(h), found > 0 ? "yes" : "no",
         cublasLtGetStatusName(st));
  return st;
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  Setup s;
  cublasLtCreate(&s.lt);
  cublasLtMatmulDescCreate(&s.op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayoutCreate(&s.la, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&s.lb, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&s.lc, CUDA_R_32F, m, n, m);
  cublasLtMatmulPreferenceCreate(&s.pref);
  uint64_t workspace = 0;
  cublasLtMatmulPreferenceSetAttribute(s.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof workspace);

  float* A = device_copy(integers(m * k, 1));
  float* B = device_copy(integers(k * n, 2));
  float* D = device_copy(std::vector<float>(m * n, 0));
  float* bias = device_copy(std::vector<float>{3, -2, 1, 0, -5});
  float* gradient = device_copy(std::vector<float>(16, 0));
  uint8_t* mask = device_copy(std::vector<uint8_t>(mask_ld / 8 * n, 0));
  float* gelu_input = device_copy(std::vector<float>(m * n, 0));
  print_floats("A B", [&] {
    std::vector<float> a = integers(m * k, 1), b = integers(k * n, 2), d(m * n, 0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        for (int p = 0; p < k; ++p) d[i + j * m] += a[i + p * m] * b[p + j * k];
    return d;
  }(), 0);

  // ReLU with its mask, then with bias.
  for (cublasLtEpilogue_t e : {CUBLASLT_EPILOGUE_RELU_AUX, CUBLASLT_EPILOGUE_RELU_AUX_BIAS}) {
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, e);
    set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, e == CUBLASLT_EPILOGUE_RELU_AUX ? nullptr : bias);
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask));
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
    cudaMemset(mask, 0, mask_ld / 8 * n);
    if (run(s, e == CUBLASLT_EPILOGUE_RELU_AUX ? "RELU_AUX" : "RELU_AUX_BIAS", A, B, D) == CUBLAS_STATUS_SUCCESS) {
      print_floats("D", host_copy(D, m * n), 0);
      print_mask(mask, n);
    }
  }
  // The ReLU gradient: the product where the mask (of RELU_AUX_BIAS) is set, and the bias
  // gradient (the sum of each row of D).
  for (cublasLtEpilogue_t e : {CUBLASLT_EPILOGUE_DRELU, CUBLASLT_EPILOGUE_DRELU_BGRAD}) {
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, e);
    set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, e == CUBLASLT_EPILOGUE_DRELU ? nullptr : gradient);
    cudaMemset(gradient, 0, 16 * sizeof(float));
    if (run(s, e == CUBLASLT_EPILOGUE_DRELU ? "DRELU" : "DRELU_BGRAD", A, B, D) == CUBLAS_STATUS_SUCCESS) {
      print_floats("D", host_copy(D, m * n), 0);
      if (e == CUBLASLT_EPILOGUE_DRELU_BGRAD) print_floats("bias gradient", host_copy(gradient, m), 0);
    }
  }
  // GELU with its input kept, then with bias.
  for (cublasLtEpilogue_t e : {CUBLASLT_EPILOGUE_GELU_AUX, CUBLASLT_EPILOGUE_GELU_AUX_BIAS}) {
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, e);
    set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, e == CUBLASLT_EPILOGUE_GELU_AUX ? nullptr : bias);
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(gelu_input));
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, static_cast<int64_t>(m));
    if (run(s, e == CUBLASLT_EPILOGUE_GELU_AUX ? "GELU_AUX" : "GELU_AUX_BIAS", A, B, D) == CUBLAS_STATUS_SUCCESS) {
      print_floats("D", host_copy(D, m * n), 3);
      print_floats("GELU input", host_copy(gelu_input, m * n), 0);
    }
  }
  // The GELU gradient at the kept input.
  for (cublasLtEpilogue_t e : {CUBLASLT_EPILOGUE_DGELU, CUBLASLT_EPILOGUE_DGELU_BGRAD}) {
    set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, e);
    set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, e == CUBLASLT_EPILOGUE_DGELU ? nullptr : gradient);
    cudaMemset(gradient, 0, 16 * sizeof(float));
    if (run(s, e == CUBLASLT_EPILOGUE_DGELU ? "DGELU" : "DGELU_BGRAD", A, B, D) == CUBLAS_STATUS_SUCCESS) {
      print_floats("D", host_copy(D, m * n), 3);
      if (e == CUBLASLT_EPILOGUE_DGELU_BGRAD) print_floats("bias gradient", host_copy(gradient, m), 3);
    }
  }
  // Bias gradients of A and of B, with each operand transposed or not.
  for (cublasLtEpilogue_t e : {CUBLASLT_EPILOGUE_BGRADA, CUBLASLT_EPILOGUE_BGRADB}) {
    for (cublasOperation_t ta : {CUBLAS_OP_N, CUBLAS_OP_T}) {
      for (cublasOperation_t tb : {CUBLAS_OP_N, CUBLAS_OP_T}) {
        set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, e);
        set(s.op, CUBLASLT_MATMUL_DESC_TRANSA, ta);
        set(s.op, CUBLASLT_MATMUL_DESC_TRANSB, tb);
        set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, gradient);
        cublasLtMatrixLayoutDestroy(s.la);
        cublasLtMatrixLayoutDestroy(s.lb);
        if (ta == CUBLAS_OP_N)
          cublasLtMatrixLayoutCreate(&s.la, CUDA_R_32F, m, k, m);
        else
          cublasLtMatrixLayoutCreate(&s.la, CUDA_R_32F, k, m, k);
        if (tb == CUBLAS_OP_N)
          cublasLtMatrixLayoutCreate(&s.lb, CUDA_R_32F, k, n, k);
        else
          cublasLtMatrixLayoutCreate(&s.lb, CUDA_R_32F, n, k, n);
        cudaMemset(gradient, 0, 16 * sizeof(float));
        char label[64];
        snprintf(label, sizeof label, "%s transa %c transb %c", e == CUBLASLT_EPILOGUE_BGRADA ? "BGRADA" : "BGRADB",
                 "NTC"[ta], "NTC"[tb]);
        if (run(s, label, A, B, D) == CUBLAS_STATUS_SUCCESS) {
          print_floats("D", host_copy(D, m * n), 0);
          print_floats("bias gradient", host_copy(gradient, e == CUBLASLT_EPILOGUE_BGRADA ? m : n), 0);
        }
      }
    }
  }
  set(s.op, CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_N);
  set(s.op, CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N);
  cublasLtMatrixLayoutDestroy(s.la);
  cublasLtMatrixLayoutDestroy(s.lb);
  cublasLtMatrixLayoutCreate(&s.la, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&s.lb, CUDA_R_32F, k, n, k);

  // Half inputs and output, float compute: ReLU's mask and the GELU input in half.
  {
    cublasLtMatmulDesc_t op16;
    cublasLtMatmulDescCreate(&op16, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    std::vector<__half> ha(m * k), hb(k * n);
    const std::vector<float> fa = integers(m * k, 4), fb = integers(k * n, 5);
    for (int i = 0; i < m * k; ++i) ha[i] = __float2half(fa[i]);
    for (int i = 0; i < k * n; ++i) hb[i] = __float2half(fb[i]);
    __half* HA = device_copy(ha);
    __half* HB = device_copy(hb);
    __half* HD = device_copy(std::vector<__half>(m * n));
    __half* aux = device_copy(std::vector<__half>(m * n));
    Setup h = s;
    h.op = op16;
    cublasLtMatrixLayoutCreate(&h.la, CUDA_R_16F, m, k, m);
    cublasLtMatrixLayoutCreate(&h.lb, CUDA_R_16F, k, n, k);
    cublasLtMatrixLayoutCreate(&h.lc, CUDA_R_16F, m, n, m);
    set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_RELU_AUX);
    set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask));
    set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
    cudaMemset(mask, 0, mask_ld / 8 * n);
    auto to_floats = [](const std::vector<__half>& v) {
      std::vector<float> f;
      for (__half x : v) f.push_back(__half2float(x));
      return f;
    };
    if (run(h, "half RELU_AUX", HA, HB, HD) == CUBLAS_STATUS_SUCCESS) {
      print_floats("D", to_floats(host_copy(HD, m * n)), 0);
      print_mask(mask, n);
    }
    set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_GELU_AUX);
    set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(aux));
    set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, static_cast<int64_t>(m));
    if (run(h, "half GELU_AUX", HA, HB, HD) == CUBLAS_STATUS_SUCCESS) {
      print_floats("D", to_floats(host_copy(HD, m * n)), 2);
      print_floats("GELU input", to_floats(host_copy(aux, m * n)), 0);
    }
    // The gradients with the bias gradient, in half.
    __half* hgradient = device_copy(std::vector<__half>(16));
    for (cublasLtEpilogue_t e : {CUBLASLT_EPILOGUE_DGELU_BGRAD, CUBLASLT_EPILOGUE_DRELU_BGRAD}) {
      set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE, e);
      set(op16, CUBLASLT_MATMUL_DESC_BIAS_POINTER, hgradient);
      if (e == CUBLASLT_EPILOGUE_DRELU_BGRAD) {
        set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask));
        set(op16, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
      }
      if (run(h, e == CUBLASLT_EPILOGUE_DGELU_BGRAD ? "half DGELU_BGRAD" : "half DRELU_BGRAD", HA, HB, HD) ==
          CUBLAS_STATUS_SUCCESS) {
        print_floats("D", to_floats(host_copy(HD, m * n)), 2);
        print_floats("bias gradient", to_floats(host_copy(hgradient, m)), 2);
      }
    }
    cublasLtMatmulDescDestroy(op16);
  }

  // Refused.
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_RELU_AUX);
  set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask));
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
  run(s, "RELU_AUX with a bias pointer", A, B, D);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_DEFAULT);
  run(s, "DEFAULT with a bias pointer", A, B, D);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_RELU_AUX);
  set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<void*>(nullptr));
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(nullptr));
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
  run(s, "RELU_AUX without an aux pointer", A, B, D);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask));
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, static_cast<int64_t>(64));
  run(s, "RELU_AUX with aux ld 64 bits", A, B, D);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_GELU_AUX);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(gelu_input));
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, static_cast<int64_t>(m - 1));
  run(s, "GELU_AUX with aux ld below m", A, B, D);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_BGRADA);
  set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<void*>(nullptr));
  run(s, "BGRADA without a bias pointer", A, B, D);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_DRELU_BGRAD);
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask));
  set(s.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
  set(s.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<void*>(nullptr));
  run(s, "DRELU_BGRAD without a bias pointer", A, B, D);

  cublasLtMatmulPreferenceDestroy(s.pref);
  cublasLtMatmulDescDestroy(s.op);
  printf("destroy: %s\n", cublasLtGetStatusName(cublasLtDestroy(s.lt)));
  printf("last error: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
