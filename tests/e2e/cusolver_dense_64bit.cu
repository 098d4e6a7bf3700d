// cuSOLVER's 64-bit dense API (cusolverDnX*, with cusolverDnParams_t and cudaDataType
// arguments) through cucpu's libcusolver.so.12, compared with the GPU's output: potrf/potrs,
// getrf (with and without pivots, both algorithms of SetAdvOptions)/getrs, geqrf, gesvd,
// syevd, syevdx (all values, an index range, a value range) and trtri, in float, double and
// the complex types; the statuses and info of bad arguments.
// Each solution is a vector of small integers and is printed rounded to two decimals;
// eigen- and singular values are printed to four places; LU pivots and info values as they
// are. Workspace sizes differ between implementations and go to stderr.
// NVCC-FLAGS: -lcusolver
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

template <typename T>
struct Type;
template <>
struct Type<float> {
  using Real = float;
  static constexpr cudaDataType data = CUDA_R_32F, real = CUDA_R_32F;
  static constexpr const char* name = "S";
};
template <>
struct Type<double> {
  using Real = double;
  static constexpr cudaDataType data = CUDA_R_64F, real = CUDA_R_64F;
  static constexpr const char* name = "D";
};
template <>
struct Type<cuComplex> {
  using Real = float;
  static constexpr cudaDataType data = CUDA_C_32F, real = CUDA_R_32F;
  static constexpr const char* name = "C";
};
template <>
struct Type<cuDoubleComplex> {
  using Real = double;
  static constexpr cudaDataType data = CUDA_C_64F, real = CUDA_R_64F;
  static constexpr const char* name = "Z";
};

template <typename T>
T element(double re, double im = 0);
template <>
float element<float>(double re, double) { return static_cast<float>(re); }
template <>
double element<double>(double re, double) { return re; }
template <>
cuComplex element<cuComplex>(double re, double im) { return make_cuComplex(static_cast<float>(re), static_cast<float>(im)); }
template <>
cuDoubleComplex element<cuDoubleComplex>(double re, double im) { return make_cuDoubleComplex(re, im); }
double re(float v) { return v; }
double re(double v) { return v; }
double re(cuComplex v) { return cuCrealf(v); }
double re(cuDoubleComplex v) { return cuCreal(v); }
double im(float) { return 0; }
double im(double) { return 0; }
double im(cuComplex v) { return cuCimagf(v); }
double im(cuDoubleComplex v) { return cuCimag(v); }

template <typename T>
void print_values(const char* label, const std::vector<T>& v, int places = 2) {
  printf("  %s:", label);
  const double scale = std::pow(10.0, places);
  for (const T& x : v) {
    const double r = std::round(re(x) * scale) / scale + 0.0, i = std::round(im(x) * scale) / scale + 0.0;
    if (i != 0)
      printf(" %.*f%+.*fi", places, r, places, i);
    else
      printf(" %.*f", places, r);
  }
  printf("\n");
}

template <typename T>
T* device_copy(const std::vector<T>& host) {
  T* d;
  cudaMalloc(&d, host.size() * sizeof(T) + 1);
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
std::vector<T> host_copy(const T* device, size_t count) {
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

int read_info(const int* d_info) {
  int info;
  cudaMemcpy(&info, d_info, sizeof info, cudaMemcpyDeviceToHost);
  return info;
}

// Column-major n x n: symmetric (Hermitian) positive definite.
template <typename T>
std::vector<T> spd(int n) {
  std::vector<T> a(n * n, element<T>(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i == j) a[i + j * n] = element<T>(6);
      else if (i == j + 1) a[i + j * n] = element<T>(-1, 1);  // below the diagonal; its mirror conjugated
      else if (j == i + 1) a[i + j * n] = element<T>(-1, -1);
      else if (i == j + 3 || j == i + 3) a[i + j * n] = element<T>(1);
    }
  return a;
}

// Column-major n x n general; LU with pivoting swaps rows.
template <typename T>
std::vector<T> general(int m, int n) {
  std::vector<T> a(m * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) a[i + j * m] = element<T>(((i * 7 + j * 3) % 11) - 5 + (i == j ? 9 : 0), (i + j) % 3 - 1);
  return a;
}

// b = A x for a column-major A and x = 1, -2, 3, ... (times 1 + i for complex types).
template <typename T>
std::vector<T> rhs(const std::vector<T>& a, int n, int nrhs) {
  std::vector<T> b(n * nrhs);
  for (int r = 0; r < nrhs; ++r)
    for (int i = 0; i < n; ++i) {
      double sr = 0, si = 0;
      for (int j = 0; j < n; ++j) {
        const double xr = (j % 2 ? -1 : 1) * (j % 4 + 1 + r), xi = im(element<T>(0, 1)) != 0 ? xr : 0;
        const T aij = a[i + j * n];
        sr += re(aij) * xr - im(aij) * xi;
        si += re(aij) * xi + im(aij) * xr;
      }
      b[i + r * n] = element<T>(sr, si);
    }
  return b;
}

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_SUCCESS: return "SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "NOT_INITIALIZED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "INVALID_VALUE";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "NOT_SUPPORTED";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "INTERNAL_ERROR";
    default: return "another status";
  }
}

