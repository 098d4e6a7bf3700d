// cuBLAS through cucpu's libcublas.so.13, compared with the GPU's output. Most matrices hold
// small integers, so that every product and sum is exact whatever order a BLAS adds in: those
// results are printed as they are. Products that must round (LU factors, inverses, norms) are
// checked against a double-precision reference on the host and printed as "ok" or the error.
// Also: transposes and leading dimensions, host and device pointer modes, stream order with
// kernels, every GemmEx compute type's input rounding, batched helpers, status codes of bad
// arguments.
// NVCC-FLAGS: -lcublas
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <type_traits>
#include <vector>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorName(e_));                   \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

static void status(const char* what, cublasStatus_t s) { printf("%s: %s\n", what, cublasGetStatusName(s)); }

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T) + 1);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

static double value(float x) { return x; }
static double value(double x) { return x; }
static double value(cuComplex x) { return x.x * 1000 + x.y; }  // printed as one number: re*1000+im
static double value(cuDoubleComplex x) { return x.x * 1000 + x.y; }

template <typename T>
static void print_matrix(const char* what, const std::vector<T>& a, int rows, int columns, int ld) {
  printf("%s:", what);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < columns; ++j) printf(" %g", value(a[i + j * ld]));
  printf("\n");
}

template <typename T>
static T make(int re, int im) {
  if constexpr (std::is_floating_point_v<T>)
    return T(re);
  else
    return T{static_cast<decltype(T{}.x)>(re), static_cast<decltype(T{}.x)>(im)};
}

// A rows x columns matrix (leading dimension ld) of small integers.
template <typename T>
static std::vector<T> integers(int rows, int columns, int ld, int seed) {
  std::vector<T> a(static_cast<size_t>(ld) * columns, make<T>(-99, 0));
  for (int j = 0; j < columns; ++j)
    for (int i = 0; i < rows; ++i) a[i + j * ld] = make<T>((i * 3 + j * 5 + seed) % 7 - 3, (i + 2 * j + seed) % 5 - 2);
  return a;
}

template <typename T>
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* alpha,
                    const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
  if constexpr (sizeof(T) == 4) return cublasSgemm(h, ta, tb, m, n, k, (const float*)alpha, (const float*)A, lda, (const float*)B, ldb, (const float*)beta, (float*)C, ldc);
  else if constexpr (sizeof(T) == 8 && std::is_same_v<T, double>) return cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  else if constexpr (sizeof(T) == 8) return cublasCgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  else return cublasZgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// gemm of every transpose pair, with leading dimensions above the rows.
template <typename T>
static void gemm_cases(cublasHandle_t h, const char* name) {
  const int m = 3, n = 4, k = 5;
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  for (cublasOperation_t ta : ops)
    for (cublasOperation_t tb : ops) {
      const int a_rows = ta == CUBLAS_OP_N ? m : k, a_cols = ta == CUBLAS_OP_N ? k : m;
      const int b_rows = tb == CUBLAS_OP_N ? k : n, b_cols = tb == CUBLAS_OP_N ? n : k;
      const int lda = a_rows + 2, ldb = b_rows + 1, ldc = m + 3;
      T* A = device_copy(integers<T>(a_rows, a_cols, lda, 1));
      T* B = device_copy(integers<T>(b_rows, b_cols, ldb, 2));
      T* C = device_copy(integers<T>(m, n, ldc, 3));
      const T alpha = make<T>(2, 1), beta = make<T>(-1, 0);
      cublasStatus_t s = gemm(h, ta, tb, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
      char what[64];
      snprintf(what, sizeof what, "%sgemm %d%d %s", name, ta, tb, cublasGetStatusName(s));
      print_matrix(what, host_copy(C, static_cast<size_t>(ldc) * n), m, n, ldc);
      cudaFree(A), cudaFree(B), cudaFree(C);
    }
}

__global__ void fill(float* a, int n, float first) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = first + i % 5;
}

__global__ void sum_column(const float* c, int n, float* out) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += c[i];
  *out = s;
}

