// cuSOLVER's low-level sparse API (cusolverSp_LOWLEVEL_PREVIEW.h) through cucpu's
// libcusolver.so.12, compared with the GPU's output: Cholesky and QR step by step on the host and
// the device, LU on the host, in every element type; zero pivots (their positions), Cholesky's
// diagonal (an elimination tree that is not a chain shows the order it factors in), LU's factors
// (only that P A Q^T = L U holds, L unit lower and U upper: which pivots a library picks may
// differ; P, Q and the sizes go to stderr), QR's b overwritten by Q^H b (only that it changed,
// keeping its norm), the calls out of order and bad arguments. Every system's solution is a
// vector of small nonzero integers, printed rounded well above the solvers' errors.
// Left out: csrqrSetup before csrqrAnalysis, which NVIDIA's library takes (status 0) on the
// H200 and then corrupts its heap (free(): invalid next size at a later call).
// NVCC-FLAGS: -lcusolver -lcusparse
#define DISABLE_CUSOLVER_DEPRECATED
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverSp.h>
#include <cusolverSp_LOWLEVEL_PREVIEW.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

struct Csr {
  int rows, cols;
  std::vector<int> row_ptr, col_ind;
  std::vector<double> values;
  int nnz() const { return static_cast<int>(col_ind.size()); }
};

Csr from_dense(int rows, int cols, const std::vector<double>& dense) {
  Csr a{rows, cols, {0}, {}, {}};
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j)
      if (dense[i * cols + j] != 0) {
        a.col_ind.push_back(j);
        a.values.push_back(dense[i * cols + j]);
      }
    a.row_ptr.push_back(a.nnz());
  }
  return a;
}

Csr with_base(Csr a, int base) {
  for (int& r : a.row_ptr) r += base;
  for (int& c : a.col_ind) c += base;
  return a;
}

// Symmetric positive definite: 4 on the diagonal, -1 next to it and three apart (its
// elimination tree is a chain).
std::vector<double> spd(int n) {
  std::vector<double> d(n * n, 0);
  for (int i = 0; i < n; ++i) {
    d[i * n + i] = 4;
    for (int k : {1, 3})
      if (i + k < n) d[i * n + i + k] = d[(i + k) * n + i] = -1;
  }
  return d;
}

// Nonsymmetric, nonsingular; its first diagonal entry is small, so LU must pivot.
std::vector<double> general(int n) {
  std::vector<double> d(n * n, 0);
  for (int i = 0; i < n; ++i) {
    d[i * n + i] = i == 0 ? 1 : 6;
    if (i + 1 < n) d[i * n + i + 1] = 2;
    if (i >= 2) d[i * n + i - 2] = -3;
    if (i + 4 < n) d[(i + 4) * n + i] = 1;
  }
  d[1 * n + 0] = 5;
  return d;
}

// Tall, full rank.
std::vector<double> tall(int m, int n) {
  std::vector<double> d(m * n, 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if ((i + 2 * j) % 3 == 0 || i == j) d[i * n + j] = 1 + (i * 5 + j) % 7;
  return d;
}

std::vector<double> solution(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i % 2 ? -1 : 1) * (1 + i % 5);
  return x;
}

std::vector<double> times(const Csr& a, const std::vector<double>& x) {
  std::vector<double> b(a.rows, 0);
  for (int i = 0; i < a.rows; ++i)
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) b[i] += a.values[k] * x[a.col_ind[k]];
  return b;
}

template <typename T>
T element(double v, double imag = 0);
template <>
float element<float>(double v, double) {
  return static_cast<float>(v);
}
template <>
double element<double>(double v, double) {
  return v;
}
template <>
cuComplex element<cuComplex>(double v, double imag) {
  return make_cuComplex(static_cast<float>(v), static_cast<float>(imag));
}
template <>
cuDoubleComplex element<cuDoubleComplex>(double v, double imag) {
  return make_cuDoubleComplex(v, imag);
}
std::complex<double> value(float v) { return v; }
std::complex<double> value(double v) { return v; }
std::complex<double> value(cuComplex v) { return {cuCrealf(v), cuCimagf(v)}; }
std::complex<double> value(cuDoubleComplex v) { return {cuCreal(v), cuCimag(v)}; }

// imag: each complex element's imaginary part equals its real part (right-hand sides, so that a
// complex system's solution is x (1 + i)).
template <typename T>
std::vector<T> converted(const std::vector<double>& v, bool imag = false) {
  std::vector<T> out;
  for (double d : v) out.push_back(element<T>(d, imag ? d : 0));
  return out;
}

template <typename T>
void print_solution(const char* label, const std::vector<T>& x) {
  printf("  %s:", label);
  for (const T& v : x) {
    const std::complex<double> z = value(v);
    const double r = std::round(z.real() * 100) / 100, i = std::round(z.imag() * 100) / 100;
    if (std::isnan(z.real()))
      printf(" nan");
    else if (i != 0)
      printf(" %.2f%+.2fi", r + 0.0, i + 0.0);
    else
      printf(" %.2f", r + 0.0);
  }
  printf("\n");
}

cusparseMatDescr_t descriptor(int base, cusparseMatrixType_t type = CUSPARSE_MATRIX_TYPE_GENERAL) {
  cusparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  cusparseSetMatIndexBase(d, base ? CUSPARSE_INDEX_BASE_ONE : CUSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatType(d, type);
  return d;
}

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T));
  cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <typename T>
std::vector<T> download(const T* d, size_t n) {
  std::vector<T> v(n);
  cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return v;
}

