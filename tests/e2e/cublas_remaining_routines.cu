// The rest of cuBLAS's public API through cucpu's libcublas.so.13, compared with the GPU's
// output: the mixed-precision batched gemvs (half and bfloat16 operands, float arithmetic,
// results rounded to nearest even), the complex rank-k Ex updates and the gemm3m family, the
// type-generic rotations, the grouped batched GemmEx, cuBLAS-XT's spmm, syrkx, herkx and its
// hybrid CPU routine, the emulation settings of CUDA 13 and cublasXerbla. Small integers keep
// every printed result exact; bad arguments print their statuses.
// NVCC-FLAGS: -lcublas
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <type_traits>
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
static std::vector<T> read_all(const T* device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

// Values as printed: a zero's sign is not part of what is compared.
static double value(float v) { return v + 0.0; }
static double value(double v) { return v + 0.0; }
static double value(__half v) { return __half2float(v) + 0.0; }
static double value(__nv_bfloat16 v) { return __bfloat162float(v) + 0.0; }

template <typename T>
static void print_real(const char* label, const T* device, size_t n) {
  printf("%s:", label);
  for (const T& v : read_all(device, n)) printf(" %.6g", value(v));
  printf("\n");
}

template <typename T>
static void print_complex(const char* label, const T* device, size_t n) {
  printf("%s:", label);
  for (const T& v : read_all(device, n)) printf(" %g%+gi", value(v.x), value(v.y));
  printf("\n");
}

template <typename T>
static std::vector<T> converted(const std::vector<float>& values) {
  std::vector<T> out;
  for (float v : values) out.push_back(static_cast<T>(v));
  return out;
}

// The batched gemvs of one type combination: pointer arrays and strided, N and T, int and int64_t.
template <typename In, typename Out, typename Batched, typename Strided, typename Batched64>
static void mixed_gemv(cublasHandle_t h, const char* name, Batched batched, Strided strided, Batched64 batched64) {
  // Two 3 x 2 matrices (lda 4), x of 3 with increment 1 (N uses 2 of them), y of 3.
  std::vector<float> a = {1, 2, 3, 0, -1, 4, 2, 0, 2, 1, 0, 0, 3, -2, 1, 0};
  std::vector<float> x = {2, -1, 3, 1, 1, -2}, y = {1, 1, 1, -3, 0, 2};
  In* A = device_copy(converted<In>(a));
  In* X = device_copy(converted<In>(x));
  Out* Y = device_copy(converted<Out>(y));
  std::vector<const In*> as = {A, A + 8}, xs = {X, X + 3};
  std::vector<Out*> ys = {Y, Y + 3};
  const In** PA = device_copy(as);
  const In** PX = device_copy(xs);
  Out** PY = device_copy(ys);
  const float alpha = 2, beta = -1, zero = 0;
  char label[96];
  snprintf(label, sizeof label, "%sgemvBatched N", name);
  status(label, batched(h, CUBLAS_OP_N, 3, 2, &alpha, PA, 4, PX, 1, &beta, PY, 1, 2));
  print_real("  y", Y, 6);
  snprintf(label, sizeof label, "%sgemvStridedBatched T", name);
  status(label, strided(h, CUBLAS_OP_T, 3, 2, &alpha, A, 4, 8, X, 1, 3, &zero, Y, 1, 3, 2));
  print_real("  y", Y, 6);
  snprintf(label, sizeof label, "%sgemvBatched_64 T, increment -1", name);
  status(label, batched64(h, CUBLAS_OP_T, 3, 2, &alpha, PA, 4, PX, -1, &beta, PY, 1, 2));
  print_real("  y", Y, 6);
  // Rounding of the result to y's type: 2049 and 2051 (ties and not, for half), 257 and 259
  // (for bfloat16), each the sum of two exact inputs.
  std::vector<float> big = {2048, 2048, 256, 256, 1, 3, 1, 3};
  In* B = device_copy(converted<In>(big));
  In* ones = device_copy(converted<In>({1, 1}));
  std::vector<const In*> bs = {B}, os = {ones};
  std::vector<Out*> rs = {Y};
  const In** PB = device_copy(bs);
  const In** PO = device_copy(os);
  Out** PR = device_copy(rs);
  const float unit = 1;
  snprintf(label, sizeof label, "%sgemvBatched rounding", name);
  status(label, batched(h, CUBLAS_OP_N, 4, 2, &unit, PB, 4, PO, 1, &zero, PR, 1, 1));
  print_real("  y", Y, 4);
  snprintf(label, sizeof label, "%sgemvBatched lda < m", name);
  status(label, batched(h, CUBLAS_OP_N, 3, 2, &alpha, PA, 2, PX, 1, &beta, PY, 1, 2));
  snprintf(label, sizeof label, "%sgemvBatched m < 0", name);
  status(label, batched(h, CUBLAS_OP_N, -1, 2, &alpha, PA, 4, PX, 1, &beta, PY, 1, 2));
  snprintf(label, sizeof label, "%sgemvBatched incx 0", name);
  status(label, batched(h, CUBLAS_OP_N, 3, 2, &alpha, PA, 4, PX, 0, &beta, PY, 1, 2));
  print_real("  y", Y, 6);
  snprintf(label, sizeof label, "%sgemvStridedBatched batch -1", name);
  status(label, strided(h, CUBLAS_OP_N, 3, 2, &alpha, A, 4, 8, X, 1, 3, &beta, Y, 1, 3, -1));
  snprintf(label, sizeof label, "%sgemvBatched batch -1", name);
  status(label, batched(h, CUBLAS_OP_N, 3, 2, &alpha, PA, 4, PX, 1, &beta, PY, 1, -1));
  snprintf(label, sizeof label, "%sgemvStridedBatched bad op", name);
  status(label, strided(h, static_cast<cublasOperation_t>(7), 3, 2, &alpha, A, 4, 8, X, 1, 3, &zero, Y, 1, 3, 2));
  print_real("  y", Y, 6);
  snprintf(label, sizeof label, "%sgemvStridedBatched op C", name);
  status(label, strided(h, CUBLAS_OP_C, 3, 2, &alpha, A, 4, 8, X, 1, 3, &zero, Y, 1, 3, 2));
  print_real("  y", Y, 6);
}

static void gemv_section(cublasHandle_t h) {
  mixed_gemv<__half, __half>(h, "HSH", cublasHSHgemvBatched, cublasHSHgemvStridedBatched, cublasHSHgemvBatched_64);
  mixed_gemv<__half, float>(h, "HSS", cublasHSSgemvBatched, cublasHSSgemvStridedBatched, cublasHSSgemvBatched_64);
  mixed_gemv<__nv_bfloat16, __nv_bfloat16>(h, "TST", cublasTSTgemvBatched, cublasTSTgemvStridedBatched,
                                           cublasTSTgemvBatched_64);
  mixed_gemv<__nv_bfloat16, float>(h, "TSS", cublasTSSgemvBatched, cublasTSSgemvStridedBatched,
                                   cublasTSSgemvBatched_64);
  // The strided _64 forms once each.
  std::vector<float> a = {1, 2, 3, 4}, x = {1, -1};
  __half* HA = device_copy(converted<__half>(a));
  __half* HX = device_copy(converted<__half>(x));
  float* FY = device_copy(std::vector<float>{5, 5});
  __half* HY = device_copy(converted<__half>({5, 5}));
  __nv_bfloat16* TA = device_copy(converted<__nv_bfloat16>(a));
  __nv_bfloat16* TX = device_copy(converted<__nv_bfloat16>(x));
  __nv_bfloat16* TY = device_copy(converted<__nv_bfloat16>({5, 5}));
  const float one = 1;
  status("HSHgemvStridedBatched_64",
         cublasHSHgemvStridedBatched_64(h, CUBLAS_OP_N, 2, 2, &one, HA, 2, 0, HX, 1, 0, &one, HY, 1, 0, 1));
  print_real("  y", HY, 2);
  status("HSSgemvStridedBatched_64",
         cublasHSSgemvStridedBatched_64(h, CUBLAS_OP_T, 2, 2, &one, HA, 2, 0, HX, 1, 0, &one, FY, 1, 0, 1));
  print_real("  y", FY, 2);
  status("TSTgemvStridedBatched_64",
         cublasTSTgemvStridedBatched_64(h, CUBLAS_OP_N, 2, 2, &one, TA, 2, 0, TX, 1, 0, &one, TY, 1, 0, 1));
  print_real("  y", TY, 2);
  status("TSSgemvStridedBatched_64",
         cublasTSSgemvStridedBatched_64(h, CUBLAS_OP_T, 2, 2, &one, TA, 2, 0, TX, 1, 0, &one, FY, 1, 0, 1));
  print_real("  y", FY, 2);
}

// CsyrkEx, CherkEx and the 3M forms: A (2 x 2, or its transpose) of CUDA_C_32F or CUDA_C_8I.
static void rank_k_section(cublasHandle_t h) {
  std::vector<cuComplex> a = {{1, 1}, {2, 0}, {0, -1}, {1, 2}};
  std::vector<int8_t> a8 = {1, 1, 2, 0, 0, -1, 1, 2};
  const std::vector<cuComplex> c0 = {{1, 0}, {9, 9}, {9, 9}, {2, 0}}, c0_upper = {{1, 0}, {9, 9}, {3, 1}, {2, 0}};
  cuComplex* A = device_copy(a);
  int8_t* A8 = device_copy(a8);
  cuComplex* C = device_copy(c0);
  const cuComplex calpha = {1, 1}, cbeta = {2, 0};
  const float alpha = 2, beta = 1;
  auto reset = [&](const std::vector<cuComplex>& c) {
    cudaMemcpy(C, c.data(), 4 * sizeof(cuComplex), cudaMemcpyHostToDevice);
  };
  status("CsyrkEx N lower", cublasCsyrkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A, CUDA_C_32F, 2,
                                          &cbeta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0_upper);
  status("CsyrkEx T upper, C_8I", cublasCsyrkEx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, 2, 2, &calpha, A8, CUDA_C_8I, 2,
                                                &cbeta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("Csyrk3mEx N lower", cublasCsyrk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A, CUDA_C_32F, 2,
                                              &cbeta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("Csyrk3mEx_64 N lower, C_8I", cublasCsyrk3mEx_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A8,
                                                          CUDA_C_8I, 2, &cbeta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("CsyrkEx_64 N lower", cublasCsyrkEx_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A, CUDA_C_32F, 2,
                                                &cbeta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("CherkEx N lower", cublasCherkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &alpha, A, CUDA_C_32F, 2, &beta,
                                          C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0_upper);
  status("CherkEx C upper, C_8I", cublasCherkEx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, 2, 2, &alpha, A8, CUDA_C_8I, 2,
                                                &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("Cherk3mEx N lower", cublasCherk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &alpha, A, CUDA_C_32F, 2,
                                              &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("Cherk3mEx_64 N lower, C_8I", cublasCherk3mEx_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &alpha, A8,
                                                          CUDA_C_8I, 2, &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  reset(c0);
  status("CherkEx_64 N lower", cublasCherkEx_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &alpha, A, CUDA_C_32F, 2,
                                                &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  status("CherkEx A C_64F", cublasCherkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &alpha, A, CUDA_C_64F, 2, &beta,
                                          C, CUDA_C_32F, 2));
  status("CsyrkEx C C_8I", cublasCsyrkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A8, CUDA_C_8I, 2,
                                         &cbeta, C, CUDA_C_8I, 2));
  status("CsyrkEx A R_32F", cublasCsyrkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A, CUDA_R_32F, 2,
                                          &cbeta, C, CUDA_C_32F, 2));
  status("CherkEx op T", cublasCherkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, 2, 2, &alpha, A, CUDA_C_32F, 2, &beta, C,
                                       CUDA_C_32F, 2));
  status("CsyrkEx op C", cublasCsyrkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, 2, 2, &calpha, A, CUDA_C_32F, 2, &cbeta,
                                       C, CUDA_C_32F, 2));
  status("CsyrkEx lda < n", cublasCsyrkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A, CUDA_C_32F, 1,
                                          &cbeta, C, CUDA_C_32F, 2));
  status("Csyrk3mEx ldc < n", cublasCsyrk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &calpha, A, CUDA_C_32F, 2,
                                              &cbeta, C, CUDA_C_32F, 1));
  status("Cherk3mEx k < 0", cublasCherk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, -1, &alpha, A, CUDA_C_32F, 2,
                                            &beta, C, CUDA_C_32F, 2));
  status("CherkEx lda < n", cublasCherkEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 2, 2, &alpha, A, CUDA_C_32F, 1, &beta,
                                          C, CUDA_C_32F, 2));
  status("Csyrk3mEx n < 0", cublasCsyrk3mEx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, -1, 2, &calpha, A, CUDA_C_32F, 2,
                                            &cbeta, C, CUDA_C_32F, 2));
  status("Cherk3mEx bad fill", cublasCherk3mEx(h, static_cast<cublasFillMode_t>(5), CUBLAS_OP_N, 2, 2, &alpha, A,
                                               CUDA_C_32F, 2, &beta, C, CUDA_C_32F, 2));
  print_complex("  C unchanged", C, 4);
}