int main() {
  cublasHandle_t h;
  status("create", cublasCreate(&h));
  int version = 0;
  cublasGetVersion(h, &version);
  int major = 0, minor = 0;
  cublasGetProperty(MAJOR_VERSION, &major);
  cublasGetProperty(MINOR_VERSION, &minor);
  printf("version %d, property %d.%d\n", version, major, minor);
  for (int s : {0, 1, 3, 7, 8, 11, 13, 14, 15, 16, 99})
    printf("status %d: %s / %s\n", s, cublasGetStatusName(cublasStatus_t(s)), cublasGetStatusString(cublasStatus_t(s)));

  gemm_cases<float>(h, "S");
  gemm_cases<double>(h, "D");
  gemm_cases<cuComplex>(h, "C");
  gemm_cases<cuDoubleComplex>(h, "Z");

  // Level 1 on exact values; results through host and device pointers.
  {
    std::vector<float> x = {1, -2, 3, -4, 5, -6, 7, -8}, y = {2, 2, -1, 0, 3, 1, -2, 4};
    float* dx = device_copy(x);
    float* dy = device_copy(y);
    float dot = 0, asum = 0;
    int imax = 0, imin = 0;
    status("Sdot", cublasSdot(h, 8, dx, 1, dy, 1, &dot));
    status("Sasum", cublasSasum(h, 4, dx, 2, &asum));
    status("Isamax", cublasIsamax(h, 8, dx, 1, &imax));
    status("Isamin", cublasIsamin(h, 8, dy, 1, &imin));
    printf("dot %g asum %g amax %d amin %d\n", dot, asum, imax, imin);
    float alpha = 3;
    status("Saxpy", cublasSaxpy(h, 4, &alpha, dx, 2, dy, -1));
    status("Sscal", cublasSscal(h, 3, &alpha, dx + 1, 2));
    float c = 0, s = 1;
    status("Srot", cublasSrot(h, 2, dx, 1, dy, 1, &c, &s));
    status("Sswap", cublasSswap(h, 2, dx + 6, 1, dy + 6, 1));
    print_matrix("x", host_copy(dx, 8), 1, 8, 1);
    print_matrix("y", host_copy(dy, 8), 1, 8, 1);
    float* d_result;
    cudaMalloc(&d_result, sizeof(float));
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    status("Sdot device", cublasSdot(h, 8, dx, 1, dy, 1, d_result));
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    printf("device dot %g\n", host_copy(d_result, 1)[0]);
    float nrm = 0;
    status("Snrm2", cublasSnrm2(h, 2, dx, 1, &nrm));
    printf("nrm2 ok: %d\n", std::fabs(nrm - std::sqrt(std::pow(host_copy(dx, 2)[0], 2) + std::pow(host_copy(dx, 2)[1], 2))) < 1e-5);
    std::vector<cuDoubleComplex> z = {{1, 2}, {3, -1}, {-2, 2}};
    cuDoubleComplex* dz = device_copy(z);
    cuDoubleComplex dotc, dotu;
    cublasZdotc(h, 3, dz, 1, dz, 1, &dotc);
    cublasZdotu(h, 3, dz, 1, dz, 1, &dotu);
    double dzasum;
    cublasDzasum(h, 3, dz, 1, &dzasum);
    int izamax;
    cublasIzamax(h, 3, dz, 1, &izamax);
    printf("zdotc %g %g zdotu %g %g dzasum %g izamax %d\n", dotc.x, dotc.y, dotu.x, dotu.y, dzasum, izamax);
    cudaFree(dx), cudaFree(dy), cudaFree(d_result), cudaFree(dz);
  }

  // Level 2.
  {
    const int m = 4, n = 3, lda = 5;
    std::vector<double> a = integers<double>(m, n, lda, 4);
    double* A = device_copy(a);
    double* x = device_copy(std::vector<double>{1, 2, -1, 3});
    double* y = device_copy(std::vector<double>{0, 1, 2, 3});
    double alpha = 2, beta = -1;
    status("Dgemv T", cublasDgemv(h, CUBLAS_OP_T, m, n, &alpha, A, lda, x, 1, &beta, y, 1));
    print_matrix("gemv", host_copy(y, 3), 1, 3, 1);
    status("Dger", cublasDger(h, m, n, &alpha, x, 1, y, 1, A, lda));
    print_matrix("ger", host_copy(A, lda * n), m, n, lda);
    std::vector<double> t = {1, 2, -1, 0, 1, 3, 0, 0, 1};  // unit lower triangle
    double* T = device_copy(t);
    double* b = device_copy(std::vector<double>{1, 4, 9});
    status("Dtrsv", cublasDtrsv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 3, T, 3, b, 1));
    print_matrix("trsv", host_copy(b, 3), 1, 3, 1);
    status("Dtrmv", cublasDtrmv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, 3, A, lda, b, 1));
    print_matrix("trmv", host_copy(b, 3), 1, 3, 1);
    status("Dsymv", cublasDsymv(h, CUBLAS_FILL_MODE_UPPER, 3, &alpha, A, lda, x, 1, &beta, y, 1));
    print_matrix("symv", host_copy(y, 3), 1, 3, 1);
    std::vector<cuComplex> hm = integers<cuComplex>(3, 3, 3, 5);
    cuComplex* H = device_copy(hm);
    cuComplex* cx = device_copy(std::vector<cuComplex>{{1, 1}, {0, 2}, {-1, 0}});
    cuComplex* cy = device_copy(std::vector<cuComplex>{{0, 0}, {0, 0}, {0, 0}});
    cuComplex ca = {1, 0}, cb = {0, 0};
    status("Chemv", cublasChemv(h, CUBLAS_FILL_MODE_LOWER, 3, &ca, H, 3, cx, 1, &cb, cy, 1));
    print_matrix("hemv", host_copy(cy, 3), 1, 3, 1);
    float ralpha = 1;
    status("Cher", cublasCher(h, CUBLAS_FILL_MODE_UPPER, 3, &ralpha, cx, 1, H, 3));
    print_matrix("her", host_copy(H, 9), 3, 3, 3);
    cudaFree(A), cudaFree(x), cudaFree(y), cudaFree(T), cudaFree(b), cudaFree(H), cudaFree(cx), cudaFree(cy);
  }

  // Level 3 beyond gemm, and the extensions.
  {
    const int n = 3, k = 2;
    float* A = device_copy(integers<float>(n, k, n, 6));
    float* S = device_copy(integers<float>(n, n, n, 7));
    float* C = device_copy(integers<float>(n, n, n, 8));
    float one = 1, two = 2, zero = 0;
    status("Ssyrk", cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &two, A, n, &one, C, n));
    print_matrix("syrk", host_copy(C, 9), n, n, n);
    float* B = device_copy(integers<float>(n, n, n, 9));
    status("Ssymm", cublasSsymm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, n, n, &one, S, n, B, n, &zero, C, n));
    print_matrix("symm", host_copy(C, 9), n, n, n);
    float* U = device_copy(std::vector<float>{1, 0, 0, 2, 1, 0, -1, 3, 1});  // unit upper
    status("Strmm", cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n, &two, U, n, B, n, C, n));
    print_matrix("trmm", host_copy(C, 9), n, n, n);
    status("Strsm", cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n, n, &one, U, n, C, n));
    print_matrix("trsm", host_copy(C, 9), n, n, n);
    float minus = -1;
    status("Sgeam", cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, &two, S, n, &minus, B, n, C, n));
    print_matrix("geam", host_copy(C, 9), n, n, n);
    status("Sgeam in place", cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, &one, C, n, &two, B, n, C, n));
    print_matrix("geam in place", host_copy(C, 9), n, n, n);
    float* d = device_copy(std::vector<float>{2, -1, 3});
    status("Sdgmm", cublasSdgmm(h, CUBLAS_SIDE_LEFT, n, n, B, n, d, 1, C, n));
    print_matrix("dgmm", host_copy(C, 9), n, n, n);
    cuDoubleComplex* Z = device_copy(integers<cuDoubleComplex>(n, k, n, 1));
    cuDoubleComplex* ZC = device_copy(integers<cuDoubleComplex>(n, n, n, 2));
    double dtwo = 2, dzero = 0;
    status("Zherk", cublasZherk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, k, &dtwo, Z, n, &dzero, ZC, n));
    print_matrix("herk", host_copy(ZC, 9), n, n, n);
    cudaFree(A), cudaFree(S), cudaFree(C), cudaFree(B), cudaFree(U), cudaFree(d), cudaFree(Z), cudaFree(ZC);
  }

  // Stream order: a kernel writes A, the product reads it, a kernel reads C, all on one stream.
  {
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    cublasSetStream(h, stream);
    const int n = 64;
    float *A, *B, *C, *sum;
    cudaMalloc(&A, n * n * 4), cudaMalloc(&B, n * n * 4), cudaMalloc(&C, n * n * 4), cudaMalloc(&sum, 4);
    fill<<<n * n / 128, 128, 0, stream>>>(A, n * n, 1);
    fill<<<n * n / 128, 128, 0, stream>>>(B, n * n, -2);
    float one = 1, zero = 0;
    status("Sgemm on a stream", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n));
    sum_column<<<1, 1, 0, stream>>>(C, n, sum);
    CHECK(cudaStreamSynchronize(stream));
    printf("column sum %g\n", host_copy(sum, 1)[0]);
    cublasSetStream(h, nullptr);
    cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(sum);
    cudaStreamDestroy(stream);
  }

  // GemmEx: each compute type on inputs that show its rounding (1 + 2^-12 is 1 in TF32 and
  // half, 1 + 2^-8 is 1 in bfloat16 and TF32 keeps it).
  {
    const int n = 4;
    std::vector<float> a(n * n, 1.0f + std::ldexp(1.0f, -12)), b(n * n, 1.0f + std::ldexp(1.0f, -8));
    float* A = device_copy(a);
    float* B = device_copy(b);
    float* C = device_copy(std::vector<float>(n * n, 0));
    float one = 1, zero = 0;
    const cublasComputeType_t types[] = {CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_COMPUTE_32F_FAST_TF32,
                                         CUBLAS_COMPUTE_32F_FAST_16F, CUBLAS_COMPUTE_32F_FAST_16BF};
    for (cublasComputeType_t type : types) {
      cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_32F, n, B, CUDA_R_32F, n,
                                      &zero, C, CUDA_R_32F, n, type, CUBLAS_GEMM_DEFAULT);
      printf("GemmEx compute %d: %s %a\n", type, cublasGetStatusName(s), host_copy(C, 1)[0]);
    }
    // Which input format the fast types use: 70000 is infinite in half, 1 + 2^-9 is 1 in bfloat16.
    std::vector<float> big(n * n, 70000.0f + 1.0f / 64), small(n * n, 1.0f + std::ldexp(1.0f, -9));
    float* Big = device_copy(big);
    float* Small = device_copy(small);
    for (cublasComputeType_t type : types) {
      cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, Big, CUDA_R_32F, n, Small, CUDA_R_32F,
                                      n, &zero, C, CUDA_R_32F, n, type, CUBLAS_GEMM_DEFAULT);
      printf("GemmEx compute %d, large: %s %a\n", type, cublasGetStatusName(s), host_copy(C, 1)[0]);
    }
    cudaFree(Big), cudaFree(Small);
    cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
    printf("Sgemm in TF32 math mode: %a\n", host_copy(C, 1)[0]);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);

    std::vector<__half> ha(n * n), hb(n * n);
    for (int i = 0; i < n * n; ++i) ha[i] = __float2half(float(i % 5 - 2)), hb[i] = __float2half(float(i % 3));
    __half* HA = device_copy(ha);
    __half* HB = device_copy(hb);
    __half* HC = device_copy(std::vector<__half>(n * n, __float2half(1)));
    __half halpha = __float2half(2), hbeta = __float2half(1);
    status("Hgemm", cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &halpha, HA, n, HB, n, &hbeta, HC, n));
    std::vector<__half> hc = host_copy(HC, n * n);
    printf("Hgemm:");
    for (__half v : hc) printf(" %g", __half2float(v));
    printf("\n");
    status("GemmEx 16F->32F", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, HA, CUDA_R_16F, n, HB, CUDA_R_16F, n,
                                           &zero, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    print_matrix("16F->32F", host_copy(C, n * n), n, n, n);

    std::vector<__nv_bfloat16> ba(n * n);
    for (int i = 0; i < n * n; ++i) ba[i] = __float2bfloat16(float(i % 7 - 3));
    __nv_bfloat16* BA = device_copy(ba);
    __nv_bfloat16* BC = device_copy(std::vector<__nv_bfloat16>(n * n));
    status("GemmEx bf16", cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, BA, CUDA_R_16BF, n, BA, CUDA_R_16BF, n,
                                       &zero, BC, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    std::vector<__nv_bfloat16> bc = host_copy(BC, n * n);
    printf("bf16:");
    for (__nv_bfloat16 v : bc) printf(" %g", __bfloat162float(v));
    printf("\n");

    std::vector<int8_t> ia(n * n);
    for (int i = 0; i < n * n; ++i) ia[i] = int8_t(i * 37 % 255 - 127);
    int8_t* IA = device_copy(ia);
    int32_t* IC = device_copy(std::vector<int32_t>(n * n, 5));
    int ione = 1, itwo = 2;
    status("GemmEx int8", cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &itwo, IA, CUDA_R_8I, n, IA, CUDA_R_8I, n,
                                       &ione, IC, CUDA_R_32I, n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    std::vector<int32_t> ic = host_copy(IC, n * n);
    printf("int8:");
    for (int32_t v : ic) printf(" %d", v);
    printf("\n");
    status("GemmEx int8->32F", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, IA, CUDA_R_8I, n, IA, CUDA_R_8I, n,
                                            &zero, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    print_matrix("int8->32F", host_copy(C, n * n), n, n, n);
    status("GemmEx unsupported (16F in, 32I compute)",
           cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, HA, CUDA_R_16F, n, HB, CUDA_R_16F, n, &zero, C,
                        CUDA_R_32F, n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    status("GemmEx mixed inputs", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, HA, CUDA_R_16F, n, A, CUDA_R_32F,
                                               n, &zero, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    cudaFree(A), cudaFree(B), cudaFree(C), cudaFree(HA), cudaFree(HB), cudaFree(HC), cudaFree(BA), cudaFree(BC);
    cudaFree(IA), cudaFree(IC);
  }

  // Batched products and the small-matrix factorizations.
  {
    const int n = 3, count = 3;
    std::vector<double> a;
    for (int b = 0; b < count; ++b) {
      std::vector<double> one = integers<double>(n, n, n, b + 1);
      for (int i = 0; i < n; ++i) one[i + i * n] += 8;  // well conditioned
      a.insert(a.end(), one.begin(), one.end());
    }
    double* A = device_copy(a);
    double* C = device_copy(std::vector<double>(n * n * count, 0));
    double* Inv = device_copy(std::vector<double>(n * n * count, 0));
    double one = 1, zero = 0;
    status("DgemmStridedBatched", cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, n * n, A, n,
                                                            n * n, &zero, C, n, n * n, count));
    print_matrix("strided batch 2", host_copy(C + 2 * n * n, n * n), n, n, n);
    std::vector<double*> pointers(count), inverses(count);
    for (int b = 0; b < count; ++b) pointers[b] = A + b * n * n, inverses[b] = Inv + b * n * n;
    double** P = device_copy(pointers);
    double** PInv = device_copy(inverses);
    status("DgemmBatched", cublasDgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, P, n, P, n, &zero, PInv, n, count));
    print_matrix("batched 1", host_copy(Inv + n * n, n * n), n, n, n);
    int* pivots = device_copy(std::vector<int>(n * count));
    int* info = device_copy(std::vector<int>(count, -7));
    status("DgetrfBatched", cublasDgetrfBatched(h, n, P, n, pivots, info, count));
    std::vector<int> hp = host_copy(pivots, n * count), hi = host_copy(info, count);
    printf("pivots:");
    for (int p : hp) printf(" %d", p);
    printf(" info: %d %d %d\n", hi[0], hi[1], hi[2]);
    status("DgetriBatched", cublasDgetriBatched(h, n, P, n, pivots, PInv, n, info, count));
    std::vector<double> inv = host_copy(Inv, n * n * count);
    double worst = 0;  // A * inverse == I
    for (int b = 0; b < count; ++b)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0;
          for (int l = 0; l < n; ++l) s += a[b * n * n + i + l * n] * inv[b * n * n + l + j * n];
          worst = std::fmax(worst, std::fabs(s - (i == j)));
        }
    printf("getri inverse ok: %d\n", worst < 1e-12);
    double* rhs = device_copy(std::vector<double>(n * count, 1));
    std::vector<double*> rhs_pointers(count);
    for (int b = 0; b < count; ++b) rhs_pointers[b] = rhs + b * n;
    double** PR = device_copy(rhs_pointers);
    int host_info = -5;
    status("DgetrsBatched", cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, P, n, pivots, PR, n, &host_info, count));
    printf("getrs info %d\n", host_info);
    std::vector<double> x = host_copy(rhs, n * count);
    worst = 0;
    for (int b = 0; b < count; ++b)
      for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int l = 0; l < n; ++l) s += a[b * n * n + i + l * n] * x[b * n + l];
        worst = std::fmax(worst, std::fabs(s - 1));
      }
    printf("getrs solution ok: %d\n", worst < 1e-12);
    status("getrsBatched bad n", cublasDgetrsBatched(h, CUBLAS_OP_N, -1, 1, P, n, pivots, PR, n, &host_info, count));
    printf("getrs info %d\n", host_info);
    // Without pivoting, and an exactly singular matrix.
    std::vector<float> singular = {1, 2, 3, 2, 4, 6, 0, 1, 1};
    float* FS = device_copy(singular);
    std::vector<float*> fp = {FS};
    float** PF = device_copy(fp);
    status("SgetrfBatched no pivots", cublasSgetrfBatched(h, n, PF, n, nullptr, info, 1));
    print_matrix("unpivoted LU", host_copy(FS, 9), n, n, n);
    printf("singular info %d\n", host_copy(info, 1)[0]);
    status("DmatinvBatched", cublasDmatinvBatched(h, n, P, n, PInv, n, info, 1));
    status("DmatinvBatched n 33", cublasDmatinvBatched(h, 33, P, 33, PInv, 33, info, 1));
    status("DgeqrfBatched", cublasDgeqrfBatched(h, n, n, P, n, PInv, &host_info, 1));
    printf("geqrf info %d\n", host_info);
    cudaFree(A), cudaFree(C), cudaFree(Inv), cudaFree(P), cudaFree(PInv), cudaFree(pivots), cudaFree(info);
    cudaFree(rhs), cudaFree(PR), cudaFree(FS), cudaFree(PF);
  }

  // Host <-> device helpers.
  {
    std::vector<float> host = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    float* dev;
    cudaMalloc(&dev, 64 * sizeof(float));
    cudaMemset(dev, 0, 64 * sizeof(float));
    status("SetMatrix", cublasSetMatrix(2, 3, sizeof(float), host.data(), 4, dev, 3));
    status("SetVector strided", cublasSetVector(3, sizeof(float), host.data(), 3, dev + 20, 2));
    std::vector<float> back(12, 0);
    status("GetMatrix", cublasGetMatrix(3, 3, sizeof(float), dev, 3, back.data(), 4));
    print_matrix("GetMatrix", back, 1, 12, 1);
    status("GetVector", cublasGetVector(6, sizeof(float), dev + 20, 1, back.data(), 1));
    print_matrix("GetVector", back, 1, 6, 1);
    status("SetMatrixAsync", cublasSetMatrixAsync(2, 2, sizeof(float), host.data(), 2, dev, 2, nullptr));
    cudaDeviceSynchronize();
    status("SetVector incx 0", cublasSetVector(3, sizeof(float), host.data(), 0, dev, 1));
    status("SetVector elemSize 0", cublasSetVector(3, 0, host.data(), 1, dev, 1));
    // Last: cuBLAS leaves the failed copy's error as the runtime's last error (cucpu cannot).
    status("SetMatrix lda < rows", cublasSetMatrix(4, 3, sizeof(float), host.data(), 3, dev, 4));
    cudaFree(dev);
  }

  // Bad arguments.
  {
    float one = 1, *p;
    cudaMalloc(&p, 256);
    status("Sgemm null handle", cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, p, 2, p, 2, &one, p, 2));
    status("Sgemm m < 0", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, p, 2, p, 2, &one, p, 2));
    status("Sgemm lda < m", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, p, 2, p, 2, &one, p, 4));
    status("Sgemm ldb < k (T)", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 4, 2, &one, p, 2, p, 2, &one, p, 2));
    status("Sgemm bad op", cublasSgemm(h, cublasOperation_t(7), CUBLAS_OP_N, 2, 2, 2, &one, p, 2, p, 2, &one, p, 2));
    status("Sgemm m = 0", cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, p, 2, p, 2, &one, p, 2));
    status("Strsm bad diag", cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, cublasDiagType_t(5), 2, 2, &one, p, 2, p, 2));
    status("Ssyrk bad fill", cublasSsyrk(h, cublasFillMode_t(2), CUBLAS_OP_N, 2, 2, &one, p, 2, &one, p, 2));
    status("SetPointerMode bad", cublasSetPointerMode(h, cublasPointerMode_t(5)));
    status("Sgeam in place, C = A transposed", cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, &one, p, 2, &one, p + 8, 2, p, 2));
    status("SgemmBatched count < 0", cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, nullptr, 2, nullptr, 2, &one, nullptr, 2, -1));
    status("SgemmStridedBatched ldb", cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, p, 2, 4, p, 1, 4, &one, p, 2, 4, 1));
    status("GemmEx bad op", cublasGemmEx(h, cublasOperation_t(9), CUBLAS_OP_N, 2, 2, 2, &one, p, CUDA_R_32F, 2, p, CUDA_R_32F, 2, &one, p, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    status("GemmEx lda", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, p, CUDA_R_32F, 1, p, CUDA_R_32F, 2, &one, p, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    status("Strmv incx 0", cublasStrmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 2, p, 2, p + 8, 0));
    status("Strmv lda", cublasStrmv(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 2, p, 1, p + 8, 1));
    status("Sger m < 0", cublasSger(h, -1, 2, &one, p, 1, p, 1, p, 2));
    status("Sger incy 0", cublasSger(h, 2, 2, &one, p, 1, p, 0, p + 8, 2));
    status("Ssymv bad fill", cublasSsymv(h, cublasFillMode_t(3), 2, &one, p, 2, p, 1, &one, p + 8, 1));
    status("Ssymv incy 0", cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, 2, &one, p, 2, p, 1, &one, p + 8, 0));
    status("Ssyr lda", cublasSsyr(h, CUBLAS_FILL_MODE_LOWER, 3, &one, p, 1, p + 8, 2));
    status("Sgbmv ku < 0", cublasSgbmv(h, CUBLAS_OP_N, 2, 2, 0, -1, &one, p, 1, p, 1, &one, p + 8, 1));
    status("Ssymm bad side", cublasSsymm(h, cublasSideMode_t(4), CUBLAS_FILL_MODE_LOWER, 2, 2, &one, p, 2, p, 2, &one, p + 8, 2));
    status("Strmm ldc", cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 2, 2, &one, p, 2, p, 2, p + 8, 1));
    status("Ssyr2k n < 0", cublasSsyr2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, -2, 2, &one, p, 2, p, 2, &one, p + 8, 2));
    status("Sgeam bad op", cublasSgeam(h, cublasOperation_t(9), CUBLAS_OP_N, 2, 2, &one, p, 2, &one, p, 2, p + 8, 2));
    status("Sgeam m < 0", cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, -2, 2, &one, p, 2, &one, p, 2, p + 8, 2));
    status("Sdgmm bad mode", cublasSdgmm(h, cublasSideMode_t(3), 2, 2, p, 2, p, 1, p + 8, 2));
    status("Saxpy n < 0", cublasSaxpy(h, -1, &one, p, 1, p, 1));
    status("StrsmBatched count < 0", cublasStrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 2, 2, &one, nullptr, 2, nullptr, 2, -1));
    status("SgetrfBatched n < 0", cublasSgetrfBatched(h, -1, nullptr, 1, nullptr, nullptr, 1));
    status("SgetriBatched lda", cublasSgetriBatched(h, 2, nullptr, 1, nullptr, nullptr, 2, nullptr, 1));
    {
      // gemv takes increment 0 (every element is x[0]).
      std::vector<float> a = {1, 2, 3, 4}, x = {3, 100};
      float* A = device_copy(a);
      float* X = device_copy(x);
      float* Y = device_copy(std::vector<float>{0, 0});
      float zero = 0;
      status("Sgemv incx 0", cublasSgemv(h, CUBLAS_OP_N, 2, 2, &one, A, 2, X, 0, &zero, Y, 1));
      print_matrix("gemv incx 0", host_copy(Y, 2), 1, 2, 1);
      cudaFree(A), cudaFree(X), cudaFree(Y);
    }
    cudaFree(p);
  }
  status("destroy", cublasDestroy(h));
  return 0;
}