template <typename T>
struct Api;
#define API(T, R, P)                                                               \
  template <>                                                                      \
  struct Api<T> {                                                                  \
    using Real = R;                                                                \
    static constexpr const char* name = #P;                                        \
    static constexpr auto chol_buffer_host = cusolverSp##P##csrcholBufferInfoHost; \
    static constexpr auto chol_factor_host = cusolverSp##P##csrcholFactorHost;     \
    static constexpr auto chol_pivot_host = cusolverSp##P##csrcholZeroPivotHost;   \
    static constexpr auto chol_solve_host = cusolverSp##P##csrcholSolveHost;       \
    static constexpr auto chol_buffer = cusolverSp##P##csrcholBufferInfo;          \
    static constexpr auto chol_factor = cusolverSp##P##csrcholFactor;              \
    static constexpr auto chol_pivot = cusolverSp##P##csrcholZeroPivot;            \
    static constexpr auto chol_solve = cusolverSp##P##csrcholSolve;                \
    static constexpr auto chol_diag = cusolverSp##P##csrcholDiag;                  \
    static constexpr auto qr_buffer_host = cusolverSp##P##csrqrBufferInfoHost;     \
    static constexpr auto qr_setup_host = cusolverSp##P##csrqrSetupHost;           \
    static constexpr auto qr_factor_host = cusolverSp##P##csrqrFactorHost;         \
    static constexpr auto qr_pivot_host = cusolverSp##P##csrqrZeroPivotHost;       \
    static constexpr auto qr_solve_host = cusolverSp##P##csrqrSolveHost;           \
    static constexpr auto qr_buffer = cusolverSp##P##csrqrBufferInfo;              \
    static constexpr auto qr_setup = cusolverSp##P##csrqrSetup;                    \
    static constexpr auto qr_factor = cusolverSp##P##csrqrFactor;                  \
    static constexpr auto qr_pivot = cusolverSp##P##csrqrZeroPivot;                \
    static constexpr auto qr_solve = cusolverSp##P##csrqrSolve;                    \
    static constexpr auto lu_buffer = cusolverSp##P##csrluBufferInfoHost;          \
    static constexpr auto lu_factor = cusolverSp##P##csrluFactorHost;              \
    static constexpr auto lu_pivot = cusolverSp##P##csrluZeroPivotHost;            \
    static constexpr auto lu_solve = cusolverSp##P##csrluSolveHost;                \
    static constexpr auto lu_extract = cusolverSp##P##csrluExtractHost;            \
  };
API(float, float, S)
API(double, double, D)
API(cuComplex, float, C)
API(cuDoubleComplex, double, Z)

// ---- Cholesky ----

// Factors A and solves A x = b on the host; prints each step's status, the zero pivot and x.
template <typename T>
void cholesky_host(cusolverSpHandle_t handle, const Csr& a0, int base, const std::vector<double>& b0, double tol) {
  using A = Api<T>;
  const Csr a = with_base(a0, base);
  const int n = a.rows, nnz = a.nnz();
  const std::vector<T> values = converted<T>(a.values), b = converted<T>(b0, true);
  cusparseMatDescr_t descr = descriptor(base);
  csrcholInfoHost_t info;
  printf(" %s chol host base %d: create %d", A::name, base, cusolverSpCreateCsrcholInfoHost(&info));
  printf(" analysis %d",
         cusolverSpXcsrcholAnalysisHost(handle, n, nnz, descr, a.row_ptr.data(), a.col_ind.data(), info));
  size_t internal = 0, workspace = 0;
  printf(" buffer %d", A::chol_buffer_host(handle, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(),
                                           info, &internal, &workspace));
  fprintf(stderr, "%s chol host n %d: internal %zu workspace %zu\n", A::name, n, internal, workspace);
  std::vector<char> buffer(workspace + 1);
  printf(" factor %d", A::chol_factor_host(handle, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(),
                                           info, buffer.data()));
  int position = -7;
  printf(" zero pivot %d", A::chol_pivot_host(handle, info, static_cast<typename A::Real>(tol), &position));
  printf(" position %d\n", position);
  if (position < 0) {
    std::vector<T> x(n, element<T>(-99));
    printf("  solve %d\n", A::chol_solve_host(handle, n, b.data(), x.data(), info, buffer.data()));
    print_solution("x", x);
  }
  printf("  destroy %d\n", cusolverSpDestroyCsrcholInfoHost(info));
  cusparseDestroyMatDescr(descr);
}