// The gemm3m family: the same products as gemm's.
static void gemm3m_section(cublasHandle_t h) {
  std::vector<cuComplex> a = {{1, 1}, {2, 0}, {0, -1}, {1, 2}}, b = {{1, 0}, {0, 1}, {2, -1}, {1, 1}};
  std::vector<int8_t> a8 = {1, 1, 2, 0, 0, -1, 1, 2}, b8 = {1, 0, 0, 1, 2, -1, 1, 1};
  cuComplex* A = device_copy(a);
  cuComplex* B = device_copy(b);
  int8_t* A8 = device_copy(a8);
  int8_t* B8 = device_copy(b8);
  cuComplex* C = device_copy(std::vector<cuComplex>(8, {1, -1}));
  const cuComplex alpha = {1, 1}, beta = {0, 1};
  status("Cgemm3m_64", cublasCgemm3m_64(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 2, 2, &alpha, A, 2, B, 2, &beta, C, 2));
  print_complex("  C", C, 4);
  status("Cgemm3mEx C_32F", cublasCgemm3mEx(h, CUBLAS_OP_C, CUBLAS_OP_N, 2, 2, 2, &alpha, A, CUDA_C_32F, 2, B,
                                            CUDA_C_32F, 2, &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  status("Cgemm3mEx C_8I", cublasCgemm3mEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, A8, CUDA_C_8I, 2, B8,
                                           CUDA_C_8I, 2, &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  status("Cgemm3mEx_64 C_32F", cublasCgemm3mEx_64(h, CUBLAS_OP_T, CUBLAS_OP_T, 2, 2, 2, &alpha, A, CUDA_C_32F, 2, B,
                                                  CUDA_C_32F, 2, &beta, C, CUDA_C_32F, 2));
  print_complex("  C", C, 4);
  status("Cgemm3mEx A R_32F", cublasCgemm3mEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, A, CUDA_R_32F, 2, B,
                                              CUDA_R_32F, 2, &beta, C, CUDA_C_32F, 2));
  status("Cgemm3mEx C C_64F", cublasCgemm3mEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, A, CUDA_C_32F, 2, B,
                                              CUDA_C_32F, 2, &beta, C, CUDA_C_64F, 2));
  std::vector<const cuComplex*> as = {A, B}, bs = {B, A};
  std::vector<cuComplex*> cs = {C, C + 4};
  const cuComplex** PA = device_copy(as);
  const cuComplex** PB = device_copy(bs);
  cuComplex** PC = device_copy(cs);
  status("Cgemm3mBatched",
         cublasCgemm3mBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, PA, 2, PB, 2, &beta, PC, 2, 2));
  print_complex("  C", C, 8);
  status("Cgemm3mBatched_64",
         cublasCgemm3mBatched_64(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 2, &alpha, PA, 2, PB, 2, &beta, PC, 2, 2));
  print_complex("  C", C, 8);
  cuComplex* AB = device_copy(std::vector<cuComplex>{a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]});
  status("Cgemm3mStridedBatched", cublasCgemm3mStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_C, 2, 2, 2, &alpha, AB, 2, 4,
                                                              AB, 2, 4, &beta, C, 2, 4, 2));
  print_complex("  C", C, 8);
  status("Cgemm3mStridedBatched_64", cublasCgemm3mStridedBatched_64(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, AB, 2,
                                                                    4, AB, 2, -4, &beta, C, 2, 4, 1));
  print_complex("  C", C, 8);
  std::vector<cuDoubleComplex> za = {{1, 1}, {2, 0}, {0, -1}, {1, 2}};
  cuDoubleComplex* ZA = device_copy(za);
  cuDoubleComplex* ZC = device_copy(std::vector<cuDoubleComplex>(4, {0, 0}));
  const cuDoubleComplex zalpha = {2, 0}, zbeta = {0, 0};
  status("Zgemm3m_64", cublasZgemm3m_64(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &zalpha, ZA, 2, ZA, 2, &zbeta, ZC, 2));
  print_complex("  C", ZC, 4);
}