struct Buffers {
  void* device = nullptr;
  void* host = nullptr;
  size_t device_bytes = 0, host_bytes = 0;
  void make(const char* what, const char* type) {
    fprintf(stderr, "%s %s: workspace %zu on the device, %zu on the host\n", type, what, device_bytes, host_bytes);
    cudaMalloc(&device, device_bytes + 16);
    host = malloc(host_bytes + 16);
  }
  ~Buffers() {
    cudaFree(device);
    free(host);
  }
};

template <typename T>
void cholesky(cusolverDnHandle_t h, cusolverDnParams_t params, int* d_info) {
  const char* name = Type<T>::name;
  const int64_t n = 7, nrhs = 2;
  const std::vector<T> a = spd<T>(n);
  T* d_a = device_copy(a);
  T* d_b = device_copy(rhs(a, n, nrhs));
  for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
    cudaMemcpy(d_a, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
    const std::vector<T> b = rhs(a, n, nrhs);
    cudaMemcpy(d_b, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);
    Buffers w;
    cusolverStatus_t s = cusolverDnXpotrf_bufferSize(h, params, uplo, n, Type<T>::data, d_a, n, Type<T>::data,
                                                     &w.device_bytes, &w.host_bytes);
    w.make("potrf", name);
    printf("%s Xpotrf %s: size %s", name, uplo == CUBLAS_FILL_MODE_LOWER ? "lower" : "upper", status_name(s));
    s = cusolverDnXpotrf(h, params, uplo, n, Type<T>::data, d_a, n, Type<T>::data, w.device, w.device_bytes, w.host,
                         w.host_bytes, d_info);
    printf(", factor %s info %d", status_name(s), read_info(d_info));
    s = cusolverDnXpotrs(h, params, uplo, n, nrhs, Type<T>::data, d_a, n, Type<T>::data, d_b, n, d_info);
    printf(", solve %s info %d\n", status_name(s), read_info(d_info));
    print_values("x", host_copy(d_b, n * nrhs));
  }
  // Not positive definite: info says which minor.
  std::vector<T> bad = a;
  bad[4 + 4 * n] = element<T>(-20);
  cudaMemcpy(d_a, bad.data(), bad.size() * sizeof(T), cudaMemcpyHostToDevice);
  Buffers w;
  cusolverDnXpotrf_bufferSize(h, params, CUBLAS_FILL_MODE_LOWER, n, Type<T>::data, d_a, n, Type<T>::data,
                              &w.device_bytes, &w.host_bytes);
  w.make("potrf", name);
  cusolverStatus_t s = cusolverDnXpotrf(h, params, CUBLAS_FILL_MODE_LOWER, n, Type<T>::data, d_a, n, Type<T>::data,
                                        w.device, w.device_bytes, w.host, w.host_bytes, d_info);
  printf("%s Xpotrf indefinite: %s info %d\n", name, status_name(s), read_info(d_info));
  cudaFree(d_a);
  cudaFree(d_b);
}