// The same on the device, with L's diagonal (csrcholDiag) printed.
template <typename T>
void cholesky_device(cusolverSpHandle_t handle, const Csr& a0, int base, const std::vector<double>& b0, double tol) {
  using A = Api<T>;
  const Csr a = with_base(a0, base);
  const int n = a.rows, nnz = a.nnz();
  int* d_rows = upload(a.row_ptr);
  int* d_cols = upload(a.col_ind);
  T* d_values = upload(converted<T>(a.values));
  T* d_b = upload(converted<T>(b0, true));
  T* d_x = upload(std::vector<T>(n, element<T>(-99)));
  typename A::Real* d_diag = upload(std::vector<typename A::Real>(n, -99));
  cusparseMatDescr_t descr = descriptor(base);
  csrcholInfo_t info;
  printf(" %s chol device base %d: create %d", A::name, base, cusolverSpCreateCsrcholInfo(&info));
  printf(" analysis %d", cusolverSpXcsrcholAnalysis(handle, n, nnz, descr, d_rows, d_cols, info));
  size_t internal = 0, workspace = 0;
  printf(" buffer %d", A::chol_buffer(handle, n, nnz, descr, d_values, d_rows, d_cols, info, &internal, &workspace));
  fprintf(stderr, "%s chol device n %d: internal %zu workspace %zu\n", A::name, n, internal, workspace);
  void* buffer = nullptr;
  cudaMalloc(&buffer, workspace + 1);
  printf(" factor %d", A::chol_factor(handle, n, nnz, descr, d_values, d_rows, d_cols, info, buffer));
  int position = -7;
  printf(" zero pivot %d", A::chol_pivot(handle, info, static_cast<typename A::Real>(tol), &position));
  printf(" position %d\n", position);
  if (position < 0) {
    printf("  solve %d", A::chol_solve(handle, n, d_b, d_x, info, buffer));
    printf(" diag %d\n", A::chol_diag(handle, info, d_diag));
    print_solution("x", download(d_x, n));
    printf("  diag(L):");
    for (typename A::Real v : download(d_diag, n)) printf(" %.4f", static_cast<double>(v));
    printf("\n");
  }
  printf("  destroy %d\n", cusolverSpDestroyCsrcholInfo(info));
  for (void* p : {(void*)d_rows, (void*)d_cols, (void*)d_values, (void*)d_b, (void*)d_x, (void*)d_diag, buffer})
    cudaFree(p);
  cusparseDestroyMatDescr(descr);
}

template <typename T>
void cholesky(cusolverSpHandle_t handle) {
  const int n = 10;
  const Csr a = from_dense(n, n, spd(n));
  const std::vector<double> b = times(a, solution(n));
  for (int base : {0, 1}) {
    cholesky_host<T>(handle, a, base, b, 1e-6);
    cholesky_device<T>(handle, a, base, b, 1e-6);
  }
}

// A matrix whose elimination tree is not a chain: 7 <- {5, 6}, 5 <- {3, 4}, 3 <- 1, 4 <- {0, 2}.
std::vector<double> forest(double d0, double d2) {
  const int n = 8;
  std::vector<double> d(n * n, 0);
  const int edges[][2] = {{0, 4}, {1, 3}, {2, 4}, {3, 5}, {4, 5}, {5, 7}, {6, 7}};
  for (const auto& e : edges) d[e[0] * n + e[1]] = d[e[1] * n + e[0]] = -1;
  for (int i = 0; i < n; ++i) d[i * n + i] = 4 + i;
  d[0] = d0;
  d[2 * n + 2] = d2;
  return d;
}

void cholesky_order(cusolverSpHandle_t handle) {
  printf("cholesky order and zero pivots\n");
  const int n = 8;
  const std::vector<double> x0 = solution(n);
  const Csr a = from_dense(n, n, forest(4, 6));
  cholesky_host<double>(handle, a, 0, times(a, x0), 1e-12);
  cholesky_device<double>(handle, a, 0, times(a, x0), 1e-12);
  // Not positive definite at row 2; then row 0's L(0,0) = 0.5, below tol 0.9.
  const Csr indefinite = from_dense(n, n, forest(4, -4)), small = from_dense(n, n, forest(0.25, 6));
  for (const Csr* m : {&indefinite, &small}) {
    cholesky_host<double>(handle, *m, 0, times(*m, x0), 0.9);
    cholesky_device<double>(handle, *m, 0, times(*m, x0), 0.9);
    cholesky_host<float>(handle, *m, 1, times(*m, x0), 0.9);
    cholesky_device<cuDoubleComplex>(handle, *m, 1, times(*m, x0), 0.9);
  }
}

// ---- QR ----

double norm(const std::vector<std::complex<double>>& v) {
  double s = 0;
  for (const auto& z : v) s += std::norm(z);
  return std::sqrt(s);
}

// Whether b changed and kept its norm (Q^H b).
template <typename T>
void print_rhs(const std::vector<T>& before, const std::vector<T>& after, double tol) {
  std::vector<std::complex<double>> u, w;
  bool changed = false;
  for (size_t i = 0; i < before.size(); ++i) {
    u.push_back(value(before[i]));
    w.push_back(value(after[i]));
    changed = changed || std::abs(u.back() - w.back()) > tol * norm(u);
  }
  printf("  b changed: %s, its norm kept: %s\n", changed ? "yes" : "no",
         std::abs(norm(u) - norm(w)) <= tol * norm(u) ? "yes" : "no");
}