// RotEx over one vector type; c and s of cs_type (complex ones hold cs values, imaginary parts given).
template <typename T>
static void rot_ex(cublasHandle_t h, const char* label, cudaDataType type, const void* c, const void* s,
                   cudaDataType cs_type, cudaDataType execution, bool use64 = false) {
  std::vector<float> x = {1, 2, -1}, y = {0, 1, 3};
  T* X = device_copy(converted<T>(x));
  T* Y = device_copy(converted<T>(y));
  status(label, use64 ? cublasRotEx_64(h, 3, X, type, 1, Y, type, -1, c, s, cs_type, execution)
                      : cublasRotEx(h, 3, X, type, 1, Y, type, 1, c, s, cs_type, execution));
  print_real("  x", X, 3);
  print_real("  y", Y, 3);
}

template <typename T>
static void rotm_ex(cublasHandle_t h, const char* label, cudaDataType type, const std::vector<float>& param,
                    cudaDataType param_type, cudaDataType execution, bool use64 = false) {
  std::vector<float> x = {1, 2, -1}, y = {0, 1, 3};
  T* X = device_copy(converted<T>(x));
  T* Y = device_copy(converted<T>(y));
  std::vector<T> p = converted<T>(param);
  status(label, use64 ? cublasRotmEx_64(h, 2, X, type, 2, Y, type, 1, p.data(), param_type, execution)
                      : cublasRotmEx(h, 3, X, type, 1, Y, type, 1, p.data(), param_type, execution));
  print_real("  x", X, 3);
  print_real("  y", Y, 3);
}