template <typename T>
void lu(cusolverDnHandle_t h, cusolverDnParams_t params, int* d_info) {
  const char* name = Type<T>::name;
  const int64_t n = 8, nrhs = 2;
  const std::vector<T> a = general<T>(n, n);
  T* d_a = device_copy(a);
  T* d_b = device_copy(rhs(a, n, nrhs));
  int64_t* d_pivots;
  cudaMalloc(&d_pivots, n * sizeof(int64_t));
  for (cusolverAlgMode_t alg : {CUSOLVER_ALG_0, CUSOLVER_ALG_1}) {
    printf("%s SetAdvOptions GETRF alg %d: %s\n", name, static_cast<int>(alg),
           status_name(cusolverDnSetAdvOptions(params, CUSOLVERDN_GETRF, alg)));
    for (bool pivoting : {true, false}) {
      cudaMemcpy(d_a, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
      const std::vector<T> b = rhs(a, n, nrhs);
      cudaMemcpy(d_b, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);
      Buffers w;
      cusolverStatus_t s = cusolverDnXgetrf_bufferSize(h, params, n, n, Type<T>::data, d_a, n, Type<T>::data,
                                                       &w.device_bytes, &w.host_bytes);
      w.make("getrf", name);
      printf("%s Xgetrf %s: size %s", name, pivoting ? "pivoting" : "without pivots", status_name(s));
      int64_t* pivots = pivoting ? d_pivots : nullptr;
      s = cusolverDnXgetrf(h, params, n, n, Type<T>::data, d_a, n, pivots, Type<T>::data, w.device, w.device_bytes,
                           w.host, w.host_bytes, d_info);
      printf(", factor %s info %d", status_name(s), read_info(d_info));
      for (cublasOperation_t op : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C}) {
        if (op != CUBLAS_OP_N) {  // a transposed system: b = op(A) x, as A's transpose is solved
          std::vector<T> at(n * n);
          for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
              const T v = a[j + i * n];
              at[i + j * n] = op == CUBLAS_OP_C ? element<T>(re(v), -im(v)) : v;
            }
          const std::vector<T> bt = rhs(at, n, nrhs);
          cudaMemcpy(d_b, bt.data(), bt.size() * sizeof(T), cudaMemcpyHostToDevice);
        }
        s = cusolverDnXgetrs(h, params, op, n, nrhs, Type<T>::data, d_a, n, pivots, Type<T>::data, d_b, n, d_info);
        printf(", solve %c %s info %d", "NTC"[op], status_name(s), read_info(d_info));
        if (op == CUBLAS_OP_N) {
          printf("\n");
          print_values("x", host_copy(d_b, n * nrhs));
        }
      }
      printf("\n");
      print_values("x", host_copy(d_b, n * nrhs));
      if (pivoting) {
        printf("  pivots:");
        for (int64_t p : host_copy(d_pivots, n)) printf(" %lld", static_cast<long long>(p));
        printf("\n");
      }
    }
  }
  cusolverDnSetAdvOptions(params, CUSOLVERDN_GETRF, CUSOLVER_ALG_0);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_pivots);
}