// Factors (A - mu I) on the host and the device; solves by Solve and by Factor given b and x.
template <typename T>
void qr_both(cusolverSpHandle_t handle, const Csr& a0, int base, double mu, const std::vector<double>& b0, double tol) {
  using A = Api<T>;
  const double check = sizeof(typename A::Real) == 4 ? 1e-4 : 1e-10;
  const Csr a = with_base(a0, base);
  const int m = a.rows, n = a.cols, nnz = a.nnz();
  const std::vector<T> values = converted<T>(a.values), b = converted<T>(b0, true);
  const T shift = element<T>(mu);
  cusparseMatDescr_t descr = descriptor(base);
  for (bool with_rhs : {false, true}) {
    csrqrInfoHost_t info;
    printf(" %s qr host %dx%d base %d mu %.0f%s: create %d", A::name, m, n, base, mu, with_rhs ? " factor with b" : "",
           cusolverSpCreateCsrqrInfoHost(&info));
    printf(" analysis %d",
           cusolverSpXcsrqrAnalysisHost(handle, m, n, nnz, descr, a.row_ptr.data(), a.col_ind.data(), info));
    size_t internal = 0, workspace = 0;
    printf(" buffer %d", A::qr_buffer_host(handle, m, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(),
                                           info, &internal, &workspace));
    fprintf(stderr, "%s qr host %dx%d: internal %zu workspace %zu\n", A::name, m, n, internal, workspace);
    std::vector<char> buffer(workspace + 1);
    printf(" setup %d",
           A::qr_setup_host(handle, m, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(), shift, info));
    std::vector<T> rhs = b, x(n, element<T>(-99));
    printf(" factor %d", A::qr_factor_host(handle, m, n, nnz, with_rhs ? rhs.data() : nullptr,
                                           with_rhs ? x.data() : nullptr, info, buffer.data()));
    int position = -7;
    printf(" zero pivot %d", A::qr_pivot_host(handle, info, static_cast<typename A::Real>(tol), &position));
    printf(" position %d\n", position);
    if (position < 0) {
      if (!with_rhs) printf("  solve %d\n", A::qr_solve_host(handle, m, n, rhs.data(), x.data(), info, buffer.data()));
      print_solution("x", x);
      print_rhs(b, rhs, check);
    }
    printf("  destroy %d\n", cusolverSpDestroyCsrqrInfoHost(info));
  }
  int* d_rows = upload(a.row_ptr);
  int* d_cols = upload(a.col_ind);
  T* d_values = upload(values);
  for (bool with_rhs : {false, true}) {
    T* d_b = upload(b);
    T* d_x = upload(std::vector<T>(n, element<T>(-99)));
    csrqrInfo_t info;
    printf(" %s qr device %dx%d base %d mu %.0f%s: create %d", A::name, m, n, base, mu,
           with_rhs ? " factor with b" : "", cusolverSpCreateCsrqrInfo(&info));
    printf(" analysis %d", cusolverSpXcsrqrAnalysis(handle, m, n, nnz, descr, d_rows, d_cols, info));
    size_t internal = 0, workspace = 0;
    printf(" buffer %d", A::qr_buffer(handle, m, n, nnz, descr, d_values, d_rows, d_cols, info, &internal, &workspace));
    fprintf(stderr, "%s qr device %dx%d: internal %zu workspace %zu\n", A::name, m, n, internal, workspace);
    void* buffer = nullptr;
    cudaMalloc(&buffer, workspace + 1);
    printf(" setup %d", A::qr_setup(handle, m, n, nnz, descr, d_values, d_rows, d_cols, shift, info));
    printf(" factor %d",
           A::qr_factor(handle, m, n, nnz, with_rhs ? d_b : nullptr, with_rhs ? d_x : nullptr, info, buffer));
    int position = -7;
    printf(" zero pivot %d", A::qr_pivot(handle, info, static_cast<typename A::Real>(tol), &position));
    printf(" position %d\n", position);
    if (position < 0) {
      if (!with_rhs) printf("  solve %d\n", A::qr_solve(handle, m, n, d_b, d_x, info, buffer));
      print_solution("x", download(d_x, n));
      print_rhs(b, download(d_b, m), check);
    }
    printf("  destroy %d\n", cusolverSpDestroyCsrqrInfo(info));
    cudaFree(d_b);
    cudaFree(d_x);
    cudaFree(buffer);
  }
  cudaFree(d_rows);
  cudaFree(d_cols);
  cudaFree(d_values);
  cusparseDestroyMatDescr(descr);
}

// (A - mu I) x = b: b made from x so that x is the solution.
std::vector<double> shifted_times(const Csr& a, double mu, const std::vector<double>& x) {
  std::vector<double> b = times(a, x);
  for (int i = 0; i < std::min(a.rows, a.cols); ++i) b[i] -= mu * x[i];
  return b;
}

template <typename T>
void qr(cusolverSpHandle_t handle) {
  const int n = 10;
  const Csr g = from_dense(n, n, general(n)), t = from_dense(12, 8, tall(12, 8));
  qr_both<T>(handle, g, 0, 0, shifted_times(g, 0, solution(n)), 1e-6);
  qr_both<T>(handle, g, 1, 2, shifted_times(g, 2, solution(n)), 1e-6);
  qr_both<T>(handle, t, 0, 0, shifted_times(t, 0, solution(8)), 1e-6);
}

void qr_zero_pivots(cusolverSpHandle_t handle) {
  printf("qr zero pivots\n");
  const int n = 8;
  // Column 4 equal to column 2; then a tolerance above every |R(j,j)|.
  std::vector<double> e = general(n);
  for (int i = 0; i < n; ++i) e[i * n + 4] = e[i * n + 2];
  const std::vector<double> b(n, 1);
  qr_both<double>(handle, from_dense(n, n, e), 0, 0, b, 1e-12);
  qr_both<cuDoubleComplex>(handle, from_dense(n, n, e), 1, 0, b, 1e-12);
  qr_both<double>(handle, from_dense(n, n, general(n)), 0, 0, b, 100);
  // A - mu I singular: upper bidiagonal, mu = 6 zeroes its diagonal at 5, whose column is then
  // in the span of those before it.
  std::vector<double> d(n * n, 0);
  for (int i = 0; i < n; ++i) d[i * n + i] = i == 7 ? 10 : i + 1;
  for (int i = 0; i + 1 < n; ++i) d[i * n + i + 1] = 1;
  qr_both<double>(handle, from_dense(n, n, d), 0, 6, b, 1e-12);
}

// ---- LU ----