template <typename T>
static void rotg_rotmg_ex(cublasHandle_t h, const char* name, cudaDataType type, cudaDataType execution) {
  T a = static_cast<T>(3.0f), b = static_cast<T>(4.0f), c, s;
  char label[64];
  snprintf(label, sizeof label, "RotgEx %s", name);
  status(label, cublasRotgEx(h, &a, &b, type, &c, &s, type, execution));
  printf("  r %.5g z %.5g c %.5g s %.5g\n", value(a), value(b), value(c), value(s));
  a = static_cast<T>(0.0f), b = static_cast<T>(-2.0f);
  status(label, cublasRotgEx(h, &a, &b, type, &c, &s, type, execution));
  printf("  r %.5g z %.5g c %.5g s %.5g\n", value(a), value(b), value(c), value(s));
  const float starts[2][4] = {{1, 1, 1, 1}, {4, 1, 1, 1}};
  for (const auto& start : starts) {
    T d1 = static_cast<T>(start[0]), d2 = static_cast<T>(start[1]), x1 = static_cast<T>(start[2]);
    const T y1 = static_cast<T>(start[3]);
    T param[5];
    for (T& p : param) p = static_cast<T>(9.0f);
    snprintf(label, sizeof label, "RotmgEx %s", name);
    status(label, cublasRotmgEx(h, &d1, type, &d2, type, &x1, type, &y1, type, param, type, execution));
    printf("  d1 %.5g d2 %.5g x1 %.5g param %g %.5g %.5g %.5g %.5g\n", value(d1), value(d2), value(x1), value(param[0]),
           value(param[1]), value(param[2]), value(param[3]), value(param[4]));
  }
}