template <typename T>
void qr_svd_eigen(cusolverDnHandle_t h, cusolverDnParams_t params, int* d_info) {
  using R = typename Type<T>::Real;
  const char* name = Type<T>::name;
  const int64_t m = 7, n = 5;
  const std::vector<T> a = general<T>(m, n);
  T* d_a = device_copy(a);
  T* d_tau;
  cudaMalloc(&d_tau, n * sizeof(T));
  {
    Buffers w;
    cusolverStatus_t s = cusolverDnXgeqrf_bufferSize(h, params, m, n, Type<T>::data, d_a, m, Type<T>::data, d_tau,
                                                     Type<T>::data, &w.device_bytes, &w.host_bytes);
    w.make("geqrf", name);
    printf("%s Xgeqrf: size %s", name, status_name(s));
    s = cusolverDnXgeqrf(h, params, m, n, Type<T>::data, d_a, m, Type<T>::data, d_tau, Type<T>::data, w.device,
                         w.device_bytes, w.host, w.host_bytes, d_info);
    printf(", factor %s info %d\n", status_name(s), read_info(d_info));
    const std::vector<T> qr = host_copy(d_a, m * n);
    std::vector<T> diagonal;
    for (int i = 0; i < n; ++i) diagonal.push_back(qr[i + i * m]);
    print_values("R diagonal", diagonal, 4);
  }
  // Singular values: of the same matrix.
  {
    cudaMemcpy(d_a, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
    void* d_s;
    cudaMalloc(&d_s, n * sizeof(double));
    T *d_u, *d_vt;
    cudaMalloc(&d_u, m * m * sizeof(T));
    cudaMalloc(&d_vt, n * n * sizeof(T));
    for (signed char job : {'N', 'S', 'A'}) {
      cudaMemcpy(d_a, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
      Buffers w;
      cusolverStatus_t s = cusolverDnXgesvd_bufferSize(h, params, job, job, m, n, Type<T>::data, d_a, m,
                                                       Type<T>::real, d_s, Type<T>::data, d_u, m, Type<T>::data, d_vt,
                                                       n, Type<T>::data, &w.device_bytes, &w.host_bytes);
      w.make("gesvd", name);
      printf("%s Xgesvd job %c: size %s", name, job, status_name(s));
      s = cusolverDnXgesvd(h, params, job, job, m, n, Type<T>::data, d_a, m, Type<T>::real, d_s, Type<T>::data, d_u,
                           m, Type<T>::data, d_vt, n, Type<T>::data, w.device, w.device_bytes, w.host, w.host_bytes,
                           d_info);
      printf(", %s info %d\n", status_name(s), read_info(d_info));
      print_values("singular values", host_copy(static_cast<R*>(d_s), n), 4);
    }
    cudaFree(d_s);
    cudaFree(d_u);
    cudaFree(d_vt);
  }
  // Eigenvalues of the Hermitian matrix.
  {
    const int64_t k = 7;
    const std::vector<T> s_matrix = spd<T>(k);
    T* d_h = device_copy(s_matrix);
    void* d_w;
    cudaMalloc(&d_w, k * sizeof(double));
    for (cusolverEigMode_t jobz : {CUSOLVER_EIG_MODE_NOVECTOR, CUSOLVER_EIG_MODE_VECTOR}) {
      cudaMemcpy(d_h, s_matrix.data(), s_matrix.size() * sizeof(T), cudaMemcpyHostToDevice);
      Buffers w;
      cusolverStatus_t s = cusolverDnXsyevd_bufferSize(h, params, jobz, CUBLAS_FILL_MODE_LOWER, k, Type<T>::data, d_h,
                                                       k, Type<T>::real, d_w, Type<T>::data, &w.device_bytes,
                                                       &w.host_bytes);
      w.make("syevd", name);
      printf("%s Xsyevd jobz %d: size %s", name, static_cast<int>(jobz), status_name(s));
      s = cusolverDnXsyevd(h, params, jobz, CUBLAS_FILL_MODE_LOWER, k, Type<T>::data, d_h, k, Type<T>::real, d_w,
                           Type<T>::data, w.device, w.device_bytes, w.host, w.host_bytes, d_info);
      printf(", %s info %d\n", status_name(s), read_info(d_info));
      print_values("eigenvalues", host_copy(static_cast<R*>(d_w), k), 4);
    }
    // syevdx: every value, values 2 to 4 (1-based), values in (5, 8].
    for (cusolverEigRange_t range : {CUSOLVER_EIG_RANGE_ALL, CUSOLVER_EIG_RANGE_I, CUSOLVER_EIG_RANGE_V}) {
      cudaMemcpy(d_h, s_matrix.data(), s_matrix.size() * sizeof(T), cudaMemcpyHostToDevice);
      R vl = 5, vu = 8;
      int64_t found = -1;
      Buffers w;
      cusolverStatus_t s = cusolverDnXsyevdx_bufferSize(h, params, CUSOLVER_EIG_MODE_VECTOR, range,
                                                        CUBLAS_FILL_MODE_UPPER, k, Type<T>::data, d_h, k, &vl, &vu, 2,
                                                        4, &found, Type<T>::real, d_w, Type<T>::data, &w.device_bytes,
                                                        &w.host_bytes);
      w.make("syevdx", name);
      printf("%s Xsyevdx range %d: size %s", name, static_cast<int>(range), status_name(s));
      found = -1;
      s = cusolverDnXsyevdx(h, params, CUSOLVER_EIG_MODE_VECTOR, range, CUBLAS_FILL_MODE_UPPER, k, Type<T>::data, d_h,
                            k, &vl, &vu, 2, 4, &found, Type<T>::real, d_w, Type<T>::data, w.device, w.device_bytes,
                            w.host, w.host_bytes, d_info);
      printf(", %s info %d found %lld\n", status_name(s), read_info(d_info), static_cast<long long>(found));
      if (found > 0 && found <= k) print_values("eigenvalues", host_copy(static_cast<R*>(d_w), found), 4);
    }
    cudaFree(d_h);
    cudaFree(d_w);
  }
  // The inverse of a unit-diagonal triangular matrix (integers).
  {
    const int64_t k = 5;
    for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER}) {
      for (cublasDiagType_t diag : {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT}) {
        std::vector<T> t(k * k, element<T>(0));
        for (int j = 0; j < k; ++j)
          for (int i = 0; i < k; ++i) {
            const bool inside = uplo == CUBLAS_FILL_MODE_LOWER ? i > j : i < j;
            if (i == j) t[i + j * k] = element<T>(diag == CUBLAS_DIAG_UNIT ? 7 : 1);  // 7: not to be read
            else if (inside) t[i + j * k] = element<T>((i + 2 * j) % 3 - 1, (i + j) % 2);
            else t[i + j * k] = element<T>(9);  // the other triangle: not to be read or written
          }
        T* d_t = device_copy(t);
        Buffers w;
        cusolverStatus_t s = cusolverDnXtrtri_bufferSize(h, uplo, diag, k, Type<T>::data, d_t, k, &w.device_bytes,
                                                         &w.host_bytes);
        w.make("trtri", name);
        printf("%s Xtrtri %s %s: size %s", name, uplo == CUBLAS_FILL_MODE_LOWER ? "lower" : "upper",
               diag == CUBLAS_DIAG_UNIT ? "unit" : "non-unit", status_name(s));
        s = cusolverDnXtrtri(h, uplo, diag, k, Type<T>::data, d_t, k, w.device, w.device_bytes, w.host, w.host_bytes,
                             d_info);
        printf(", %s info %d\n", status_name(s), read_info(d_info));
        print_values("inverse", host_copy(d_t, k * k));
        cudaFree(d_t);
      }
    }
  }
  cudaFree(d_a);
  cudaFree(d_tau);
}