template <typename T>
void lu(cusolverSpHandle_t handle, const Csr& a0, int base, double threshold, const std::vector<double>& b0,
        double tol) {
  using A = Api<T>;
  const Csr a = with_base(a0, base);
  const int n = a.rows, nnz = a.nnz();
  const std::vector<T> values = converted<T>(a.values), b = converted<T>(b0, true);
  cusparseMatDescr_t descr = descriptor(base);
  csrluInfoHost_t info;
  printf(" %s lu base %d threshold %.1f: create %d", A::name, base, threshold, cusolverSpCreateCsrluInfoHost(&info));
  printf(" analysis %d", cusolverSpXcsrluAnalysisHost(handle, n, nnz, descr, a.row_ptr.data(), a.col_ind.data(), info));
  size_t internal = 0, workspace = 0;
  printf(" buffer %d", A::lu_buffer(handle, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(), info,
                                    &internal, &workspace));
  fprintf(stderr, "%s lu n %d: internal %zu workspace %zu\n", A::name, n, internal, workspace);
  std::vector<char> buffer(workspace + 1);
  printf(" factor %d", A::lu_factor(handle, n, nnz, descr, values.data(), a.row_ptr.data(), a.col_ind.data(), info,
                                    static_cast<typename A::Real>(threshold), buffer.data()));
  int position = -7;
  printf(" zero pivot %d", A::lu_pivot(handle, info, static_cast<typename A::Real>(tol), &position));
  printf(" position %d\n", position);
  if (position < 0) {
    std::vector<T> x(n, element<T>(-99));
    printf("  solve %d\n", A::lu_solve(handle, n, b.data(), x.data(), info, buffer.data()));
    print_solution("x", x);
  }
  int nnz_l = -1, nnz_u = -1;
  printf("  nnz %d", cusolverSpXcsrluNnzHost(handle, &nnz_l, &nnz_u, info));
  fprintf(stderr, "%s lu threshold %.1f: nnzL %d nnzU %d\n", A::name, threshold, nnz_l, nnz_u);
  std::vector<int> p(n, -1), q(n, -1), l_rows(n + 1), l_cols(nnz_l + 1), u_rows(n + 1), u_cols(nnz_u + 1);
  std::vector<T> l_values(nnz_l + 1), u_values(nnz_u + 1);
  cusparseMatDescr_t descr_l = descriptor(base), descr_u = descriptor(base);
  printf(" extract %d\n",
         A::lu_extract(handle, p.data(), q.data(), descr_l, l_values.data(), l_rows.data(), l_cols.data(), descr_u,
                       u_values.data(), u_rows.data(), u_cols.data(), info, buffer.data()));
  fprintf(stderr, "%s lu threshold %.1f: P", A::name, threshold);
  for (int v : p) fprintf(stderr, " %d", v);
  fprintf(stderr, " Q");
  for (int v : q) fprintf(stderr, " %d", v);
  fprintf(stderr, "\n");
  // L (its unit diagonal implicit) times U against A(P, Q).
  std::vector<std::complex<double>> l(n * n, 0.0), u(n * n, 0.0), dense(n * n, 0.0);
  bool strictly_lower = true, upper = true, permutations = true;
  for (int i = 0; i < n; ++i) {
    l[i * n + i] = 1;
    for (int k = l_rows[i] - base; k < l_rows[i + 1] - base; ++k) {
      const int j = l_cols[k] - base;
      strictly_lower = strictly_lower && j < i;
      if (j >= 0 && j < n) l[i * n + j] = value(l_values[k]);
    }
    for (int k = u_rows[i] - base; k < u_rows[i + 1] - base; ++k) {
      const int j = u_cols[k] - base;
      upper = upper && j >= i && j < n;
      if (j >= 0 && j < n) u[i * n + j] = value(u_values[k]);
    }
    for (int k = a.row_ptr[i] - base; k < a.row_ptr[i + 1] - base; ++k)
      dense[i * n + a.col_ind[k] - base] = value(values[k]);
  }
  std::vector<int> sp = p, sq = q;
  std::sort(sp.begin(), sp.end());
  std::sort(sq.begin(), sq.end());
  for (int i = 0; i < n; ++i) permutations = permutations && sp[i] == i && sq[i] == i;
  double error = permutations ? 0 : 1e9;
  for (int i = 0; i < n && permutations; ++i)
    for (int j = 0; j < n; ++j) {
      std::complex<double> s = 0;
      for (int k = 0; k < n; ++k) s += l[i * n + k] * u[k * n + j];
      error = std::max(error, std::abs(s - dense[p[i] * n + q[j]]));
    }
  const double check = sizeof(typename A::Real) == 4 ? 1e-4 : 1e-10;
  printf("  P and Q permutations: %s, L strictly lower: %s, U upper: %s, A(P,Q) = L U: %s\n",
         permutations ? "yes" : "no", strictly_lower ? "yes" : "no", upper ? "yes" : "no",
         error < check * 10 ? "yes" : "no");
  printf("  destroy %d\n", cusolverSpDestroyCsrluInfoHost(info));
  cusparseDestroyMatDescr(descr);
  cusparseDestroyMatDescr(descr_l);
  cusparseDestroyMatDescr(descr_u);
}

template <typename T>
void lu_all(cusolverSpHandle_t handle) {
  const int n = 10;
  const Csr g = from_dense(n, n, general(n));
  const std::vector<double> b = times(g, solution(n));
  lu<T>(handle, g, 0, 1.0, b, 1e-6);
  lu<T>(handle, g, 1, 0.5, b, 1e-6);
  lu<T>(handle, g, 0, 0.0, b, 1e-6);
}