static void rotation_section(cublasHandle_t h) {
  const __half hc = __float2half(3), hs = __float2half(2);
  const __nv_bfloat16 tc = __float2bfloat16(3), ts = __float2bfloat16(2);
  const float fc = 3, fs = 2;
  const double dc = 3, ds = 2;
  rot_ex<__half>(h, "RotEx R_16F", CUDA_R_16F, &hc, &hs, CUDA_R_16F, CUDA_R_32F);
  rot_ex<__nv_bfloat16>(h, "RotEx R_16BF", CUDA_R_16BF, &tc, &ts, CUDA_R_16BF, CUDA_R_32F);
  rot_ex<float>(h, "RotEx R_32F", CUDA_R_32F, &fc, &fs, CUDA_R_32F, CUDA_R_32F);
  rot_ex<double>(h, "RotEx_64 R_64F, incy -1", CUDA_R_64F, &dc, &ds, CUDA_R_64F, CUDA_R_64F, true);
  rot_ex<float>(h, "RotEx R_32F in double", CUDA_R_32F, &fc, &fs, CUDA_R_32F, CUDA_R_64F);
  rot_ex<__half>(h, "RotEx R_16F, cs R_32F", CUDA_R_16F, &fc, &fs, CUDA_R_32F, CUDA_R_32F);
  rot_ex<float>(h, "RotEx R_32F, cs R_64F", CUDA_R_32F, &dc, &ds, CUDA_R_64F, CUDA_R_32F);
  // Complex vectors with real and complex c and s.
  std::vector<cuComplex> x = {{1, 0}, {0, 2}}, y = {{1, 0}, {1, -1}};
  const cuComplex cc = {2, 1}, cs = {0, 3};
  for (int form = 0; form < 3; ++form) {
    cuComplex* X = device_copy(x);
    cuComplex* Y = device_copy(y);
    const char* label = form == 0   ? "RotEx C_32F, cs R_32F"
                        : form == 1 ? "RotEx C_32F, cs C_32F"
                                    : "RotEx C_32F in R_32F";
    const void* c = form == 0 ? static_cast<const void*>(&fc) : &cc;
    const void* s = form == 0 ? static_cast<const void*>(&fs) : &cs;
    status(label, cublasRotEx(h, 2, X, CUDA_C_32F, 1, Y, CUDA_C_32F, 1, c, s, form == 0 ? CUDA_R_32F : CUDA_C_32F,
                              form == 2 ? CUDA_R_32F : CUDA_C_32F));
    print_complex("  x", X, 2);
    print_complex("  y", Y, 2);
  }
  std::vector<cuDoubleComplex> zx = {{1, 0}, {0, 2}}, zy = {{1, 0}, {1, -1}};
  cuDoubleComplex* ZX = device_copy(zx);
  cuDoubleComplex* ZY = device_copy(zy);
  const cuDoubleComplex zc = {2, 1}, zs = {0, 3};
  status("RotEx C_64F, cs R_64F",
         cublasRotEx(h, 2, ZX, CUDA_C_64F, 1, ZY, CUDA_C_64F, 1, &dc, &ds, CUDA_R_64F, CUDA_C_64F));
  print_complex("  x", ZX, 2);
  print_complex("  y", ZY, 2);
  status("RotEx_64 C_64F, cs C_64F",
         cublasRotEx_64(h, 2, ZX, CUDA_C_64F, 1, ZY, CUDA_C_64F, 1, &zc, &zs, CUDA_C_64F, CUDA_C_64F));
  print_complex("  x", ZX, 2);
  print_complex("  y", ZY, 2);

  const std::vector<float> full = {-1, 2, 1, -1, 3}, implied0 = {0, 5, 1, -1, 5}, implied1 = {1, 2, 5, 5, 3},
                           identity = {-2, 5, 5, 5, 5};
  rotm_ex<__half>(h, "RotmEx R_16F flag -1", CUDA_R_16F, full, CUDA_R_16F, CUDA_R_32F);
  rotm_ex<__nv_bfloat16>(h, "RotmEx R_16BF flag 0", CUDA_R_16BF, implied0, CUDA_R_16BF, CUDA_R_32F);
  rotm_ex<float>(h, "RotmEx R_32F flag 1", CUDA_R_32F, implied1, CUDA_R_32F, CUDA_R_32F);
  rotm_ex<double>(h, "RotmEx R_64F flag -2", CUDA_R_64F, identity, CUDA_R_64F, CUDA_R_64F);
  rotm_ex<double>(h, "RotmEx_64 R_64F flag -1, incx 2", CUDA_R_64F, full, CUDA_R_64F, CUDA_R_64F, true);
  rotm_ex<__half>(h, "RotmEx R_16F, param R_32F", CUDA_R_16F, full, CUDA_R_32F, CUDA_R_32F);
  rotm_ex<float>(h, "RotmEx R_32F in double", CUDA_R_32F, full, CUDA_R_32F, CUDA_R_64F);
  {
    std::vector<cuComplex> cx = {{1, 0}};
    cuComplex* X = device_copy(cx);
    const float p[5] = {-2, 1, 1, 1, 1};
    status("RotmEx C_32F", cublasRotmEx(h, 1, X, CUDA_C_32F, 1, X, CUDA_C_32F, 1, p, CUDA_R_32F, CUDA_C_32F));
  }

  rotg_rotmg_ex<__half>(h, "R_16F", CUDA_R_16F, CUDA_R_32F);
  rotg_rotmg_ex<__nv_bfloat16>(h, "R_16BF", CUDA_R_16BF, CUDA_R_32F);
  rotg_rotmg_ex<float>(h, "R_32F", CUDA_R_32F, CUDA_R_32F);
  rotg_rotmg_ex<double>(h, "R_64F", CUDA_R_64F, CUDA_R_64F);
  {
    cuComplex a = {3, 0}, b = {4, 0}, c = {7, 7}, s = {7, 7};
    status("RotgEx C_32F", cublasRotgEx(h, &a, &b, CUDA_C_32F, &c, &s, CUDA_C_32F, CUDA_C_32F));
    printf("  r %.5g%+.5gi c %.5g%+.5gi s %.5g%+.5gi\n", value(a.x), value(a.y), value(c.x), value(c.y), value(s.x),
           value(s.y));
    cuDoubleComplex za = {0, 0}, zb = {0, 2}, zc = {7, 7}, zs = {7, 7};
    status("RotgEx C_64F", cublasRotgEx(h, &za, &zb, CUDA_C_64F, &zc, &zs, CUDA_C_64F, CUDA_C_64F));
    printf("  r %.5g%+.5gi c %.5g%+.5gi s %.5g%+.5gi\n", value(za.x), value(za.y), value(zc.x), value(zc.y),
           value(zs.x), value(zs.y));
    a = {3, 0}, b = {4, 0};
    float fc = 7, fs = 7;
    status("RotgEx C_32F, cs R_32F", cublasRotgEx(h, &a, &b, CUDA_C_32F, &fc, &fs, CUDA_R_32F, CUDA_C_32F));
    printf("  r %.5g%+.5gi c %.5g s %.5g\n", value(a.x), value(a.y), value(fc), value(fs));
    float fa = 3, fb = 4;
    double dcs, dss;
    status("RotgEx R_32F, cs R_64F", cublasRotgEx(h, &fa, &fb, CUDA_R_32F, &dcs, &dss, CUDA_R_64F, CUDA_R_32F));
    float d[4] = {1, 1, 1, 1}, param[5];
    double dy = 1;
    status("RotmgEx mixed types", cublasRotmgEx(h, &d[0], CUDA_R_32F, &d[1], CUDA_R_32F, &d[2], CUDA_R_32F, &dy,
                                                CUDA_R_64F, param, CUDA_R_32F, CUDA_R_32F));
  }
  // Device scalars: RotmEx's param read when the work runs.
  {
    float* X = device_copy(std::vector<float>{1, 2});
    float* Y = device_copy(std::vector<float>{3, 4});
    float* P = device_copy(std::vector<float>{-1, 0, 1, -1, 0});
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    status("RotmEx device param", cublasRotmEx(h, 2, X, CUDA_R_32F, 1, Y, CUDA_R_32F, 1, P, CUDA_R_32F, CUDA_R_32F));
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    print_real("  x", X, 2);
    print_real("  y", Y, 2);
  }
}