void bad_arguments(cusolverDnHandle_t h, cusolverDnParams_t params, int* d_info) {
  printf("bad arguments\n");
  const int64_t n = 4;
  double* d_a;
  cudaMalloc(&d_a, 64 * sizeof(double));
  int64_t* d_pivots;
  cudaMalloc(&d_pivots, 16 * sizeof(int64_t));
  void* d_work;
  cudaMalloc(&d_work, 1 << 20);
  std::vector<char> host_work(1 << 20);
  auto report = [&](const char* what, cusolverStatus_t s) {
    printf(" %s: %s info %d\n", what, status_name(s), read_info(d_info));
    cudaMemset(d_info, 0x7f, sizeof(int));
  };
  cudaMemset(d_info, 0x7f, sizeof(int));
  size_t dev_bytes = 0, host_bytes = 0;
  printf(" potrf_bufferSize n -1: %s\n",
         status_name(cusolverDnXpotrf_bufferSize(h, params, CUBLAS_FILL_MODE_LOWER, -1, CUDA_R_64F, d_a, n,
                                                 CUDA_R_64F, &dev_bytes, &host_bytes)));
  report("potrf n -1", cusolverDnXpotrf(h, params, CUBLAS_FILL_MODE_LOWER, -1, CUDA_R_64F, d_a, n, CUDA_R_64F,
                                        d_work, 1 << 20, host_work.data(), 1 << 20, d_info));
  report("potrf lda 2 < n", cusolverDnXpotrf(h, params, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, d_a, 2, CUDA_R_64F,
                                             d_work, 1 << 20, host_work.data(), 1 << 20, d_info));
  report("potrf bad uplo", cusolverDnXpotrf(h, params, static_cast<cublasFillMode_t>(7), n, CUDA_R_64F, d_a, n,
                                            CUDA_R_64F, d_work, 1 << 20, host_work.data(), 1 << 20, d_info));
  report("potrf half", cusolverDnXpotrf(h, params, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_16F, d_a, n, CUDA_R_16F, d_work,
                                        1 << 20, host_work.data(), 1 << 20, d_info));
  report("potrs nrhs -1", cusolverDnXpotrs(h, params, CUBLAS_FILL_MODE_LOWER, n, -1, CUDA_R_64F, d_a, n, CUDA_R_64F,
                                           d_a, n, d_info));
  report("getrs bad trans", cusolverDnXgetrs(h, params, static_cast<cublasOperation_t>(9), n, 1, CUDA_R_64F, d_a, n,
                                             d_pivots, CUDA_R_64F, d_a, n, d_info));
  report("getrs ldb 2 < n", cusolverDnXgetrs(h, params, CUBLAS_OP_N, n, 1, CUDA_R_64F, d_a, n, d_pivots, CUDA_R_64F,
                                             d_a, 2, d_info));
  report("geqrf n -1", cusolverDnXgeqrf(h, params, n, -1, CUDA_R_64F, d_a, n, CUDA_R_64F, d_a, CUDA_R_64F, d_work,
                                        1 << 20, host_work.data(), 1 << 20, d_info));
  report("syevd bad jobz", cusolverDnXsyevd(h, params, static_cast<cusolverEigMode_t>(5), CUBLAS_FILL_MODE_LOWER, n,
                                            CUDA_R_64F, d_a, n, CUDA_R_64F, d_a, CUDA_R_64F, d_work, 1 << 20,
                                            host_work.data(), 1 << 20, d_info));
  report("gesvd job X", cusolverDnXgesvd(h, params, 'X', 'N', n, n, CUDA_R_64F, d_a, n, CUDA_R_64F, d_a, CUDA_R_64F,
                                         d_a, n, CUDA_R_64F, d_a, n, CUDA_R_64F, d_work, 1 << 20, host_work.data(),
                                         1 << 20, d_info));
  report("trtri n -1", cusolverDnXtrtri(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, -1, CUDA_R_64F, d_a, n,
                                        d_work, 1 << 20, host_work.data(), 1 << 20, d_info));
  // Left out: getrf with m = -1 or lda < m returns SUCCESS on the H200 and breaks the device;
  // a NULL handle crashes NVIDIA's library; a float matrix with a double compute type runs.
  printf(" SetAdvOptions GETRF alg 5: %s\n",
         status_name(cusolverDnSetAdvOptions(params, CUSOLVERDN_GETRF, static_cast<cusolverAlgMode_t>(5))));
  cudaFree(d_a);
  cudaFree(d_pivots);
  cudaFree(d_work);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // what was printed survives a crash of the library
  cusolverDnHandle_t h;
  printf("Create: %s\n", status_name(cusolverDnCreate(&h)));
  cusolverDnParams_t params;
  printf("CreateParams: %s\n", status_name(cusolverDnCreateParams(&params)));
  int* d_info;
  cudaMalloc(&d_info, sizeof(int));
  cholesky<float>(h, params, d_info);
  cholesky<double>(h, params, d_info);
  cholesky<cuComplex>(h, params, d_info);
  cholesky<cuDoubleComplex>(h, params, d_info);
  lu<float>(h, params, d_info);
  lu<double>(h, params, d_info);
  lu<cuComplex>(h, params, d_info);
  lu<cuDoubleComplex>(h, params, d_info);
  qr_svd_eigen<float>(h, params, d_info);
  qr_svd_eigen<double>(h, params, d_info);
  qr_svd_eigen<cuComplex>(h, params, d_info);
  qr_svd_eigen<cuDoubleComplex>(h, params, d_info);
  bad_arguments(h, params, d_info);
  printf("DestroyParams: %s\n", status_name(cusolverDnDestroyParams(params)));
  printf("Destroy: %s\n", status_name(cusolverDnDestroy(h)));
  cudaFree(d_info);
  printf("last error: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