void lu_zero_pivots(cusolverSpHandle_t handle) {
  printf("lu zero pivots\n");
  const int n = 8;
  std::vector<double> e = general(n);
  for (int i = 0; i < n; ++i) e[i * n + 4] = e[i * n + 2];
  const std::vector<double> b(n, 1);
  lu<double>(handle, from_dense(n, n, e), 0, 1.0, b, 1e-12);
  lu<cuComplex>(handle, from_dense(n, n, e), 1, 0.0, b, 1e-5);
  lu<double>(handle, from_dense(n, n, general(n)), 0, 1.0, b, 5.5);
}

// ---- calls out of order, bad arguments ----

void host_out_of_order(cusolverSpHandle_t handle) {
  printf("calls out of order (host)\n");
  const int n = 6;
  const Csr a = from_dense(n, n, spd(n));
  const int nnz = a.nnz();
  const int *rows = a.row_ptr.data(), *cols = a.col_ind.data();
  const double* values = a.values.data();
  cusparseMatDescr_t descr = descriptor(0);
  std::vector<double> b(n, 1), x(n), buffer(1024);
  size_t internal = 0, workspace = 0;
  int position = -7;
  {
    csrcholInfoHost_t info;
    cusolverSpCreateCsrcholInfoHost(&info);
    printf(" chol host: buffer before analysis %d",
           cusolverSpDcsrcholBufferInfoHost(handle, n, nnz, descr, values, rows, cols, info, &internal, &workspace));
    printf(" factor before analysis %d",
           cusolverSpDcsrcholFactorHost(handle, n, nnz, descr, values, rows, cols, info, buffer.data()));
    printf(" zero pivot before analysis %d", cusolverSpDcsrcholZeroPivotHost(handle, info, 0, &position));
    printf(" position %d\n", position);
    cusolverSpXcsrcholAnalysisHost(handle, n, nnz, descr, rows, cols, info);
    printf("  after analysis: factor %d",
           cusolverSpDcsrcholFactorHost(handle, n, nnz, descr, values, rows, cols, info, buffer.data()));
    position = -7;
    printf(" zero pivot %d", cusolverSpDcsrcholZeroPivotHost(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" solve %d\n", cusolverSpDcsrcholSolveHost(handle, n, b.data(), x.data(), info, buffer.data()));
    cusolverSpDcsrcholBufferInfoHost(handle, n, nnz, descr, values, rows, cols, info, &internal, &workspace);
    position = -7;
    printf("  after buffer info: zero pivot %d", cusolverSpDcsrcholZeroPivotHost(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" solve %d", cusolverSpDcsrcholSolveHost(handle, n, b.data(), x.data(), info, buffer.data()));
    printf(" factor n - 1 %d",
           cusolverSpDcsrcholFactorHost(handle, n - 1, nnz, descr, values, rows, cols, info, buffer.data()));
    printf(" factor %d\n",
           cusolverSpDcsrcholFactorHost(handle, n, nnz, descr, values, rows, cols, info, buffer.data()));
    cusolverSpDestroyCsrcholInfoHost(info);
  }
  {
    csrqrInfoHost_t info;
    cusolverSpCreateCsrqrInfoHost(&info);
    printf(" qr host: buffer before analysis %d",
           cusolverSpDcsrqrBufferInfoHost(handle, n, n, nnz, descr, values, rows, cols, info, &internal, &workspace));
    printf(" factor before analysis %d\n",
           cusolverSpDcsrqrFactorHost(handle, n, n, nnz, nullptr, nullptr, info, buffer.data()));
    cusolverSpXcsrqrAnalysisHost(handle, n, n, nnz, descr, rows, cols, info);
    printf("  after analysis: setup %d",
           cusolverSpDcsrqrSetupHost(handle, n, n, nnz, descr, values, rows, cols, 0, info));
    printf(" factor %d", cusolverSpDcsrqrFactorHost(handle, n, n, nnz, nullptr, nullptr, info, buffer.data()));
    position = -7;
    printf(" zero pivot %d", cusolverSpDcsrqrZeroPivotHost(handle, info, 0, &position));
    printf(" position %d\n", position);
    cusolverSpDcsrqrBufferInfoHost(handle, n, n, nnz, descr, values, rows, cols, info, &internal, &workspace);
    printf("  after buffer info: factor %d",
           cusolverSpDcsrqrFactorHost(handle, n, n, nnz, nullptr, nullptr, info, buffer.data()));
    printf(" solve %d", cusolverSpDcsrqrSolveHost(handle, n, n, b.data(), x.data(), info, buffer.data()));
    printf(" setup %d", cusolverSpDcsrqrSetupHost(handle, n, n, nnz, descr, values, rows, cols, 0, info));
    position = -7;
    printf(" zero pivot before factor %d", cusolverSpDcsrqrZeroPivotHost(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" factor m, n - 1 %d",
           cusolverSpDcsrqrFactorHost(handle, n, n - 1, nnz, nullptr, nullptr, info, buffer.data()));
    printf(" factor %d\n", cusolverSpDcsrqrFactorHost(handle, n, n, nnz, nullptr, nullptr, info, buffer.data()));
    cusolverSpDestroyCsrqrInfoHost(info);
  }
  {
    csrluInfoHost_t info;
    cusolverSpCreateCsrluInfoHost(&info);
    printf(" lu host: buffer before analysis %d",
           cusolverSpDcsrluBufferInfoHost(handle, n, nnz, descr, values, rows, cols, info, &internal, &workspace));
    printf(" factor before analysis %d",
           cusolverSpDcsrluFactorHost(handle, n, nnz, descr, values, rows, cols, info, 1.0, buffer.data()));
    int nnz_l = -7, nnz_u = -7;
    printf(" nnz before analysis %d %d %d\n", cusolverSpXcsrluNnzHost(handle, &nnz_l, &nnz_u, info), nnz_l, nnz_u);
    cusolverSpXcsrluAnalysisHost(handle, n, nnz, descr, rows, cols, info);
    printf("  after analysis: factor %d",
           cusolverSpDcsrluFactorHost(handle, n, nnz, descr, values, rows, cols, info, 1.0, buffer.data()));
    position = -7;
    printf(" zero pivot %d", cusolverSpDcsrluZeroPivotHost(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" solve %d\n", cusolverSpDcsrluSolveHost(handle, n, b.data(), x.data(), info, buffer.data()));
    cusolverSpDcsrluBufferInfoHost(handle, n, nnz, descr, values, rows, cols, info, &internal, &workspace);
    nnz_l = nnz_u = -7;
    printf("  after buffer info: nnz %d %d %d", cusolverSpXcsrluNnzHost(handle, &nnz_l, &nnz_u, info), nnz_l, nnz_u);
    position = -7;
    printf(" zero pivot %d", cusolverSpDcsrluZeroPivotHost(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" solve %d", cusolverSpDcsrluSolveHost(handle, n, b.data(), x.data(), info, buffer.data()));
    printf(" factor n - 1 %d",
           cusolverSpDcsrluFactorHost(handle, n - 1, nnz, descr, values, rows, cols, info, 1.0, buffer.data()));
    printf(" factor %d\n",
           cusolverSpDcsrluFactorHost(handle, n, nnz, descr, values, rows, cols, info, 1.0, buffer.data()));
    cusolverSpDestroyCsrluInfoHost(info);
  }
  cusparseDestroyMatDescr(descr);
}

void bad_arguments(cusolverSpHandle_t handle) {
  printf("bad arguments\n");
  const int n = 6;
  const Csr a = from_dense(n, n, spd(n));
  const int nnz = a.nnz();
  const int *rows = a.row_ptr.data(), *cols = a.col_ind.data();
  const double* values = a.values.data();
  cusparseMatDescr_t descr = descriptor(0), symmetric = descriptor(0, CUSPARSE_MATRIX_TYPE_SYMMETRIC);
  std::vector<double> buffer(1024);
  csrcholInfoHost_t chol;
  csrqrInfoHost_t qr;
  csrluInfoHost_t lu;
  cusolverSpCreateCsrcholInfoHost(&chol);
  cusolverSpCreateCsrqrInfoHost(&qr);
  cusolverSpCreateCsrluInfoHost(&lu);
  auto chol_analysis = [&](cusolverSpHandle_t h, int size, int count, cusparseMatDescr_t d) {
    return cusolverSpXcsrcholAnalysisHost(h, size, count, d, rows, cols, chol);
  };
  printf(" chol analysis: null handle %d n -1 %d nnz -1 %d n 0 %d symmetric %d\n",
         chol_analysis(nullptr, n, nnz, descr), chol_analysis(handle, -1, nnz, descr),
         chol_analysis(handle, n, -1, descr), chol_analysis(handle, 0, nnz, descr),
         chol_analysis(handle, n, nnz, symmetric));
  auto qr_analysis = [&](int m, int columns, cusparseMatDescr_t d) {
    return cusolverSpXcsrqrAnalysisHost(handle, m, columns, nnz, d, rows, cols, qr);
  };
  printf(" qr analysis: m < n %d n 0 %d symmetric %d\n", qr_analysis(n - 2, n, descr), qr_analysis(n, 0, descr),
         qr_analysis(n, n, symmetric));
  printf(" lu analysis: symmetric %d n 0 %d\n", cusolverSpXcsrluAnalysisHost(handle, n, nnz, symmetric, rows, cols, lu),
         cusolverSpXcsrluAnalysisHost(handle, 0, nnz, descr, rows, cols, lu));
  // Thresholds and tolerances out of range, on a good factorization.
  cusolverSpXcsrluAnalysisHost(handle, n, nnz, descr, rows, cols, lu);
  size_t internal = 0, workspace = 0;
  cusolverSpDcsrluBufferInfoHost(handle, n, nnz, descr, values, rows, cols, lu, &internal, &workspace);
  printf(" lu factor: threshold 2 %d threshold -1 %d",
         cusolverSpDcsrluFactorHost(handle, n, nnz, descr, values, rows, cols, lu, 2.0, buffer.data()),
         cusolverSpDcsrluFactorHost(handle, n, nnz, descr, values, rows, cols, lu, -1.0, buffer.data()));
  printf(" threshold 1 %d",
         cusolverSpDcsrluFactorHost(handle, n, nnz, descr, values, rows, cols, lu, 1.0, buffer.data()));
  int position = -7;
  printf(" zero pivot tol -1 %d", cusolverSpDcsrluZeroPivotHost(handle, lu, -1.0, &position));
  printf(" position %d\n", position);
  cusolverSpXcsrcholAnalysisHost(handle, n, nnz, descr, rows, cols, chol);
  cusolverSpDcsrcholBufferInfoHost(handle, n, nnz, descr, values, rows, cols, chol, &internal, &workspace);
  printf(" chol factor: symmetric %d",
         cusolverSpDcsrcholFactorHost(handle, n, nnz, symmetric, values, rows, cols, chol, buffer.data()));
  printf(" general %d", cusolverSpDcsrcholFactorHost(handle, n, nnz, descr, values, rows, cols, chol, buffer.data()));
  position = -7;
  printf(" zero pivot tol -1 %d", cusolverSpDcsrcholZeroPivotHost(handle, chol, -1.0, &position));
  printf(" position %d\n", position);
  cusolverSpDestroyCsrcholInfoHost(chol);
  cusolverSpDestroyCsrqrInfoHost(qr);
  cusolverSpDestroyCsrluInfoHost(lu);
  cusparseDestroyMatDescr(descr);
  cusparseDestroyMatDescr(symmetric);
}

// Last: the device's calls out of order (a device call on a factorization that is not there
// could fault).
void device_out_of_order(cusolverSpHandle_t handle) {
  printf("calls out of order (device)\n");
  const int n = 6;
  const Csr a = from_dense(n, n, spd(n));
  const int nnz = a.nnz();
  int* rows = upload(a.row_ptr);
  int* cols = upload(a.col_ind);
  double* values = upload(a.values);
  double* b = upload(std::vector<double>(n, 1));
  double* x = upload(std::vector<double>(n, 0));
  double* diag = upload(std::vector<double>(n, 0));
  void* buffer = nullptr;
  cudaMalloc(&buffer, 1 << 16);
  cusparseMatDescr_t descr = descriptor(0), symmetric = descriptor(0, CUSPARSE_MATRIX_TYPE_SYMMETRIC);
  size_t internal = 0, workspace = 0;
  int position = -7;
  {
    csrcholInfo_t info;
    cusolverSpCreateCsrcholInfo(&info);
    printf(" chol device: analysis n 0 %d symmetric %d",
           cusolverSpXcsrcholAnalysis(handle, 0, nnz, descr, rows, cols, info),
           cusolverSpXcsrcholAnalysis(handle, n, nnz, symmetric, rows, cols, info));
    printf(" buffer before analysis %d",
           cusolverSpDcsrcholBufferInfo(handle, n, nnz, descr, values, rows, cols, info, &internal, &workspace));
    printf(" factor before analysis %d\n",
           cusolverSpDcsrcholFactor(handle, n, nnz, descr, values, rows, cols, info, buffer));
    cusolverSpXcsrcholAnalysis(handle, n, nnz, descr, rows, cols, info);
    printf("  after analysis: factor %d",
           cusolverSpDcsrcholFactor(handle, n, nnz, descr, values, rows, cols, info, buffer));
    cusolverSpDcsrcholBufferInfo(handle, n, nnz, descr, values, rows, cols, info, &internal, &workspace);
    printf(" after buffer info: zero pivot %d", cusolverSpDcsrcholZeroPivot(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" solve %d", cusolverSpDcsrcholSolve(handle, n, b, x, info, buffer));
    printf(" diag %d\n", cusolverSpDcsrcholDiag(handle, info, diag));
    printf("  sync %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cusolverSpDestroyCsrcholInfo(info);
  }
  {
    csrqrInfo_t info;
    cusolverSpCreateCsrqrInfo(&info);
    printf(" qr device: analysis m < n %d", cusolverSpXcsrqrAnalysis(handle, n - 2, n, nnz, descr, rows, cols, info));
    printf(" buffer before analysis %d",
           cusolverSpDcsrqrBufferInfo(handle, n, n, nnz, descr, values, rows, cols, info, &internal, &workspace));
    printf(" factor before analysis %d\n", cusolverSpDcsrqrFactor(handle, n, n, nnz, nullptr, nullptr, info, buffer));
    cusolverSpXcsrqrAnalysis(handle, n, n, nnz, descr, rows, cols, info);
    printf("  after analysis: setup %d", cusolverSpDcsrqrSetup(handle, n, n, nnz, descr, values, rows, cols, 0, info));
    printf(" factor %d", cusolverSpDcsrqrFactor(handle, n, n, nnz, nullptr, nullptr, info, buffer));
    cusolverSpDcsrqrBufferInfo(handle, n, n, nnz, descr, values, rows, cols, info, &internal, &workspace);
    printf(" after buffer info: factor %d", cusolverSpDcsrqrFactor(handle, n, n, nnz, nullptr, nullptr, info, buffer));
    position = -7;
    printf(" zero pivot %d", cusolverSpDcsrqrZeroPivot(handle, info, 0, &position));
    printf(" position %d", position);
    printf(" solve %d\n", cusolverSpDcsrqrSolve(handle, n, n, b, x, info, buffer));
    printf("  sync %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cusolverSpDestroyCsrqrInfo(info);
  }
  for (void* p : {(void*)rows, (void*)cols, (void*)values, (void*)b, (void*)x, (void*)diag, buffer}) cudaFree(p);
  cusparseDestroyMatDescr(descr);
  cusparseDestroyMatDescr(symmetric);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // what was printed survives a crash of the library
  cusolverSpHandle_t handle;
  printf("create: %d\n", cusolverSpCreate(&handle));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  printf("set stream: %d\n", cusolverSpSetStream(handle, stream));
  printf("cholesky\n");
  cholesky<float>(handle);
  cholesky<double>(handle);
  cholesky<cuComplex>(handle);
  cholesky<cuDoubleComplex>(handle);
  cholesky_order(handle);
  printf("qr\n");
  qr<float>(handle);
  qr<double>(handle);
  qr<cuComplex>(handle);
  qr<cuDoubleComplex>(handle);
  qr_zero_pivots(handle);
  printf("lu\n");
  lu_all<float>(handle);
  lu_all<double>(handle);
  lu_all<cuComplex>(handle);
  lu_all<cuDoubleComplex>(handle);
  lu_zero_pivots(handle);
  host_out_of_order(handle);
  bad_arguments(handle);
  device_out_of_order(handle);
  printf("destroy: %d\n", cusolverSpDestroy(handle));
  cudaStreamDestroy(stream);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