// GemmGroupedBatchedEx: two groups of one type combination; then combinations it refuses.
template <typename T, typename S>
static void grouped_ex(cublasHandle_t h, const char* label, cudaDataType type, cublasComputeType_t compute,
                       bool use64 = false) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
  T* A = device_copy(converted<T>(a));
  T* C = device_copy(converted<T>(std::vector<float>(10, 1)));
  std::vector<const void*> as = {A, A + 4, A};
  std::vector<void*> cs = {C, C + 4, C + 8};
  const void** PA = device_copy(as);
  void** PC = device_copy(cs);
  cublasOperation_t ta[] = {CUBLAS_OP_N, CUBLAS_OP_T}, tb[] = {CUBLAS_OP_N, CUBLAS_OP_N};
  S alpha[] = {1, 2}, beta[] = {0, 1};
  cublasStatus_t s;
  if (use64) {
    int64_t m[] = {2, 1}, n[] = {2, 2}, k[] = {2, 1}, lda[] = {2, 1}, ldb[] = {2, 1}, ldc[] = {2, 1}, sizes[] = {2, 1};
    s = cublasGemmGroupedBatchedEx_64(h, ta, tb, m, n, k, alpha, PA, type, lda, PA, type, ldb, beta, PC, type, ldc, 2,
                                      sizes, compute);
  } else {
    int m[] = {2, 1}, n[] = {2, 2}, k[] = {2, 1}, lda[] = {2, 1}, ldb[] = {2, 1}, ldc[] = {2, 1}, sizes[] = {2, 1};
    s = cublasGemmGroupedBatchedEx(h, ta, tb, m, n, k, alpha, PA, type, lda, PA, type, ldb, beta, PC, type, ldc, 2,
                                   sizes, compute);
  }
  status(label, s);
  print_real("  C", C, 10);
}

static void grouped_section(cublasHandle_t h) {
  grouped_ex<__half, float>(h, "GemmGroupedBatchedEx R_16F", CUDA_R_16F, CUBLAS_COMPUTE_32F);
  grouped_ex<__nv_bfloat16, float>(h, "GemmGroupedBatchedEx R_16BF", CUDA_R_16BF, CUBLAS_COMPUTE_32F);
  grouped_ex<float, float>(h, "GemmGroupedBatchedEx R_32F", CUDA_R_32F, CUBLAS_COMPUTE_32F);
  grouped_ex<float, float>(h, "GemmGroupedBatchedEx_64 R_32F fast TF32", CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32,
                           true);
  grouped_ex<double, double>(h, "GemmGroupedBatchedEx_64 R_64F", CUDA_R_64F, CUBLAS_COMPUTE_64F, true);
  grouped_ex<__half, __half>(h, "GemmGroupedBatchedEx R_16F compute 16F", CUDA_R_16F, CUBLAS_COMPUTE_16F);
  grouped_ex<double, double>(h, "GemmGroupedBatchedEx R_64F compute 32F", CUDA_R_64F, CUBLAS_COMPUTE_32F);
  grouped_ex<float, float>(h, "GemmGroupedBatchedEx R_32F pedantic", CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC);
}

// The CPU routine cuBLAS-XT may hand a share of a gemm to (Fortran BLAS interface).
static std::atomic<int> cpu_calls{0};
static void cpu_dgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
                      const double* A, const int* lda, const double* B, const int* ldb, const double* beta, double* C,
                      const int* ldc) {
  ++cpu_calls;
  for (int j = 0; j < *n; ++j)
    for (int i = 0; i < *m; ++i) {
      double sum = 0;
      for (int l = 0; l < *k; ++l)
        sum += (*ta == 'N' ? A[i + l * *lda] : A[l + i * *lda]) * (*tb == 'N' ? B[l + j * *ldb] : B[j + l * *ldb]);
      C[i + j * *ldc] = *alpha * sum + (*beta == 0 ? 0 : *beta * C[i + j * *ldc]);
    }
}

template <typename T>
static std::vector<T> numbers(int n, int offset) {
  std::vector<T> out;
  for (int i = 0; i < n; ++i) {
    const float v = static_cast<float>((i * 7 + offset) % 5 - 2);
    if constexpr (std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>)
      out.push_back({v, static_cast<float>((i + offset) % 3 - 1)});
    else
      out.push_back(v);
  }
  return out;
}

template <typename T, typename Spmm, typename Syrkx>
static void xt_type(cublasXtHandle_t xt, const char* name, Spmm spmm, Syrkx syrkx) {
  // A symmetric 3 x 3 in packed storage (6 entries), B 3 x 2 (ldb 4), C 3 x 2 (ldc 3).
  std::vector<T> ap = numbers<T>(6, 1), b = numbers<T>(8, 2), c = numbers<T>(6, 3);
  T one{}, two{};
  if constexpr (std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>)
    one = {1, 0}, two = {0, 2};
  else
    one = 1, two = 2;
  char label[64];
  for (int lower = 0; lower < 2; ++lower) {
    std::vector<T> out = c;
    snprintf(label, sizeof label, "Xt%sspmm left %s", name, lower ? "lower" : "upper");
    status(label, spmm(xt, CUBLAS_SIDE_LEFT, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, 3, 2, &two,
                       ap.data(), b.data(), 4, &one, out.data(), 3));
    printf(" ");
    for (const T& v : out) {
      if constexpr (std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>)
        printf(" %g%+gi", value(v.x), value(v.y));
      else
        printf(" %g", value(v));
    }
    printf("\n");
  }
  // Right side: C (2 x 3) = alpha B (2 x 3, ldb 2) A + beta C.
  std::vector<T> out(6, one);
  snprintf(label, sizeof label, "Xt%sspmm right lower", name);
  status(label,
         spmm(xt, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, 2, 3, &one, ap.data(), b.data(), 2, &one, out.data(), 2));
  printf(" ");
  for (const T& v : out) {
    if constexpr (std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>)
      printf(" %g%+gi", value(v.x), value(v.y));
    else
      printf(" %g", value(v));
  }
  printf("\n");
  snprintf(label, sizeof label, "Xt%sspmm ldb < m", name);
  status(label,
         spmm(xt, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, 3, 2, &one, ap.data(), b.data(), 2, &one, out.data(), 3));
  // syrkx: C (3 x 3) = alpha A B^T + beta C on the upper triangle, A and B 3 x 2 (ld 4).
  std::vector<T> sc(9, one);
  snprintf(label, sizeof label, "Xt%ssyrkx upper", name);
  status(label,
         syrkx(xt, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 3, 2, &two, b.data(), 4, ap.data(), 3, &one, sc.data(), 3));
  printf(" ");
  for (const T& v : sc) {
    if constexpr (std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>)
      printf(" %g%+gi", value(v.x), value(v.y));
    else
      printf(" %g", value(v));
  }
  printf("\n");
}

template <typename T, typename R, typename Herkx>
static void xt_herkx(cublasXtHandle_t xt, const char* name, Herkx herkx) {
  std::vector<T> a = numbers<T>(6, 1), b = numbers<T>(6, 2), c(9, T{1, 0});
  const T alpha = {1, 1};
  const R beta = 2;
  char label[64];
  snprintf(label, sizeof label, "Xt%sherkx lower, op C", name);
  status(label,
         herkx(xt, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_C, 3, 2, &alpha, a.data(), 2, b.data(), 2, &beta, c.data(), 3));
  printf(" ");
  for (const T& v : c) printf(" %g%+gi", value(v.x), value(v.y));
  printf("\n");
}

static void xt_section() {
  cublasXtHandle_t xt;
  status("XtCreate", cublasXtCreate(&xt));
  int devices[1] = {0};
  status("XtDeviceSelect", cublasXtDeviceSelect(xt, 1, devices));
  xt_type<float>(xt, "S", cublasXtSspmm, cublasXtSsyrkx);
  xt_type<double>(xt, "D", cublasXtDspmm, cublasXtDsyrkx);
  xt_type<cuComplex>(xt, "C", cublasXtCspmm, cublasXtCsyrkx);
  xt_type<cuDoubleComplex>(xt, "Z", cublasXtZspmm, cublasXtZsyrkx);
  xt_herkx<cuComplex, float>(xt, "C", cublasXtCherkx);
  xt_herkx<cuDoubleComplex, double>(xt, "Z", cublasXtZherkx);
  status("XtSetCpuRoutine bad routine", cublasXtSetCpuRoutine(xt, static_cast<cublasXtBlasOp_t>(99), CUBLASXT_DOUBLE,
                                                              reinterpret_cast<void*>(cpu_dgemm)));
  status("XtSetCpuRoutine bad type", cublasXtSetCpuRoutine(xt, CUBLASXT_GEMM, static_cast<cublasXtOpType_t>(9),
                                                           reinterpret_cast<void*>(cpu_dgemm)));
  // The hybrid split: half of a Dgemm's work to the CPU routine (small tiles, so that there is
  // work to split); the product is the same either way.
  status("XtSetBlockDim 2", cublasXtSetBlockDim(xt, 2));
  status("XtSetCpuRoutine Dgemm",
         cublasXtSetCpuRoutine(xt, CUBLASXT_GEMM, CUBLASXT_DOUBLE, reinterpret_cast<void*>(cpu_dgemm)));
  std::vector<double> a = numbers<double>(16, 1), b = numbers<double>(16, 2);
  for (float ratio : {0.0f, 0.5f}) {
    status("XtSetCpuRatio", cublasXtSetCpuRatio(xt, CUBLASXT_GEMM, CUBLASXT_DOUBLE, ratio));
    std::vector<double> c(16, 1);
    const double alpha = 2, beta = -1;
    cpu_calls = 0;
    status("XtDgemm",
           cublasXtDgemm(xt, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &alpha, a.data(), 4, b.data(), 4, &beta, c.data(), 4));
    printf("  ratio %g, CPU routine called: %s\n ", ratio, cpu_calls > 0 ? "yes" : "no");
    for (double v : c) printf(" %g", value(v));
    printf("\n");
  }
  status("XtDestroy", cublasXtDestroy(xt));
}

static void emulation_section(cublasHandle_t h) {
  cudaEmulationSpecialValuesSupport mask;
  cudaEmulationMantissaControl control;
  cublasEmulationStrategy_t strategy;
  int bits = 0, offset = 0;
  int* pointer = reinterpret_cast<int*>(1);
  status("GetEmulationStrategy", cublasGetEmulationStrategy(h, &strategy));
  status("GetEmulationSpecialValuesSupport", cublasGetEmulationSpecialValuesSupport(h, &mask));
  status("GetFixedPointEmulationMantissaControl", cublasGetFixedPointEmulationMantissaControl(h, &control));
  status("GetFixedPointEmulationMaxMantissaBitCount", cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits));
  status("GetFixedPointEmulationMantissaBitOffset", cublasGetFixedPointEmulationMantissaBitOffset(h, &offset));
  status("GetFixedPointEmulationMantissaBitCountPointer",
         cublasGetFixedPointEmulationMantissaBitCountPointer(h, &pointer));
  printf("defaults: strategy %d special values 0x%x control %d max bits %d offset %d pointer %s\n",
         static_cast<int>(strategy), static_cast<unsigned>(mask), static_cast<int>(control), bits, offset,
         pointer ? "set" : "null");
  int* device_bits = device_copy(std::vector<int>{-1});
  status("SetEmulationSpecialValuesSupport NaN",
         cublasSetEmulationSpecialValuesSupport(h, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NAN));
  status("SetFixedPointEmulationMantissaControl FIXED",
         cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_FIXED));
  status("SetFixedPointEmulationMaxMantissaBitCount 40", cublasSetFixedPointEmulationMaxMantissaBitCount(h, 40));
  status("SetFixedPointEmulationMantissaBitOffset -3", cublasSetFixedPointEmulationMantissaBitOffset(h, -3));
  status("SetFixedPointEmulationMantissaBitCountPointer",
         cublasSetFixedPointEmulationMantissaBitCountPointer(h, device_bits));
  cublasGetEmulationSpecialValuesSupport(h, &mask);
  cublasGetFixedPointEmulationMantissaControl(h, &control);
  cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits);
  cublasGetFixedPointEmulationMantissaBitOffset(h, &offset);
  cublasGetFixedPointEmulationMantissaBitCountPointer(h, &pointer);
  printf("set: special values 0x%x control %d max bits %d offset %d pointer %s\n", static_cast<unsigned>(mask),
         static_cast<int>(control), bits, offset, pointer == device_bits ? "ours" : "other");
  status("SetEmulationSpecialValuesSupport 0x13",
         cublasSetEmulationSpecialValuesSupport(h, static_cast<cudaEmulationSpecialValuesSupport>(0x13)));
  status("SetFixedPointEmulationMantissaControl 2",
         cublasSetFixedPointEmulationMantissaControl(h, static_cast<cudaEmulationMantissaControl>(2)));
  status("SetFixedPointEmulationMaxMantissaBitCount -1", cublasSetFixedPointEmulationMaxMantissaBitCount(h, -1));
  status("SetFixedPointEmulationMaxMantissaBitCount 0", cublasSetFixedPointEmulationMaxMantissaBitCount(h, 0));
  status("SetFixedPointEmulationMaxMantissaBitCount 1000", cublasSetFixedPointEmulationMaxMantissaBitCount(h, 1000));
  status("SetFixedPointEmulationMantissaBitOffset 100", cublasSetFixedPointEmulationMantissaBitOffset(h, 100));
  status("SetEmulationStrategy 7", cublasSetEmulationStrategy(h, static_cast<cublasEmulationStrategy_t>(7)));
  cublasGetEmulationSpecialValuesSupport(h, &mask);
  cublasGetFixedPointEmulationMantissaControl(h, &control);
  cublasGetFixedPointEmulationMaxMantissaBitCount(h, &bits);
  cublasGetFixedPointEmulationMantissaBitOffset(h, &offset);
  cublasGetEmulationStrategy(h, &strategy);
  printf("after: strategy %d special values 0x%x control %d max bits %d offset %d\n", static_cast<int>(strategy),
         static_cast<unsigned>(mask), static_cast<int>(control), bits, offset);
  cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_DEFAULT);
  // A default handle's Dgemm is not emulated on this GPU: the bit count pointer keeps its value.
  std::vector<double> a = {1, 2, 3, 4};
  double* A = device_copy(a);
  double* C = device_copy(std::vector<double>(4, 0));
  const double one = 1, zero = 0;
  status("Dgemm", cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, A, 2, A, 2, &zero, C, 2));
  print_real("  C", C, 4);
  printf("  bit count %d\n", read_all(device_bits, 1)[0]);
  auto emulated_gemm = [&](const char* label) {
    cudaMemset(C, 0, 4 * sizeof(double));
    status(label, cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, 2, 2, 2, &one, A, CUDA_R_64F, 2, A, CUDA_R_64F, 2, &zero, C,
                               CUDA_R_64F, 2, CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, CUBLAS_GEMM_DEFAULT));
    print_real("  C", C, 4);
    printf("  bit count %d\n", read_all(device_bits, 1)[0]);
  };
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, settings above");
  // Which of those settings the emulated product refuses: one at a time from the defaults.
  auto defaults = [&] {
    cublasSetEmulationSpecialValuesSupport(h, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT);
    cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC);
    cublasSetFixedPointEmulationMaxMantissaBitCount(h, 0);
    cublasSetFixedPointEmulationMantissaBitOffset(h, 0);
  };
  defaults();
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, defaults");
  cublasSetFixedPointEmulationMaxMantissaBitCount(h, 1000);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, max bits 1000");
  defaults();
  cublasSetFixedPointEmulationMaxMantissaBitCount(h, 40);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, max bits 40");
  defaults();
  cublasSetFixedPointEmulationMantissaBitOffset(h, 100);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, offset 100");
  defaults();
  cublasSetFixedPointEmulationMantissaBitOffset(h, -3);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, offset -3");
  defaults();
  cublasSetEmulationSpecialValuesSupport(h, static_cast<cudaEmulationSpecialValuesSupport>(0x13));
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, special values 0x13");
  defaults();
  cublasSetEmulationSpecialValuesSupport(h, CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_NONE);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, special values none");
  defaults();
  cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_FIXED);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, FIXED, max bits 0");
  cublasSetFixedPointEmulationMaxMantissaBitCount(h, 40);
  emulated_gemm("GemmEx COMPUTE_64F_EMULATED_FIXEDPOINT, FIXED, max bits 40");
  defaults();
  cublasSetFixedPointEmulationMantissaBitCountPointer(h, nullptr);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  cublasHandle_t h;
  cublasCreate(&h);
  gemv_section(h);
  rank_k_section(h);
  gemm3m_section(h);
  rotation_section(h);
  grouped_section(h);
  emulation_section(h);
  cublasXerbla("SGEMM ", 3);
  cublasXerbla("cublasFancy", -2);
  cublasDestroy(h);
  xt_section();
  return 0;
}
